"""`arena bench tournament`: the time to pair one Swiss round (or one round of Swiss pods of
tables) of a large field; the pipeline's games per second are in `arena.bench.pipeline`."""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from arena.tournament import (
    Bye,
    History,
    MatchResult,
    PodHistory,
    SwissOptions,
    TableBye,
    TableResult,
    pair_pods,
    pair_round,
)
from arena.tournament.grouping import Meetings, repeats
from arena.tournament.seats import seat_preference
from arena.tournament.tables import seat_counts


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
class PodFigures:
    entrants: int
    pod_seats: int
    rounds: int
    mean_seconds: float
    max_seconds: float
    repeat_meetings: int  # over all rounds: pairs at a table who had shared one before
    seat_spread: int  # the largest gap between an entrant's most and least used seat


def pod_pairing_times(
    sizes: Sequence[int], rounds: int, pod_seats: int = 3, seed: int = 1
) -> list[PodFigures]:
    """Pair `rounds` rounds of Swiss pods of each size, with random game points (ties
    included), timing each round on this core (CPU time) and counting repeat meetings."""
    return [_time_pods(size, rounds, pod_seats, random.Random(seed)) for size in sizes]


def _time_pods(size: int, rounds: int, pod_seats: int, rng: random.Random) -> PodFigures:
    field = [f"e{n:04d}" for n in range(1, size + 1)]
    results: list[TableResult] = []
    byes: list[TableBye] = []
    timings = []
    meetings = 0
    for number in range(1, rounds + 1):
        started = time.process_time()
        round_ = pair_pods(field, PodHistory(tuple(results), tuple(byes)), number, pod_seats)
        timings.append(time.process_time() - started)
        meetings += repeats(round_.tables, Meetings(r.entrants for r in results))
        byes += round_.bye_records
        for table in round_.tables:
            scores = tuple(float(rng.randint(0, 12)) for _ in table)
            results.append(TableResult(number, table, scores))
    seats = seat_counts(r.entrants for r in results).values()
    spread = max(max(used) - min(used) for used in seats) if len(seats) else 0
    return PodFigures(
        size, pod_seats, rounds, sum(timings) / rounds, max(timings), meetings, spread
    )
