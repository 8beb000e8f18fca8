"""The engine ⇄ wire codec for Caper: Europe: every observation and every legal action of many
random games survives a trip through bytes exactly, and malformed actions are refused clearly."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena import codec
from arena.games.api import IllegalActionError, InvalidActionError
from arena.games.caper_europe import CAPER_EUROPE, Action, ActionKind, Good, State
from arena.games.caper_europe.state import NONE
from arena.v1 import bot_pb2, caper_europe_pb2, caper_pb2, game_pb2

GAME = CAPER_EUROPE
CITIES = ("paris", "barcelona", "rome", "london")
SEEDS = range(8)


def _random_game(city: str, seed: int) -> Iterator[State]:
    """Every state of one random playout, the final one included."""
    rng = random.Random(seed)
    state = GAME.create({"city": city}, seed)
    yield state
    while not GAME.is_terminal(state):
        state = GAME.apply(state, rng.choice(GAME.legal_actions(state)))
        yield state


def _final_state(city: str = "london", seed: int = 0) -> State:
    *_, final = _random_game(city, seed)
    return final


def _wire(message: Any) -> Any:
    """`message` after a trip through bytes, as the other end of a stream receives it."""
    return type(message).FromString(message.SerializeToString())


def _action(**fields: Any) -> game_pb2.Action:
    return game_pb2.Action(caper_europe=caper_europe_pb2.CaperEuropeAction(**fields))


def _check_state(state: State) -> None:
    for seat in (0, 1):
        obs = GAME.observation(state, seat)
        wire = _wire(codec.observation_to_proto(obs))
        assert wire.WhichOneof("game") == "caper_europe"
        assert codec.observation_from_proto(wire) == obs
    legal = GAME.legal_actions(state)
    for action, wire in zip(legal, codec.legal_actions_to_proto(GAME, legal), strict=True):
        wire = _wire(wire)
        assert codec.action_from_proto(GAME, wire.action) == action
        assert GAME.parse_action(wire.text) == action
        assert codec.is_action(GAME, action) and not codec.is_action(GAME, tuple(action))


@pytest.mark.parametrize("city", CITIES)
@pytest.mark.parametrize("seed", SEEDS)
def test_every_observation_and_legal_action_round_trips(city: str, seed: int) -> None:
    for state in _random_game(city, seed):
        _check_state(state)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**63 - 1), city=st.sampled_from(CITIES))
def test_round_trips_over_games_hypothesis_picks(seed: int, city: str) -> None:
    for state in _random_game(city, seed):
        _check_state(state)


def test_random_games_reach_every_wire_feature() -> None:
    """The round trips above are only as good as the states they see: make sure they see burns,
    grab choices, token returns, laundered coins, known hands and every action kind."""
    seen: dict[str, int] = dict.fromkeys(
        ("burn", "grab", "returning", "hq_coins", "hq_goods", "marker", "known_hand", "over"), 0
    )
    kinds: set[ActionKind] = set()
    for city in CITIES:
        for seed in SEEDS:
            for state in _random_game(city, seed):
                wire = codec.observation_to_proto(GAME.observation(state, 0)).caper_europe
                legal = GAME.legal_actions(state)
                kinds |= {action.kind for action in legal}
                seen["burn"] += any(action.target != NONE for action in legal)
                seen["grab"] += any(a.good != NONE and a.kind is ActionKind.THIEF for a in legal)
                seen["returning"] += wire.HasField("returning")
                seen["hq_coins"] += any(side.hq_coins for side in wire.sides)
                seen["hq_goods"] += any(side.hq_goods.ByteSize() for side in wire.sides)
                seen["marker"] += any(location.marker < 0 for location in wire.locations)
                seen["known_hand"] += wire.HasField("opponent_hand")
                seen["over"] += not wire.HasField("to_move")
    assert kinds == set(ActionKind)
    assert all(seen.values()), seen


def test_hidden_hand_and_finished_game_leave_their_fields_absent() -> None:
    start = codec.observation_to_proto(GAME.observation(GAME.create({}, 7), 1)).caper_europe
    assert not start.HasField("opponent_hand") and start.opponent_hand_size == 4
    assert not start.HasField("returning") and start.HasField("to_move")
    assert start.round_kind == caper_europe_pb2.CAPER_EUROPE_ROUND_KIND_THIEF
    assert [location.marker for location in start.locations] == [0, 0, 0]
    assert sum(loc.goods.ByteSize() > 0 for loc in start.locations) == 3  # 4 tokens beside each
    over = codec.observation_to_proto(GAME.observation(_final_state(), 0)).caper_europe
    assert not over.HasField("to_move")
    assert over.round_kind == caper_europe_pb2.CAPER_EUROPE_ROUND_KIND_END


def test_goods_keep_their_types_on_the_wire() -> None:
    state = GAME.create({"city": "paris"}, 3)
    obs = GAME.observation(state, 0)
    wire = codec.observation_to_proto(obs).caper_europe
    for location, goods in zip(wire.locations, obs.goods, strict=True):
        counts = (location.goods.diamonds, location.goods.paintings, location.goods.antiques)
        assert counts == (goods[Good.DIAMOND], goods[Good.PAINTING], goods[Good.ANTIQUE])


def test_action_fields_map_one_to_one() -> None:
    grab = Action(ActionKind.THIEF, "smuggler", 2, NONE, NONE, Good.PAINTING)
    wire = codec.action_to_proto(GAME, grab).caper_europe
    assert wire.kind == caper_europe_pb2.CAPER_EUROPE_ACTION_KIND_THIEF
    assert (wire.card, wire.location) == ("smuggler", 2)
    assert not wire.HasField("thief") and not wire.HasField("target")
    assert wire.good == caper_europe_pb2.CAPER_EUROPE_GOOD_PAINTING
    burn = codec.action_to_proto(GAME, Action(ActionKind.GEAR, "blazeblaster", 0, 1, 2))
    assert (burn.caper_europe.thief, burn.caper_europe.target) == (1, 2)
    assert burn.caper_europe.good == caper_europe_pb2.CAPER_EUROPE_GOOD_UNSPECIFIED
    back = codec.action_to_proto(GAME, Action(ActionKind.RETURN, good=Good.DIAMOND))
    assert back.caper_europe.card == "" and not back.caper_europe.HasField("location")
    assert back.caper_europe.good == caper_europe_pb2.CAPER_EUROPE_GOOD_DIAMOND


THIEF = caper_europe_pb2.CAPER_EUROPE_ACTION_KIND_THIEF
GEAR = caper_europe_pb2.CAPER_EUROPE_ACTION_KIND_GEAR
DISCARD = caper_europe_pb2.CAPER_EUROPE_ACTION_KIND_DISCARD
RETURN = caper_europe_pb2.CAPER_EUROPE_ACTION_KIND_RETURN
DIAMOND = caper_europe_pb2.CAPER_EUROPE_GOOD_DIAMOND

MALFORMED = [
    ({}, "kind is CAPER_EUROPE_ACTION_KIND_UNSPECIFIED"),
    ({"kind": 99, "card": "dame", "location": 0}, "kind is 99 \\(unknown\\)"),
    ({"kind": THIEF, "card": "dame"}, "THIEF action is missing location"),
    ({"kind": THIEF, "location": 1}, "THIEF action is missing card"),
    ({"kind": GEAR, "card": "blazeblaster", "location": 0}, "GEAR action is missing thief"),
    ({"kind": THIEF, "card": "dame", "location": 0, "thief": 1}, "THIEF action takes no thief"),
    ({"kind": DISCARD, "card": "blazeblaster", "target": 0}, "DISCARD action takes no target"),
    ({"kind": DISCARD, "card": "blazeblaster", "good": DIAMOND}, "DISCARD action takes no good"),
    ({"kind": RETURN}, "RETURN action is missing good"),
    ({"kind": RETURN, "good": DIAMOND, "card": "dame"}, "RETURN action takes no card"),
    ({"kind": RETURN, "good": DIAMOND, "location": 1}, "RETURN action takes no location"),
    ({"kind": RETURN, "good": 7}, "the stolen good is 7 \\(unknown\\)"),
    ({"kind": DISCARD, "card": "The Dame"}, "unknown card 'The Dame'"),
]


@pytest.mark.parametrize(("fields", "message"), MALFORMED)
def test_action_from_proto_rejects_malformed_action(fields: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidActionError, match=message):
        codec.action_from_proto(GAME, _action(**fields))


def test_an_action_of_the_other_edition_is_malformed() -> None:
    first_edition = game_pb2.Action(caper=caper_pb2.CaperAction())
    with pytest.raises(InvalidActionError, match=r"needs Action\.caper_europe, got Action\.caper"):
        codec.action_from_proto(GAME, first_edition)


def test_well_formed_but_illegal_actions_are_left_to_the_engine() -> None:
    """Converted by the codec; `apply` says which rule they break, without crashing."""
    state = GAME.create({"city": "rome"}, 1)
    for fields in (
        {"kind": RETURN, "good": DIAMOND},
        {"kind": THIEF, "card": "dame", "location": 9},
        {"kind": GEAR, "card": "blazeblaster", "location": 0, "thief": 4_000_000_000},
        {"kind": THIEF, "card": "smuggler", "location": 0, "target": 2, "good": DIAMOND},
    ):
        action = codec.action_from_proto(GAME, _wire(_action(**fields)))
        assert action not in GAME.legal_actions(state)
        with pytest.raises(IllegalActionError, match=re.escape(GAME.action_text(action))):
            GAME.apply(state, action, 0)


def test_a_reply_by_index_or_by_action_gives_the_listed_action() -> None:
    state = GAME.create({"city": "barcelona"}, 2)
    legal = GAME.legal_actions(state)
    by_index = bot_pb2.ActionReply(request_id="r", legal_index=len(legal) - 1)
    by_action = bot_pb2.ActionReply(request_id="r", action=codec.action_to_proto(GAME, legal[0]))
    assert codec.action_from_reply(GAME, _wire(by_index), legal) == legal[-1]
    assert codec.action_from_reply(GAME, _wire(by_action), legal) == legal[0]


@pytest.mark.parametrize("termination", sorted(codec.TERMINATIONS))
def test_results_round_trip_with_their_termination(termination: str) -> None:
    for city, seed in (("paris", 0), ("barcelona", 1), ("rome", 2), ("london", 3)):
        result = GAME.result(_final_state(city, seed))
        assert codec.result_from_proto(_wire(codec.result_to_proto(result, termination))) == (
            result,
            termination,
        )


def test_observation_from_proto_rejects_a_wrong_shape() -> None:
    wire = codec.observation_to_proto(GAME.observation(GAME.create({}, 1), 0))
    wire.caper_europe.sides.add()
    with pytest.raises(codec.CodecError, match="has 2 sides, this one has 3"):
        codec.observation_from_proto(wire)
    wire = codec.observation_to_proto(GAME.observation(GAME.create({}, 1), 0))
    wire.caper_europe.locations.add()
    with pytest.raises(codec.CodecError, match="has 3 Locations, this one has 4"):
        codec.observation_from_proto(wire)
    wire = codec.observation_to_proto(GAME.observation(GAME.create({}, 1), 0))
    wire.caper_europe.sides[1].crews.add()
    with pytest.raises(codec.CodecError, match="one crew per Location"):
        codec.observation_from_proto(wire)
    wire = codec.observation_to_proto(GAME.observation(GAME.create({}, 1), 0))
    wire.caper_europe.round_kind = caper_europe_pb2.CAPER_EUROPE_ROUND_KIND_UNSPECIFIED
    with pytest.raises(codec.CodecError, match="unknown Caper: Europe round kind 0"):
        codec.observation_from_proto(wire)
