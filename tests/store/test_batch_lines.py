"""`arena.ratings.batch`, the per-result work of batched ratings, formats
exactly the text the store's serialisers write: a batch and `arena ladder rebuild` then store
the same bytes. tests/compiled/test_compiled_engine.py runs the same comparison on the compiled
build (where an int typed as a float would print as `17.0`)."""

from __future__ import annotations

import json
import random

import pytest

from arena.ratings.batch import (
    Texts,
    history_lines,
    number_text,
    packed,
    player_rows,
    rate_in_turn,
    standing_texts,
)
from arena.ratings.ladder import LadderParams, Standing, rate_outcomes
from arena.store.ratings import AnyResult, RatedResult, TableResult
from arena.store.ratings.records import (
    board_values,
    history_entry,
    skill_value,
    standing_fields,
    summary_value,
)
from tests.store.test_rating_batch import PAIRS, SNITCH, TEAMS, Config, results_for


def test_a_players_packed_line_holds_the_serialisers_strings() -> None:
    rng = random.Random(9)
    standings = [Standing()] + [
        Standing(
            rng.uniform(900, 2100),
            rng.uniform(900, 2100),
            rng.uniform(30, 350),
            0.06,
            rng.randrange(50),
            rng.randrange(20),
            rng.randrange(20),
            rng.randrange(20),
            rng.randrange(40) / 2,
            rng.uniform(-5, 50),
            rng.uniform(0.5, 8.4),
        )
        for _ in range(300)
    ]
    odd = [Standing(elo=float("inf")), Standing(rd=float("nan"), games=2**60), Standing(mu=-0.0)]
    for standing in [*standings, *odd]:
        expected = [*standing_fields(standing).values(), summary_value(standing)]
        expected += [skill_value(standing), *(repr(float(v)) for v in board_values(standing))]
        assert packed(standing) == tuple(expected)
        assert packed(standing, standing_texts(standing)) == tuple(expected)


def odd_results() -> list[AnyResult]:
    """Escapes and an exponent in the text, and an int `at` (which must stay an int)."""
    return [
        RatedResult('odd "id"\\é', "random", "greedy", 0.25, 1e-7),
        TableResult("int-at", ((("random",), 2.0), (("greedy",), 2.0)), 17),
        RatedResult("big-at", "random", "greedy", 1.0, 1e300),
    ]


@pytest.mark.parametrize("config", [PAIRS, SNITCH, TEAMS], ids=["pairs", "tables", "teams"])
def test_history_lines_are_the_entries_history_entry_writes(config: Config) -> None:
    rng = random.Random(11)
    made = [*results_for(config, 200, seed=5), *odd_results()]
    current: dict[str, Standing] = {}
    for position, result in enumerate(made):
        outcome = result.outcome()
        after = rate_outcomes(current, [outcome], LadderParams())
        current.update(after)
        at = position + rng.randrange(9)
        if position % 7 == 0:  # not finite: json's text, not repr (and no texts kept)
            after = {p: Standing(elo=float("-inf"), sigma=float("nan")) for p in after}
        texts: dict[str, Texts] = {}
        ours = dict(history_lines(result.result_id, result.at, outcome, at, after, texts))
        assert list(ours) == list(after)
        for player, standing in after.items():
            assert ours[player] == history_entry(result, outcome, at, player, standing)
            assert texts.get(player) == standing_texts(standing)


def test_numbers_are_written_as_json_writes_them() -> None:
    for value in (17, 17.0, -0.0, 1e-7, 1e300, 2**70, float("inf"), float("-inf"), float("nan")):
        assert number_text(value) == json.dumps(value)


def test_results_rated_in_turn_are_rated_as_one_by_one_periods() -> None:
    made = results_for(SNITCH, 60, seed=8)
    params = LadderParams()
    expected: dict[str, Standing] = {}
    lines: dict[str, list[str]] = {}
    for position, result in enumerate(made):
        outcome = result.outcome()
        after = rate_outcomes(expected, [outcome], params)
        expected.update(after)
        for player, standing in after.items():
            entry = history_entry(result, outcome, 5 + position, player, standing)
            lines.setdefault(player, []).append(entry)
    current: dict[str, Standing] = {}
    todo = [(r.result_id, r.at, r.outcome()) for r in made]
    texts: dict[str, Texts] = {}
    assert rate_in_turn(current, todo, 5, params, texts) == lines
    assert current == expected
    # The texts kept are those of each player's last standing: its packed row can use them.
    assert texts == {player: standing_texts(standing) for player, standing in expected.items()}
    rows = player_rows(expected, lines, texts)
    assert rows == [(p, *packed(s), *lines[p]) for p, s in expected.items()]
