"""The SDKs against the real gateway (arena.gateway.testing): Python bot vs built-in bots, Node
bot vs Python bot, refused tokens, replacement, reconnects across a gateway restart."""

from __future__ import annotations

import secrets
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator

import pytest

from arena.gateway.testing import Arena, running_arena
from arena.referee.referee import GameOutcome, Termination
from arena.store.bots import BotRegistry
from arena.store.relay import RunnerRelay
from bots_sdk import AuthenticationError, Backoff, Bot
from bots_sdk.client import Client
from bots_sdk.examples.random_bot import RandomBot
from bots_sdk.live_check import check_bot_against_server
from tests.bots_sdk.bots import BothEditionsFirstBot, FirstBot, IllegalBot
from tests.bots_sdk.js import finish, start_node_bot
from tests.bots_sdk.online import WAIT_S, wait_online, wait_until

pytestmark = pytest.mark.timeout(180)
FAST = Backoff(initial_s=0.1, maximum_s=1.0)


@pytest.fixture
def arena(redis_server_url: str) -> Iterator[Arena]:
    with running_arena(redis_server_url) as running:
        yield running


class Playing:
    """A registered bot played by the Python SDK on a background thread."""

    def __init__(self, arena: Arena, bot: Bot, prefix: str = "py") -> None:
        self.name = f"{prefix}-{secrets.token_hex(3)}"
        self.token = arena.register_bot(self.name)
        self.client = Client(bot, arena.target, self.token, backoff=FAST)
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        assert self.client.connected.wait(WAIT_S), "the bot did not connect"

    def _run(self) -> None:
        try:
            self.client.run()
        except BaseException as error:
            self.error = error

    def stop(self) -> None:
        self.client.stop()
        self.thread.join(WAIT_S)
        assert not self.thread.is_alive() and self.error is None


@pytest.fixture
def playing(arena: Arena) -> Iterator[Callable[..., Playing]]:
    started: list[Playing] = []

    def start(bot: Bot, prefix: str = "py") -> Playing:
        started.append(Playing(arena, bot, prefix))
        return started[-1]

    yield start
    for bot in started:
        bot.client.stop()
        bot.thread.join(WAIT_S)


def _all_normal(outcomes: list[GameOutcome]) -> bool:
    return all(outcome.termination is Termination.NORMAL for outcome in outcomes)


@pytest.mark.parametrize("opponent", ["random", "greedy"])
def test_a_python_bot_plays_a_builtin_bot(
    arena: Arena, playing: Callable[..., Playing], opponent: str
) -> None:
    bot = FirstBot()
    player = playing(bot)
    outcomes = arena.play_match(player.name, opponent, games=2, seed=5)
    assert _all_normal(outcomes), [o.reason for o in outcomes]
    # GameOver reaches the bot after the referee has finished: wait for it.
    assert wait_until(lambda: player.client.player.games_over == 2)
    assert [o.record.meta["game_id"] for o in outcomes] == [g.game_id for g in bot.ended]
    assert [g.game_id for g in bot.started] == [g.game_id for g in bot.ended]
    for outcome, end in zip(outcomes, bot.ended, strict=True):
        assert end.result.scores == outcome.result.scores
        assert end.won == (outcome.record.players[outcome.result.winner or 0] == player.name)


@pytest.mark.parametrize(("city", "opponent"), [("barcelona", "random"), ("london", "greedy")])
def test_a_python_bot_plays_caper_europe_against_a_builtin_bot(
    arena: Arena, playing: Callable[..., Playing], city: str, opponent: str
) -> None:
    bot = BothEditionsFirstBot()
    player = playing(bot)
    outcomes = arena.play_match(
        player.name, opponent, games=2, seed=8, config={"city": city}, game="caper-europe"
    )
    assert _all_normal(outcomes), [o.reason for o in outcomes]
    assert all(o.record.game == "caper-europe" for o in outcomes)
    assert wait_until(lambda: player.client.player.games_over == 2)
    assert [g.game for g in bot.started] == ["caper-europe"] * 2
    assert [dict(g.config) for g in bot.started] == [{"city": city}] * 2
    assert bot.calls >= 2 * (6 + 15)
    for outcome, end in zip(outcomes, bot.ended, strict=True):
        assert end.result == outcome.result


def test_two_python_bots_play_each_other(arena: Arena, playing: Callable[..., Playing]) -> None:
    first, second = playing(RandomBot(seed=1)), playing(FirstBot())
    outcomes = arena.play_match(first.name, second.name, games=2, seed=2)
    assert _all_normal(outcomes), [o.reason for o in outcomes]


def test_an_illegal_action_loses_with_the_rule_named(
    arena: Arena, playing: Callable[..., Playing]
) -> None:
    player = playing(IllegalBot())
    (outcome,) = arena.play_match(player.name, "random", games=1, seed=1)
    assert outcome.termination is Termination.ILLEGAL_ACTION
    assert "illegal" in outcome.reason


def test_a_node_bot_plays_a_python_bot(arena: Arena, playing: Callable[..., Playing]) -> None:
    python_bot = playing(FirstBot())
    name = f"js-{secrets.token_hex(3)}"
    node = start_node_bot(arena.target, arena.register_bot(name), max_games=2)
    try:
        wait_online(arena, name)
        outcomes = arena.play_match(name, python_bot.name, games=2, seed=3)
    finally:
        code, output = finish(node)
    assert _all_normal(outcomes), [o.reason for o in outcomes]
    assert code == 0, output
    assert output.count(" over: ") == 2


def test_a_node_bot_plays_caper_europe_against_a_python_bot(
    arena: Arena, playing: Callable[..., Playing]
) -> None:
    python_bot = playing(RandomBot(seed=4))
    name = f"js-{secrets.token_hex(3)}"
    node = start_node_bot(arena.target, arena.register_bot(name), max_games=2)
    try:
        wait_online(arena, name)
        outcomes = arena.play_match(
            name, python_bot.name, games=2, seed=9, config={"city": "rome"}, game="caper-europe"
        )
    finally:
        code, output = finish(node)
    assert _all_normal(outcomes), [o.reason for o in outcomes]
    assert all(o.record.game == "caper-europe" for o in outcomes)
    assert code == 0, output
    assert output.count(" over: ") == 2


def test_a_bot_comes_back_after_a_gateway_restart(
    arena: Arena, playing: Callable[..., Playing]
) -> None:
    player = playing(FirstBot())
    arena.restart_gateway()
    assert wait_until(lambda: player.client.sessions >= 2 and player.client.connected.is_set())
    outcomes = arena.play_match(player.name, "random", games=2, seed=4)
    assert _all_normal(outcomes), [o.reason for o in outcomes]


def test_a_wrong_token_raises_authentication_error(arena: Arena) -> None:
    with pytest.raises(AuthenticationError):
        Client(FirstBot(), arena.target, "not-a-token", backoff=FAST).run()


def test_a_newer_connection_replaces_the_older_one(
    arena: Arena, playing: Callable[..., Playing]
) -> None:
    old = playing(FirstBot())
    new = Client(FirstBot(), arena.target, old.token, backoff=FAST)
    thread = threading.Thread(target=new.run, daemon=True)
    thread.start()
    try:
        old.thread.join(WAIT_S)
        assert not old.thread.is_alive() and old.client.replaced and old.error is None
        assert new.connected.wait(WAIT_S)
        outcomes = arena.play_match(old.name, "random", games=1, seed=6)
        assert _all_normal(outcomes)
        assert wait_until(lambda: new.player.games_over == 1)
    finally:
        new.stop()
        thread.join(WAIT_S)


def test_the_live_conformance_check_passes(arena: Arena) -> None:
    name = f"live-{secrets.token_hex(3)}"
    report = check_bot_against_server(FirstBot(), arena.target, arena.register_bot(name))
    assert report.ok, str(report)
    for step in ("Ping is answered", "reconnects after its stream breaks", "replaces the SDK's"):
        assert any(step in line for line in report.passed), str(report)


def _example_bot(arena: Arena, *args: str) -> tuple[str, subprocess.Popen[str]]:
    name = f"example-{secrets.token_hex(3)}"
    command = [sys.executable, "-m", "bots_sdk.examples.random_bot", "--target", arena.target]
    command += ["--token", arena.register_bot(name), *args]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    wait_online(arena, name)
    return name, process


def test_the_example_bot_plays_both_editions_and_exits(arena: Arena) -> None:
    name, process = _example_bot(arena, "--games", "4")
    try:
        outcomes = arena.play_match(name, "greedy", games=2, seed=7)
        outcomes += arena.play_match(
            name, "greedy", games=2, seed=7, config={"city": "paris"}, game="caper-europe"
        )
    finally:
        code, output = finish(process)
    assert _all_normal(outcomes) and code == 0, output
    assert [o.record.game for o in outcomes] == ["caper"] * 2 + ["caper-europe"] * 2
    assert output.count(" over: ") == 4 and "played 4 games: stopping" in output


def test_sigterm_stops_the_example_bot_cleanly(arena: Arena) -> None:
    name, process = _example_bot(arena)
    process.send_signal(signal.SIGTERM)
    code, output = finish(process, timeout_s=WAIT_S)
    assert code == 0 and "SIGTERM: closing the connection" in output, output
    bot = BotRegistry(arena.client).by_name(name)
    assert bot is not None
    assert wait_until(lambda: not RunnerRelay(arena.client).is_online(bot.bot_id))
