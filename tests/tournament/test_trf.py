"""TRF-16 export: exact column layout, result codes, header lines and internal consistency."""

from __future__ import annotations

import random

import pytest

from arena.tournament import (
    Bye,
    ByeKind,
    ByePoints,
    History,
    InvalidOptionError,
    MatchResult,
    SwissOptions,
    UnknownEntrantError,
    export_trf,
    pair_round,
)

SEEDS = ["P1", "P2", "P3", "P4", "P5"]
# The five-player Swiss of test_standings: a bye each round and a forfeit in round 3.
SWISS = (
    MatchResult(1, "P1", "P2", 1, 0),
    MatchResult(1, "P3", "P4", 0.5, 0.5),
    MatchResult(2, "P1", "P3", 0, 1),
    MatchResult(2, "P5", "P2", 1, 0),
    MatchResult(3, "P3", "P5", 0.5, 0.5),
    MatchResult(3, "P4", "P1", 0, 1, forfeit=True),
)
SWISS_BYES = (Bye(1, "P5"), Bye(2, "P4"), Bye(3, "P2"))


def player_lines(trf: str) -> dict[int, str]:
    """001 lines keyed by the start rank read from columns 5-8."""
    return {int(line[4:8]): line for line in trf.splitlines() if line.startswith("001")}


def column(line: str, first: int, last: int) -> str:
    """Columns `first`..`last` of `line`, 1-based and inclusive as in the TRF spec."""
    return line[first - 1 : last]


def round_entry(line: str, number: int) -> tuple[str, str, str]:
    """(opponent, seat, result) of round `number`: columns 92-95, 97 and 99, then +10 a round."""
    shift = 10 * (number - 1)
    return (
        column(line, 92 + shift, 95 + shift),
        column(line, 97 + shift, 97 + shift),
        column(line, 99 + shift, 99 + shift),
    )


def test_export_trf_player_lines_use_the_fixed_trf16_columns() -> None:
    lines = player_lines(export_trf(SEEDS, SWISS, SWISS_BYES))
    assert sorted(lines) == [1, 2, 3, 4, 5]
    # Points P5 2.5, then P1 and P3 on 2 (seed order without tie-breaks), P4 1.5, P2 1.
    expected = {
        1: ("P1", " 2.0", "   2", [("   2", "w", "1"), ("   3", "w", "0"), ("   4", "b", "+")]),
        2: ("P2", " 1.0", "   5", [("   1", "b", "0"), ("   5", "b", "0"), ("0000", "-", "U")]),
        3: ("P3", " 2.0", "   3", [("   4", "w", "="), ("   1", "b", "1"), ("   5", "w", "=")]),
        4: ("P4", " 1.5", "   4", [("   3", "b", "="), ("0000", "-", "U"), ("   1", "w", "-")]),
        5: ("P5", " 2.5", "   1", [("0000", "-", "U"), ("   2", "w", "1"), ("   3", "b", "=")]),
    }
    for start, (name, points, rank, rounds) in expected.items():
        line = lines[start]
        assert column(line, 1, 3) == "001"
        assert column(line, 5, 8) == f"{start:>4}"
        assert column(line, 15, 47) == name.ljust(33)
        assert column(line, 81, 84) == points
        assert column(line, 86, 89) == rank
        assert [round_entry(line, r) for r in (1, 2, 3)] == rounds
        assert len(line) == 99 + 20  # three rounds, the last ending at column 119
        # Everything between the fields is blank.
        for first, last in [(4, 4), (9, 14), (48, 80), (85, 85)]:
            assert column(line, first, last).strip() == ""
        for r in range(3):
            assert column(line, 90 + 10 * r, 91 + 10 * r) == "  "


def test_export_trf_player_line_golden() -> None:
    line = player_lines(export_trf(SEEDS, SWISS, SWISS_BYES))[4]
    expected = "001    4      P4" + " " * 31 + " " * 33 + " 1.5    4     3 b =  0000 - U     1 w -"
    assert line == expected


def test_export_trf_header_and_extension_lines() -> None:
    trf = export_trf(
        SEEDS,
        SWISS,
        SWISS_BYES,
        total_rounds=5,
        tournament_name="Caper Open",
        bye_points=ByePoints(pairing=0.5),
        forbidden_pairs=[("P2", "P5"), ("P1", "P4")],
    )
    lines = trf.splitlines()
    assert lines[:4] == ["012 Caper Open", "062 5", "XXR 5", "BBU  0.5"]
    # Checkers (bbpPairings, JaVaFo) read a BB line's value from columns 5-8, right-aligned.
    assert column(lines[3], 1, 3) == "BBU" and column(lines[3], 5, 8) == " 0.5"
    assert lines[-2:] == ["XXP 2 5", "XXP 1 4"]
    assert trf.endswith("\n")
    # A half-point pairing bye shows in the points column: P5 now has 0.5 + 1 + 0.5.
    assert column(player_lines(trf)[5], 81, 84) == " 2.0"


def test_export_trf_default_header_still_gives_the_rounds() -> None:
    lines = export_trf(SEEDS, SWISS, SWISS_BYES).splitlines()
    kinds = ["012", "062", "XXR", "001", "001", "001", "001", "001"]
    assert [line[:3] for line in lines] == kinds
    assert lines[2] == "XXR 3"  # no plan given: the rounds on record
    assert export_trf(SEEDS, SWISS, SWISS_BYES, through_round=2).splitlines()[2] == "XXR 2"
    assert export_trf(SEEDS, []).splitlines()[2] == "XXR 1"  # nothing played yet


def test_export_trf_rejects_a_plan_shorter_than_the_record() -> None:
    with pytest.raises(InvalidOptionError, match="3 rounds are recorded"):
        export_trf(SEEDS, SWISS, SWISS_BYES, total_rounds=2)


@pytest.mark.parametrize(("absent_points", "code"), [(0.0, "Z"), (0.5, "H"), (1.0, "F")])
def test_export_trf_codes_absence_byes_by_their_points(absent_points: float, code: str) -> None:
    results = [MatchResult(2, "a", "b", 1, 0)]
    byes = [Bye(1, "a", ByeKind.ABSENT), Bye(1, "b", ByeKind.ABSENT)]
    lines = player_lines(
        export_trf("ab", results, byes, bye_points=ByePoints(absent=absent_points))
    )
    assert round_entry(lines[1], 1) == ("0000", "-", code)
    assert column(lines[1], 81, 84) == f"{1 + absent_points:>4.1f}"


def test_export_trf_marks_rounds_without_a_record_as_unpaired() -> None:
    results = [MatchResult(1, "a", "b", 1, 0), MatchResult(2, "a", "c", 0, 1)]
    lines = player_lines(export_trf("abc", results, [Bye(1, "c")]))
    assert round_entry(lines[2], 2) == ("0000", "-", "-")  # b withdrew after round 1


def test_export_trf_through_round_exports_the_state_after_that_round() -> None:
    lines = player_lines(export_trf(SEEDS, SWISS, SWISS_BYES, through_round=1))
    assert {start: column(line, 81, 84) for start, line in lines.items()} == {
        1: " 1.0",
        2: " 0.0",
        3: " 0.5",
        4: " 0.5",
        5: " 1.0",
    }
    assert all(len(line) == 99 for line in lines.values())


def test_export_trf_truncates_long_names_to_the_name_field() -> None:
    long_name = "a-bot-with-a-very-long-identifier-indeed"
    lines = player_lines(export_trf([long_name, "b"], [MatchResult(1, long_name, "b", 1, 0)]))
    assert column(lines[1], 15, 47) == long_name[:33]
    assert column(lines[1], 81, 84) == " 1.0"


def test_export_trf_rejects_unknown_entrants() -> None:
    with pytest.raises(UnknownEntrantError):
        export_trf(SEEDS, SWISS, SWISS_BYES, forbidden_pairs=[("P1", "ghost")])
    with pytest.raises(UnknownEntrantError):
        export_trf(SEEDS, [MatchResult(1, "P1", "ghost", 1, 0)])


def parse_trf(trf: str, rounds: int) -> dict[int, tuple[float, list[tuple[int, str, str]]]]:
    """Start rank -> (points, [(opponent, seat, result) per round]), read by column."""
    parsed = {}
    for start, line in player_lines(trf).items():
        entries = [round_entry(line, r) for r in range(1, rounds + 1)]
        parsed[start] = (
            float(column(line, 81, 84)),
            [(int(opponent), seat, result) for opponent, seat, result in entries],
        )
    return parsed


CODE_POINTS = {"1": 1.0, "=": 0.5, "0": 0.0, "+": 1.0, "-": 0.0, "Z": 0.0, "H": 0.5, "F": 1.0}


@pytest.mark.parametrize("seed", range(5))
def test_export_trf_of_a_random_swiss_is_consistent_like_a_checker_demands(seed: int) -> None:
    rng = random.Random(seed)
    entrants = [f"bot{i}" for i in range(rng.randint(9, 25))]
    results: list[MatchResult] = []
    byes: list[Bye] = []
    rounds = 4  # short enough for any field of 9+ to stay pairable
    for number in range(1, rounds + 1):
        rnd = pair_round(entrants, History(tuple(results), tuple(byes)), number, SwissOptions())
        byes += rnd.byes
        for pairing in rnd.pairings:
            outcome = rng.choice([(1, 0), (0, 1), (0.5, 0.5)])
            results.append(MatchResult(number, pairing.seat0, pairing.seat1, *outcome))
    parsed = parse_trf(export_trf(entrants, results, byes, total_rounds=rounds), rounds)
    assert sorted(parsed) == list(range(1, len(entrants) + 1))
    for start, (points, entries) in parsed.items():
        total = 0.0
        for number, (opponent, seat, result) in enumerate(entries):
            if opponent == 0:
                assert (seat, result) == ("-", "U")
                total += 1.0
                continue
            their_opponent, their_seat, their_result = parsed[opponent][1][number]
            assert their_opponent == start  # both lines name each other
            assert {seat, their_seat} == {"w", "b"}  # opposite seats
            assert CODE_POINTS[result] + CODE_POINTS[their_result] == 1.0
            total += CODE_POINTS[result]
        assert points == total
    # The pairings read back are exactly the recorded ones.
    read_back = {
        (number + 1, entrants[start - 1], entrants[opponent - 1])
        for start, (_, entries) in parsed.items()
        for number, (opponent, seat, _) in enumerate(entries)
        if seat == "w"
    }
    assert read_back == {(r.round, r.seat0, r.seat1) for r in results}
