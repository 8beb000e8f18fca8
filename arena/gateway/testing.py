"""A whole arena in one process, for tests, benchmarks and the demo: the gateway on a loopback
port in a background thread, and matches refereed in the caller's thread."""

from __future__ import annotations

import dataclasses
import secrets
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from arena.games import get_game
from arena.games.api import Config
from arena.gateway.server import GatewaySettings, GatewayThread
from arena.play.match import play_match
from arena.referee.referee import FaultPolicy, GameOutcome
from arena.store.bots import BotRegistry
from arena.store.server import connect

TEST_POLICY = FaultPolicy(move_ms=2000, bank_ms=5000, max_strikes=3, grace_ms=5000)


class Arena:
    def __init__(self, redis_url: str, admin_token: str, outage_limit_s: float = 10.0) -> None:
        self.redis_url = redis_url
        self.admin_token = admin_token
        self.client = connect(redis_url)
        self._settings = GatewaySettings(
            redis_url, port=0, admin_token=admin_token, outage_limit_s=outage_limit_s
        )
        self.gateway = GatewayThread(self._settings).start()

    @property
    def target(self) -> str:
        return self.gateway.target

    def register_bot(self, name: str) -> str:
        _, token = BotRegistry(self.client).register(name)
        return token

    def play_match(
        self,
        bot_a: str,
        bot_b: str,
        games: int = 2,
        seed: int = 1,
        config: Config | None = None,
        policy: FaultPolicy = TEST_POLICY,
        game: str = "caper",
    ) -> list[GameOutcome]:
        match_id = "m" + secrets.token_hex(4)
        players: Sequence[str] = (bot_a, bot_b)
        return play_match(
            self.client,
            get_game(game),
            config or {"city": "paris"},
            players,
            games,
            seed,
            policy,
            match_id,
        )

    def restart_gateway(self) -> None:
        """Stop the gateway and start a new one on the same port (bots must reconnect)."""
        port = self.gateway.port
        self.gateway.stop()
        settings = dataclasses.replace(self._settings, port=port)
        self.gateway = GatewayThread(settings).start()

    def close(self) -> None:
        self.gateway.stop()
        self.client.close()


@contextmanager
def running_arena(
    redis_url: str, admin_token: str = "admin-secret", outage_limit_s: float = 10.0
) -> Iterator[Arena]:
    arena = Arena(redis_url, admin_token, outage_limit_s)
    try:
        yield arena
    finally:
        arena.close()
