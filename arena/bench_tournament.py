"""`arena bench tournament`: the time to pair one Swiss round (or one round of Swiss pods of
tables) of a large field; the pipeline's games per second are in `arena.bench_pipeline`."""

from __future__ import annotations

import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from arena.tournament import (
    Bye,
    ByePoints,
    History,
    MatchResult,
    NoValidPairingError,
    PodHistory,
    Round,
    SwissOptions,
    TableBye,
    TableResult,
    pair_pods,
    pair_round,
)
from arena.tournament.grouping import Meetings, repeats
from arena.tournament.ledger import build_ledger
from arena.tournament.seats import seat_preference
from arena.tournament.swiss import SwissSystem
from arena.tournament.tables import seat_counts

FIDE = SwissSystem.FIDE_DUTCH


@dataclass(frozen=True, slots=True)
class PairingFigures:
    entrants: int
    rounds: int
    mean_seconds: float
    max_seconds: float
    unmet_seat_preferences: int  # over all rounds: entrants seated against their preference
    seat_preferences: int  # over all rounds: entrants who had one


def swiss_pairing_times(sizes: Sequence[int], rounds: int, seed: int = 1) -> list[PairingFigures]:
    """Pair `rounds` rounds of a seat-mode Swiss of each size, with random results (wins,
    draws, losses), timing each pairing on this core and counting seat preferences it left unmet."""
    return [_time_swiss(size, rounds, random.Random(seed)) for size in sizes]


def _time_swiss(size: int, rounds: int, rng: random.Random) -> PairingFigures:
    field = [f"e{n:04d}" for n in range(1, size + 1)]
    options = SwissOptions(total_rounds=rounds)
    results: list[MatchResult] = []
    byes: list[Bye] = []
    seats: dict[str, list[int]] = {entrant: [] for entrant in field}
    timings = []
    wanted = unmet = 0
    for number in range(1, rounds + 1):
        started = time.process_time()  # CPU time: other processes on the machine do not count
        round_ = pair_round(field, History(tuple(results), tuple(byes)), number, options)
        timings.append(time.process_time() - started)
        byes += round_.byes
        for pairing in round_.pairings:
            for seat, entrant in enumerate(pairing.entrants):
                preference = seat_preference(seats[entrant])
                wanted += preference.seat is not None
                unmet += preference.seat not in (None, seat)
                seats[entrant].append(seat)
            points = rng.choice((0.0, 0.5, 1.0))
            results.append(MatchResult(number, pairing.seat0, pairing.seat1, points, 1 - points))
    return PairingFigures(size, rounds, sum(timings) / rounds, max(timings), unmet, wanted)


@dataclass(frozen=True, slots=True)
class FideComparison:
    events: int
    rounds: int  # rounds both engines could pair
    worse: int  # rounds where ours gave the bye a higher score, or floated more than FIDE Dutch
    better: int


def fide_comparison(events: int, seed: int = 2026) -> FideComparison:
    """Our pairing against strict FIDE Dutch (caissify-pairings) from the same history, over
    small seat-mode events with random results: a round is worse if our bye has a higher score,
    or the same and our pairs have more squared score difference (floats)."""
    rng = random.Random(seed)
    compared = worse = better = 0
    for _ in range(events):
        size = rng.choice((5, 7, 9, 11, 13, 15))
        rounds = rng.randint(3, min(6, size - 1))
        field = tuple(f"x{n:02d}" for n in range(size))
        results: list[MatchResult] = []
        byes: list[Bye] = []
        for number in range(1, rounds + 1):
            history = History(tuple(results), tuple(byes))
            try:
                ours = pair_round(field, history, number, SwissOptions(total_rounds=rounds))
                fide = pair_round(
                    field, history, number, SwissOptions(total_rounds=rounds, system=FIDE)
                )
            except NoValidPairingError:
                break
            ledger = build_ledger(field, results, byes)
            points = {e: ledger.points(e, ByePoints()) for e in field}
            cost = [_pairing_cost(r, points) for r in (ours, fide)]
            compared += 1
            worse += cost[0] > cost[1]
            better += cost[0] < cost[1]
            byes += ours.byes
            for p in ours.pairings:
                outcome = rng.choice(((1.0, 0.0), (0.0, 1.0), (0.5, 0.5)))
                results.append(MatchResult(number, p.seat0, p.seat1, *outcome))
    return FideComparison(events, compared, worse, better)


def _pairing_cost(round_: Round, points: Mapping[str, float]) -> tuple[float, float]:
    bye = sum(points[b.entrant] for b in round_.byes)
    floats = sum((2 * (points[p.seat0] - points[p.seat1])) ** 2 for p in round_.pairings)
    return bye, floats


@dataclass(frozen=True, slots=True)
class PodFigures:
    entrants: int
    table_size: int
    rounds: int
    mean_seconds: float
    max_seconds: float
    repeat_meetings: int  # over all rounds: pairs at a table who had shared one before
    seat_spread: int  # the largest gap between an entrant's most and least used seat


def pod_pairing_times(
    sizes: Sequence[int], rounds: int, table_size: int = 3, seed: int = 1
) -> list[PodFigures]:
    """Pair `rounds` rounds of Swiss pods of each size, with random game points (ties
    included), timing each round on this core (CPU time) and counting repeat meetings."""
    return [_time_pods(size, rounds, table_size, random.Random(seed)) for size in sizes]


def _time_pods(size: int, rounds: int, table_size: int, rng: random.Random) -> PodFigures:
    field = [f"e{n:04d}" for n in range(1, size + 1)]
    results: list[TableResult] = []
    byes: list[TableBye] = []
    timings = []
    meetings = 0
    for number in range(1, rounds + 1):
        started = time.process_time()
        round_ = pair_pods(field, PodHistory(tuple(results), tuple(byes)), number, table_size)
        timings.append(time.process_time() - started)
        meetings += repeats(round_.tables, Meetings(r.entrants for r in results))
        byes += round_.bye_records
        for table in round_.tables:
            scores = tuple(float(rng.randint(0, 12)) for _ in table)
            results.append(TableResult(number, table, scores))
    seats = seat_counts(r.entrants for r in results).values()
    spread = max(max(used) - min(used) for used in seats) if len(seats) else 0
    return PodFigures(
        size, table_size, rounds, sum(timings) / rounds, max(timings), meetings, spread
    )
