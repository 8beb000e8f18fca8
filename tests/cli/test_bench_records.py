"""The behaviour fingerprint: seeded random games whose records replay and hash stably."""

from __future__ import annotations

from click.testing import CliRunner

from arena.bench.records import VARIANTS, random_record, records_hash, variant_hashes
from arena.games.record import replay


def test_every_variant_plays_a_finished_game_that_replays_to_its_result() -> None:
    for game_id, config in VARIANTS:
        record = random_record(game_id, config, seed=7)
        _, result = replay(record)
        assert result is not None and record.result is not None
        assert list(result.scores) == list(record.result["scores"])


def test_the_hash_is_the_same_each_run_and_moves_with_the_games_played() -> None:
    lines: list[str] = []
    first = records_hash(2, lines.append)
    assert records_hash(2, lambda _: None) == first
    assert records_hash(3, lambda _: None) != first
    assert len(lines) == 2 * len(VARIANTS)


def test_each_variant_hashes_differently() -> None:
    hashes = [one.sha256 for one in variant_hashes(1)]
    assert len(set(hashes)) == len(VARIANTS)


def test_arena_bench_records_prints_each_variant_and_the_overall_hash() -> None:
    from arena.cli import main

    done = CliRunner().invoke(main, ["bench", "records", "--games", "1"])
    assert done.exit_code == 0, done.output
    assert f"all variants: {records_hash(1, lambda _: None)}" in done.output
    assert "age-of-thieves (players=4): 1 games" in done.output
