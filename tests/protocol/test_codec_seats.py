"""Caper with 3 and 4 players on the wire (section 12): every seat's encoded view carries what that
seat may see and nothing more (V4, V9), the Snitch's GIVE and the Lookouts' SEND, and clear errors
for malformed ones."""

from __future__ import annotations

import random
from typing import Any

import pytest

from arena import codec
from arena.games.api import InvalidActionError
from arena.games.caper import CAPER, Action, ActionKind, State
from arena.games.caper.observation import observe, resample_hidden
from arena.games.caper.state import SNITCH
from arena.v1 import caper_pb2, game_pb2

SEATS = [(3, 0), (3, 1), (3, 2), (4, 0), (4, 1), (4, 2), (4, 3)]


def _states(players: int, seed: int, city: str = "paris") -> list[State]:
    rng = random.Random(seed)
    states = [CAPER.create({"city": city, "players": players}, seed)]
    while not CAPER.is_terminal(states[-1]):
        states.append(CAPER.apply(states[-1], rng.choice(CAPER.legal_actions(states[-1]))))
    return states


def _wire_bytes(state: State, seat: int) -> bytes:
    return codec.observation_to_proto(observe(state, seat)).SerializeToString(deterministic=True)


def _own_hand(state: State, seat: int) -> list[str]:
    if state.players == 3 and seat == SNITCH:
        drawn = state.snitch_deck[:2] if state.to_move == SNITCH else ()
        return sorted(card.name for card in drawn)
    hands = (*state.hands, *state.lookout_hands)
    return sorted(card.name for card in hands[seat])


@pytest.mark.parametrize(("players", "seat"), SEATS)
def test_v4_v9_the_wire_carries_nothing_a_seat_may_not_see(players: int, seat: int) -> None:
    """The encoded view is the same byte for byte whatever the seat cannot see is: every hand,
    Snitch-deck card and deck order hidden from it dealt anew (the engine's own test of V4/V9
    resamples the same way)."""
    rng = random.Random(seat)
    changed = 0
    for seed in (40 + seat, 70 + seat):
        for state in _states(players, seed, "rome" if seed % 2 else "london"):
            other = resample_hidden(state, seat, rng)
            assert _wire_bytes(other, seat) == _wire_bytes(state, seat)
            changed += other.hands != state.hands or other.lookout_hands != state.lookout_hands
    assert changed > 40  # hidden hands really were dealt anew


@pytest.mark.parametrize(("players", "seat"), SEATS)
def test_each_seat_gets_its_own_hand_and_never_another_seats(players: int, seat: int) -> None:
    roles = {(3, 2): "snitch", (4, 2): "lookout", (4, 3): "lookout"}
    for state in _states(players, seat):
        caper = game_pb2.Observation.FromString(_wire_bytes(state, seat)).caper
        assert caper.seat == seat and caper.players == players
        assert caper.role == roles.get((players, seat), "mastermind")
        assert sorted(caper.hand) == _own_hand(state, seat)
        assert not caper.HasField("opponent_hand")  # V4, V9: nobody sees another hand
        sizes = [len(hand) for hand in (*state.hands, *state.lookout_hands)][:players]
        if players == 3:
            sizes[SNITCH] = len(_own_hand(state, SNITCH))
        assert list(caper.hand_sizes) == sizes


def test_the_new_fields_reach_the_wire() -> None:
    """The round trips of test_codec.py see passes, returns and the Snitch deck."""
    passed = received = snitch_deck = 0
    for players in (3, 4):
        for state in _states(players, 1):
            for seat in range(players):
                caper = codec.observation_to_proto(observe(state, seat)).caper
                passed += len(caper.passed) > 0
                received += len(caper.received) > 0
                snitch_deck += caper.snitch_deck_size > 0
    assert passed > 0 and received > 0 and snitch_deck > 0


def test_a_give_and_a_send_round_trip_with_both_cards() -> None:
    give = Action(ActionKind.GIVE, "The Dame", other="The Mime")
    wire = codec.action_to_proto(CAPER, give)
    assert wire.caper.kind == caper_pb2.CAPER_ACTION_KIND_GIVE and wire.caper.other == "The Mime"
    assert (
        codec.action_from_proto(CAPER, game_pb2.Action.FromString(wire.SerializeToString())) == give
    )
    send = Action(ActionKind.SEND, "Skeleton Key", other="Skeleton Key")
    assert codec.action_from_proto(CAPER, codec.action_to_proto(CAPER, send)) == send


GIVE, SEND = caper_pb2.CAPER_ACTION_KIND_GIVE, caper_pb2.CAPER_ACTION_KIND_SEND
THIEF = caper_pb2.CAPER_ACTION_KIND_THIEF


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"kind": GIVE, "card": "The Dame"}, "GIVE action is missing other"),
        ({"kind": SEND, "other": "The Dame"}, "SEND action is missing card"),
        (
            {"kind": GIVE, "card": "The Dame", "other": "The Mime", "location": 0},
            "GIVE action takes no location",
        ),
        ({"kind": SEND, "card": "The Dame", "other": "No Such Card"}, "unknown card 'No Such"),
        (
            {"kind": THIEF, "card": "The Dame", "location": 0, "other": "The Mime"},
            "THIEF action takes no other",
        ),
    ],
)
def test_malformed_gives_and_sends_are_refused(fields: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidActionError, match=message):
        codec.action_from_proto(CAPER, game_pb2.Action(caper=caper_pb2.CaperAction(**fields)))


def test_an_observation_from_an_older_arena_reads_as_two_players() -> None:
    obs = CAPER.observation(CAPER.create({}, 3), 1)
    wire = codec.observation_to_proto(obs)
    wire.caper.ClearField("players")
    wire.caper.ClearField("role")
    assert codec.observation_from_proto(wire) == obs


def test_an_observation_with_five_players_is_refused() -> None:
    wire = codec.observation_to_proto(CAPER.observation(CAPER.create({}, 3), 0))
    wire.caper.players = 5
    with pytest.raises(codec.CodecError, match="2, 3 or 4 players, this one has 5"):
        codec.observation_from_proto(wire)
