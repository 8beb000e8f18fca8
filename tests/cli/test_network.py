"""`arena bot register|list` and `arena match` against a real Redis (and gateway for matches)."""

from __future__ import annotations

import pytest
import redis
from click.testing import CliRunner, Result

from arena.cli import main
from arena.gateway.testing import running_arena
from arena.services import bots
from arena.store import keys
from arena.store.bots import BotRegistry
from tests.gateway.rawbot import RawBot, hello


def arena(*args: str, env: dict[str, str] | None = None) -> Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=False, env=env)


def test_register_prints_the_token_once_and_list_shows_the_bot(
    redis_client: redis.Redis, redis_server_url: str
) -> None:
    out = arena("bot", "register", "clibot", "--redis-url", redis_server_url)
    assert out.exit_code == 0, out.output
    assert "Token (shown once" in out.output
    listed = arena("bot", "list", env={"REDIS_URL": redis_server_url})
    assert "clibot" in listed.output and "no" in listed.output
    again = arena("bot", "register", "clibot", "--redis-url", redis_server_url)
    assert again.exit_code == 1 and "already registered" in again.output
    bots.register(redis_client, "gone")
    bots.revoke(redis_client, "gone")
    rows = arena("bot", "list", "--redis-url", redis_server_url).output.splitlines()
    gone = next(row for row in rows if "gone" in row)
    assert "revoked 20" in gone and "revoked" not in next(r for r in rows if "clibot" in r)


def test_commands_that_need_redis_say_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("REDIS_URL", raising=False)
    out = arena("bot", "list")
    assert out.exit_code == 1 and "no Redis server" in out.output
    out = arena("bot", "list", "--redis-url", "redis://127.0.0.1:1/0")
    assert out.exit_code == 1 and "Redis:" in out.output and "Traceback" not in out.output


def test_match_plays_a_remote_bot_through_the_gateway(
    redis_client: redis.Redis, redis_server_url: str
) -> None:
    with running_arena(redis_server_url) as running:
        token = running.register_bot("remote")
        bot = RawBot(running.target, token).start()
        assert bot.welcomed.wait(10)
        out = arena("match", "remote", "greedy", "--games", "2", "--redis-url", redis_server_url)
        assert out.exit_code == 0, out.output
        assert "remote vs greedy: 2 games" in out.output and "normal" in out.output
        unknown = arena("match", "ghost", "greedy", "--redis-url", redis_server_url)
        assert unknown.exit_code == 1 and "unknown player 'ghost'" in unknown.output
        bot.close()


def test_match_plays_caper_europe_through_the_gateway(
    redis_client: redis.Redis, redis_server_url: str
) -> None:
    with running_arena(redis_server_url) as running:
        both = hello(games=("caper", "caper-europe"))
        bot = RawBot(running.target, running.register_bot("remote-eu"), first=both).start()
        assert bot.welcomed.wait(10)
        out = arena(
            "match", "remote-eu", "random", "--game", "caper-europe", "--city", "barcelona",
            "--redis-url", redis_server_url,
        )  # fmt: skip
        assert out.exit_code == 0, out.output
        assert "remote-eu vs random: 2 games" in out.output and "normal" in out.output
        started = [m.game_started for m in bot.of_kind("game_started")]
        assert [(s.game, s.config["city"].text) for s in started] == [
            ("caper-europe", "barcelona")
        ] * 2
        requests = bot.of_kind("decision_request")
        assert requests and all(
            m.decision_request.observation.WhichOneof("game") == "caper_europe" for m in requests
        )
        unknown = arena(
            "match", "remote-eu", "random", "--game", "chess", "--redis-url", redis_server_url
        )
        assert unknown.exit_code == 1 and "unknown game 'chess'" in unknown.output
        bot.close()


def test_register_quiet_prints_only_the_token(
    redis_client: redis.Redis, redis_server_url: str
) -> None:
    out = arena("bot", "register", "scripted", "--quiet", "--redis-url", redis_server_url)
    assert out.exit_code == 0, out.output
    token = out.output.strip()
    assert out.output == f"{token}\n"  # `TOKEN=$(arena bot register NAME --quiet)` works
    found = BotRegistry(redis_client).authenticate(token)
    assert found is not None and found.name == "scripted"


def test_a_bad_match_is_refused_before_the_remote_bot_hears_of_it(
    redis_client: redis.Redis, redis_server_url: str
) -> None:
    with running_arena(redis_server_url) as running:
        bot = RawBot(running.target, running.register_bot("remote")).start()
        assert bot.welcomed.wait(10)
        url = ("--redis-url", redis_server_url)
        refused = {
            "unknown city 'atlantis'": arena(
                "match", "remote", "greedy", "--city", "atlantis", *url
            ),
            "search@fast": arena("match", "remote", "search@fast", *url),
            "unknown player 'ghost'": arena("match", "remote", "ghost", *url),
            "unknown game 'chess'": arena("match", "remote", "greedy", "--game", "chess", *url),
            "--games": arena("match", "remote", "greedy", "--games", "0", *url),
        }
        for expected, out in refused.items():
            assert out.exit_code != 0 and expected in out.output, out.output
            assert "Traceback" not in out.output
        # The inbox keeps its order: had a refused match told the bot anything, it would come
        # before the one game of this good match.
        good = arena("match", "remote", "greedy", "--games", "1", "--city", "rome", *url)
        assert good.exit_code == 0, good.output
        started = bot.wait_for("game_over")
        assert len(started) == 1
        assert [m.game_started.config["city"].text for m in bot.of_kind("game_started")] == ["rome"]
        bot.close()


def test_matching_a_bot_that_is_not_connected_fails_at_once(
    redis_client: redis.Redis, redis_server_url: str
) -> None:
    BotRegistry(redis_client).register("sleeper")
    out = arena("match", "sleeper", "greedy", "--games", "2", "--redis-url", redis_server_url)
    assert out.exit_code == 1
    assert "bot sleeper is not connected" in out.output and "Traceback" not in out.output
    assert not redis_client.keys(keys.game_record("*")), "no game was played, nor recorded"
