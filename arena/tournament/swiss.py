"""Swiss pairing: one round at a time, from the entrant list and the recorded history.

`pair_round` is a pure function: the same entrants, history, round number and options always give
the same `Round`. Hard rules (a pairing that breaks one is never returned; if none is possible,
`NoValidPairingError` is raised):

* no rematch (a forfeited match counts as a meeting) and no forbidden pair;
* at most one pairing-allocated bye per entrant;
* unless matches are duplicate pairs, no seat difference beyond 2 and no seat three times in a row
  (strict FIDE Dutch applies FIDE's own colour rules, which relax this for last-round leaders).

Within those, the matcher (`matching.py`) pairs as many players as possible, gives the bye to
the lowest score group that can take it, keeps score differences (floats) small, grants seat
preferences, avoids floating a player the same way as in the last two rounds (a bye counts as a
downfloat), then follows the Dutch top-half-against-bottom-half order (round 1: 1 v n/2+1). This
is a Dutch-like system, not FIDE Dutch itself: it optimises the whole round at once where FIDE
Dutch pairs bracket by bracket from the top, so some rounds differ. For strict FIDE Dutch,
choose `SwissSystem.FIDE_DUTCH`: the round is then exported as TRF and paired by the maintained
caissify-pairings engine (`fide_dutch.py`).

History: after each round, store its results and every bye of the returned `Round` (pairing and
absence byes alike). Late entries: give the newcomer `late_entry_byes(...)` for the rounds it
missed (scored as `ByePoints.absent`), then list it among the entrants. Every entrant that has not
withdrawn must have exactly one result or bye in every earlier round, so a forgotten record is an
error, not a silently mis-scored player.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from arena.tournament.errors import (
    InvalidHistoryError,
    InvalidOptionError,
    NoValidPairingError,
    TooManyRoundsError,
    check_entrants,
    check_known,
)
from arena.tournament.fide_dutch import pair_fide_dutch
from arena.tournament.floats import Float, float_histories, recent_floats
from arena.tournament.ledger import Ledger, build_ledger
from arena.tournament.matching import Entry, match_round
from arena.tournament.model import Bye, ByeKind, ByePoints, MatchResult, Pairing, Round
from arena.tournament.seats import higher_takes_seat0, seat_preference


@dataclass(frozen=True, slots=True)
class History:
    """Everything recorded before the round being paired."""

    results: tuple[MatchResult, ...] = ()
    byes: tuple[Bye, ...] = ()

    def __post_init__(self) -> None:
        # Accept any sequence but store tuples, so a History never changes under the caller.
        object.__setattr__(self, "results", tuple(self.results))
        object.__setattr__(self, "byes", tuple(self.byes))


class SwissSystem(StrEnum):
    """Which pairing engine pairs the rounds."""

    ARENA = "arena"
    """Our Dutch-like matcher: fast (1,024 entrants well under 2 s a round), duplicate-aware."""

    FIDE_DUTCH = "fide-dutch"
    """Strict FIDE Dutch (C.04.3) by caissify-pairings, fed our TRF; slow beyond ~100 entrants."""


@dataclass(frozen=True, slots=True)
class SwissOptions:
    """Configuration of a Swiss event.

    `total_rounds`: planned length (checked against what the field can play); `duplicate`: matches
    are duplicate pairs, so seats do not matter and seat 0 goes to the higher-ranked entrant;
    `withdrawn`: out for good, never paired again; `absent`: skips this round only and gets an
    absence bye; `forbidden_pairs`: pairs that must never meet (same owner, same team);
    `system`: our Dutch-like matcher, or strict FIDE Dutch through caissify-pairings.
    """

    total_rounds: int | None = None
    duplicate: bool = False
    withdrawn: frozenset[str] = frozenset()
    absent: frozenset[str] = frozenset()
    forbidden_pairs: tuple[tuple[str, str], ...] = ()
    bye_points: ByePoints = field(default_factory=ByePoints)
    system: SwissSystem = SwissSystem.ARENA

    def __post_init__(self) -> None:
        object.__setattr__(self, "withdrawn", frozenset(self.withdrawn))
        object.__setattr__(self, "absent", frozenset(self.absent))
        object.__setattr__(self, "forbidden_pairs", tuple(map(tuple, self.forbidden_pairs)))
        try:
            object.__setattr__(self, "system", SwissSystem(self.system))
        except ValueError:
            known = ", ".join(s.value for s in SwissSystem)
            raise InvalidOptionError(f"unknown Swiss system {self.system!r}: {known}") from None
        if self.total_rounds is not None and self.total_rounds < 1:
            raise InvalidOptionError(f"total_rounds must be at least 1, got {self.total_rounds}")
        for pair in self.forbidden_pairs:
            if len(pair) != 2 or pair[0] == pair[1]:
                raise InvalidOptionError(f"a forbidden pair names two entrants, got {pair!r}")


@dataclass(frozen=True, slots=True)
class _Player:
    entrant: str
    seed: int
    score: float
    opponents: frozenset[str]
    seats: tuple[int, ...]  # seats of played (not forfeited) matches, oldest first
    had_pairing_bye: bool
    floats: tuple[Float, Float]  # last round's float, the one before


def max_swiss_rounds(entrant_count: int) -> int:
    """Most rounds a field can play without rematches or a second pairing bye.

    An even field runs out of opponents after n - 1 rounds; an odd one can go one round further,
    each entrant taking the bye once (a round robin with a dummy).
    """
    return entrant_count - 1 if entrant_count % 2 == 0 else entrant_count


def late_entry_byes(entrant: str, first_round: int) -> tuple[Bye, ...]:
    """Absence byes for the rounds before `first_round` that a late entrant missed."""
    return tuple(Bye(number, entrant, ByeKind.ABSENT) for number in range(1, first_round))


def pair_round(
    entrants: Sequence[str],
    history: History,
    round_number: int,
    options: SwissOptions | None = None,
) -> Round:
    """Pair round `round_number` of a Swiss.

    `entrants` is the seed order (pairing numbers 1..n); ties on score are ranked by it.
    Raises `NoValidPairingError` if the hard rules cannot all be met, and other
    `TournamentError`s for inconsistent input.
    """
    options = options or SwissOptions()
    players = check_entrants(entrants)
    _check_request(players, round_number, options)
    ledger = build_ledger(players, history.results, history.byes)
    _check_history(ledger, round_number, options.withdrawn)
    ranked = _ranked_active(players, ledger, options)
    if len(ranked) < 2:
        raise NoValidPairingError(f"round {round_number} has {len(ranked)} active entrants")
    if options.system is SwissSystem.FIDE_DUTCH:
        pairings, bye = _pair_fide_dutch(players, history, ranked, round_number, options)
    else:
        pairings, bye = _pair_arena(ranked, options)
    byes = [Bye(round_number, bye)] if bye is not None else []
    byes += [
        Bye(round_number, e, ByeKind.ABSENT)
        for e in players
        if e in options.absent and e not in options.withdrawn
    ]
    return Round(round_number, tuple(pairings), tuple(byes))


def _pair_arena(ranked: list[_Player], options: SwissOptions) -> tuple[list[Pairing], str | None]:
    matching = match_round(_entries(ranked, options), seats_matter=not options.duplicate)
    pairings = [_seat(ranked[hi], ranked[lo], hi, options.duplicate) for hi, lo in matching.pairs]
    return pairings, None if matching.bye is None else ranked[matching.bye].entrant


def _pair_fide_dutch(
    players: tuple[str, ...],
    history: History,
    ranked: list[_Player],
    round_number: int,
    options: SwissOptions,
) -> tuple[list[Pairing], str | None]:
    return pair_fide_dutch(
        players,
        history.results,
        history.byes,
        [p.entrant for p in ranked],
        round_number,
        total_rounds=options.total_rounds or max_swiss_rounds(len(players)),
        bye_points=options.bye_points,
        duplicate=options.duplicate,
        forbidden_pairs=options.forbidden_pairs,
    )


def _check_request(players: tuple[str, ...], round_number: int, options: SwissOptions) -> None:
    known = frozenset(players)
    for entrant in sorted(options.withdrawn | options.absent):
        check_known(entrant, known, "withdrawn/absent list")
    for pair in options.forbidden_pairs:
        for entrant in pair:
            check_known(entrant, known, "forbidden pair")
    limit = max_swiss_rounds(len(players))
    if options.total_rounds is not None and options.total_rounds > limit:
        raise TooManyRoundsError(
            f"{len(players)} entrants can play at most {limit} Swiss rounds, "
            f"{options.total_rounds} were planned"
        )
    if isinstance(round_number, bool) or not isinstance(round_number, int) or round_number < 1:
        raise InvalidOptionError(f"round numbers start at 1, got {round_number!r}")
    last = limit if options.total_rounds is None else options.total_rounds
    if round_number > last:
        raise TooManyRoundsError(f"cannot pair round {round_number}: the event has {last} rounds")


def _check_history(ledger: Ledger, round_number: int, withdrawn: frozenset[str]) -> None:
    if ledger.last_round >= round_number:
        raise InvalidHistoryError(
            f"history has records for round {ledger.last_round}, before round {round_number} "
            "has been paired"
        )
    for entrant in ledger.entrants:
        if entrant in withdrawn:
            continue  # a withdrawn entrant's past stays as recorded, gaps included
        missing = [r for r in range(1, round_number) if r not in ledger.records[entrant]]
        if missing:
            raise InvalidHistoryError(
                f"entrant {entrant!r} has no result or bye for round(s) {missing}; record the "
                "missing results, or absence byes (late_entry_byes) for a late entry"
            )


def _ranked_active(
    players: tuple[str, ...], ledger: Ledger, options: SwissOptions
) -> list[_Player]:
    """Entrants to pair this round, best first: score descending, then seed."""
    out = options.withdrawn | options.absent
    floats = float_histories(ledger, options.bye_points)
    active = []
    for seed, entrant in enumerate(players):
        if entrant in out:
            continue
        encounters = ledger.encounters(entrant)
        active.append(
            _Player(
                entrant=entrant,
                seed=seed,
                score=ledger.points(entrant, options.bye_points),
                opponents=frozenset(e.opponent for e in encounters),
                seats=tuple(e.seat for e in encounters if not e.forfeit),
                had_pairing_bye=any(b.kind is ByeKind.PAIRING for b in ledger.byes(entrant)),
                floats=recent_floats(floats[entrant]),
            )
        )
    active.sort(key=lambda p: (-p.score, p.seed))
    return active


def _entries(ranked: list[_Player], options: SwissOptions) -> list[Entry]:
    rank_of = {p.entrant: rank for rank, p in enumerate(ranked)}
    forbidden: dict[str, set[str]] = {p.entrant: set() for p in ranked}
    for a, b in options.forbidden_pairs:
        if a in forbidden and b in forbidden:
            forbidden[a].add(b)
            forbidden[b].add(a)
    entries = []
    for player in ranked:
        blocked = {e for e in player.opponents | forbidden[player.entrant] if e in rank_of}
        entries.append(
            Entry(
                # Scores are sums of 0, 1/2 and 1 (ByePoints enforces it), so this is exact.
                score2=round(2 * player.score),
                bye_eligible=not player.had_pairing_bye,
                seat=seat_preference(player.seats),
                blocked=frozenset(rank_of[e] for e in blocked),
                floats=player.floats,
            )
        )
    return entries


def _seat(higher: _Player, lower: _Player, higher_rank: int, duplicate: bool) -> Pairing:
    # A duplicate pair plays both seats, so only who starts differs: give it to the better rank.
    if duplicate or higher_takes_seat0(higher.seats, lower.seats, higher_rank):
        return Pairing(higher.entrant, lower.entrant)
    return Pairing(lower.entrant, higher.entrant)
