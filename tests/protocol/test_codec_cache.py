"""The codec converts each action once (arena.codec's caches): what it hands out from its
caches is what a fresh conversion gives, bad input is refused every time, and the caches stay
bounded whatever bots send."""

from __future__ import annotations

import random
from typing import Any

import pytest

from arena import codec
from arena.games.api import Game, InvalidActionError
from arena.games.caper import CAPER, Action, ActionKind
from arena.games.caper.state import NONE
from arena.games.caper_europe import CAPER_EUROPE
from arena.v1 import bot_pb2, caper_pb2, game_pb2


def _legal_sets(game: Game[Any, Any], seed: int) -> list[list[Any]]:
    """The legal actions at every step of one random playout of `game`."""
    rng, sets = random.Random(seed), []
    state = game.create({"city": "paris"}, seed)
    while not game.is_terminal(state):
        legal = list(game.legal_actions(state))
        sets.append(legal)
        state = game.apply(state, rng.choice(legal))
    return sets


@pytest.mark.parametrize("game", [CAPER, CAPER_EUROPE], ids=lambda game: game.id)
def test_cached_legal_actions_are_what_a_fresh_encoding_gives_and_decode_back(
    game: Game[Any, Any],
) -> None:
    for legal in _legal_sets(game, seed=3) * 2:  # the second pass is served from the caches
        sent = bot_pb2.DecisionRequest(legal_actions=codec.legal_actions_to_proto(game, legal))
        received = bot_pb2.DecisionRequest.FromString(sent.SerializeToString())
        for action, wire in zip(legal, received.legal_actions, strict=True):
            assert wire.text == game.action_text(action)
            assert wire.action == codec.action_to_proto(game, action)
            assert codec.action_from_proto(game, wire.action) == action


def test_a_malformed_action_is_refused_every_time_not_remembered() -> None:
    no_card = game_pb2.Action(caper=caper_pb2.CaperAction(kind=caper_pb2.CAPER_ACTION_KIND_THIEF))
    for _ in range(2):
        with pytest.raises(InvalidActionError, match="card"):
            codec.action_from_proto(CAPER, no_card)


def test_the_caches_stay_bounded_whatever_bots_send(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(codec, "CACHED_ACTIONS", 50)
    for location in range(200):  # well-formed, each one new: a bot trying to fill the memory
        action = Action(ActionKind.THIEF, "The Dame", location, NONE)
        wire = codec.action_to_proto(CAPER, action)
        assert codec.action_from_proto(CAPER, wire) == action
        codec.legal_actions_to_proto(CAPER, [action])
    assert len(codec._ACTIONS) <= 50
    assert len(codec._LEGAL) <= 50
