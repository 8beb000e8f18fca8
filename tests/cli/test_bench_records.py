"""The behaviour fingerprint: seeded random games whose records replay and hash stably."""

from __future__ import annotations

from click.testing import CliRunner

from arena.bench.records import (
    VARIANTS,
    bot_record,
    random_record,
    records_hash,
    variant_hashes,
)
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


def test_a_bot_record_has_the_bot_in_every_other_seat_and_replays_to_its_result() -> None:
    """Greedy takes seats 0 and 2 of seed 0 (seat plus seed even) and the others play at
    random: the record differs from the random game of that seed and replays."""
    for game_id, config in VARIANTS[-3:]:  # Age of Thieves for 2, 3 and 4 players
        record = bot_record(game_id, config, 0, "greedy")
        _, result = replay(record)
        assert result is not None and record.result is not None
        assert list(result.scores) == list(record.result["scores"])
        assert record.actions != random_record(game_id, config, 0).actions
        assert bot_record(game_id, config, 0, "greedy") == record


def test_arena_bench_records_with_a_bot_prints_its_own_hash() -> None:
    from arena.cli import main

    done = CliRunner().invoke(main, ["bench", "records", "--games", "1", "--bot", "greedy"])
    assert done.exit_code == 0, done.output
    with_bot = records_hash(1, lambda _: None, "greedy")
    assert with_bot != records_hash(1, lambda _: None)
    assert f"all variants with greedy: {with_bot}" in " ".join(done.output.split())
    refused = CliRunner().invoke(main, ["bench", "records", "--games", "1", "--bot", "nosuch"])
    assert refused.exit_code != 0 and "unknown bot 'nosuch'" in refused.output
    assert "Traceback" not in refused.output
