"""Named random streams (spec section 22.7): deterministic, independent of each other, immutable."""

from __future__ import annotations

from collections import Counter

import pytest

from arena.games.age_of_thieves.streams import STREAMS, Streams
from arena.games.api import GameError


def rolls(streams: Streams, name: str, n: int) -> tuple[list[int], Streams]:
    found = []
    for _ in range(n):
        value, streams = streams.roll(name)
        found.append(value)
    return found, streams


def test_the_same_seed_gives_the_same_draws() -> None:
    assert rolls(Streams(7), "dice.guard", 20)[0] == rolls(Streams(7), "dice.guard", 20)[0]
    assert rolls(Streams(7), "dice.guard", 20)[0] != rolls(Streams(8), "dice.guard", 20)[0]


def test_drawing_from_one_stream_shifts_no_other() -> None:
    """22.7: adding a feature that draws from its own stream must not change the others."""
    plain = Streams(42)
    deck = tuple(range(70))
    expected, _ = plain.shuffle("deck.action", deck)
    _, busy = rolls(plain, "dice.guard", 13)
    _, busy = busy.choice("policy.yellow_jewel", ["N40", "N41"])
    assert busy.shuffle("deck.action", deck)[0] == expected
    assert busy.draws("dice.guard") == 13 and busy.draws("deck.action") == 0


def test_streams_are_values_a_draw_leaves_unchanged() -> None:
    start = Streams(3)
    first, after = start.roll("dice.guard")
    assert start.used == () and after.used == (("dice.guard", 1),)
    assert start.roll("dice.guard")[0] == first  # replaying from a kept state repeats it
    second = [after.roll("dice.guard")[0] for _ in range(3)]
    assert len(set(second)) == 1


def test_rolls_are_d8_and_shuffles_are_permutations() -> None:
    found, _ = rolls(Streams(1), "dice.guard", 800)
    assert set(Counter(found)) == set(range(1, 9))
    shuffled, _ = Streams(1).shuffle("tiles.city", list(range(51)))
    assert sorted(shuffled) == list(range(51)) and shuffled != tuple(range(51))


def test_every_stream_of_the_spec_and_policy_streams_are_known_and_others_refused() -> None:
    assert {"setup.thieves", "deck.calm", "deck.district", "tiles.city"} <= STREAMS
    assert len(STREAMS) == 8
    Streams(0).roll("policy.start_field")
    with pytest.raises(GameError, match=r"unknown random stream 'dice\.gaurd'"):
        Streams(0).roll("dice.gaurd")
    with pytest.raises(GameError, match=r"unknown random stream 'policy\.'"):
        Streams(0).roll("policy.")
    with pytest.raises(GameError, match="nothing to choose from"):
        Streams(0).choice("policy.x", [])
