"""One test per card ability (spec section 10). Each case is scored twice: with the card face up
and with it flipped, so the difference is exactly what the card's ability is worth."""

from __future__ import annotations

import pytest

from arena.games.caper.cards import CATALOGUE, THIEVES, Good, Kind, deck
from arena.games.caper.cards import City as CityEnum
from arena.games.caper.scenario import flipped, one_location
from arena.games.caper.scoring import score

S = "The Smuggler"  # a Thief with no caper or point ability, to carry Gear

# (card, city, my stacks at location 0, opponent's stacks there, expected up, expected flipped)
CAPER_CASES = [
    ("The Actress", "paris", [["The Actress", "Skeleton Key", "Plasma Cutter", "Simple Disguise"]], [], 3, 2),
    ("The Barber", "paris", [["The Barber", "Skeleton Key", "Plasma Cutter"], [S, "Super Magnet", "Helping Hand"]], [], 2, 0),
    ("The Conductor", "paris", [["The Conductor", "Simple Disguise", "Helping Hand", "Grappling Gun"]], [], 3, 2),
    ("The Dame", "paris", [["The Dame", "Skeleton Key", "Helping Hand"]], [], 1, 0),
    ("The Mime", "paris", [["The Mime"]], [["The Banker"]], 1, 0),
    ("The Tourist", "paris", [["The Tourist", "Skeleton Key", "Plasma Cutter", "Super Magnet"], [S, "Helping Hand", "Smoke Screen", "Simple Disguise"]], [], 6, 4),
    ("The Artist", "paris", [["The Artist", "Helping Hand", "Suction Scalers"]], [], 2, 0),
    ("The Chef", "paris", [["The Chef", "Plans Cachés", "Skeleton Key", "Plans Cachés"]], [], 2, 1),
    ("The Don", "rome", [["The Don"]], [], 1, 0),
    ("The Boxer", "london", [["The Boxer", "Laundromatic", "Skeleton Key", "Plasma Cutter"]], [], 2, 1),
    ("Simple Disguise", "paris", [[S, "Simple Disguise"]], [], 1, 0),
    ("Smoke Screen", "paris", [[S, "Smoke Screen"]], [], 1, 0),
    ("Incognito Tuxedo", "paris", [[S, "Incognito Tuxedo", "Helping Hand", "Suction Scalers"]], [], 3, 1),
    ("False Documents", "paris", [[S, "False Documents", "Skeleton Key"]], [], 1, 0),
    ("Eavesdropper", "paris", [[S, "Eavesdropper"]], [["The Banker"], ["The Colonel"]], 2, 0),
    ("Secret Shades", "paris", [[S, "Secret Shades"]], [], 1, 0),
    ("Utility Belt", "rome", [[S, "Utility Belt", "Skeleton Key", "Plasma Cutter"]], [], 2, 1),
    ("Posto Segreto", "rome", [[S, "Posto Segreto", "Simple Disguise"]], [], 2, 1),
    ("Signal Jammer", "london", [[S, "Signal Jammer"]], [["The Banker", "Laundromatic", "Hollow Book"]], 2, 0),
    ("Hollow Book", "london", [[S, "Hollow Book"]], [], 1, 0),
]  # fmt: skip


@pytest.mark.parametrize(("card", "city", "mine", "theirs", "up", "down"), CAPER_CASES)
def test_caper_ability(card: str, city: str, mine: list[list[str]], theirs: list[list[str]], up: int, down: int) -> None:  # fmt: skip
    assert score(one_location(mine, theirs, city=city)).capers[0][0] == up
    assert score(one_location(flipped(mine, card), theirs, city=city)).capers[0][0] == down


# (card, city, mine, theirs, points category, expected up, expected flipped)
POINT_CASES = [
    ("The Banker", "paris", [["The Banker", "Skeleton Key", "Plasma Cutter"]], [], "thieves", 2, 0),
    ("The Bon Vivant", "paris", [["The Bon Vivant", "Helping Hand"]], [], "thieves", 1, 0),
    ("The Cleaner", "paris", [["The Cleaner"]], [[S, "Blazeblaster", "Blazeblaster"]], "thieves", 6, 0),
    ("The Colonel", "paris", [["The Colonel", "Simple Disguise", "Smoke Screen"]], [], "thieves", 2, 0),
    ("The Gentleman", "paris", [["The Gentleman", "Helping Hand", "Simple Disguise", "Skeleton Key"], [S, "Grappling Gun", "Smoke Screen", "Plasma Cutter"]], [], "thieves", 6, 0),
    ("The Mime", "paris", [["The Mime"]], [["The Banker"], ["The Colonel"]], "thieves", 2, 0),
    ("The Madame", "paris", [["The Madame"]], [[S, "Plans Cachés", "Aqua-Respirator"]], "thieves", 2, 0),
    ("The Don", "rome", [["The Don"]], [[S, "Utility Belt", "Velocé Wheels"]], "thieves", 2, 0),
    ("The Soprano", "rome", [["The Soprano", "Utility Belt", "Velocé Wheels"]], [], "thieves", 4, 0),
    ("The Bookie", "london", [["The Bookie", "Laundromatic"]], [], "thieves", 1, 0),
    ("The Royal", "london", [["The Royal", "Laundromatic", "Helping Hand"]], [[S, "Hollow Book", "Suction Scalers", "Grappling Gun"]], "thieves", 2, 0),
    ("Blaze Shield Suit", "paris", [[S, "Blaze Shield Suit"]], [[S, "Blazeblaster"]], "gear", 2, 0),
    ("Stealth Suit", "paris", [[S, "Stealth Suit", "Blazeblaster"]], [[S, "Blazeblaster"]], "gear", 3, 1),
    ("Smoke Screen", "paris", [[S, "Smoke Screen"]], [], "gear", 1, 0),
    ("Blazeblaster", "paris", [[S, "Blazeblaster"]], [], "gear", 1, 0),
    ("Plasma Cutter", "paris", [[S, "Plasma Cutter"]], [], "gear", 1, 0),
    ("Plans Cachés", "paris", [[S, "Plans Cachés", "Plans Cachés", "Secret Shades"]], [], "gear", 6, 0),
]  # fmt: skip


@pytest.mark.parametrize(("card", "city", "mine", "theirs", "category", "up", "down"), POINT_CASES)
def test_point_ability(card: str, city: str, mine: list[list[str]], theirs: list[list[str]], category: str, up: int, down: int) -> None:  # fmt: skip
    assert score(one_location(mine, theirs, city=city)).breakdown[0][category] == up
    assert (
        score(one_location(flipped(mine, card), theirs, city=city)).breakdown[0][category] == down
    )


def test_plans_caches_counts_itself_and_each_copy_scores_separately() -> None:
    mine = [[S, "Plans Cachés", "Plans Cachés", "Secret Shades"]]
    # Two copies, each counting the 3 light blue Gear (themselves included): 3 + 3.
    assert score(one_location(mine)).breakdown[0]["gear"] == 6
    one_down = [[S, "~Plans Cachés", "Plans Cachés", "Secret Shades"]]
    assert score(one_location(one_down)).breakdown[0]["gear"] == 2


def test_auctioneer_counts_every_stolen_good_including_rewards() -> None:
    # Simple Disguise wins The Louvre (1 caper to 0): a Painting, plus the Jewel of Helping Hand.
    mine = [["The Auctioneer", "Helping Hand", "Simple Disguise"]]
    sheet = score(one_location(mine, location="The Louvre"))
    assert sorted(sheet.goods[0]) == sorted([Good.JEWEL, Good.PAINTING])
    assert sheet.breakdown[0]["thieves"] == 2
    assert score(one_location(flipped(mine, "The Auctioneer"), location="The Louvre")).breakdown[0]["thieves"] == 0  # fmt: skip


def test_laundromatic_scores_one_point_per_laundered_coin_each() -> None:
    mine = [[S, "Laundromatic", "Laundromatic"]]
    state = one_location(mine, city="london", laundered=(3, 0))
    assert score(state).breakdown[0]["gear"] == 6  # two Laundromatics x 3 coins
    state = one_location(flipped(mine, "Laundromatic"), city="london", laundered=(3, 0))
    assert score(state).breakdown[0]["gear"] == 0


@pytest.mark.parametrize(
    ("card", "city", "good"),
    [
        ("Helping Hand", "paris", Good.JEWEL),
        ("Suction Scalers", "paris", Good.PAINTING),
        ("Grappling Gun", "paris", Good.ANTIQUE),
        ("Blaze Shield Suit", "paris", Good.JEWEL),
        ("Briefcase", "paris", Good.PAINTING),
        ("Stealth Suit", "paris", Good.ANTIQUE),
        ("Aqua-Respirator", "paris", Good.WILD),
    ],
)
def test_gear_gives_its_stolen_good(card: str, city: str, good: Good) -> None:
    mine = [["The Colonel", card]]  # not the Smuggler: its own Wild would muddle the count
    assert score(one_location(mine, city=city)).goods[0] == (good,)
    assert score(one_location(flipped(mine, card), city=city)).goods[0] == ()


def test_smuggler_gives_a_wild_stolen_good() -> None:
    assert score(one_location([[S]])).goods[0] == (Good.WILD,)
    assert score(one_location([["~" + S]])).goods[0] == ()


def test_catalogue_counts_match_the_box() -> None:
    kinds = [card.kind for card in CATALOGUE.values()]
    assert kinds.count(Kind.LOCATION) == 23
    assert sum(card.copies for card in CATALOGUE.values() if card.kind is Kind.THIEF) == 24
    assert sum(card.copies for card in CATALOGUE.values() if card.kind is Kind.GEAR) == 48
    for city in (CityEnum.PARIS, CityEnum.ROME, CityEnum.LONDON):
        assert len(deck(Kind.LOCATION, city)) == 13
        assert len(deck(Kind.THIEF, city)) == 18  # exactly 4+3+2 per player
        assert len(deck(Kind.GEAR, city)) == 36  # exactly 6+6+6 per player


def test_r8_incomes_follow_the_catalogue_reading() -> None:
    """R8: each printed income belongs to the Thief listed above it; none means 0."""
    incomes = {card.name: card.income for card in THIEVES}
    assert incomes == {
        "The Actress": 1, "The Auctioneer": 0, "The Banker": 2, "The Barber": 0,
        "The Bon Vivant": 3, "The Cleaner": 0, "The Colonel": 2, "The Conductor": 1,
        "The Dame": 1, "The Gentleman": 1, "The Illusionist": 1, "The Mime": 0, "The Saint": 3,
        "The Smuggler": 1, "The Tourist": 1, "The Artist": 0, "The Chef": 0, "The Madame": 0,
        "The Don": 0, "The Driver": 1, "The Soprano": 0, "The Bookie": 3, "The Boxer": 2,
        "The Royal": 0,
    }  # fmt: skip
