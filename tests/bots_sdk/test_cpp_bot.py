"""The C++ example bot (bots_sdk/examples/cpp), built from the protos with Debian's gRPC: real
matches of both editions through a real gateway, a refused token, a replacement, a gateway
restart; pings, arena errors and SIGTERM against the scripted gateway."""

from __future__ import annotations

import os
import random
import secrets
import signal
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from arena import codec
from arena.games.caper import CAPER, Action
from arena.gateway.testing import Arena, running_arena
from arena.referee.referee import GameOutcome, Termination
from arena.store.bots import BotRegistry
from arena.v1 import bot_pb2
from tests.bots_sdk import messages
from tests.bots_sdk.fake_gateway import TOKEN, FakeGateway, Script, Session, idle, welcomed
from tests.protocol import toolchain

pytestmark = pytest.mark.timeout(600)
CPP_DIR = Path(__file__).resolve().parents[2] / "bots_sdk" / "examples" / "cpp"
WAIT_S = 60.0


@pytest.fixture(scope="module")
def cpp_bot() -> Path:
    """The built bot; make rebuilds only what changed since the last run."""
    tools = ("g++", "make", "pkg-config", "protoc", "grpc_cpp_plugin")
    toolchain.ensure(tools, toolchain.CPP_BUILD, pkg_config="grpc++ protobuf")
    done = subprocess.run(
        ["make", "-j2"], cwd=CPP_DIR, capture_output=True, text=True, timeout=600, check=False
    )
    if done.returncode != 0:
        pytest.fail(f"building the C++ bot failed:\n{done.stdout[-1500:]}{done.stderr[-3000:]}")
    return CPP_DIR / "build" / "bot"


def start(binary: Path, target: str, token: str, **env: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [str(binary)],
        env={**os.environ, "ARENA_TARGET": target, "ARENA_TOKEN": token, **env},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def finish(process: subprocess.Popen[str], timeout_s: float = WAIT_S) -> tuple[int, str]:
    """The exit code and output; kills the bot if it does not exit in time."""
    try:
        output, _ = process.communicate(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        process.kill()
        output, _ = process.communicate()
        raise AssertionError(f"the C++ bot did not exit; it printed:\n{output}") from None
    return process.returncode, output


def wait_until(condition: Callable[[], bool], timeout_s: float = WAIT_S) -> bool:
    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.05)
    return False


@pytest.fixture
def arena(redis_server_url: str) -> Iterator[Arena]:
    with running_arena(redis_server_url) as running:
        yield running


def _online(arena: Arena, name: str) -> bool:
    registry = BotRegistry(arena.client)
    return any(bot.name == name and registry.is_online(bot.bot_id) for bot in registry.all())


def _connected_bot(arena: Arena, binary: Path, **env: str) -> tuple[str, subprocess.Popen[str]]:
    name = f"cpp-{secrets.token_hex(3)}"
    process = start(binary, arena.target, arena.register_bot(name), **env)
    if not wait_until(lambda: _online(arena, name)):
        process.kill()
        raise AssertionError(f"the C++ bot did not connect: {process.communicate()[0]}")
    return name, process


def _all_normal(outcomes: list[GameOutcome]) -> bool:
    return all(outcome.termination is Termination.NORMAL for outcome in outcomes)


def test_the_cpp_bot_plays_both_editions_through_a_real_gateway(
    arena: Arena, cpp_bot: Path
) -> None:
    name, process = _connected_bot(arena, cpp_bot, ARENA_MAX_GAMES="4")
    try:
        first = arena.play_match(name, "greedy", games=2, seed=3, config={"city": "rome"})
        europe = arena.play_match(
            "random", name, games=2, seed=4, config={"city": "barcelona"}, game="caper-europe"
        )
    finally:
        code, output = finish(process)
    # The referee checks every answer: an illegal or late one would not end the game normally.
    assert _all_normal(first + europe), [o.reason for o in first + europe]
    assert code == 0, output
    assert f"as {name} (bot id" in output
    for outcome in first + europe:
        assert f"game {outcome.record.meta['game_id']} over: " in output
    assert "(TERMINATION_NORMAL)" in output and "played 4 games: stopping" in output


def test_a_refused_token_stops_the_cpp_bot_with_code_2(arena: Arena, cpp_bot: Path) -> None:
    code, output = finish(start(cpp_bot, arena.target, "not-a-token"))
    assert code == 2, output
    assert "the arena refused this bot: UNAUTHENTICATED" in output


def test_a_replaced_cpp_bot_stops_cleanly(arena: Arena, cpp_bot: Path) -> None:
    name = f"cpp-{secrets.token_hex(3)}"
    token = arena.register_bot(name)
    first = start(cpp_bot, arena.target, token)
    assert wait_until(lambda: _online(arena, name))
    second = start(cpp_bot, arena.target, token, ARENA_MAX_GAMES="1")
    try:
        code, output = finish(first)
        assert code == 0 and "replaced by a newer connection" in output, output
        assert wait_until(lambda: _online(arena, name))
        (outcome,) = arena.play_match(name, "random", games=1, seed=7)
        assert outcome.termination is Termination.NORMAL, outcome.reason
    finally:
        code, output = finish(second)
    assert code == 0 and "played 1 games: stopping" in output, output


def test_the_cpp_bot_reconnects_after_a_gateway_restart(arena: Arena, cpp_bot: Path) -> None:
    name, process = _connected_bot(arena, cpp_bot, ARENA_MAX_GAMES="1")
    try:
        arena.restart_gateway()
        assert wait_until(lambda: process.poll() is None and _online(arena, name))
        (outcome,) = arena.play_match(name, "random", games=1, seed=9)
    finally:
        code, output = finish(process)
    assert outcome.termination is Termination.NORMAL, outcome.reason
    assert code == 0, output
    assert "connection lost (UNAVAILABLE" in output and "retrying in" in output
    assert output.count("connected to ") == 2


def _error_pong_then_a_game(game_id: str, choices: list[tuple[Action, list[Action]]]) -> Script:
    """Welcome, an Error and an unasked-for Pong (both need no answer), then one whole game of
    Caper in which the bot's answers are checked by the engine."""

    def script(session: Session) -> Iterator[bot_pb2.ConnectResponse]:
        yield from welcomed(session)
        error = bot_pb2.Error(
            code=bot_pb2.ERROR_CODE_UNKNOWN_REQUEST, message="no request 'r9'", request_id="r9"
        )
        yield bot_pb2.ConnectResponse(error=error)
        yield bot_pb2.ConnectResponse(pong=bot_pb2.Pong(nonce=5))
        seat, rng, state = 1, random.Random(2), CAPER.create({"city": "rome"}, 2)
        yield messages.game_started(game_id, seat)
        while (mover := CAPER.current_player(state)) is not None:
            legal = list(CAPER.legal_actions(state))
            action = rng.choice(legal)
            if mover == seat:
                request_id = f"{game_id}.{len(choices)}"
                yield messages.decision(state, request_id=request_id, game_id=game_id)
                reply = session.receive(timeout_s=WAIT_S).action_reply
                assert reply.request_id == request_id
                action = codec.action_from_reply(CAPER, reply, legal)
                choices.append((action, legal))
            state = CAPER.apply(state, action)
        yield messages.game_over(game_id, seat, result=CAPER.result(state))
        session.closed.wait(timeout=WAIT_S)

    return script


def test_the_cpp_bot_logs_arena_errors_and_plays_on(cpp_bot: Path) -> None:
    choices: list[tuple[Action, list[Action]]] = []
    gateway = FakeGateway([_error_pong_then_a_game("cpp0", choices)]).start()
    try:
        code, output = finish(start(cpp_bot, gateway.target, TOKEN, ARENA_MAX_GAMES="1"))
    finally:
        gateway.stop()
    assert code == 0, output
    assert "the arena refused a message: ERROR_CODE_UNKNOWN_REQUEST no request 'r9'" in output
    assert "game cpp0 over: " in output and "played 1 games: stopping" in output
    assert len(choices) > 10 and all(action in legal for action, legal in choices)
    (session,) = gateway.sessions
    assert session.hello is not None and list(session.hello.games) == ["caper", "caper-europe"]


def test_the_cpp_bot_pings_and_stops_on_sigterm(cpp_bot: Path) -> None:
    gateway = FakeGateway([idle]).start()
    process = start(cpp_bot, gateway.target, TOKEN, ARENA_PING_MS="100")
    try:
        assert gateway.connected.acquire(timeout=WAIT_S)
        (session,) = gateway.sessions
        assert session.wait_pings(3, timeout_s=WAIT_S)
        assert session.pings[:3] == [1, 2, 3]
        process.send_signal(signal.SIGTERM)
        code, output = finish(process)
        assert session.closed.wait(WAIT_S)
    finally:
        process.kill()
        gateway.stop()
    assert code == 0 and "SIGTERM: closing the connection" in output, output
