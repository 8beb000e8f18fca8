"""Shared by the metrics tests: an arena with a bit of everything, and reading an exposition."""

from __future__ import annotations

import redis
from prometheus_client.parser import text_string_to_metric_families
from prometheus_client.samples import Sample

from arena.metrics.recorder import record_game, record_voided
from arena.store import keys
from arena.store.bots import BotRegistry
from arena.store.job_queue import arena_queue
from arena.store.ratings import RatedResult, RatingStore
from tests.store.ratings_helpers import make_ladder


def samples(text: bytes) -> dict[str, list[Sample]]:
    found: dict[str, list[Sample]] = {}
    for family in text_string_to_metric_families(text.decode()):
        for sample in family.samples:
            found.setdefault(sample.name, []).append(sample)
    return found


def value(found: dict[str, list[Sample]], name: str, **labels: str) -> float:
    matching = [
        s.value for s in found[name] if all(s.labels.get(k) == v for k, v in labels.items())
    ]
    assert len(matching) == 1, (name, labels, found.get(name))
    return matching[0]


def populate(client: redis.Redis) -> None:
    ladder = make_ladder(client)
    store = RatingStore(client)
    for index, (a, b) in enumerate(
        [("greedy", "random"), ("search#3", "greedy"), ("random", "search@5")]
    ):
        store.apply(ladder, RatedResult(f"r{index}", a, b, 1.0, float(index)))
    record_game(client, "caper", 0, "normal", 0.3, [("builtin", 0.002), ("remote", 0.4)], 0)
    record_game(client, "caper", 1, "timeout", 12.0, [("remote", 1.2), ("remote", 1.3)], 3)
    record_game(client, "caper", None, "normal", 0.2, [], 0)
    record_voided(client, "caper", 2)
    registry = BotRegistry(client)
    for name in ("alpha", "beta"):
        registry.register(name)
    alpha = registry.by_name("alpha")
    assert alpha is not None
    client.set(keys.bot_online(alpha.bot_id), "session", ex=30)
    arena_queue(client).enqueue("workers.ladder.play_ladder_match", args=("x", 1, "a", "b"))
