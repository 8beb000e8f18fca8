"""`arena bench swiss-compare`: how often our default Swiss pairing pairs a round exactly as
strict FIDE Dutch (the `fide-dutch` system) does, from the same history.

Each event is a small seat-mode Swiss with random results, played along the FIDE Dutch
pairings, so that every round starts from a history FIDE Dutch itself produced; at each round
both systems pair that history and the two rounds are compared. Repeated downfloats (a player
floated down, or given the bye, in a round after a downfloat in the round before) are counted for
both, since avoiding them is where the two used to part.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from arena.tournament import (
    Bye,
    ByePoints,
    History,
    MatchResult,
    NoValidPairingError,
    Round,
    SwissOptions,
    pair_round,
)
from arena.tournament.floats import Float, float_histories
from arena.tournament.ledger import build_ledger
from arena.tournament.swiss import SwissSystem, max_swiss_rounds

OUTCOMES = ((1.0, 0.0), (0.0, 1.0), (0.5, 0.5))
FIDE = SwissSystem.FIDE_DUTCH
MAX_ENTRANTS = 64  # FIDE Dutch's time a round grows steeply with the field


@dataclass(slots=True)
class SwissAgreement:
    events: int
    rounds: int = 0  # rounds both systems paired
    same_pairs: int = 0  # rounds with the same pairs and the same bye
    same_seats: int = 0  # ... and everyone in the same seat
    later_rounds: int = 0  # rounds after the first (round 1 is the fold in both)
    later_same_pairs: int = 0
    worse: int = 0  # rounds where ours gives the bye a higher score, or else floats more
    better: int = 0  # (floats: the squared score differences of all pairs)
    repeated_downfloats: int = 0  # ours, over all compared rounds
    fide_repeated_downfloats: int = 0


@dataclass(frozen=True, slots=True)
class EventShape:
    """The random events: field sizes and planned rounds, each drawn uniformly in its range."""

    min_entrants: int = 6
    max_entrants: int = 12
    min_rounds: int = 3
    max_rounds: int = 5

    def __post_init__(self) -> None:
        if not 4 <= self.min_entrants <= self.max_entrants <= MAX_ENTRANTS:
            raise ValueError(f"entrants: need 4 <= min <= max <= {MAX_ENTRANTS}")
        if not 1 <= self.min_rounds <= self.max_rounds:
            raise ValueError("rounds: need 1 <= min <= max")


def swiss_agreement(
    events: int, seed: int = 2026, shape: EventShape | None = None
) -> SwissAgreement:
    """Compare the two systems round by round over `events` random events (fixed by `seed`);
    an event's rounds are capped at what its field can play."""
    shape = shape or EventShape()
    rng = random.Random(seed)
    tally = SwissAgreement(events)
    for _ in range(events):
        size = rng.randint(shape.min_entrants, shape.max_entrants)
        cap = max_swiss_rounds(size)
        rounds = rng.randint(min(shape.min_rounds, cap), min(shape.max_rounds, cap))
        _compare_event(size, rounds, rng, tally)
    return tally


def _compare_event(size: int, rounds: int, rng: random.Random, tally: SwissAgreement) -> None:
    field = tuple(f"x{n:02d}" for n in range(1, size + 1))
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
            return
        same = _pair_sets(ours) == _pair_sets(fide)
        tally.rounds += 1
        tally.same_pairs += same
        tally.same_seats += set(ours.pairings) == set(fide.pairings) and ours.byes == fide.byes
        tally.later_rounds += number > 1
        tally.later_same_pairs += same and number > 1
        points = _points(field, results, byes)
        ours_cost, fide_cost = _primary_cost(ours, points), _primary_cost(fide, points)
        tally.worse += ours_cost > fide_cost
        tally.better += ours_cost < fide_cost
        tally.repeated_downfloats += _repeated_downfloats(field, results, byes, ours)
        tally.fide_repeated_downfloats += _repeated_downfloats(field, results, byes, fide)
        byes += fide.byes
        for p in fide.pairings:
            results.append(MatchResult(number, p.seat0, p.seat1, *rng.choice(OUTCOMES)))


def _pair_sets(round_: Round) -> tuple[frozenset[frozenset[str]], tuple[Bye, ...]]:
    return frozenset(frozenset(p.entrants) for p in round_.pairings), round_.byes


def _points(
    field: tuple[str, ...], results: list[MatchResult], byes: list[Bye]
) -> dict[str, float]:
    ledger = build_ledger(field, results, byes)
    return {e: ledger.points(e, ByePoints()) for e in field}


def _primary_cost(round_: Round, points: dict[str, float]) -> tuple[float, float]:
    """The bye's score, then the squared score differences (in half points) of all pairs."""
    bye = sum(points[b.entrant] for b in round_.byes)
    floats = sum((2 * (points[p.seat0] - points[p.seat1])) ** 2 for p in round_.pairings)
    return bye, floats


def _repeated_downfloats(
    field: tuple[str, ...], results: list[MatchResult], byes: list[Bye], round_: Round
) -> int:
    """Entrants floated down (or given the bye) in `round_` who floated down the round before."""
    before = float_histories(build_ledger(field, results, byes), ByePoints())
    points = _points(field, results, byes)
    down = {b.entrant for b in round_.byes}
    for p in round_.pairings:
        if points[p.seat0] != points[p.seat1]:
            down.add(max(p.entrants, key=points.__getitem__))
    return sum(1 for e in down if before[e][-1:] == (Float.DOWN,))
