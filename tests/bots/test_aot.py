"""The built-in bots play Age of Thieves (rules docs/rules/age-of-thieves.md): greedy beats
random, the search replays exactly with an iteration budget, and every bot decides from its own
seat's observation only."""

from __future__ import annotations

import random

from click.testing import CliRunner

from arena.bench.aot import one_against_three
from arena.bots import make_bot
from arena.bots.base import Bot
from arena.bots.greedy import GreedyBot
from arena.bots.search import SearchBot
from arena.games.age_of_thieves.game import AGE_OF_THIEVES as GAME
from arena.games.age_of_thieves.observation import resample_hidden
from arena.games.age_of_thieves.state import Action, State
from arena.match.local import play_game


def decisions(seed: int, count: int) -> list[State]:
    """`count` states with a choice between several actions, from a greedy four-player game,
    spread over its rounds."""
    state, bot, rng = GAME.create({"players": 4}, seed), GreedyBot(), random.Random(seed)
    found: list[State] = []
    while not GAME.is_terminal(state) and len(found) < count:
        seat = GAME.current_player(state)
        assert seat is not None
        legal = GAME.legal_actions(state)
        if len(legal) > 1 and rng.random() < 0.1:
            found.append(state)
        state = GAME.apply(state, bot.choose(GAME, GAME.observation(state, seat), legal, rng))
    return found


def choice(bot: Bot, state: State, seed: int) -> Action:
    seat = GAME.current_player(state)
    assert seat is not None
    legal = GAME.legal_actions(state)
    action: Action = bot.choose(GAME, GAME.observation(state, seat), legal, random.Random(seed))
    assert action in legal
    return action


def test_greedy_beats_random_over_seeded_four_player_games() -> None:
    """Section 19 winners over 24 seeded games, greedy in one seat (rotated), random in three:
    at 200 games greedy won ~25%, a random seat 0%; the margin leaves room for luck."""
    figures = one_against_three("greedy", "random", games=24, seed=100)
    assert figures.hero_wins >= 2
    assert figures.hero_wins >= figures.field_wins + 2


def test_random_plays_whole_games_of_two_and_three() -> None:
    for players in (2, 3):
        bots = [make_bot("random") for _ in range(players)]
        result = play_game(GAME, {"players": players}, 3, bots).result
        assert len(result.scores) == players


def test_the_search_replays_exactly_with_an_iteration_budget() -> None:
    for state in decisions(seed=5, count=6):
        assert len({choice(SearchBot(iterations=6), state, seed=9) for _ in range(3)}) == 1


def test_a_whole_game_with_the_search_replays_exactly() -> None:
    bots = (make_bot("search#2"), make_bot("greedy"))
    first = play_game(GAME, {"players": 2}, 8, bots)
    again = play_game(GAME, {"players": 2}, 8, (make_bot("search#2"), make_bot("greedy")))
    assert first.record.actions == again.record.actions
    assert first.result == again.result


def test_bots_decide_from_their_own_seats_view_only() -> None:
    """Other hands, face-down tiles and deck orders dealt anew (22.7: hidden from the seat) give
    the seat the same observation, and each bot the same choice with the same generator."""
    for state in decisions(seed=2, count=8):
        seat = GAME.current_player(state)
        assert seat is not None
        other = resample_hidden(state, seat, random.Random(1))
        assert other != state or not state.tiles
        assert GAME.observation(other, seat) == GAME.observation(state, seat)
        for spec in ("greedy", "search#4", "random"):
            assert choice(make_bot(spec), other, 3) == choice(make_bot(spec), state, 3)


def test_the_bench_prints_its_figures_and_refuses_unknown_bots() -> None:
    from arena.cli import main

    done = CliRunner().invoke(main, ["bench", "aot", "--games", "2", "greedy", "random"])
    assert done.exit_code == 0, done.output
    assert "greedy vs 3x random, 2 games" in done.output and "everybody loses" in done.output
    refused = CliRunner().invoke(main, ["bench", "aot", "--games", "2", "greedy", "nope"])
    assert refused.exit_code == 1 and refused.exception is not None
    assert "unknown bot 'nope'" in refused.output and "Traceback" not in refused.output
