"""Standings, tie-breaks and the crosstable, on small hand-computed tournaments."""

from __future__ import annotations

import pytest

from arena.tournament import (
    Bye,
    ByeKind,
    ByePoints,
    Encounter,
    InvalidHistoryError,
    InvalidOptionError,
    InvalidResultError,
    MatchResult,
    Standing,
    Tiebreak,
    UnknownEntrantError,
    crosstable,
    standings,
)

ALL = (
    Tiebreak.BUCHHOLZ,
    Tiebreak.BUCHHOLZ_CUT1,
    Tiebreak.SONNEBORN_BERGER,
    Tiebreak.WINS,
    Tiebreak.GAME_POINTS,
)

# Four-player round robin, no unplayed games:
#   R1: A-B 1-0, C-D 1/2-1/2    R2: A-C 1/2-1/2, B-D 1-0    R3: A-D 1-0, B-C 0-1
# Points A 2.5, B 1, C 2, D 0.5.
ROUND_ROBIN = (
    MatchResult(1, "A", "B", 1, 0),
    MatchResult(1, "C", "D", 0.5, 0.5),
    MatchResult(2, "A", "C", 0.5, 0.5),
    MatchResult(2, "B", "D", 1, 0),
    MatchResult(3, "A", "D", 1, 0),
    MatchResult(3, "B", "C", 0, 1),
)

# Five-player Swiss with a pairing bye each round and a forfeit:
#   R1: P1-P2 1-0, P3-P4 1/2-1/2, P5 bye
#   R2: P1-P3 0-1, P5-P2 1-0,     P4 bye
#   R3: P3-P5 1/2-1/2, P4-P1 forfeit (P1 wins), P2 bye
# Points P1 2, P2 1, P3 2, P4 1.5, P5 2.5.
SWISS = (
    MatchResult(1, "P1", "P2", 1, 0),
    MatchResult(1, "P3", "P4", 0.5, 0.5),
    MatchResult(2, "P1", "P3", 0, 1),
    MatchResult(2, "P5", "P2", 1, 0),
    MatchResult(3, "P3", "P5", 0.5, 0.5),
    MatchResult(3, "P4", "P1", 0, 1, forfeit=True),
)
SWISS_BYES = (Bye(1, "P5"), Bye(2, "P4"), Bye(3, "P2"))


def values(table: list[Standing], which: Tiebreak) -> dict[str, float]:
    return {s.entrant: s.tiebreak(which) for s in table}


def test_standings_round_robin_known_tiebreaks() -> None:
    table = standings("ABCD", ROUND_ROBIN, tiebreaks=ALL)
    assert [(s.rank, s.entrant, s.points) for s in table] == [
        (1, "A", 2.5),
        (2, "C", 2.0),
        (3, "B", 1.0),
        (4, "D", 0.5),
    ]
    # Buchholz = sum of opponents' points: A 1+2+0.5, B 2.5+0.5+2, C 0.5+2.5+1, D 2+1+2.5.
    assert values(table, Tiebreak.BUCHHOLZ) == {"A": 3.5, "B": 5.0, "C": 4.0, "D": 5.5}
    # Cut-1 drops the weakest opponent: A -0.5 (D), B -0.5 (D), C -0.5 (D), D -1 (B).
    assert values(table, Tiebreak.BUCHHOLZ_CUT1) == {"A": 3.0, "B": 4.5, "C": 3.5, "D": 4.5}
    # Sonneborn-Berger = sum of (score against x) * (x's points):
    # A 1*1 + 0.5*2 + 1*0.5; B 1*0.5; C 0.5*0.5 + 0.5*2.5 + 1*1; D 0.5*2.
    assert values(table, Tiebreak.SONNEBORN_BERGER) == {"A": 2.5, "B": 0.5, "C": 2.5, "D": 1.0}
    assert values(table, Tiebreak.WINS) == {"A": 2.0, "B": 1.0, "C": 1.0, "D": 0.0}
    assert [(s.entrant, s.matches, s.wins) for s in table] == [
        ("A", 3, 2),
        ("C", 3, 1),
        ("B", 3, 1),
        ("D", 3, 0),
    ]


def test_standings_swiss_known_tiebreaks_with_byes_and_forfeit() -> None:
    table = standings(["P1", "P2", "P3", "P4", "P5"], SWISS, SWISS_BYES, tiebreaks=ALL)
    # Opponents' adjusted scores count their unplayed rounds as draws:
    # P1 1+0+0.5, P2 0+0+0.5, P3 0.5+1+0.5, P4 0.5+0.5+0.5, P5 1+0.5+0.5.
    # Own unplayed rounds add the player's own points (dummy opponent on the same score).
    # Buchholz: P1 0.5+2+2 (forfeit round), P2 1.5+2+1 (bye), P3 1.5+1.5+2, P4 2+1.5+1.5,
    # P5 0.5+2+2.5.
    assert values(table, Tiebreak.BUCHHOLZ) == {"P1": 4.5, "P2": 4.5, "P3": 5, "P4": 5, "P5": 5}
    # Cut-1 drops an unplayed round's value first: P1 -2, P2 -1, P3 -1.5 (played), P4 -1.5,
    # P5 -2.5.
    assert values(table, Tiebreak.BUCHHOLZ_CUT1) == {
        "P1": 2.5,
        "P2": 3.5,
        "P3": 3.5,
        "P4": 3.5,
        "P5": 2.5,
    }
    # Sonneborn-Berger over played games only: P1 1*0.5; P3 0.5*1.5 + 1*1.5 + 0.5*2;
    # P4 0.5*2; P5 1*0.5 + 0.5*2.
    assert values(table, Tiebreak.SONNEBORN_BERGER) == {
        "P1": 0.5,
        "P2": 0.0,
        "P3": 3.25,
        "P4": 1.0,
        "P5": 1.5,
    }
    # Wins count forfeit wins, never byes.
    assert values(table, Tiebreak.WINS) == {"P1": 2, "P2": 0, "P3": 1, "P4": 0, "P5": 1}
    # P1 and P3 tie on 2 points; cut-1 (2.5 against 3.5) puts P3 first.
    assert [(s.rank, s.entrant, s.points) for s in table] == [
        (1, "P5", 2.5),
        (2, "P3", 2.0),
        (3, "P1", 2.0),
        (4, "P4", 1.5),
        (5, "P2", 1.0),
    ]


def test_standings_default_tiebreaks_are_buchholz_cut1_buchholz_sonneborn_berger() -> None:
    table = standings(["P1", "P2", "P3", "P4", "P5"], SWISS, SWISS_BYES)
    assert [name for name, _ in table[0].tiebreaks] == [
        Tiebreak.BUCHHOLZ_CUT1,
        Tiebreak.BUCHHOLZ,
        Tiebreak.SONNEBORN_BERGER,
    ]


def test_standings_bye_points_are_configurable() -> None:
    table = standings(
        ["P1", "P2", "P3", "P4", "P5"], SWISS, SWISS_BYES, bye_points=ByePoints(pairing=0.5)
    )
    assert {s.entrant: s.points for s in table} == {
        "P1": 2.0,
        "P2": 0.5,
        "P3": 2.0,
        "P4": 1.0,
        "P5": 2.0,
    }


def test_standings_absence_byes_score_the_absent_amount() -> None:
    results = [MatchResult(2, "a", "b", 1, 0)]
    byes = [Bye(1, "a", ByeKind.ABSENT), Bye(1, "b", ByeKind.ABSENT)]
    half = standings("ab", results, byes, bye_points=ByePoints(absent=0.5))
    assert [(s.entrant, s.points) for s in half] == [("a", 1.5), ("b", 0.5)]
    zero = standings("ab", results, byes)
    assert [(s.entrant, s.points) for s in zero] == [("a", 1.0), ("b", 0.0)]


def test_standings_direct_encounter_separates_two_tied_entrants() -> None:
    # B and A both end on 2 points; A won their game. B is seeded first.
    results = [
        MatchResult(1, "A", "B", 1, 0),
        MatchResult(1, "C", "D", 0, 1),
        MatchResult(2, "C", "A", 1, 0),
        MatchResult(2, "B", "D", 1, 0),
        MatchResult(3, "A", "D", 1, 0),
        MatchResult(3, "B", "C", 1, 0),
    ]
    without = standings("BACD", results, tiebreaks=())
    assert [(s.rank, s.entrant) for s in without[:2]] == [(1, "B"), (1, "A")]  # shared rank
    with_de = standings("BACD", results, tiebreaks=(Tiebreak.DIRECT_ENCOUNTER,))
    assert [(s.rank, s.entrant) for s in with_de[:2]] == [(1, "A"), (2, "B")]
    assert values(with_de, Tiebreak.DIRECT_ENCOUNTER)["A"] == 1.0


def test_standings_direct_encounter_ignored_unless_all_tied_entrants_met() -> None:
    # A, B, C, E and F all end on 1 point, and most of them never met: A's win over B
    # must not count.
    results = [
        MatchResult(1, "A", "B", 1, 0),
        MatchResult(1, "C", "D", 1, 0),
        MatchResult(2, "B", "D", 1, 0),
        MatchResult(2, "E", "A", 1, 0),
        MatchResult(2, "C", "F", 0, 1),
    ]
    table = standings("ABCDEF", results, tiebreaks=(Tiebreak.DIRECT_ENCOUNTER,))
    tied = [s for s in table if s.points == 1.0 and s.entrant in "ABC"]
    assert [(s.entrant, s.tiebreak(Tiebreak.DIRECT_ENCOUNTER)) for s in tied] == [
        ("A", 0.0),
        ("B", 0.0),
        ("C", 0.0),
    ]


def test_standings_duplicate_pairs_score_the_match_and_keep_game_points() -> None:
    results = [
        MatchResult(1, "x", "y", 1.5, 0.5),
        MatchResult(2, "y", "z", 1, 1),
        MatchResult(3, "z", "x", 2, 0),
    ]
    table = standings("xyz", results, tiebreaks=(Tiebreak.GAME_POINTS,))
    assert {s.entrant: (s.points, s.game_points) for s in table} == {
        "x": (1.0, 1.5),
        "y": (0.5, 1.5),
        "z": (1.5, 3.0),
    }
    assert results[0].score0 == 1.0 and results[0].score1 == 0.0
    assert results[1].score0 == results[1].score1 == 0.5


def test_standings_through_round_ignores_later_rounds() -> None:
    table = standings("ABCD", ROUND_ROBIN, through_round=1, tiebreaks=(Tiebreak.BUCHHOLZ,))
    assert {s.entrant: s.points for s in table} == {"A": 1.0, "B": 0.0, "C": 0.5, "D": 0.5}
    assert values(table, Tiebreak.BUCHHOLZ) == {"A": 0.0, "B": 1.0, "C": 0.5, "D": 0.5}


def test_standings_accepts_tiebreak_names_as_strings() -> None:
    table = standings("ABCD", ROUND_ROBIN, tiebreaks=["wins"])  # type: ignore[list-item]
    assert table[0].tiebreak(Tiebreak.WINS) == 2.0


def test_standings_rejects_bad_input() -> None:
    with pytest.raises(UnknownEntrantError, match="'Z'"):
        standings("ABCD", [*ROUND_ROBIN, MatchResult(4, "A", "Z", 1, 0)])
    with pytest.raises(InvalidHistoryError, match="two records"):
        standings("ABCD", ROUND_ROBIN, [Bye(1, "A")])
    with pytest.raises(InvalidOptionError, match="twice"):
        standings("ABCD", ROUND_ROBIN, tiebreaks=(Tiebreak.WINS, Tiebreak.WINS))
    with pytest.raises(InvalidOptionError, match="unknown"):
        standings("ABCD", ROUND_ROBIN, tiebreaks=["median"])  # type: ignore[list-item]
    with pytest.raises(InvalidOptionError, match="not computed"):
        standings("ABCD", ROUND_ROBIN, tiebreaks=())[0].tiebreak(Tiebreak.WINS)


def test_match_result_rejects_malformed_results() -> None:
    with pytest.raises(InvalidResultError):
        MatchResult(1, "A", "A", 1, 0)
    with pytest.raises(InvalidResultError):
        MatchResult(0, "A", "B", 1, 0)
    with pytest.raises(InvalidResultError):
        MatchResult(1, "A", "B", float("nan"), 0)
    with pytest.raises(InvalidResultError, match="winner"):
        MatchResult(1, "A", "B", 0, 0, forfeit=True)


def test_crosstable_lists_every_encounter_from_each_side() -> None:
    results = [
        MatchResult(1, "A", "B", 1.5, 0.5),
        MatchResult(2, "B", "A", 1, 1),
        MatchResult(2, "C", "D", 0, 1, forfeit=True),
    ]
    table = crosstable("ABCD", results)
    assert table["A"]["B"] == (
        Encounter(1, "B", 0, 1.0, 1.5, 0.5, False),
        Encounter(2, "B", 1, 0.5, 1.0, 1.0, False),
    )
    assert [e.score for e in table["B"]["A"]] == [0.0, 0.5]
    assert table["D"]["C"] == (Encounter(2, "C", 1, 1.0, 1.0, 0.0, True),)
    assert table["A"]["C"] == table["C"]["A"] == ()
    assert sorted(table) == ["A", "B", "C", "D"]
    assert all(sorted(row) == sorted(set("ABCD") - {a}) for a, row in table.items())


def test_crosstable_rejects_unknown_entrant() -> None:
    with pytest.raises(UnknownEntrantError):
        crosstable("AB", [MatchResult(1, "A", "C", 1, 0)])
