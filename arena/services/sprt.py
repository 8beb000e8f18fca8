"""SPRT tests: start one (its players checked first), read its status, stop and resume it.
A test's state follows the event lifecycle (`arena.tournament.lifecycle`); the workers play its
batches of duplicate pairs (`arena.services.sprt_runs`, queued for `workers.sprt`)."""

from __future__ import annotations

from collections import Counter

import redis

from arena.games import base_config, get_game
from arena.services import sprt_runs
from arena.services.bots import check_players
from arena.store.sprt import SprtDefinition, SprtStatus, SprtStore
from arena.tournament.lifecycle import Command


def define(
    name: str,
    test: str,
    base: str,
    game: str,
    city: str | None,
    hypotheses: tuple[float, float],
    error_rates: tuple[float, float],
    max_pairs: int | None,
    batch_pairs: int,
    parallel: int,
    logistic: bool,
    seed: int,
) -> SprtDefinition:
    """A test of `test` against `base` in `game` (and `city`), H0 and H1 as (elo0, elo1), the
    error rates as (alpha, beta); refused with the reason if any of it is out of range."""
    elo0, elo1 = hypotheses
    alpha, beta = error_rates
    return SprtDefinition(
        name, test, base, game, base_config(game, city), elo0, elo1, alpha, beta,
        max_pairs, batch_pairs, parallel, not logistic, seed,
    )  # fmt: skip


def started(definition: SprtDefinition, queued: list[int]) -> str:
    """What the organiser reads once a test has started (not its seed: the site shows it to
    nobody while the test runs, as it fixes the deals to come)."""
    d = definition
    lower, upper = d.bounds
    return (
        f"SPRT {d.name} started: {d.test} (test) vs {d.base} (base), H0 elo {d.elo0:g}, "
        f"H1 elo {d.elo1:g} in {d.model}; LLR bounds {lower:.3f}, {upper:.3f}; "
        f"{len(queued)} batches of {d.batch_pairs} pairs queued for the workers"
    )


def start(client: redis.Redis, definition: SprtDefinition) -> list[int]:
    """Check both players, then queue the first batches; which batches were queued."""
    players = (definition.test, definition.base)
    check_players(client, get_game(definition.game), definition.config, players, definition.seed)
    return sprt_runs.start(client, definition)


def status(client: redis.Redis, name: str) -> tuple[SprtStatus, Counter[str]]:
    """The test's status and its batches by job state, after settling any batch whose worker
    died (so a test is never left running with nothing to play)."""
    SprtStore(client).status(name)  # an unknown name fails here, before any queue is looked at
    batches = sprt_runs.settle(client, name)
    return SprtStore(client).status(name), batches


def stop(client: redis.Redis, name: str) -> int:
    """No more pairs are played or counted; how many queued batches were taken off."""
    store = SprtStore(client)
    if not store.stop(name, "stopped by the organiser"):
        raise store.status(name).refusal(Command.STOP)
    return sprt_runs.cancel_queued(client, name)


def resume(client: redis.Redis, name: str) -> int:
    """Its pairs so far stand, the rest are played; how many batches were queued."""
    return sprt_runs.resume(client, name)


def stopped(name: str, taken_off: int) -> str:
    return f"SPRT {name} stopped; {taken_off} queued batches taken off the queue"


def resumed(name: str, queued: int) -> str:
    return f"SPRT {name} resumed; {queued} batches queued for the workers"
