"""`arena bench web`: how long the standings page of a 1,024-entrant Swiss takes to load, and
the bots page over that history.

The tournament is written straight into Redis through the store (no games are played): every
round of a 10-round Swiss, each match with a duplicate pair of game records of the shape the
Bradley-Terry fit reads, so the page computes standings, tie-breaks, the crosstable and the
fit exactly as for a played event. The site then runs on a real uvicorn on loopback and the page
is fetched N times: the server's own time (its Server-Timing header) and the full fetch. The first
view also fits Bradley-Terry ratings (and reads the games); later views reuse that fit.

The bots page is timed over the same Swiss, some of its entrants registered as bots. The Swiss
is written without the bots' recent-matches lists, as an arena from before them: its first view
fills them (`arena.store.recent_backfill`), later views read only them.
"""

from __future__ import annotations

import json
import statistics
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import redis

from arena.bench.worker_fleet import register_busy_workers
from arena.store import keys
from arena.store.bots import BotRegistry
from arena.store.results import StoredMatch, match_id
from arena.store.server import connect, redis_url
from arena.store.tournaments import Status, TournamentStore
from arena.tournament import MatchResult, Pairing, Round
from arena.tournament.definition import Format, TournamentDefinition
from arena.web.server import serving

NAME = "bench-web"


@dataclass(frozen=True, slots=True)
class PageFigures:
    entrants: int
    rounds: int
    bytes: int
    first_server_ms: float  # the first view, which fits the Bradley-Terry ratings
    first_fetch_ms: float
    server_ms: float  # then, median of the Server-Timing durations
    fetch_ms: float  # median of the whole request, read to the last byte
    fetches: int
    live_ms: float  # median full fetch of the live JSON the page polls


@dataclass(frozen=True, slots=True)
class BotsPageFigures:
    registered: int
    matches: int  # recorded in the Swiss
    first_server_ms: float
    server_ms: float  # then, median of the Server-Timing durations
    fetches: int


def _winner(a: int, b: int, round_number: int) -> int:
    """A deterministic spread of results: the lower index mostly wins, some upsets."""
    return 0 if (a * 7 + b * 3 + round_number) % 5 else 1


def build_swiss(client: redis.Redis, entrants: int = 1024, rounds: int = 10) -> None:
    """A finished Swiss: in round r entrant i meets i XOR 2^(r-1), never the same one twice."""
    names = tuple(f"bot{i:04d}" for i in range(entrants))
    store = TournamentStore(client)
    store.create(TournamentDefinition(NAME, Format.SWISS, names, rounds=rounds))
    pipe = client.pipeline(transaction=False)
    for number in range(1, rounds + 1):
        pairs = [(i, i ^ (1 << (number - 1))) for i in range(entrants)]
        pairs = [(a, b) if number % 2 else (b, a) for a, b in pairs if a < b]
        store.save_round(NAME, Round(number, tuple(Pairing(names[a], names[b]) for a, b in pairs)))
        for board, (a, b) in enumerate(pairs):
            the_id = match_id(NAME, number, board)
            games = (f"{the_id}.g0", f"{the_id}.g1")
            winner = _winner(a, b, number)
            for index, game in enumerate(games):
                seats = [names[a], names[b]] if index == 0 else [names[b], names[a]]
                won = winner if index == 0 else 1 - winner
                record = {"players": seats, "result": {"winner": won}}
                pipe.set(keys.game_record(game), json.dumps(record))
            points = (2.0, 0.0) if winner == 0 else (0.0, 2.0)
            result = MatchResult(number, names[a], names[b], *points)
            match = StoredMatch(the_id, result, games, ("normal", "normal"), 0)
            pipe.hsetnx(keys.tournament_results(NAME), the_id, match.to_json())
        pipe.execute()
    store.set_status(NAME, Status.FINISHED)


def _fetch(url: str) -> tuple[float, float, int]:
    started = time.perf_counter()
    with urllib.request.urlopen(url, timeout=300) as response:
        body = response.read()
        timing = response.headers.get("server-timing", "")
    fetch_ms = (time.perf_counter() - started) * 1000
    server_ms = float(timing.partition("dur=")[2] or "nan")
    return server_ms, fetch_ms, len(body)


@contextmanager
def fresh_arena() -> Iterator[redis.Redis]:
    with redis_url() as url:
        client = connect(url)
        try:
            yield client
        finally:
            client.close()


def standings_page(entrants: int = 1024, rounds: int = 10, fetches: int = 5) -> PageFigures:
    with fresh_arena() as client:
        build_swiss(client, entrants, rounds)
        with serving(client) as site:
            url = f"{site}/tournaments/{NAME}"
            first = _fetch(url)
            runs = [_fetch(url) for _ in range(fetches)]
            live = [_fetch(f"{url}/live.json") for _ in range(fetches)]
    return PageFigures(
        entrants,
        rounds,
        runs[-1][2],
        first[0],
        first[1],
        statistics.median(r[0] for r in runs),
        statistics.median(r[1] for r in runs),
        fetches,
        statistics.median(r[1] for r in live),
    )


def bots_page(
    entrants: int = 1024, rounds: int = 10, fetches: int = 5, registered: int = 32
) -> BotsPageFigures:
    """The bots page with `registered` of the Swiss's entrants registered as bots."""
    with fresh_arena() as client:
        build_swiss(client, entrants, rounds)
        registry = BotRegistry(client)
        for index in range(min(registered, entrants)):
            registry.register(f"bot{index:04d}")
        with serving(client) as site:
            first = _fetch(f"{site}/bots")
            runs = [_fetch(f"{site}/bots") for _ in range(fetches)]
        matches = TournamentStore(client).recorded_count(NAME)
    return BotsPageFigures(
        min(registered, entrants),
        matches,
        first[0],
        statistics.median(r[0] for r in runs),
        fetches,
    )


@dataclass(frozen=True, slots=True)
class WorkersPageFigures:
    workers: int
    first_server_ms: float
    server_ms: float  # then, median of the Server-Timing durations
    fetch_ms: float  # median of the whole request
    fetches: int


def workers_page(workers: int = 100, fetches: int = 5) -> WorkersPageFigures:
    """The workers page with `workers` registered RQ workers, each playing a match."""
    with fresh_arena() as client:
        register_busy_workers(client, workers, NAME)
        with serving(client) as site:
            first = _fetch(f"{site}/workers")
            runs = [_fetch(f"{site}/workers") for _ in range(fetches)]
    return WorkersPageFigures(
        workers,
        first[0],
        statistics.median(r[0] for r in runs),
        statistics.median(r[1] for r in runs),
        fetches,
    )
