"""Standings, tie-breaks and the crosstable, computed from recorded results and byes.

Order: points (match scores plus bye points), then the configured tie-breaks in turn, then seed.
Entrants still level after every tie-break share a rank.

Unplayed rounds (byes, forfeits, rounds with no record such as after a withdrawal) follow the
FIDE 2023 tie-break regulations (C.07, article 16) in simplified form:

* an opponent's score, as used in Buchholz and Sonneborn-Berger, counts each of the opponent's
  unplayed rounds as a draw ("adjusted score"), so nobody gains or loses tie-break points
  because someone else did not play;
* each of a player's own unplayed rounds adds the player's own points to their Buchholz, as if
  played against a dummy opponent with the same score, and adds nothing to Sonneborn-Berger;
* Buchholz cut-1 drops the least significant value, taking an unplayed round's value first.

Direct encounter: among entrants still tied, the match points each scored against the others,
used only when every two of them have met; otherwise it separates nobody.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import groupby

from arena.tournament.errors import InvalidOptionError, check_entrants
from arena.tournament.ledger import Ledger, build_ledger
from arena.tournament.model import DRAW, WIN, Bye, ByePoints, Encounter, MatchResult


class Tiebreak(StrEnum):
    BUCHHOLZ = "buchholz"
    BUCHHOLZ_CUT1 = "buchholz_cut1"
    SONNEBORN_BERGER = "sonneborn_berger"
    WINS = "wins"
    DIRECT_ENCOUNTER = "direct_encounter"
    GAME_POINTS = "game_points"


SWISS_TIEBREAKS = (Tiebreak.BUCHHOLZ_CUT1, Tiebreak.BUCHHOLZ, Tiebreak.SONNEBORN_BERGER)
ROUND_ROBIN_TIEBREAKS = (Tiebreak.DIRECT_ENCOUNTER, Tiebreak.WINS, Tiebreak.SONNEBORN_BERGER)


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the standings; `tiebreaks` follows the order they were applied in."""

    rank: int
    entrant: str
    points: float
    game_points: float
    matches: int  # matches on record, forfeits included, byes not
    wins: int
    tiebreaks: tuple[tuple[Tiebreak, float], ...]

    def tiebreak(self, which: Tiebreak) -> float:
        """The value of tie-break `which` (it must have been requested)."""
        for name, value in self.tiebreaks:
            if name == which:
                return value
        raise InvalidOptionError(f"tie-break {which} was not computed for these standings")


Crosstable = Mapping[str, Mapping[str, tuple[Encounter, ...]]]


def crosstable(entrants: Sequence[str], results: Iterable[MatchResult]) -> Crosstable:
    """`table[a][b]`: every match between `a` and `b`, seen from `a`, in round order.

    Every ordered pair of distinct entrants is present; pairs that never met map to `()`.
    """
    players = check_entrants(entrants)
    ledger = build_ledger(players, results, ())
    table: dict[str, dict[str, tuple[Encounter, ...]]] = {}
    for a in players:
        met: dict[str, list[Encounter]] = {b: [] for b in players if b != a}
        for encounter in ledger.encounters(a):
            met[encounter.opponent].append(encounter)
        table[a] = {b: tuple(encounters) for b, encounters in met.items()}
    return table


def standings(
    entrants: Sequence[str],
    results: Iterable[MatchResult],
    byes: Iterable[Bye] = (),
    tiebreaks: Sequence[Tiebreak] = SWISS_TIEBREAKS,
    bye_points: ByePoints | None = None,
    through_round: int | None = None,
) -> list[Standing]:
    """Rank `entrants` (in seed order) from `results` and `byes`, best first.

    `through_round` limits the standings to rounds 1..through_round (default: everything).
    """
    players = check_entrants(entrants)
    tiebreaks = _check_tiebreaks(tiebreaks)
    if through_round is not None:
        results = [r for r in results if r.round <= through_round]
        byes = [b for b in byes if b.round <= through_round]
    ledger = build_ledger(players, results, byes)
    scores = _Scores(ledger, bye_points or ByePoints())
    groups: list[list[str]] = _split([list(players)], scores.points)
    values: dict[str, list[tuple[Tiebreak, float]]] = {p: [] for p in players}
    for tiebreak in tiebreaks:
        computed: dict[str, float] = {}
        for group in groups:
            computed.update(scores.tiebreak(tiebreak, group))
        for entrant, value in computed.items():
            values[entrant].append((tiebreak, value))
        groups = _split(groups, computed)
    return _rank(groups, scores, values)


def _check_tiebreaks(tiebreaks: Sequence[Tiebreak]) -> list[Tiebreak]:
    try:
        checked = [Tiebreak(t) for t in tiebreaks]  # also accepts the plain string values
    except ValueError as error:
        raise InvalidOptionError(f"unknown tie-break in {list(tiebreaks)}") from error
    if len(set(checked)) != len(checked):
        raise InvalidOptionError(f"a tie-break is listed twice in {list(tiebreaks)}")
    return checked


def _split(groups: list[list[str]], key: Mapping[str, float]) -> list[list[str]]:
    """Refine each tie group by `key`, highest first; stable, so seed order survives."""
    refined = []
    for group in groups:
        ordered = sorted(group, key=lambda e: -key[e])
        refined += [list(tied) for _, tied in groupby(ordered, key=lambda e: key[e])]
    return refined


def _rank(
    groups: list[list[str]], scores: _Scores, values: dict[str, list[tuple[Tiebreak, float]]]
) -> list[Standing]:
    table = []
    rank = 1
    for group in groups:
        for entrant in group:
            encounters = scores.ledger.encounters(entrant)
            table.append(
                Standing(
                    rank=rank,
                    entrant=entrant,
                    points=scores.points[entrant],
                    game_points=sum(e.game_points for e in encounters),
                    matches=len(encounters),
                    wins=sum(1 for e in encounters if e.score == WIN),
                    tiebreaks=tuple(values[entrant]),
                )
            )
        rank += len(group)
    return table


class _Scores:
    """Points, adjusted scores and tie-break values over one ledger."""

    def __init__(self, ledger: Ledger, bye_points: ByePoints) -> None:
        self.ledger = ledger
        self.rounds = ledger.last_round  # rounds nobody has a record for have not been played
        self.points = {e: ledger.points(e, bye_points) for e in ledger.entrants}
        self.played = {e: [x for x in ledger.encounters(e) if not x.forfeit] for e in self.points}
        self.adjusted = {
            e: sum(x.score for x in played) + DRAW * self.unplayed(e)
            for e, played in self.played.items()
        }

    def unplayed(self, entrant: str) -> int:
        return self.rounds - len(self.played[entrant])

    def tiebreak(self, which: Tiebreak, group: list[str]) -> dict[str, float]:
        if which is Tiebreak.DIRECT_ENCOUNTER:
            return self.direct_encounter(group)
        return {e: self.single(which, e) for e in group}

    def single(self, which: Tiebreak, entrant: str) -> float:
        if which is Tiebreak.BUCHHOLZ:
            return sum(self.buchholz_terms(entrant))
        if which is Tiebreak.BUCHHOLZ_CUT1:
            return self.buchholz_cut1(entrant)
        if which is Tiebreak.SONNEBORN_BERGER:
            return sum(self.adjusted[x.opponent] * x.score for x in self.played[entrant])
        if which is Tiebreak.WINS:
            return float(sum(1 for x in self.ledger.encounters(entrant) if x.score == WIN))
        if which is Tiebreak.GAME_POINTS:
            return sum(x.game_points for x in self.ledger.encounters(entrant))
        raise InvalidOptionError(f"unknown tie-break {which!r}")

    def buchholz_terms(self, entrant: str) -> list[float]:
        """Played rounds (opponents' adjusted scores) first, then the unplayed rounds."""
        played = [self.adjusted[x.opponent] for x in self.played[entrant]]
        return played + [self.points[entrant]] * self.unplayed(entrant)

    def buchholz_cut1(self, entrant: str) -> float:
        terms = self.buchholz_terms(entrant)
        if not terms:
            return 0.0
        unplayed_terms = terms[len(self.played[entrant]) :]
        return sum(terms) - min(unplayed_terms or terms)

    def direct_encounter(self, group: list[str]) -> dict[str, float]:
        members = set(group)
        against = {
            e: [x for x in self.ledger.encounters(e) if x.opponent in members] for e in group
        }
        everyone_met = all(len({x.opponent for x in against[e]}) == len(members) - 1 for e in group)
        if len(group) < 2 or not everyone_met:
            return dict.fromkeys(group, 0.0)
        return {e: sum(x.score for x in against[e]) for e in group}
