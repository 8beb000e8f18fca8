"""The Node.js example bot against the scripted gateway: whole engine games, each answer checked
against the rules, and its reactions to a refused token, a replacement and a broken stream."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import grpc
import pytest

from arena import codec
from arena.games.api import Game
from arena.games.caper import CAPER, ActionKind
from arena.games.caper_europe import CAPER_EUROPE
from arena.games.caper_europe import ActionKind as EuropeActionKind
from arena.v1 import bot_pb2
from tests.bots_sdk import messages
from tests.bots_sdk.fake_gateway import TOKEN, FakeGateway, Script, Session, welcomed
from tests.bots_sdk.js import finish, node_bot_ready, start_node_bot

pytestmark = pytest.mark.timeout(120)


@dataclass
class Played:
    """What the Node bot chose, decision by decision."""

    choices: list[tuple[str, Any, list[Any]]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


CITIES = {
    "caper": ("paris", "rome", "london"),
    "caper-europe": ("paris", "barcelona", "rome", "london"),
}


def play_games(games: int, played: Played, game: Game[Any, Any] = CAPER) -> Script:
    def script(session: Session) -> Iterator[bot_pb2.ConnectResponse]:
        yield from welcomed(session)
        for index in range(games):
            yield from _one_game(session, f"js{index}", index, played, game)
        session.closed.wait(timeout=30)

    return script


def _one_game(
    session: Session, game_id: str, seed: int, played: Played, game: Game[Any, Any]
) -> Iterator[bot_pb2.ConnectResponse]:
    seat, rng = seed % 2, random.Random(seed)
    cities = CITIES[game.id]
    state = game.create({"city": cities[seed % len(cities)]}, seed)
    yield messages.game_started(game_id, seat, game=game)
    while (mover := game.current_player(state)) is not None:
        legal = list(game.legal_actions(state))
        action = rng.choice(legal)
        if mover == seat:
            request_id = f"{game_id}.{len(played.choices)}"
            yield messages.decision(state, request_id=request_id, game_id=game_id, game=game)
            reply = session.receive(timeout_s=10).action_reply
            if reply.request_id != request_id:
                played.problems.append(f"answered {reply.request_id!r} for {request_id!r}")
            action = codec.action_from_reply(game, reply, legal)
            played.choices.append((str(reply.WhichOneof("choice")), action, legal))
        state = game.apply(state, action)
    yield messages.game_over(game_id, seat, result=game.result(state))


def _gateway(*scripts: Script) -> Iterator[FakeGateway]:
    node_bot_ready()
    gateway = FakeGateway(list(scripts)).start()
    yield gateway
    gateway.stop()


@pytest.fixture
def two_games() -> Iterator[tuple[FakeGateway, Played]]:
    played = Played()
    yield from ((gateway, played) for gateway in _gateway(play_games(2, played)))


def test_the_node_bot_plays_whole_games_legally_and_stops(
    two_games: tuple[FakeGateway, Played],
) -> None:
    gateway, played = two_games
    code, output = finish(start_node_bot(gateway.target, TOKEN, max_games=2))
    assert code == 0, output
    assert played.problems == []
    assert len(played.choices) > 20
    assert all(kind == "legal_index" for kind, _, _ in played.choices)
    assert "game js0 over" in output and "game js1 over" in output
    assert "played 2 games: stopping" in output
    (session,) = gateway.sessions
    assert session.hello is not None and session.hello.protocol_version == 1


def test_the_node_bot_prefers_playing_to_discarding(
    two_games: tuple[FakeGateway, Played],
) -> None:
    gateway, played = two_games
    finish(start_node_bot(gateway.target, TOKEN, max_games=2))
    could_play = [
        action
        for _, action, legal in played.choices
        if any(a.kind not in (ActionKind.DISCARD, ActionKind.PASS) for a in legal)
    ]
    assert could_play and all(a.kind is not ActionKind.DISCARD for a in could_play)


def test_a_refused_token_ends_the_node_bot_without_retrying() -> None:
    for gateway in _gateway(play_games(1, Played())):
        code, output = finish(start_node_bot(gateway.target, "wrong", max_games=1))
        assert code == 2 and "UNAUTHENTICATED" in output
        assert gateway.calls == 1


def _abort(code: grpc.StatusCode) -> Script:
    def script(session: Session) -> Iterator[bot_pb2.ConnectResponse]:
        yield from welcomed(session)
        session.abort(code, "replaced by a newer connection of this bot")

    return script


def test_a_replaced_node_bot_stops_cleanly() -> None:
    for gateway in _gateway(_abort(grpc.StatusCode.ABORTED)):
        code, output = finish(start_node_bot(gateway.target, TOKEN, max_games=None))
        assert code == 0 and "replaced by a newer connection" in output
        assert gateway.calls == 1


def test_the_node_bot_reconnects_after_the_stream_breaks() -> None:
    played = Played()
    for gateway in _gateway(_abort(grpc.StatusCode.UNAVAILABLE), play_games(1, played)):
        code, output = finish(start_node_bot(gateway.target, TOKEN, max_games=1))
        assert code == 0, output
        assert "retrying in" in output and len(gateway.sessions) == 2
        assert played.choices and not played.problems


@pytest.fixture
def two_europe_games() -> Iterator[tuple[FakeGateway, Played]]:
    played = Played()
    yield from ((gateway, played) for gateway in _gateway(play_games(2, played, CAPER_EUROPE)))


def test_the_node_bot_plays_caper_europe_legally_and_prefers_playing(
    two_europe_games: tuple[FakeGateway, Played],
) -> None:
    gateway, played = two_europe_games
    code, output = finish(start_node_bot(gateway.target, TOKEN, max_games=2))
    assert code == 0, output
    assert played.problems == []
    assert len(played.choices) >= 2 * (6 + 15)  # its Thief and Gear turns (R2), plus returns
    assert all(kind == "legal_index" for kind, _, _ in played.choices)
    assert all(action in legal for _, action, legal in played.choices)
    could_play = [
        action
        for _, action, legal in played.choices
        if any(a.kind is not EuropeActionKind.DISCARD for a in legal)
    ]
    assert could_play and all(a.kind is not EuropeActionKind.DISCARD for a in could_play)
    assert "game js0 over" in output and "game js1 over" in output
    (session,) = gateway.sessions
    assert session.hello is not None
    assert list(session.hello.games) == ["caper", "caper-europe", "age-of-thieves"]
