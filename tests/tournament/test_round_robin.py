"""Round robin schedules against the published FIDE Berger tables (Handbook C.05, Annex 1)."""

from __future__ import annotations

import pytest

from arena.tournament import (
    ByeKind,
    DuplicateEntrantError,
    InvalidOptionError,
    Round,
    TooFewEntrantsError,
    berger_rounds,
    berger_table,
)

# The published tables, verbatim in substance: "white-black" per board, boards in order.
PUBLISHED = {
    4: """
        1-4 2-3
        4-3 1-2
        2-4 3-1
    """,
    6: """
        1-6 2-5 3-4
        6-4 5-3 1-2
        2-6 3-1 4-5
        6-5 1-4 2-3
        3-6 4-2 5-1
    """,
    8: """
        1-8 2-7 3-6 4-5
        8-5 6-4 7-3 1-2
        2-8 3-1 4-7 5-6
        8-6 7-5 1-4 2-3
        3-8 4-2 5-1 6-7
        8-7 1-6 2-5 3-4
        4-8 5-3 6-2 7-1
    """,
    10: """
        1-10 2-9 3-8 4-7 5-6
        10-6 7-5 8-4 9-3 1-2
        2-10 3-1 4-9 5-8 6-7
        10-7 8-6 9-5 1-4 2-3
        3-10 4-2 5-1 6-9 7-8
        10-8 9-7 1-6 2-5 3-4
        4-10 5-3 6-2 7-1 8-9
        10-9 1-8 2-7 3-6 4-5
        5-10 6-4 7-3 8-2 9-1
    """,
    12: """
        1-12 2-11 3-10 4-9 5-8 6-7
        12-7 8-6 9-5 10-4 11-3 1-2
        2-12 3-1 4-11 5-10 6-9 7-8
        12-8 9-7 10-6 11-5 1-4 2-3
        3-12 4-2 5-1 6-11 7-10 8-9
        12-9 10-8 11-7 1-6 2-5 3-4
        4-12 5-3 6-2 7-1 8-11 9-10
        12-10 11-9 1-8 2-7 3-6 4-5
        5-12 6-4 7-3 8-2 9-1 10-11
        12-11 1-10 2-9 3-8 4-7 5-6
        6-12 7-5 8-4 9-3 10-2 11-1
    """,
    14: """
        1-14 2-13 3-12 4-11 5-10 6-9 7-8
        14-8 9-7 10-6 11-5 12-4 13-3 1-2
        2-14 3-1 4-13 5-12 6-11 7-10 8-9
        14-9 10-8 11-7 12-6 13-5 1-4 2-3
        3-14 4-2 5-1 6-13 7-12 8-11 9-10
        14-10 11-9 12-8 13-7 1-6 2-5 3-4
        4-14 5-3 6-2 7-1 8-13 9-12 10-11
        14-11 12-10 13-9 1-8 2-7 3-6 4-5
        5-14 6-4 7-3 8-2 9-1 10-13 11-12
        14-12 13-11 1-10 2-9 3-8 4-7 5-6
        6-14 7-5 8-4 9-3 10-2 11-1 12-13
        14-13 1-12 2-11 3-10 4-9 5-8 6-7
        7-14 8-6 9-5 10-4 11-3 12-2 13-1
    """,
    16: """
        1-16 2-15 3-14 4-13 5-12 6-11 7-10 8-9
        16-9 10-8 11-7 12-6 13-5 14-4 15-3 1-2
        2-16 3-1 4-15 5-14 6-13 7-12 8-11 9-10
        16-10 11-9 12-8 13-7 14-6 15-5 1-4 2-3
        3-16 4-2 5-1 6-15 7-14 8-13 9-12 10-11
        16-11 12-10 13-9 14-8 15-7 1-6 2-5 3-4
        4-16 5-3 6-2 7-1 8-15 9-14 10-13 11-12
        16-12 13-11 14-10 15-9 1-8 2-7 3-6 4-5
        5-16 6-4 7-3 8-2 9-1 10-15 11-14 12-13
        16-13 14-12 15-11 1-10 2-9 3-8 4-7 5-6
        6-16 7-5 8-4 9-3 10-2 11-1 12-15 13-14
        16-14 15-13 1-12 2-11 3-10 4-9 5-8 6-7
        7-16 8-6 9-5 10-4 11-3 12-2 13-1 14-15
        16-15 1-14 2-13 3-12 4-11 5-10 6-9 7-8
        8-16 9-7 10-6 11-5 12-4 13-3 14-2 15-1
    """,
}


def published(size: int) -> list[list[tuple[int, int]]]:
    rows = [line.split() for line in PUBLISHED[size].strip().splitlines()]
    return [[(int(b.split("-")[0]), int(b.split("-")[1])) for b in row] for row in rows]


def names(count: int) -> list[str]:
    return [f"p{i}" for i in range(1, count + 1)]


def as_numbers(rounds: list[Round]) -> list[list[tuple[int, int]]]:
    return [[(int(p.seat0[1:]), int(p.seat1[1:])) for p in r.pairings] for r in rounds]


def seat_sequences(rounds: list[Round], count: int) -> dict[str, list[int]]:
    seats: dict[str, list[int]] = {p: [] for p in names(count)}
    for rnd in rounds:
        for pairing in rnd.pairings:
            seats[pairing.seat0].append(0)
            seats[pairing.seat1].append(1)
    return seats


@pytest.mark.parametrize("size", sorted(PUBLISHED))
def test_berger_table_matches_published_fide_table(size: int) -> None:
    assert berger_table(size) == published(size)


@pytest.mark.parametrize("size", sorted(PUBLISHED))
def test_berger_rounds_even_field_follows_published_table(size: int) -> None:
    rounds = berger_rounds(names(size))
    assert [r.number for r in rounds] == list(range(1, size))
    assert as_numbers(rounds) == published(size)
    assert all(r.byes == () for r in rounds)


@pytest.mark.parametrize("size", [3, 5, 7, 9, 11, 13, 15])
def test_berger_rounds_odd_field_gives_the_dummys_opponent_a_bye(size: int) -> None:
    rounds = berger_rounds(names(size))
    table = published(size + 1)
    dummy = size + 1
    assert len(rounds) == size
    for rnd, boards in zip(rounds, table, strict=True):
        (resting,) = [a if b == dummy else b for a, b in boards if dummy in (a, b)]
        assert [(b.entrant, b.kind, b.round) for b in rnd.byes] == [
            (f"p{resting}", ByeKind.PAIRING, rnd.number)
        ]
        assert as_numbers([rnd])[0] == [(a, b) for a, b in boards if dummy not in (a, b)]
    resting_players = sorted(b.entrant for r in rounds for b in r.byes)
    assert resting_players == sorted(names(size))


@pytest.mark.parametrize("size", range(2, 22))
def test_berger_rounds_every_pair_meets_exactly_once(size: int) -> None:
    rounds = berger_rounds(names(size))
    met = [frozenset(p.entrants) for r in rounds for p in r.pairings]
    assert len(met) == len(set(met)) == size * (size - 1) // 2
    for rnd in rounds:
        assert rnd.entrants == frozenset(names(size))


@pytest.mark.parametrize("size", range(2, 22))
def test_berger_rounds_single_cycle_seats_differ_by_at_most_one(size: int) -> None:
    for seats in seat_sequences(berger_rounds(names(size)), size).values():
        assert abs(seats.count(0) - seats.count(1)) <= 1


@pytest.mark.parametrize("size", [4, 6, 8, 10])
def test_berger_rounds_double_swaps_seats_in_second_cycle(size: int) -> None:
    rounds = berger_rounds(names(size), double=True)
    table = published(size)
    cycle = len(table)
    first = [*table[:-2], table[-1], table[-2]]  # FIDE: swap the last two rounds of cycle one
    second = [[(b, a) for a, b in boards] for boards in table]
    assert [r.number for r in rounds] == list(range(1, 2 * cycle + 1))
    assert as_numbers(rounds) == first + second


@pytest.mark.parametrize("size", range(2, 22))
def test_berger_rounds_double_never_gives_a_seat_three_times_running(size: int) -> None:
    rounds = berger_rounds(names(size), double=True)
    met = [tuple(p.entrants) for r in rounds for p in r.pairings]
    assert sorted(met) == sorted((b, a) for a, b in met)  # each pairing once each way round
    for seats in seat_sequences(rounds, size).values():
        assert seats.count(0) == seats.count(1)
        assert all(len(set(seats[i : i + 3])) == 2 for i in range(len(seats) - 2))


def test_berger_rounds_rejects_duplicate_entrant() -> None:
    with pytest.raises(DuplicateEntrantError, match="'a'"):
        berger_rounds(["a", "b", "a"])


@pytest.mark.parametrize("field", [[], ["solo"]])
def test_berger_rounds_rejects_fewer_than_two_entrants(field: list[str]) -> None:
    with pytest.raises(TooFewEntrantsError):
        berger_rounds(field)


@pytest.mark.parametrize("size", [-2, 0, 1, 7])
def test_berger_table_rejects_sizes_without_a_table(size: int) -> None:
    with pytest.raises(InvalidOptionError):
        berger_table(size)


def test_berger_rounds_errors_are_value_errors() -> None:
    with pytest.raises(ValueError):
        berger_rounds(["only"])
