"""Strict FIDE Dutch through caissify-pairings, fed our TRF export: known answers, hard rules,
and a free pairings checker (caissify's FPC) reading our TRF and agreeing with every round."""

from __future__ import annotations

import json
import random

import pytest
import redis
from caissify_pairings.fpc import check_trf  # type: ignore[import-untyped]
from click.testing import CliRunner

from arena.cli import main
from arena.services import event_runs
from arena.store.tournaments import Status, TournamentStore
from arena.tournament import (
    Bye,
    History,
    InvalidOptionError,
    MatchResult,
    NoValidPairingError,
    Pairing,
    Round,
    SwissOptions,
    export_trf,
    pair_round,
)
from arena.tournament.definition import Format, TournamentDefinition
from arena.tournament.swiss import SwissSystem
from tests.workers.tournaments import work_in_process

FIDE = SwissOptions(system=SwissSystem.FIDE_DUTCH)
P = [f"p{i}" for i in range(1, 11)]


def play(
    field: list[str], rounds: int, options: SwissOptions, seed: int
) -> tuple[list[MatchResult], list[Bye]]:
    """A Swiss paired with `options`, with random wins, draws and losses, checking the hard
    rules round by round."""
    rng = random.Random(seed)
    results: list[MatchResult] = []
    byes: list[Bye] = []
    for number in range(1, rounds + 1):
        rnd = pair_round(field, History(tuple(results), tuple(byes)), number, options)
        met = {frozenset(r.entrants) for r in results}
        assert all(frozenset(p.entrants) not in met for p in rnd.pairings)
        assert rnd.entrants == frozenset(field)
        assert not {b.entrant for b in rnd.byes} & {b.entrant for b in byes}
        byes += rnd.byes
        for p in rnd.pairings:
            outcome = rng.choice([(1.0, 0.0), (0.0, 1.0), (0.5, 0.5)])
            results.append(MatchResult(number, p.seat0, p.seat1, *outcome))
    return results, byes


def test_fide_dutch_first_round_is_the_dutch_fold_with_alternating_seats() -> None:
    rnd = pair_round(P[:8], History(), 1, FIDE)
    assert rnd == Round(
        1,
        (Pairing("p1", "p5"), Pairing("p6", "p2"), Pairing("p3", "p7"), Pairing("p8", "p4")),
    )


def test_fide_dutch_odd_first_round_gives_the_bye_to_the_last_seed() -> None:
    rnd = pair_round(P[:5], History(), 1, FIDE)
    assert rnd.byes == (Bye(1, "p5"),)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_fide_dutch_rounds_pass_a_free_pairings_checker_reading_our_trf(seed: int) -> None:
    field = [f"q{n:02d}" for n in range(1, 14)]  # odd: a bye every round
    options = SwissOptions(total_rounds=5, system=SwissSystem.FIDE_DUTCH)
    results, byes = play(field, 5, options, seed)
    report = check_trf(export_trf(field, results, byes, total_rounds=5))
    assert report["summary"]["rounds_checked"] == 5
    assert report["summary"]["rounds_mismatched"] == 0, report["rounds"]


def test_fide_dutch_gives_equal_seat_histories_the_higher_score_its_preference() -> None:
    # After two rounds (TRF: `001 2 ... 0.0  5 b 0  3 w 0` and `001 6 ... 1.0  3 b 1  1 w 0`)
    # p2 and p6 meet with the same seat history, both wishing for seat 1. FIDE E.4 grants it to
    # the higher ranked, ranked by score before pairing number: p6 (1 point, not p2 with 0).
    # bbpPairings plays 2-6; caissify alone ranks by pairing number and played 6-2.
    results = [
        MatchResult(1, "p1", "p4", 1, 0),
        MatchResult(1, "p5", "p2", 1, 0),
        MatchResult(1, "p3", "p6", 0, 1),
        MatchResult(2, "p6", "p1", 0, 1),
        MatchResult(2, "p4", "p5", 0, 1),
        MatchResult(2, "p2", "p3", 0, 1),
    ]
    trf = export_trf(P[:6], results, total_rounds=3).splitlines()
    assert trf[4].endswith("5 b 0     3 w 0") and trf[8].endswith("3 b 1     1 w 0")
    rnd = pair_round(
        P[:6], History(tuple(results)), 3, SwissOptions(total_rounds=3, system=FIDE.system)
    )
    assert Pairing("p2", "p6") in rnd.pairings


def test_fide_dutch_keeps_forbidden_pairs_and_forfeits_as_meetings() -> None:
    history = History(results=(MatchResult(1, "p1", "p2", 1, 0, forfeit=True),))
    history = History(
        results=(*history.results, MatchResult(1, "p3", "p4", 1, 0)),
    )
    options = SwissOptions(system=SwissSystem.FIDE_DUTCH, forbidden_pairs=(("p1", "p3"),))
    rnd = pair_round(P[:4], history, 2, options)
    assert {frozenset(p.entrants) for p in rnd.pairings} == {
        frozenset({"p1", "p4"}),
        frozenset({"p2", "p3"}),
    }


def test_fide_dutch_reports_an_impossible_round_as_no_valid_pairing() -> None:
    history = History(
        results=(
            MatchResult(1, "p1", "p2", 1, 0),
            MatchResult(1, "p3", "p4", 1, 0),
            MatchResult(2, "p1", "p3", 1, 0),
            MatchResult(2, "p2", "p4", 1, 0),
        )
    )
    options = SwissOptions(system=SwissSystem.FIDE_DUTCH, forbidden_pairs=(("p1", "p4"),))
    with pytest.raises(NoValidPairingError):
        pair_round(P[:4], history, 3, options)


def test_fide_dutch_duplicate_mode_ignores_seat_history() -> None:
    # p1 and p2 both sat in seat 0 twice; duplicate pairs play both seats, so they may meet.
    history = History(
        results=(
            MatchResult(1, "p1", "p3", 1, 1),
            MatchResult(1, "p2", "p4", 1, 1),
            MatchResult(2, "p1", "p4", 1, 1),
            MatchResult(2, "p2", "p3", 1, 1),
        )
    )
    options = SwissOptions(system=SwissSystem.FIDE_DUTCH, duplicate=True)
    rnd = pair_round(P[:4], history, 3, options)
    assert {frozenset(p.entrants) for p in rnd.pairings} == {
        frozenset({"p1", "p2"}),
        frozenset({"p3", "p4"}),
    }


def test_a_tournament_definition_names_its_swiss_system() -> None:
    field = ("a", "b", "c", "d")
    fide = TournamentDefinition(
        "cup", Format.SWISS, field, rounds=3, swiss_system=SwissSystem("fide-dutch")
    )
    assert fide.swiss_system is SwissSystem.FIDE_DUTCH
    assert TournamentDefinition.from_json(fide.to_json()) == fide
    stored_before = json.loads(fide.to_json())
    del stored_before["swiss_system"]  # definitions stored before the option existed
    old = TournamentDefinition.from_json(json.dumps(stored_before))
    assert old.swiss_system is SwissSystem.ARENA
    with pytest.raises(InvalidOptionError, match="unknown Swiss system 'monrad'"):
        TournamentDefinition("cup", Format.SWISS, field, rounds=3, swiss_system="monrad")  # type: ignore[arg-type]


def test_a_swiss_created_with_fide_dutch_is_paired_by_it_to_the_end(
    redis_client: redis.Redis, redis_server_url: str
) -> None:
    field = ["random", "greedy", "search#4", "search#5", "search#6"]  # odd: a bye every round
    made = CliRunner().invoke(
        main,
        ["tournament", "create", "fide", "--entrants", ",".join(field), "--rounds", "3",
         "--swiss-system", "fide-dutch"],
        env={"REDIS_URL": redis_server_url},
    )  # fmt: skip
    assert made.exit_code == 0, made.output
    store = TournamentStore(redis_client)
    assert store.get("fide").swiss_system is SwissSystem.FIDE_DUTCH
    event_runs.start(redis_client, "fide")
    work_in_process(redis_client)
    assert store.status("fide") is Status.FINISHED, store.reason("fide")
    # Every round is the one strict FIDE Dutch pairs from the stored history before it.
    history = store.history("fide")
    options = SwissOptions(total_rounds=3, duplicate=True, system=SwissSystem.FIDE_DUTCH)
    for stored in store.rounds("fide"):
        before = History(
            tuple(r for r in history.results if r.round < stored.number),
            tuple(b for b in history.byes if b.round < stored.number),
        )
        assert pair_round(field, before, stored.number, options) == stored
    refused = CliRunner().invoke(
        main,
        ["tournament", "create", "bad", "--entrants", "random,greedy", "--rounds", "1",
         "--swiss-system", "monrad"],
        env={"REDIS_URL": redis_server_url},
    )  # fmt: skip
    assert refused.exit_code != 0 and "monrad" in refused.output
    assert "Traceback" not in refused.output
