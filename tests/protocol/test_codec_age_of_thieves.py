"""Age of Thieves on the wire: exact round trips of every seat's view and every legal action over
whole games, every seat's encoded view carries nothing it may not see (spec 22.7: hands, plans
before the reveal, face-down city tiles), and clear errors for malformed messages."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from arena import codec
from arena.games.age_of_thieves.game import AGE_OF_THIEVES as GAME
from arena.games.age_of_thieves.observation import planning, resample_hidden
from arena.games.age_of_thieves.state import VERBS, Action, State
from arena.games.api import InvalidActionError
from arena.v1 import age_of_thieves_pb2 as pb
from arena.v1 import game_pb2
from tests.games.age_of_thieves.helpers import eager

PLAYERS = (2, 3, 4)


# by number of players, a seed whose game of eager players reaches the alarm and an escape
EAGER = {2: 2, 3: 4, 4: 1}


def games(players: int) -> list[tuple[int, frozenset[int]]]:
    return [(EAGER[players], frozenset(range(4))), (0, frozenset()), (1, frozenset({0}))]


def _game(players: int, seed: int, eager_seats: frozenset[int]) -> Iterator[State]:
    """Every state of one game (the final one included): `eager_seats` head for the Emperor's
    Jewel and the exits (so alarm, escapes and thefts happen), the others play at random (their
    plans hold general cards, which a seat may not see)."""
    rng = random.Random(seed)
    state = GAME.create({"players": players}, seed)
    yield state
    while not GAME.is_terminal(state):
        seat = GAME.current_player(state)
        assert seat is not None
        legal = GAME.legal_actions(state)
        state = GAME.apply(state, eager(state, rng) if seat in eager_seats else rng.choice(legal))
        yield state


def _wire(message: Any) -> Any:
    return type(message).FromString(message.SerializeToString())


def _bytes(state: State, seat: int) -> bytes:
    obs = GAME.observation(state, seat)
    return codec.observation_to_proto(obs).SerializeToString(deterministic=True)


@pytest.mark.parametrize("players", PLAYERS)
def test_every_view_and_every_legal_action_round_trip_exactly(players: int) -> None:
    alarm = escaped = over = 0
    for seed, eager_seats in games(players):
        for state in _game(players, seed, eager_seats):
            for seat in range(players):
                obs = GAME.observation(state, seat)
                assert codec.observation_from_proto(_wire(codec.observation_to_proto(obs))) == obs
            legal = GAME.legal_actions(state)
            for action, wire in zip(legal, codec.legal_actions_to_proto(GAME, legal), strict=True):
                wire = _wire(wire)
                assert codec.action_from_proto(GAME, wire.action) == action
                assert GAME.parse_action(wire.text) == action
            alarm += state.status == "alarm"
            escaped += any(not t.on_board for t in state.thieves)
            over += GAME.is_terminal(state)
    assert alarm and escaped and over == 3  # the trips saw the late game too


@pytest.mark.parametrize("players", PLAYERS)
def test_the_wire_carries_nothing_a_seat_may_not_see(players: int) -> None:
    """22.7: for every seat, the encoded view is the same byte for byte when everything it may
    not see is drawn anew (other hands, other plans before the reveal and unresolved cards after
    it, face-down tiles it has not peeked at, every deck's order), as the engine resamples."""
    for seat in range(players):
        rng = random.Random(seat)
        hands = plans = tiles = 0
        for seed, eager_seats in games(players):
            for state in _game(players, seed, eager_seats):
                other = resample_hidden(state, seat, rng)
                assert _bytes(other, seat) == _bytes(state, seat)
                others = [s for s in range(players) if s != seat]
                hands += any(other.thief(s).hand != state.thief(s).hand for s in others)
                plans += planning(state) and any(
                    other.thief(s).plan != state.thief(s).plan for s in others
                )
                tiles += other.tiles != state.tiles
        assert hands > 20 and plans > 20 and tiles > 20  # the hidden parts really changed


def test_a_seat_sees_its_own_hand_and_plan_and_only_counts_of_the_others() -> None:
    state = next(
        s for s in _game(3, 2, frozenset()) if planning(s) and s.thief(1).plan and s.thief(2).plan
    )
    wire = game_pb2.Observation.FromString(_bytes(state, 1)).age_of_thieves
    assert list(wire.hand) == list(state.thief(1).hand)
    assert [p.card for p in wire.plan] == [p.card for p in state.thief(1).plan]
    assert wire.thieves[1].HasField("pool") and wire.thieves[1].HasField("spent")
    for seat in (0, 2):
        assert not wire.thieves[seat].plan  # hidden behind the screen until the reveal
        assert not wire.thieves[seat].HasField("pool")
        assert not wire.thieves[seat].HasField("spent")
    assert list(wire.face_down_tiles) == [space for space, _ in state.tiles]


def test_to_move_and_the_current_step_are_absent_once_the_game_is_over() -> None:
    *_, final = _game(2, EAGER[2], frozenset({0, 1}))
    wire = codec.observation_to_proto(GAME.observation(final, 0)).age_of_thieves
    assert wire.over and not wire.HasField("to_move") and not wire.HasField("prompt_task")


def test_every_engine_verb_has_a_wire_verb() -> None:
    for verb in VERBS:
        action = Action(verb, "N34" if verb != "done" else "")
        assert codec.action_from_proto(GAME, codec.action_to_proto(GAME, action)) == action


def _action(verb: int, arg: str = "") -> game_pb2.Action:
    wire = pb.AgeOfThievesAction(verb=pb.AgeOfThievesVerb.ValueType(verb), arg=arg)
    return game_pb2.Action(age_of_thieves=wire)


@pytest.mark.parametrize(
    ("message", "error"),
    [
        (_action(pb.AGE_OF_THIEVES_VERB_UNSPECIFIED), "verb is AGE_OF_THIEVES_VERB_UNSPECIFIED"),
        (_action(99, "N34"), "verb is 99 \\(unknown\\)"),
        (_action(pb.AGE_OF_THIEVES_VERB_STEP, "N34 N35"), "has no spaces"),
        (_action(pb.AGE_OF_THIEVES_VERB_STEP, " N34"), "has no spaces"),
        (_action(pb.AGE_OF_THIEVES_VERB_STEP, "N3\x004"), "one argument"),
        (game_pb2.Action(), "needs Action.age_of_thieves, got an Action with no game set"),
    ],
)
def test_malformed_actions_are_refused_clearly(message: game_pb2.Action, error: str) -> None:
    with pytest.raises(InvalidActionError, match=error):
        codec.action_from_proto(GAME, message)


def _observation(**changes: Any) -> game_pb2.Observation:
    wire = codec.observation_to_proto(GAME.observation(GAME.create({"players": 3}, 0), 0))
    for name, value in changes.items():
        setattr(wire.age_of_thieves, name, value)
    return wire


@pytest.mark.parametrize(
    ("message", "error"),
    [
        (_observation(players=5), "2, 3 or 4 players"),
        (_observation(players=2), "one thief per player \\(2\\), this one has 3"),
        (_observation(seat=3), "seat 3 is not one of the 3 seats"),
        (_observation(status=7), "unknown Age of Thieves guard status 7"),
    ],
)
def test_malformed_observations_are_refused_clearly(
    message: game_pb2.Observation, error: str
) -> None:
    with pytest.raises(codec.CodecError, match=error):
        codec.observation_from_proto(message)


def test_an_unknown_jewel_or_card_status_is_refused_clearly() -> None:
    wire = _observation()
    wire.age_of_thieves.jewels[0].kind = pb.AgeOfThievesJewelKind.ValueType(9)
    with pytest.raises(codec.CodecError, match="unknown Age of Thieves jewel kind 9"):
        codec.observation_from_proto(wire)
    wire = _observation()
    wire.age_of_thieves.plan.add(card="B01", status=0)
    with pytest.raises(codec.CodecError, match="unknown Age of Thieves card status 0"):
        codec.observation_from_proto(wire)
