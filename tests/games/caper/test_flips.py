"""Flipping and protection (section 6) and the rulings R4 and R5."""

from __future__ import annotations

from typing import Any

import pytest

from arena.games.api import IllegalActionError
from arena.games.caper.rules import apply, legal_actions
from arena.games.caper.scenario import one_location
from arena.games.caper.scoring import score
from arena.games.caper.state import Action, ActionKind, parse_action

B = "The Banker"


def blazeblaster_targets(theirs: Any, location: str = "The Gala", city: str = "paris", mine: Any = ((B,),)) -> list[int]:  # fmt: skip
    state = one_location(mine, theirs, location=location, city=city, round=2, to_move=0, coins=(5, 0), hands=(("Blazeblaster",), ("Skeleton Key",)))  # fmt: skip
    return sorted({a.target for a in legal_actions(state) if a.kind is ActionKind.GEAR and a.location == 0})  # fmt: skip


def illusionist_targets(theirs: Any, location: str = "The Gala") -> list[int]:
    state = one_location((), theirs, location=location, round=1, to_move=0, hands=(("The Illusionist",), ()))  # fmt: skip
    return sorted({a.target for a in legal_actions(state) if a.location == 0})


def test_blazeblaster_flips_only_the_topmost_gear_of_a_thief() -> None:
    state = one_location([[B]], [[B, "Helping Hand", "Skeleton Key"], ["The Colonel"]], round=2, to_move=0, coins=(5, 0), hands=(("Blazeblaster",), ("Plasma Cutter",)))  # fmt: skip
    after = apply(state, parse_action("gear Blazeblaster at 0/0 flip 0"))
    assert [flipped for _, flipped in after.board[1][0][0]] == [False, False, True]
    assert after.board[1][0][1] == state.board[1][0][1]


def test_blazeblaster_cannot_flip_a_thief_with_no_gear() -> None:
    assert blazeblaster_targets([["The Colonel"], [B, "Skeleton Key"]]) == [1]


def test_a_flipped_topmost_card_shields_everything_below_it() -> None:
    assert blazeblaster_targets([[B, "Helping Hand", "~Skeleton Key"]]) == [-1]
    assert illusionist_targets([["~The Colonel"]]) == [-1]


def test_r4_a_flip_is_mandatory_when_a_target_exists() -> None:
    """R4: with a legal target the player must choose one; without, the effect does nothing."""
    state = one_location([[B]], [[B, "Skeleton Key"]], round=2, to_move=0, coins=(5, 0), hands=(("Blazeblaster",), ("Plasma Cutter",)))  # fmt: skip
    plays = [a for a in legal_actions(state) if a.kind is ActionKind.GEAR and a.location == 0]
    assert plays == [Action(ActionKind.GEAR, "Blazeblaster", 0, 0, 0)]
    with pytest.raises(
        IllegalActionError, match=r"must flip one of the opponent's Thieves 0 \(R4\)"
    ):
        apply(state, Action(ActionKind.GEAR, "Blazeblaster", 0, 0))
    nothing = one_location([[B]], [["The Colonel"]], round=2, to_move=0, coins=(5, 0), hands=(("Blazeblaster",), ("Plasma Cutter",)))  # fmt: skip
    after = apply(nothing, Action(ActionKind.GEAR, "Blazeblaster", 0, 0))
    assert after.board[1] == nothing.board[1]


def test_illusionist_flips_an_opponent_thief_with_no_gear() -> None:
    assert illusionist_targets([["The Colonel"], [B, "Skeleton Key"], ["The Mime"]]) == [0, 2]
    state = one_location((), [["The Mime"]], round=1, to_move=0, hands=(("The Illusionist",), ()))
    after = apply(state, parse_action("thief The Illusionist at 0 flip 0"))
    assert after.board[1][0][0][0][1] is True
    assert score(after).capers[1][0] == 0  # a flipped Mime gives no caper


def test_chapel_protects_thieves_there() -> None:
    assert illusionist_targets([["The Colonel"]], location="The Chapel") == [-1]
    assert blazeblaster_targets([[B, "Skeleton Key"]], location="The Chapel") == [0]  # Gear is not


def test_saint_protects_its_owners_green_gear_at_its_location() -> None:
    assert blazeblaster_targets([["The Saint", "Helping Hand"], [B, "Suction Scalers"]]) == [-1]
    assert blazeblaster_targets([["The Saint", "Skeleton Key"]]) == [0]  # only green Gear


@pytest.mark.parametrize("protector", ["Briefcase", "Hollow Book"])
def test_gear_that_protects_green_gear(protector: str) -> None:
    city = "london" if protector == "Hollow Book" else "paris"
    assert blazeblaster_targets([[B, protector, "Helping Hand"]], city=city) == [-1]
    assert blazeblaster_targets([[B, protector, "Skeleton Key"]], city=city) == [0]


def test_briefcase_protects_itself() -> None:
    assert blazeblaster_targets([[B, "Briefcase"]]) == [-1]


def test_hollow_book_protects_green_not_dark_green() -> None:
    assert blazeblaster_targets([[B, "Hollow Book", "Laundromatic"]], city="london") == [0]


def test_moulin_rouge_protects_green_gear_of_both_players() -> None:
    assert blazeblaster_targets([[B, "Helping Hand"]], location="Moulin Rouge") == [-1]


def test_a_flipped_protector_no_longer_protects() -> None:
    assert blazeblaster_targets([["~The Saint", "Helping Hand"]]) == [0]


def test_cards_may_be_played_on_top_of_flipped_cards() -> None:
    state = one_location([[B, "~Helping Hand"]], round=2, to_move=0, coins=(5, 0), hands=(("Skeleton Key",), ("Plasma Cutter",)))  # fmt: skip
    assert Action(ActionKind.GEAR, "Skeleton Key", 0, 0) in legal_actions(state)


def test_flipped_gear_counts_toward_the_three_gear_limit() -> None:
    state = one_location([[B, "~Helping Hand", "~Skeleton Key", "~Plasma Cutter"]], round=2, to_move=0, coins=(5, 0), hands=(("Skeleton Key",), ("Plasma Cutter",)))  # fmt: skip
    assert all(a.location != 0 for a in legal_actions(state) if a.kind is ActionKind.GEAR)
    with pytest.raises(IllegalActionError, match="already carries 3 Gear"):
        apply(state, Action(ActionKind.GEAR, "Skeleton Key", 0, 0))


def test_full_equipment_bonus_counts_flipped_cards() -> None:
    all_down = [["~The Colonel", "~Helping Hand", "~Skeleton Key", "~Plasma Cutter"]]
    assert score(one_location(all_down)).capers[0][0] == 1
    assert score(one_location([["The Colonel", "Helping Hand", "Skeleton Key"]])).capers[0][0] == 0


def test_r5_flipping_never_undoes_what_a_card_already_did() -> None:
    """R5: coins a flipped card gained stay gained; laundered coins stay laundered."""
    theirs = [[B, "Laundromatic", "Skeleton Key"]]
    state = one_location([[B]], theirs, city="london", round=2, to_move=0, coins=(2, 4), laundered=(0, 1), hands=(("Blazeblaster",), ("Plasma Cutter",)))  # fmt: skip
    after = apply(state, parse_action("gear Blazeblaster at 0/0 flip 0"))
    assert after.board[1][0][0][-1][1] is True
    assert after.coins[1] == 4
    assert after.laundered == (0, 1)


def test_flipped_gear_has_no_colour_but_is_still_gear() -> None:
    # The Tourist counts Gear of any colour (flipped too); The Artist counts only green.
    mine = [["The Tourist", "~Helping Hand", "Helping Hand", "~Suction Scalers"], ["The Artist"]]
    sheet = score(one_location(mine))
    assert sheet.capers[0][0] == 1 + 1 + 1  # Tourist set + Artist's one face-up green + full
