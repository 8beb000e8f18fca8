"""The fixed action tables and the payouts both research adapters share."""

from __future__ import annotations

import random

import pytest

from arena.games.api import ConfigError, Result
from arena.research.actions import action_table
from arena.research.variants import Variant, all_variants, returns, variant

VARIANTS = all_variants()


def test_every_game_and_variant_is_offered() -> None:
    names = {str(v) for v in VARIANTS}
    assert len(VARIANTS) == 16
    assert "caper(city=rome,players=3)" in names and "caper(city=london,players=4)" in names
    assert "caper-europe(city=barcelona)" in names and "age-of-thieves(players=4)" in names


@pytest.mark.parametrize("game_id", ["caper", "caper-europe", "age-of-thieves"])
def test_a_table_numbers_each_action_once(game_id: str) -> None:
    table = action_table(game_id)
    assert len(set(table.actions)) == table.size > 1000
    assert all(table.index(table.action(i)) == i for i in range(table.size))
    with pytest.raises(ValueError, match=f"outside 0-{table.size - 1}"):
        table.action(table.size)


@pytest.mark.parametrize("chosen", VARIANTS, ids=str)
def test_every_legal_action_of_random_games_is_in_the_table(chosen: Variant) -> None:
    """The tables are built from the card and board data, not from play: random games check
    that nothing the rules offer is missing."""
    game, table = chosen.game, action_table(chosen.game_id)
    seen: set[int] = set()
    for seed in range(4 if chosen.game_id == "age-of-thieves" else 15):
        state, rng = game.create(chosen.settings, seed), random.Random(seed)
        while not game.is_terminal(state):
            legal = game.legal_actions(state)
            seen.update(table.indices(legal))  # KeyError naming the action if one is missing
            state = game.apply(state, rng.choice(legal))
    assert len(seen) > 100


def test_an_action_outside_the_table_is_named() -> None:
    with pytest.raises(KeyError, match="caper action fly to the moon is not in the action table"):
        action_table("caper").index("fly to the moon")


@pytest.mark.parametrize(
    ("game_id", "config", "message"),
    [
        ("chess", {}, "unknown game 'chess'"),
        ("caper", {"city": "atlantis"}, "unknown city 'atlantis'"),
        ("caper", {"players": 5}, "players must be 2, 3 or 4"),
        ("age-of-thieves", {"players": 1}, "players must be 2, 3 or 4"),
    ],
)
def test_a_bad_variant_is_a_config_error(
    game_id: str, config: dict[str, int | str], message: str
) -> None:
    with pytest.raises(ConfigError, match=message):
        variant(game_id, **config)


def _result(winner: int | None, **details: object) -> Result:
    return Result((0, 0, 0, 0), winner, ({}, {}, {}, {}), details=details)


def test_returns_pay_the_winning_side() -> None:
    two, four = variant("caper"), variant("caper", players=4)
    assert returns(two.game, two.settings, _result(1)) == [-1.0, 1.0]
    # 4 players: each Mastermind and its Lookout are a team (V10)
    assert returns(four.game, four.settings, _result(0)) == [1.0, -1.0, 1.0, -1.0]
    thieves = variant("age-of-thieves", players=3)
    everyone_loses = _result(None, winners=[])
    assert returns(thieves.game, thieves.settings, everyone_loses) == [-1.0, -1.0, -1.0]
    assert returns(two.game, two.settings, _result(None)) == [0.0, 0.0]  # a drawn game
