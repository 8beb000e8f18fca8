"""Swiss pairing: known answers, hard rules, errors, and properties over random tournaments."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from arena.tournament import (
    Bye,
    ByeKind,
    ByePoints,
    DuplicateEntrantError,
    History,
    InvalidHistoryError,
    InvalidOptionError,
    MatchResult,
    NoValidPairingError,
    Pairing,
    Round,
    SwissOptions,
    TooFewEntrantsError,
    TooManyRoundsError,
    UnknownEntrantError,
    late_entry_byes,
    matching,
    max_swiss_rounds,
    pair_round,
)
from arena.tournament.seats import (
    ABSOLUTE,
    MILD,
    NONE,
    STRONG,
    SeatPreference,
    higher_takes_seat0,
    seat_preference,
)

P = [f"p{i}" for i in range(1, 11)]  # p1..p10, seeds in this order


def win(number: int, winner: str, loser: str, *, winner_seat0: bool = True) -> MatchResult:
    if winner_seat0:
        return MatchResult(number, winner, loser, 1, 0)
    return MatchResult(number, loser, winner, 0, 1)


def draw(number: int, seat0: str, seat1: str) -> MatchResult:
    return MatchResult(number, seat0, seat1, 0.5, 0.5)


# --- known answers -----------------------------------------------------------------------------


def test_pair_round_first_round_folds_top_half_against_bottom_half() -> None:
    rnd = pair_round(P[:8], History(), 1)
    # Dutch round 1: 1-5, 6-2, 3-7, 8-4 (seat 0 alternates down the boards).
    assert rnd == Round(
        1,
        (Pairing("p1", "p5"), Pairing("p6", "p2"), Pairing("p3", "p7"), Pairing("p8", "p4")),
    )


def test_pair_round_odd_first_round_gives_bye_to_last_seed() -> None:
    rnd = pair_round(P[:5], History(), 1)
    assert rnd.pairings == (Pairing("p1", "p3"), Pairing("p4", "p2"))
    assert rnd.byes == (Bye(1, "p5", ByeKind.PAIRING),)


def test_pair_round_second_round_pairs_within_score_groups_and_alternates_seats() -> None:
    history = History(
        results=(
            win(1, "p1", "p5"),
            win(1, "p6", "p2"),
            win(1, "p3", "p7"),
            win(1, "p4", "p8", winner_seat0=False),
        )
    )
    rnd = pair_round(P[:8], history, 2)
    # Winners p1 p3 p4 p6 fold to p1-p4, p3-p6; losers p2 p5 p7 p8 to p2-p7, p5-p8.
    # p4 had seat 1 so takes seat 0 against p1; p3 and p6 both had seat 0 and the higher
    # ranked p3 gets its wish (seat 1); p2 and p7 both had seat 1, p2 gets seat 0.
    assert rnd.pairings == (
        Pairing("p4", "p1"),
        Pairing("p6", "p3"),
        Pairing("p2", "p7"),
        Pairing("p5", "p8"),
    )


def test_pair_round_avoids_rematches_and_prefers_granting_both_seats() -> None:
    history = History(results=(draw(1, "p1", "p3"), draw(1, "p4", "p2")))
    rnd = pair_round(P[:4], history, 2)
    # The fold p1-p3 / p2-p4 would be two rematches; of the two other pairings only
    # p1-p2 / p3-p4 gives everybody the seat they did not have.
    assert rnd.pairings == (Pairing("p2", "p1"), Pairing("p3", "p4"))


def test_pair_round_never_pairs_a_forbidden_pair() -> None:
    rnd = pair_round(P[:4], History(), 1, SwissOptions(forbidden_pairs=(("p3", "p1"),)))
    assert {frozenset(p.entrants) for p in rnd.pairings}.isdisjoint({frozenset({"p1", "p3"})})
    assert rnd.entrants == frozenset(P[:4])


def test_pair_round_bye_goes_to_lowest_ranked_player() -> None:
    history = History(
        results=(win(1, "p1", "p3"), win(1, "p2", "p4", winner_seat0=False)),
        byes=(Bye(1, "p5"),),
    )
    rnd = pair_round(P[:5], history, 2)
    # Ranking p1 p2 p5 (one point each), then p3 p4: p4 is last and has had no bye.
    assert rnd.byes == (Bye(2, "p4"),)
    assert {frozenset(p.entrants) for p in rnd.pairings} == {
        frozenset({"p1", "p2"}),
        frozenset({"p5", "p3"}),
    }


def test_pair_round_bye_skips_entrants_who_already_had_one() -> None:
    history = History(
        results=(win(1, "p1", "p2"), win(2, "p3", "p1")),
        byes=(Bye(1, "p3"), Bye(2, "p2")),
    )
    rnd = pair_round(P[:3], history, 3)
    # p1 is top-ranked (with p3) but is the only entrant without a bye.
    assert rnd.byes == (Bye(3, "p1"),)
    assert rnd.pairings == (Pairing("p2", "p3"),)


def test_pair_round_absolute_seat_needs_decide_the_seats() -> None:
    history = History(
        results=(
            draw(1, "p1", "p3"),
            draw(1, "p4", "p2"),
            draw(2, "p1", "p4"),
            draw(2, "p3", "p2"),
        )
    )
    rnd = pair_round(P[:4], history, 3)
    # p1 sat in seat 0 twice, p2 in seat 1 twice: both must switch.
    assert rnd.pairings == (Pairing("p2", "p1"), Pairing("p4", "p3"))


def test_pair_round_two_entrants_needing_the_same_seat_cannot_meet() -> None:
    history = History(
        results=(
            draw(1, "p1", "p3"),
            draw(1, "p2", "p4"),
            draw(2, "p1", "p4"),
            draw(2, "p2", "p3"),
        )
    )
    # Only p1-p2 and p3-p4 are left, and p1 and p2 both sat in seat 0 twice.
    with pytest.raises(NoValidPairingError):
        pair_round(P[:4], history, 3)


def test_pair_round_duplicate_mode_ignores_seats_and_seats_higher_rank_first() -> None:
    history = History(
        results=(
            draw(1, "p1", "p3"),
            draw(1, "p2", "p4"),
            draw(2, "p1", "p4"),
            draw(2, "p2", "p3"),
        )
    )
    rnd = pair_round(P[:4], history, 3, SwissOptions(duplicate=True))
    assert rnd.pairings == (Pairing("p1", "p2"), Pairing("p3", "p4"))


def test_pair_round_raises_when_an_entrant_has_no_allowed_opponent() -> None:
    history = History(results=(draw(1, "p1", "p2"), draw(1, "p3", "p4")))
    options = SwissOptions(forbidden_pairs=(("p1", "p3"), ("p1", "p4")))
    with pytest.raises(NoValidPairingError, match="no pairing"):
        pair_round(P[:4], history, 2, options)


def test_pair_round_raises_when_every_entrant_of_an_odd_field_had_the_bye() -> None:
    history = History(
        results=(win(1, "p1", "p2"), win(2, "p3", "p1"), draw(3, "p2", "p3")),
        byes=(Bye(1, "p3"), Bye(2, "p2"), Bye(3, "p1")),
    )
    options = SwissOptions(withdrawn=frozenset({"p4", "p5"}))  # withdrew before round 1
    with pytest.raises(NoValidPairingError, match="bye"):
        pair_round(P[:5], history, 4, options)


def test_pair_round_skips_withdrawn_and_gives_absent_entrants_an_absence_bye() -> None:
    history = History(
        results=(win(1, "p1", "p4"), win(1, "p5", "p2"), win(1, "p3", "p6")),
    )
    options = SwissOptions(withdrawn=frozenset({"p2"}), absent=frozenset({"p3"}))
    rnd = pair_round(P[:6], history, 2, options)
    assert rnd.byes == (Bye(2, "p3", ByeKind.ABSENT),)
    assert {e for p in rnd.pairings for e in p.entrants} == {"p1", "p4", "p5", "p6"}
    assert "p2" not in rnd.entrants


def test_pair_round_withdrawn_entrant_needs_no_further_records() -> None:
    history = History(results=(win(1, "p1", "p2"), win(1, "p3", "p4"), win(2, "p1", "p3")))
    options = SwissOptions(withdrawn=frozenset({"p2", "p4"}))
    # p2 and p4 left after round 1; p1 and p3 have met, so nobody can be paired.
    with pytest.raises(NoValidPairingError):
        pair_round(P[:4], history, 3, options)


@pytest.mark.parametrize(("absent_points", "expected_bye"), [(0.0, "p5"), (1.0, "p4")])
def test_pair_round_late_entry_missed_rounds_score_as_absence_byes(
    absent_points: float, expected_bye: str
) -> None:
    history = History(
        results=(win(1, "p1", "p3"), win(1, "p2", "p4")),
        byes=late_entry_byes("p5", 2),
    )
    # Duplicate matches, so that seat wishes do not steer the bye (p3 and p4 both want seat 0).
    options = SwissOptions(bye_points=ByePoints(absent=absent_points), duplicate=True)
    rnd = pair_round(P[:5], history, 2, options)
    assert rnd.byes == (Bye(2, expected_bye),)


def test_late_entry_byes_cover_every_missed_round() -> None:
    assert late_entry_byes("x", 4) == (
        Bye(1, "x", ByeKind.ABSENT),
        Bye(2, "x", ByeKind.ABSENT),
        Bye(3, "x", ByeKind.ABSENT),
    )
    assert late_entry_byes("x", 1) == ()


def test_pair_round_is_deterministic_and_accepts_lists() -> None:
    results = [win(1, "p1", "p6"), draw(1, "p7", "p2"), win(1, "p3", "p8"), draw(1, "p9", "p4")]
    byes = [Bye(1, "p5", ByeKind.ABSENT), Bye(1, "p10", ByeKind.ABSENT)]
    first = pair_round(P[:10], History(tuple(results), tuple(byes)), 2)
    again = pair_round(list(P[:10]), History(results, byes), 2)  # type: ignore[arg-type]
    assert first == again


def test_max_swiss_rounds_is_n_minus_one_even_and_n_odd() -> None:
    assert [max_swiss_rounds(n) for n in range(2, 8)] == [1, 3, 3, 5, 5, 7]


# --- bad input ---------------------------------------------------------------------------------


def test_pair_round_rejects_duplicate_entrant() -> None:
    with pytest.raises(DuplicateEntrantError):
        pair_round(["a", "b", "a"], History(), 1)


def test_pair_round_rejects_fewer_than_two_entrants() -> None:
    with pytest.raises(TooFewEntrantsError):
        pair_round(["a"], History(), 1)


def test_pair_round_rejects_unknown_entrant_in_a_result() -> None:
    with pytest.raises(UnknownEntrantError, match="'zz'"):
        pair_round(P[:4], History(results=(win(1, "p1", "zz"),)), 2)


def test_pair_round_rejects_more_rounds_than_the_field_can_play() -> None:
    with pytest.raises(TooManyRoundsError):
        pair_round(P[:4], History(), 4)
    with pytest.raises(TooManyRoundsError):
        pair_round(P[:4], History(), 1, SwissOptions(total_rounds=4))
    with pytest.raises(TooManyRoundsError, match="3 rounds"):
        pair_round(P[:8], History(), 4, SwissOptions(total_rounds=3))


def test_pair_round_rejects_history_that_is_ahead_or_incomplete() -> None:
    with pytest.raises(InvalidHistoryError, match="before round 2"):
        pair_round(P[:4], History(results=(win(2, "p1", "p2"),)), 2)
    with pytest.raises(InvalidHistoryError, match=r"'p5'.*late_entry_byes"):
        pair_round(P[:5], History(results=(win(1, "p1", "p2"), win(1, "p3", "p4"))), 2)


def test_pair_round_rejects_two_records_for_one_entrant_in_a_round() -> None:
    history = History(results=(win(1, "p1", "p2"), win(1, "p3", "p4")), byes=(Bye(1, "p1"),))
    with pytest.raises(InvalidHistoryError, match="two records"):
        pair_round(P[:4], history, 2)


def test_pair_round_rejects_bad_options() -> None:
    with pytest.raises(UnknownEntrantError):
        pair_round(P[:4], History(), 1, SwissOptions(withdrawn=frozenset({"ghost"})))
    with pytest.raises(UnknownEntrantError):
        pair_round(P[:4], History(), 1, SwissOptions(forbidden_pairs=(("p1", "ghost"),)))
    with pytest.raises(InvalidOptionError):
        SwissOptions(forbidden_pairs=(("p1", "p1"),))
    with pytest.raises(InvalidOptionError, match="unknown Swiss system"):
        SwissOptions(system="monrad")  # type: ignore[arg-type]
    with pytest.raises(InvalidOptionError):
        SwissOptions(total_rounds=0)
    with pytest.raises(InvalidOptionError):
        pair_round(P[:4], History(), 0)
    with pytest.raises(InvalidOptionError):
        ByePoints(pairing=0.75)


# --- seats -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seats", "expected"),
    [
        ((), SeatPreference(None, NONE)),
        ((0, 1), SeatPreference(0, MILD)),
        ((1, 0), SeatPreference(1, MILD)),
        ((0,), SeatPreference(1, STRONG)),
        ((0, 1, 1), SeatPreference(0, ABSOLUTE)),
        ((0, 1, 0, 1, 1), SeatPreference(0, ABSOLUTE)),
        ((0, 1, 0, 0), SeatPreference(1, ABSOLUTE)),
        ((0, 0, 1, 0), SeatPreference(1, ABSOLUTE)),
    ],
)
def test_seat_preference_grades_like_dutch_colour_preferences(
    seats: tuple[int, ...], expected: SeatPreference
) -> None:
    assert seat_preference(seats) == expected


@pytest.mark.parametrize(
    ("higher", "lower", "rank", "expected"),
    [
        ((), (), 0, True),  # no history: seat 0 alternates down the ranking
        ((), (), 1, False),
        ((0,), (0,), 0, False),  # same strength: higher rank gets its wish (seat 1)
        ((1, 0), (0,), 0, True),  # strong beats mild: lower (strong) wants seat 1
        ((0, 1, 0), (1, 0, 0), 0, True),  # equal: alternate from the last difference
        ((1, 0, 0), (0, 0), 0, True),  # both absolute (topscorers): the wider difference wins
    ],
)
def test_higher_takes_seat0_follows_the_allocation_order(
    higher: tuple[int, ...], lower: tuple[int, ...], rank: int, expected: bool
) -> None:
    assert higher_takes_seat0(higher, lower, rank) is expected


# --- the bye: lowest score, then fewest floats (FIDE), not simply the lowest rank ---------------


def test_pair_round_bye_prefers_fewest_floats_over_the_lowest_rank() -> None:
    history = History(
        results=(win(1, "p1", "p4"), win(1, "p2", "p5"), win(1, "p3", "p6")),
        byes=(Bye(1, "p7"),),
    )
    # p4 p5 p6 are the zero group; p4 and p5 are teammates. A bye for p6, the lowest rank,
    # would float both of them up; a bye for p5 pairs p4-p6 and floats nobody.
    options = SwissOptions(duplicate=True, forbidden_pairs=(("p4", "p5"),))
    rnd = pair_round(P[:7], history, 2, options)
    assert rnd.byes == (Bye(2, "p5"),)
    assert {frozenset(p.entrants) for p in rnd.pairings} == {
        frozenset({"p1", "p3"}),
        frozenset({"p2", "p7"}),
        frozenset({"p4", "p6"}),
    }


def test_pair_round_bye_goes_to_the_lowest_score_even_if_a_higher_group_is_odd() -> None:
    history = History(
        results=(win(1, "p1", "p2"), win(1, "p3", "p4")),
        byes=(Bye(1, "p5", ByeKind.ABSENT),),
    )
    # p5 (0, absent) is last; p2 and p4 lost. The zero group p2 p4 p5 gets the bye, never p1/p3.
    rnd = pair_round(P[:5], history, 2, SwissOptions(duplicate=True))
    assert rnd.byes[0].entrant in {"p2", "p4", "p5"}


# --- structure: the same Dutch order at every field size ---------------------------------------


def dutch_round(
    ranked: Sequence[str], points: dict[str, float], floated_down: frozenset[str] = frozenset()
) -> tuple[set[frozenset[str]], str | None]:
    """The Dutch pairing of a field without rematches or seat limits in the way: each score
    group, after taking the floater from above against its top player, floats its lowest player
    not in `floated_down` (last round's downfloaters) down if it is odd (the last group gives it
    the bye) and pairs its top half against its bottom half."""
    pairs: set[frozenset[str]] = set()
    floater = None
    scores = sorted({points[e] for e in ranked}, reverse=True)
    for index, score in enumerate(scores):
        group = [e for e in ranked if points[e] == score]
        if floater is not None:
            pairs.add(frozenset({floater, group.pop(0)}))
            floater = None
        if len(group) % 2:
            floater = next(e for e in reversed(group) if e not in floated_down)
            group.remove(floater)
        half = len(group) // 2
        pairs |= {frozenset({group[k], group[k + half]}) for k in range(half)}
        if index == len(scores) - 1:
            return pairs, floater
    return pairs, floater


@given(size=st.integers(2, 300))
@settings(max_examples=40, deadline=None)
def test_pair_round_first_round_is_one_against_n_over_two_plus_one(size: int) -> None:
    check_first_round(size)


@pytest.mark.parametrize("size", [96, 97, 98, 129, 1024, 1025])
def test_pair_round_first_round_keeps_the_dutch_fold_past_any_size(size: int) -> None:
    check_first_round(size)


def check_first_round(size: int) -> None:
    field = [f"s{n:04d}" for n in range(1, size + 1)]
    rnd = pair_round(field, History(), 1)
    half = size // 2
    assert {frozenset(p.entrants) for p in rnd.pairings} == {
        frozenset({field[k], field[k + half]}) for k in range(half)
    }
    assert [b.entrant for b in rnd.byes] == ([field[-1]] if size % 2 else [])
    # Seat 0 alternates down the boards, starting with seed 1.
    for board, pairing in enumerate(
        sorted(rnd.pairings, key=lambda p: min(map(field.index, p.entrants)))
    ):
        higher = min(pairing.entrants, key=field.index)
        assert (pairing.seat0 == higher) is (board % 2 == 0)


@pytest.mark.parametrize("size", [96, 97, 98, 1024])
def test_pair_round_second_round_folds_every_score_group_at_any_size(size: int) -> None:
    field = [f"s{n:04d}" for n in range(1, size + 1)]
    options = SwissOptions(duplicate=True)
    first = pair_round(field, History(), 1, options)
    results = tuple(MatchResult(1, p.seat0, p.seat1, 2, 0) for p in first.pairings)
    points = dict.fromkeys(field, 0.0)
    for result in results:
        points[result.seat0] += 1
    for bye in first.byes:
        points[bye.entrant] += 1
    rnd = pair_round(field, History(results, first.byes), 2, options)
    ranked = sorted(field, key=lambda e: (-points[e], field.index(e)))
    # Round 1's bye holder floated down then, so another player floats down from its group.
    pairs, dutch_bye = dutch_round(ranked, points, frozenset(b.entrant for b in first.byes))
    assert {frozenset(p.entrants) for p in rnd.pairings} == pairs
    assert [b.entrant for b in rnd.byes] == ([dutch_bye] if dutch_bye else [])


def play_random_swiss(size: int, rounds: int, seed: int) -> list[tuple[History, Round]]:
    """(history, round) for every round of a seat-mode Swiss with random results."""
    rng = random.Random(seed)
    field = [f"r{n:04d}" for n in range(size)]
    results: list[MatchResult] = []
    byes: list[Bye] = []
    played = []
    for number in range(1, rounds + 1):
        history = History(tuple(results), tuple(byes))
        rnd = pair_round(field, history, number)
        played.append((history, rnd))
        byes += rnd.byes
        for p in rnd.pairings:
            outcome = rng.choice([(1.0, 0.0), (0.0, 1.0), (0.5, 0.5)])
            results.append(MatchResult(number, p.seat0, p.seat1, *outcome))
    return played


def test_pair_round_sparse_graph_of_a_large_field_pairs_like_the_complete_graph(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    size = matching.DENSE_LIMIT + 45  # odd, so the bye is chosen too
    field = [f"r{n:04d}" for n in range(size)]
    played = play_random_swiss(size, 6, seed=7)
    monkeypatch.setattr(matching, "DENSE_LIMIT", 10**6)  # every allowed edge, as small fields
    for number, (history, sparse) in enumerate(played, start=1):
        assert pair_round(field, history, number) == sparse


# --- properties over random tournaments ---------------------------------------------------------


@dataclass
class Tally:
    """The test's own account of the tournament, kept independently of the library."""

    seed: dict[str, int]
    points: dict[str, float] = field(default_factory=dict)
    opponents: dict[str, set[str]] = field(default_factory=dict)
    seats: dict[str, list[int]] = field(default_factory=dict)
    pairing_byes: dict[str, int] = field(default_factory=dict)

    def join(self, entrant: str) -> None:
        self.points.setdefault(entrant, 0.0)
        self.opponents.setdefault(entrant, set())
        self.seats.setdefault(entrant, [])
        self.pairing_byes.setdefault(entrant, 0)

    def ranked(self, active: set[str]) -> list[str]:
        return sorted(active, key=lambda e: (-self.points[e], self.seed[e]))


def must_sit(seats: Sequence[int]) -> int | None:
    """Restatement of the hard seat limits: the seat this history forces next, if any."""
    difference = seats.count(0) - seats.count(1)
    if difference >= 2 or list(seats[-2:]) == [0, 0]:
        return 1
    if difference <= -2 or list(seats[-2:]) == [1, 1]:
        return 0
    return None


def brute_force(
    players: frozenset[str], may_pair: Callable[[str, str], bool], cost: Callable[[str, str], float]
) -> float | None:
    """Minimum total cost of a perfect matching of `players`, or None if there is none."""

    @cache
    def best(rest: frozenset[str]) -> float | None:
        if not rest:
            return 0.0
        first = min(rest)
        options = []
        for other in rest - {first}:
            if may_pair(first, other):
                sub = best(rest - {first, other})
                if sub is not None:
                    options.append(cost(first, other) + sub)
        return min(options, default=None)

    return best(players)


def outcome_strategy(duplicate: bool) -> st.SearchStrategy[tuple[float, float, bool]]:
    if duplicate:
        scores = [(2.0, 0.0), (1.5, 0.5), (1.0, 1.0), (0.5, 1.5), (0.0, 2.0)]
        return st.sampled_from([(a, b, False) for a, b in scores])
    return st.sampled_from(
        [(1.0, 0.0, False), (0.0, 1.0, False), (0.5, 0.5, False), (1.0, 0.0, True), (0, 1, True)]
    )


BRUTE_FORCE_LIMIT = 12


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_pair_round_properties_hold_over_random_tournaments(data: st.DataObject) -> None:
    size = data.draw(st.integers(2, 40), label="entrants")
    everyone = [f"e{i:02d}" for i in range(size)]
    late = st.dictionaries(st.sampled_from(everyone[2:]), st.integers(2, 4), max_size=3)
    first_round = data.draw(late if size > 2 else st.just({}), label="late")
    starters = [e for e in everyone if e not in first_round]
    rounds = data.draw(st.integers(1, min(max_swiss_rounds(len(starters)), 7)), label="rounds")
    two = st.lists(st.sampled_from(everyone), min_size=2, max_size=2, unique=True).map(
        lambda pair: (pair[0], pair[1])
    )
    forbidden = data.draw(st.lists(two, max_size=4) if size > 2 else st.just([]))
    duplicate = data.draw(st.booleans(), label="duplicate")
    bye_points = ByePoints(
        pairing=data.draw(st.sampled_from([1.0, 0.5])),
        absent=data.draw(st.sampled_from([0.0, 0.5])),
    )
    tally = Tally(seed={e: i for i, e in enumerate(everyone)})
    results: list[MatchResult] = []
    byes: list[Bye] = []
    withdrawn: set[str] = set()
    for number in range(1, rounds + 1):
        entrants = [e for e in everyone if first_round.get(e, 1) <= number]
        for entrant in entrants:
            if first_round.get(entrant) == number:
                byes += late_entry_byes(entrant, number)
                tally.points[entrant] = bye_points.absent * (number - 1)
            tally.join(entrant)
        withdrawn |= data.draw(st.sets(st.sampled_from(entrants), max_size=1), label="withdraw")
        absent = data.draw(st.sets(st.sampled_from(entrants), max_size=1), label="absent")
        options = SwissOptions(
            duplicate=duplicate,
            withdrawn=frozenset(withdrawn),
            absent=frozenset(absent - withdrawn),
            forbidden_pairs=tuple(p for p in forbidden if set(p) <= set(entrants)),
            bye_points=bye_points,
        )
        active = set(entrants) - withdrawn - absent
        history = History(tuple(results), tuple(byes))
        try:
            rnd = pair_round(entrants, history, number, options)
        except NoValidPairingError:
            event("stopped: no valid pairing")
            check_really_impossible(tally, active, options)
            return
        assert pair_round(entrants, history, number, options) == rnd  # deterministic
        check_round(rnd, number, tally, active, options)
        check_small_round_is_optimal(rnd, tally, active, options)
        byes += rnd.byes
        for bye in rnd.byes:
            tally.points[bye.entrant] += bye_points.points(bye.kind)
            tally.pairing_byes[bye.entrant] += bye.kind is ByeKind.PAIRING
        for pairing in rnd.pairings:
            a, b, forfeit = data.draw(outcome_strategy(duplicate), label="outcome")
            result = MatchResult(number, pairing.seat0, pairing.seat1, a, b, forfeit)
            results.append(result)
            record(tally, result)
    event(f"completed {rounds} rounds, {size // 10 * 10}+ entrants")


def record(tally: Tally, result: MatchResult) -> None:
    for side, entrant in enumerate(result.entrants):
        other = result.entrants[1 - side]
        tally.points[entrant] += (result.score0, result.score1)[side]
        tally.opponents[entrant].add(other)
        if not result.forfeit:
            tally.seats[entrant].append(side)


def pairable(tally: Tally, options: SwissOptions) -> Callable[[str, str], bool]:
    forbidden = {frozenset(p) for p in options.forbidden_pairs}

    def may_pair(a: str, b: str) -> bool:
        if b in tally.opponents[a] or frozenset({a, b}) in forbidden:
            return False
        if options.duplicate:
            return True
        need_a, need_b = must_sit(tally.seats[a]), must_sit(tally.seats[b])
        return need_a is None or need_a != need_b

    return may_pair


def squared_gap(tally: Tally) -> Callable[[str, str], float]:
    return lambda a, b: (2 * (tally.points[a] - tally.points[b])) ** 2


def expected_byes(tally: Tally, active: set[str], options: SwissOptions) -> set[str]:
    """Who may get the bye (FIDE): among entrants without a pairing bye whose absence leaves the
    rest pairable, the lowest score, then the fewest floats (least squared score differences)."""
    may_pair = pairable(tally, options)
    floats = {}
    for entrant in active:
        if not tally.pairing_byes[entrant]:
            cost = brute_force(frozenset(active - {entrant}), may_pair, squared_gap(tally))
            if cost is not None:
                floats[entrant] = cost
    if not floats:
        return set()
    lowest = min(tally.points[e] for e in floats)
    fewest = min(cost for e, cost in floats.items() if tally.points[e] == lowest)
    return {e for e, cost in floats.items() if tally.points[e] == lowest and cost == fewest}


def check_really_impossible(tally: Tally, active: set[str], options: SwissOptions) -> None:
    if len(active) < 2 or len(active) > BRUTE_FORCE_LIMIT:
        return  # too few to pair, or too many to search exhaustively
    if len(active) % 2:
        assert expected_byes(tally, active, options) == set()
    else:
        assert brute_force(frozenset(active), pairable(tally, options), lambda a, b: 0) is None


def check_round(
    rnd: Round, number: int, tally: Tally, active: set[str], options: SwissOptions
) -> None:
    assert rnd.number == number
    pairing_byes = [b.entrant for b in rnd.byes if b.kind is ByeKind.PAIRING]
    absence_byes = {b.entrant for b in rnd.byes if b.kind is ByeKind.ABSENT}
    paired = [e for p in rnd.pairings for e in p.entrants]
    assert sorted(paired + pairing_byes) == sorted(active)  # everyone active, exactly once
    assert len(pairing_byes) == len(active) % 2
    assert absence_byes == set(options.absent)
    assert all(tally.pairing_byes[e] == 0 for e in pairing_byes)  # at most one bye each
    may_pair = pairable(tally, options)
    for pairing in rnd.pairings:
        assert may_pair(pairing.seat0, pairing.seat1)  # no rematch, forbidden pair or seat clash
        if not options.duplicate:
            for seat, entrant in enumerate(pairing.entrants):
                seats = [*tally.seats[entrant], seat]
                assert abs(seats.count(0) - seats.count(1)) <= 2
                assert seats[-3:] not in ([0, 0, 0], [1, 1, 1])


def check_small_round_is_optimal(
    rnd: Round, tally: Tally, active: set[str], options: SwissOptions
) -> None:
    if len(active) > BRUTE_FORCE_LIMIT:
        return
    bye = next((b.entrant for b in rnd.byes if b.kind is ByeKind.PAIRING), None)
    if len(active) % 2:
        assert bye in expected_byes(tally, active, options)
    gap = squared_gap(tally)
    rest = frozenset(active - {bye} if bye else active)
    best = brute_force(rest, pairable(tally, options), gap)
    assert sum(gap(*p.entrants) for p in rnd.pairings) == best
