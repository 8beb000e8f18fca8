"""Every Location's Reward and caper Modifier (spec 10.3). Seat 0 wins location 0 in each case,
so the "locations" category of its score is exactly that Reward."""

from __future__ import annotations

import pytest

from arena.games.caper.cards import Good
from arena.games.caper.scenario import one_location
from arena.games.caper.scoring import score

S, B, D = "The Smuggler", "The Banker", "Simple Disguise"

# (location, city, my stacks, opponent's stacks, reward points, all of seat 0's stolen goods)
REWARDS = [
    (
        "Antique Shop",
        "paris",
        [[S, D, "Skeleton Key", "Helping Hand"]],
        [],
        6,
        (
            Good.WILD,
            Good.JEWEL,
        ),
    ),
    (
        "Art Gallery",
        "paris",
        [[S, D, "Helping Hand"]],
        [],
        6,
        (
            Good.WILD,
            Good.JEWEL,
        ),
    ),
    ("The Bank", "paris", [[S, D, "Skeleton Key"]], [], 6, (Good.WILD,)),
    ("The Casino", "paris", [[S, D], [B]], [], 7, (Good.WILD,)),
    ("The Chapel", "paris", [[S, D], [B]], [], 7, (Good.WILD,)),
    ("The Gala", "paris", [[S, D, "Smoke Screen"]], [], 7, (Good.WILD,)),
    (
        "The Museum",
        "paris",
        [[S, D, "Helping Hand"]],
        [],
        6,
        (
            Good.WILD,
            Good.JEWEL,
        ),
    ),
    ("The Yacht", "paris", [[S, D, "Skeleton Key"]], [], 6, (Good.WILD,)),
    (
        "Eiffel Tower",
        "paris",
        [[S, D, "Helping Hand"]],
        [],
        5,
        (
            Good.WILD,
            Good.JEWEL,
        ),
    ),  # 3 + Wild + Jewel
    (
        "The Louvre",
        "paris",
        [[S, D]],
        [],
        5,
        (
            Good.WILD,
            Good.PAINTING,
        ),
    ),
    (
        "Moulin Rouge",
        "paris",
        [[S, D]],
        [],
        4,
        (
            Good.WILD,
            Good.WILD,
        ),
    ),
    (
        "Notre Dame",
        "paris",
        [[S, D]],
        [],
        5,
        (
            Good.WILD,
            Good.ANTIQUE,
        ),
    ),
    (
        "Versailles",
        "paris",
        [[S, D]],
        [],
        5,
        (
            Good.WILD,
            Good.JEWEL,
        ),
    ),
    ("Colosseum", "rome", [[S, D]], [[B, "Skeleton Key", "Plasma Cutter"]], 4, (Good.WILD,)),
    ("Pantheon", "rome", [[S, D, "Smoke Screen"]], [[B, "Skeleton Key"]], 7, (Good.WILD,)),
    ("Trastevere", "rome", [[S, D, "Smoke Screen"]], [[B, D]], 7, (Good.WILD,)),
    ("Trevi Fountain", "rome", [[S, D, "Utility Belt", "Velocé Wheels"]], [], 7, (Good.WILD,)),
    ("The Vatican", "rome", [[S, D, "Smoke Screen"]], [[B, "Helping Hand"]], 7, (Good.WILD,)),
    ("Big Ben", "london", [[S, D]], [[B, "Skeleton Key"]], 4, (Good.WILD,)),
    (
        "The British Museum",
        "london",
        [[S, D, "Helping Hand"]],
        [[B, "Suction Scalers"]],
        5,
        (
            Good.WILD,
            Good.JEWEL,
        ),
    ),
    ("Oxford Street", "london", [[S, D]], [[B], ["The Colonel"]], 8, (Good.WILD,)),
    (
        "Piccadilly Circus",
        "london",
        [[S, D, "Skeleton Key"]],
        [[B, "Plasma Cutter"]],
        5,
        (Good.WILD,),
    ),
    ("Tower of London", "london", [[S, D]], [[B]], 4, (Good.WILD,)),
]


@pytest.mark.parametrize(("location", "city", "mine", "theirs", "points", "goods"), REWARDS)
def test_location_reward(
    location: str,
    city: str,
    mine: list[list[str]],
    theirs: list[list[str]],
    points: int,
    goods: tuple[Good, ...],
) -> None:
    sheet = score(one_location(mine, theirs, location=location, city=city))
    assert sheet.winners[0] == 0
    assert sheet.breakdown[0]["locations"] == points
    assert sheet.breakdown[1]["locations"] == 0
    assert sorted(sheet.goods[0]) == sorted(goods)  # the Smuggler's Wild is always among them


@pytest.mark.parametrize(
    ("location", "colour_card"),
    [("Pantheon", "Skeleton Key"), ("Trastevere", D), ("The Vatican", "Helping Hand")],
)
def test_rome_location_adds_a_caper_per_gear_of_its_colour_to_each_crew(
    location: str, colour_card: str
) -> None:
    state = one_location(
        [[S, colour_card, colour_card]], [[B, colour_card]], location=location, city="rome"
    )
    own = 2 if colour_card == D else 0  # Simple Disguise's own caper each
    assert score(state).capers[0][0] == 2 + own
    assert score(state).capers[1][0] == 1 + own // 2
    flipped = one_location([[S, "~" + colour_card]], location=location, city="rome")
    assert score(flipped).capers[0][0] == 0  # a flipped Gear has no colour


def test_a_location_tie_is_won_by_nobody() -> None:
    sheet = score(one_location([[S, D]], [[B, D]], location="The Bank"))
    assert sheet.capers[0][0] == sheet.capers[1][0] == 1
    assert sheet.winners[0] is None
    assert sheet.breakdown[0]["locations"] == sheet.breakdown[1]["locations"] == 0


def test_the_loser_of_a_location_gets_nothing_from_it() -> None:
    sheet = score(one_location([[S, D, D]], [[B, D]], location="The Louvre"))
    assert sheet.winners[0] == 0
    assert sheet.breakdown[1]["locations"] == 0
    assert Good.PAINTING not in sheet.goods[1]
