"""The pipeline benchmarks run end to end and print their figures (never asserting speed)."""

from __future__ import annotations

import re

import pytest
import redis
from click.testing import CliRunner, Result

from arena.cli import main

pytestmark = pytest.mark.timeout(240)


def arena(url: str, *args: str) -> Result:
    return CliRunner().invoke(main, list(args), env={"REDIS_URL": url})


def test_bench_protocol_measures_round_trips_through_a_real_gateway(
    redis_client: redis.Redis, redis_server_url: str
) -> None:
    out = arena(
        redis_server_url, "bench", "protocol", "--bots", "4", "--seconds", "1", "--parallel", "1,2"
    )
    assert out.exit_code == 0, out.output
    lines = re.findall(
        r"(\d+) games at a time: p50 +([\d.]+) ms, p99 +([\d.]+) ms, ([\d,]+) decisions/s",
        out.output,
    )
    assert [int(games) for games, *_ in lines] == [1, 2]
    for _, p50, p99, rate in lines:
        assert 0 < float(p50) <= float(p99) and int(rate.replace(",", "")) > 0


def test_bench_protocol_refuses_an_odd_number_of_bots(redis_server_url: str) -> None:
    out = arena(redis_server_url, "bench", "protocol", "--bots", "3")
    assert out.exit_code == 1 and "even number" in out.output and "Traceback" not in out.output


def test_bench_tournament_compares_the_pipeline_with_the_engine(
    redis_client: redis.Redis, redis_server_url: str
) -> None:
    out = arena(
        redis_server_url, "bench", "tournament", "--workers", "1", "--entrants", "2",
        "--games-per-match", "2,4", "--min-games", "8", "--engine-seconds", "0.2",
        "--pairing-sizes", "8,16", "--pairing-rounds", "2", "--pod-sizes", "9,30",
    )  # fmt: skip
    assert out.exit_code == 0, out.output
    text = " ".join(out.output.split())  # as printed, before the terminal's wrapping
    runs = re.findall(
        r"pipeline: [\d,]+ games/s with 1 worker processes \((\d+) games in (\d+) matches of "
        r"(\d+), (\d+) entrants",
        text,
    )
    # a double round robin grows its field until it plays --min-games: 3 entrants at 2 games
    assert runs == [("12", "6", "2", "3"), ("8", "2", "4", "2")]
    ratios = re.findall(r"ratio to the bare engine: (\d+\.\d\d)", text)
    assert len(ratios) == 2 and re.search(r"CPU second .*: \d+\.\d\d", text)
    assert f"at 2 / 4 games a match: {ratios[0]} / {ratios[1]}" in text
    assert re.findall(r"swiss pairing, (\d+) entrants", out.output) == ["8", "16"]
    assert re.findall(r"swiss pods of 3, (\d+) entrants: \d+\.\d+ s", out.output) == ["9", "30"]


def test_bench_tournament_refuses_odd_or_unreadable_match_lengths(redis_server_url: str) -> None:
    for lengths in ("4,3", "4,x", ","):
        out = arena(redis_server_url, "bench", "tournament", "--games-per-match", lengths)
        assert out.exit_code == 1 and "Traceback" not in out.output, out.output
        assert "games per match" in out.output or "whole numbers" in out.output


def test_bench_tournament_refuses_pod_tables_it_cannot_seat(redis_server_url: str) -> None:
    out = arena(redis_server_url, "bench", "tournament", "--table-size", "9")
    assert out.exit_code == 1 and "pod tables seat 2 to 6" in out.output
    out = arena(redis_server_url, "bench", "tournament", "--pod-sizes", "2", "--table-size", "3")
    assert out.exit_code == 1 and "fills one table" in out.output
    assert "Traceback" not in out.output


def test_bench_swiss_compare_counts_rounds_paired_as_fide_dutch_pairs_them() -> None:
    out = CliRunner().invoke(main, ["bench", "swiss-compare", "--events", "12", "--seed", "5"])
    assert out.exit_code == 0, out.output
    shares = [(int(part), int(whole)) for part, whole in re.findall(r"(\d+) of (\d+)", out.output)]
    (same, rounds), (seats, rounds_again), (later_same, later) = shares
    assert rounds == rounds_again >= 12 * 3 - 12  # 3 to 5 rounds each, rarely cut short
    assert seats <= same <= rounds
    # Round 1 is the same fold in both systems, in all 12 events.
    assert (rounds - later, same - later_same) == (12, 12)
    assert re.search(r"default worse in \d+ rounds, better in \d+", out.output)
    assert "right after a downfloat: default " in out.output


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [("--entrants", "12-6", "4 <= min <= max"), ("--rounds", "three", "a range like")],
)
def test_bench_swiss_compare_refuses_bad_ranges(option: str, value: str, message: str) -> None:
    out = CliRunner().invoke(main, ["bench", "swiss-compare", option, value])
    assert out.exit_code == 1 and message in out.output and "Traceback" not in out.output
