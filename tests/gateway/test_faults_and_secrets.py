"""Disconnects, reconnects and hidden information, over a real gateway and Redis."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from google.protobuf.message import Message

from arena.games.caper import CATALOGUE
from arena.games.caper.state import State
from arena.games.caper_europe import CATALOGUE as EUROPE_CATALOGUE
from arena.games.caper_europe import State as EuropeState
from arena.games.record import GameRecord, replay_states
from arena.gateway.testing import Arena
from arena.referee.referee import FaultPolicy, Termination
from arena.v1 import bot_pb2, game_pb2
from tests.gateway.rawbot import RawBot, first_legal
from tests.gateway.test_bot_gateway import connect


def test_a_bot_that_reconnects_in_time_gets_its_request_again(arena: Arena) -> None:
    token = arena.register_bot("flaky")
    asked = threading.Event()
    dropped: list[str] = []

    def drop_on_fifth(request: bot_pb2.DecisionRequest) -> bot_pb2.ActionReply | None:
        if len(dropped) == 0 and request.move_number >= 8:
            dropped.append(request.request_id)
            asked.set()
            return None  # gone before answering
        return first_legal(request)

    first = RawBot(arena.target, token, policy=drop_on_fifth).start()
    policy = FaultPolicy(move_ms=10_000, bank_ms=0, max_strikes=1, grace_ms=10_000)
    outcomes: list[object] = []
    worker = threading.Thread(
        target=lambda: outcomes.extend(arena.play_match("flaky", "random", games=1, policy=policy))
    )
    worker.start()
    assert asked.wait(20)
    first.close()
    second = RawBot(arena.target, token).start()
    worker.join(60)
    outcome = outcomes[0]
    assert outcome.termination is Termination.NORMAL  # type: ignore[attr-defined]
    resent = [m.decision_request.request_id for m in second.of_kind("decision_request")]
    assert resent[0] == dropped[0]
    second.close()


def test_a_bot_away_longer_than_the_grace_period_loses(arena: Arena) -> None:
    token = arena.register_bot("gone")
    asked = threading.Event()

    def vanish(request: bot_pb2.DecisionRequest) -> None:
        asked.set()

    bot = RawBot(arena.target, token, policy=vanish).start()
    policy = FaultPolicy(move_ms=20_000, bank_ms=0, max_strikes=1, grace_ms=300)
    outcomes: list[object] = []
    worker = threading.Thread(
        target=lambda: outcomes.extend(arena.play_match("gone", "random", games=1, policy=policy))
    )
    worker.start()
    assert asked.wait(20)
    bot.close()
    worker.join(30)
    assert outcomes[0].termination is Termination.DISCONNECT  # type: ignore[attr-defined]


def _strings(message: Message) -> Iterator[str]:
    for field, value in message.ListFields():
        values = value if field.is_repeated else [value]
        for item in values:
            if isinstance(item, Message):
                yield from _strings(item)
            elif isinstance(item, str):
                yield item


def _visible(state: State, seat: int) -> set[str]:
    """Card names `seat` sees in `state`, worked out from the state, not from the observation."""
    names = {card.name for card in state.hands[seat]}
    if state.hands_known:
        names |= {card.name for card in state.hands[1 - seat]}
    names |= {
        card.name for side in state.board for crew in side for stack in crew for card, _ in stack
    }
    names |= {card.name for pile in state.discards for card in pile}
    return names | {card.name for card in state.locations}


def _visible_europe(state: EuropeState, seat: int) -> set[str]:
    """Card ids `seat` sees in a Caper: Europe `state`, worked out from the state."""
    ids = {card.id for card in state.hands[seat]}
    if state.hands_known:
        ids |= {card.id for card in state.hands[1 - seat]}
    ids |= {card.id for side in state.crews for crew in side for card, _ in crew}
    ids |= {card.id for pile in state.discards for card in pile}
    return ids | {card.id for card in state.locations}


@dataclass(frozen=True)
class Edition:
    game: str
    cities: tuple[str, ...]
    catalogue: Collection[str]  # every card name the game's messages can carry
    visible: Callable[[Any, int], set[str]]
    key: Callable[[Any], str]  # how messages name a card


EDITIONS = [
    pytest.param(
        Edition("caper", ("paris", "rome", "london"), CATALOGUE, _visible, lambda c: c.name),
        id="caper",
    ),
    pytest.param(
        Edition(
            "caper-europe",
            ("paris", "barcelona", "rome", "london"),
            EUROPE_CATALOGUE,
            _visible_europe,
            lambda c: c.id,
        ),
        id="caper-europe",
    ),
]


def _random_legal(seed: int) -> Callable[[bot_pb2.DecisionRequest], bot_pb2.ActionReply]:
    """A seeded random answer, so the spy's own plays reach more situations than index 0."""
    rng = random.Random(seed)

    def policy(request: bot_pb2.DecisionRequest) -> bot_pb2.ActionReply:
        index = rng.randrange(len(request.legal_actions))
        return bot_pb2.ActionReply(request_id=request.request_id, legal_index=index)

    return policy


@pytest.mark.parametrize("edition", EDITIONS)
def test_no_message_to_a_bot_names_a_card_its_seat_has_not_seen(
    arena: Arena, edition: Edition
) -> None:
    hello = bot_pb2.Hello(protocol_version=1, games=[edition.game])
    bot = connect(arena, "spy", first=bot_pb2.ConnectRequest(hello=hello), policy=_random_legal(11))
    games = 0
    for seed, city in enumerate(edition.cities, start=1):
        arena.play_match(
            "spy", "greedy", games=4, seed=seed, config={"city": city}, game=edition.game
        )
        games += 4
    records = {}
    for message in bot.wait_for("game_over", count=games):
        game_id = message.game_over.game_id
        records[game_id] = GameRecord.loads(arena.client.get(f"arena:game:{game_id}").decode())  # type: ignore[union-attr]
        assert records[game_id].game == edition.game
        assert message.game_over.result.termination == game_pb2.TERMINATION_NORMAL
    checked = leaks_possible = 0
    for message in bot.of_kind("decision_request"):
        request = message.decision_request
        assert request.observation.WhichOneof("game") == edition.game.replace("-", "_")
        states = [state for _, state in replay_states(records[request.game_id])]
        seen: set[str] = set()
        for state in states[: request.move_number + 1]:
            seen |= edition.visible(state, request.seat)
        named = {text for text in _strings(request) if text in edition.catalogue}
        assert named <= seen, f"{request.game_id} move {request.move_number}: {named - seen}"
        hidden = {edition.key(card) for card in states[request.move_number].thief_deck}
        leaks_possible += bool(hidden - seen)  # there was something to leak
        checked += 1
    assert checked >= games * 20 and leaks_possible > 0
    bot.close()
