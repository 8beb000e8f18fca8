"""`arena match --game age-of-thieves` through the gateway: a remote bot that announced the game
plays two games against a built-in bot, its requests carry the Age of Thieves messages and the
configuration names no city (one board)."""

from __future__ import annotations

import redis
from click.testing import CliRunner, Result

from arena.cli import main
from arena.gateway.testing import running_arena
from tests.gateway.rawbot import RawBot, hello


def arena(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_match_plays_age_of_thieves_through_the_gateway(
    redis_client: redis.Redis, redis_server_url: str
) -> None:
    with running_arena(redis_server_url) as running:
        thieves = hello(games=("age-of-thieves",))
        bot = RawBot(running.target, running.register_bot("thief"), first=thieves).start()
        assert bot.welcomed.wait(10)
        out = arena("match", "thief", "random", "--game", "age-of-thieves",
                    "--redis-url", redis_server_url)  # fmt: skip
        assert out.exit_code == 0, out.output
        assert "thief vs random: 2 games" in out.output and "normal" in out.output
        started = [m.game_started for m in bot.of_kind("game_started")]
        assert [(s.game, dict(s.config)) for s in started] == [("age-of-thieves", {})] * 2
        requests = bot.of_kind("decision_request")
        assert requests and all(
            m.decision_request.observation.WhichOneof("game") == "age_of_thieves" for m in requests
        )
        bot.close()
