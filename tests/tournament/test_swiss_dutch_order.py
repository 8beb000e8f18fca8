"""Where the default Swiss pairing follows FIDE Dutch's order past the hard rules and score
differences: float history (nobody floated down, or given the bye, right after a downfloat when
another pairing does as well on the criteria above it), floats from the lowest groups, and the
order of exchanges between the halves of a score group."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from arena.tournament import (
    Bye,
    ByeKind,
    ByePoints,
    History,
    MatchResult,
    NoValidPairingError,
    Pairing,
    Round,
    SwissOptions,
    max_swiss_rounds,
    pair_round,
)
from arena.tournament.floats import Float, float_histories
from arena.tournament.ledger import build_ledger
from tests.tournament.test_swiss import P, brute_force, draw, win

DOWN, UP, NONE = Float.DOWN, Float.UP, Float.NONE


def test_float_history_counts_score_gaps_and_points_without_a_game() -> None:
    field = ("a", "b", "c", "d", "e")
    results = [
        win(1, "a", "b"),
        win(1, "c", "d"),
        MatchResult(2, "a", "d", 1, 0),  # a (1) against d (0): a floats down, d up
        MatchResult(2, "b", "e", 0, 1, forfeit=True),  # e (1, from the bye) wins without a game
        MatchResult(3, "a", "b", 0.5, 0.5),  # 2 against 0: a floats down again, b up
    ]
    byes = [Bye(1, "e"), Bye(2, "c", ByeKind.ABSENT), Bye(3, "c", ByeKind.ABSENT)]
    byes += [Bye(3, "d", ByeKind.ABSENT), Bye(3, "e", ByeKind.PAIRING)]
    ledger = build_ledger(field, results, byes)
    assert float_histories(ledger, ByePoints(absent=1.0)) == {
        "a": (NONE, DOWN, DOWN),
        "b": (NONE, NONE, UP),
        "c": (NONE, DOWN, DOWN),  # an absence worth a win is a point without a game
        "d": (NONE, UP, DOWN),
        "e": (DOWN, DOWN, DOWN),
    }
    assert float_histories(ledger, ByePoints(absent=0.5))["c"] == (NONE, NONE, NONE)


def test_round_one_bye_holder_is_not_floated_down_in_round_two() -> None:
    # Nine entrants, the higher seed wins every match of round 1: p1-p4 and p9 (the bye) have a
    # point. The group is odd, so one of them floats down, and p9 floated down last round.
    first = pair_round(P[:9], History(), 1)
    assert first.byes == (Bye(1, "p9"),)
    results = tuple(
        MatchResult(1, p.seat0, p.seat1, *((1, 0) if p.seat0 < p.seat1 else (0, 1)))
        for p in first.pairings
    )
    second = pair_round(P[:9], History(results, first.byes), 2)
    leaders = {"p1", "p2", "p3", "p4", "p9"}
    opponent = {a: b for p in second.pairings for a, b in (p.entrants, p.entrants[::-1])}
    assert opponent["p9"] in leaders
    floater = next(e for e in leaders - {"p9"} if opponent[e] not in leaders)
    assert floater != "p9" and second.byes == (Bye(2, "p8"),)


def test_equally_short_floats_leave_from_the_lowest_group_before_seats_are_granted() -> None:
    # After two rounds: p1 p6 1.5, p2 p5 1.0 (they met), p3 p4 0.5. Floating both leaders down
    # (p1-p2, p6-p5, p3-p4) grants every seat wish; keeping them together (p6-p1) costs p6 a mild
    # one. Both make two floats of half a point; FIDE Dutch keeps the top group whole, as we do.
    results = (
        win(1, "p1", "p4"),
        draw(1, "p2", "p5"),
        win(1, "p6", "p3", winner_seat0=False),
        draw(2, "p1", "p3"),
        draw(2, "p6", "p2"),
        draw(2, "p4", "p5"),
    )
    rnd = pair_round(P[:6], History(results), 3)
    assert rnd.pairings == (Pairing("p6", "p1"), Pairing("p2", "p4"), Pairing("p5", "p3"))


def test_when_the_fold_is_all_rematches_the_halves_exchange_their_nearest_players() -> None:
    # Round 1 is p1-p6 p2-p7 p3-p8 p4-p9 p5-p10; p3 and p5 win, the others draw. The half-point
    # group p1 p2 p4 | p6 p7 p9 cannot fold (every fold pair has met). With seats, the best
    # pairings shift the fold equally far; FIDE Dutch exchanges p4 (lowest of the top half)
    # with p6 (highest of the bottom half) first, giving p4-p1 p2-p9 p6-p7, as we do now
    # (before: p2-p1 p4-p7 p6-p9, exchanging p2).
    field = [f"p{i}" for i in range(1, 11)]
    first = pair_round(field, History(), 1)
    results = tuple(
        MatchResult(1, *p.entrants, *((0.5, 0.5) if not {"p3", "p5"} & {*p.entrants} else (1, 0)))
        for p in first.pairings
    )
    second = pair_round(field, History(results), 2)
    assert second.pairings == (
        Pairing("p5", "p3"),
        Pairing("p4", "p1"),
        Pairing("p2", "p9"),
        Pairing("p6", "p7"),
        Pairing("p8", "p10"),
    )


@settings(max_examples=120, deadline=None)
@given(data=st.data())
def test_nobody_floats_down_twice_running_when_an_equally_good_pairing_avoids_it(
    data: st.DataObject,
) -> None:
    """Duplicate mode (seats do not matter): among pairings with the lowest bye score, the least
    squared score difference and the floats from the lowest groups, ours has the fewest repeated
    downfloats (the bye counts)."""
    field = P[: data.draw(st.integers(4, 10), label="entrants")]
    rounds = data.draw(st.integers(2, min(5, max_swiss_rounds(len(field)))), label="rounds")
    options = SwissOptions(duplicate=True)
    results: list[MatchResult] = []
    byes: list[Bye] = []
    for number in range(1, rounds + 1):
        try:
            rnd = pair_round(field, History(tuple(results), tuple(byes)), number, options)
        except NoValidPairingError:
            return
        check_fewest_repeated_downfloats(field, results, byes, rnd)
        byes += rnd.byes
        for p in rnd.pairings:
            a = data.draw(st.sampled_from([0.0, 0.5, 1.0, 1.5, 2.0]), label="outcome")
            results.append(MatchResult(number, p.seat0, p.seat1, a, 2 - a))


def check_fewest_repeated_downfloats(
    field: list[str], results: list[MatchResult], byes: list[Bye], rnd: Round
) -> None:
    """The test's own account: points and last round's downfloaters from the raw records."""
    points = dict.fromkeys(field, 0.0)
    for result in results:
        points[result.seat0] += result.score0
        points[result.seat1] += result.score1
    for bye in byes:
        points[bye.entrant] += 1
    last = rnd.number - 1
    down = {b.entrant for b in byes if b.round == last}
    for r in results:
        before = {e: points[e] - (r.score0, r.score1)[i] for i, e in enumerate(r.entrants)}
        if r.round == last and before[r.seat0] != before[r.seat1]:
            down.add(max(r.entrants, key=before.__getitem__))
    met = {frozenset(r.entrants) for r in results}
    had_bye = {b.entrant for b in byes}

    def cost(a: str, b: str) -> float:
        """Squared score difference, then the higher score times the difference, then a
        repeated downfloat, as digits of one number (each sum stays below the next unit)."""
        high, low = sorted((a, b), key=points.__getitem__, reverse=True)
        gap = 2 * (points[high] - points[low])
        return gap * gap * 10**6 + 2 * points[high] * gap * 100 + (gap > 0 and high in down)

    def may_pair(a: str, b: str) -> bool:
        return frozenset({a, b}) not in met

    ours = sum(cost(*p.entrants) for p in rnd.pairings)
    if len(field) % 2 == 0:
        assert ours == brute_force(frozenset(field), may_pair, cost)
        return
    our_bye = rnd.byes[0].entrant
    ours += our_bye in down
    options = []
    for candidate in set(field) - had_bye:
        rest = brute_force(frozenset(field) - {candidate}, may_pair, cost)
        if rest is not None:
            options.append((points[candidate], rest + (candidate in down)))
    assert (points[our_bye], ours) == min(options)
