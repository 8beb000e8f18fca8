"""The built-in bots play Age of Thieves (rules docs/rules/age-of-thieves.md): greedy beats
random, the search replays exactly with an iteration budget, and every bot decides from its own
seat's observation only."""

from __future__ import annotations

import io
import random

from click.testing import CliRunner

from arena.bench.aot import one_against_three
from arena.bots import aot_greedy, make_bot
from arena.bots.base import Bot
from arena.bots.greedy import GreedyBot
from arena.bots.search import SearchBot
from arena.games.age_of_thieves.game import AGE_OF_THIEVES as GAME
from arena.games.age_of_thieves.observation import resample_hidden
from arena.games.age_of_thieves.planning import options as plan_options
from arena.games.age_of_thieves.state import AMBUSH, MOVE, Action, State, replace
from arena.play.local import play_game


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


def planning_state(seed: int = 4) -> State:
    """The first planning decision of a four-player game, seat 0's hand emptied."""
    state = GAME.create({"players": 4}, seed)
    bots = [make_bot("greedy") for _ in range(4)]
    rng = random.Random(seed)
    while state.prompt is None or state.prompt.name != "plan":
        seat = GAME.current_player(state)
        assert seat is not None
        obs, legal = GAME.observation(state, seat), GAME.legal_actions(state)
        state = GAME.apply(state, bots[seat].choose(GAME, obs, legal, rng))
    assert state.prompt is not None
    return state.with_thief(state.prompt.seat, hand=())


def planned(state: State) -> list[tuple[str, int]]:
    """The plan greedy builds for the seat now planning (its options asked anew, as the hand
    may have been changed): (card, AP) in order."""
    assert state.prompt is not None
    seat, thief = state.prompt.seat, state.thief(state.prompt.seat)
    asked = state.prompt._replace(options=tuple(plan_options(thief, state.specials)))
    state = replace(state, prompt=asked)
    while state.prompt is not None and state.prompt.name == "plan" and state.prompt.seat == seat:
        state = GAME.apply(state, aot_greedy.policy(state, random.Random(0)))
    return [(p.card, p.ap) for p in state.thief(seat).plan]


def test_greedy_plans_move_to_beat_the_guards_and_walks_on_with_its_movement_cards() -> None:
    state = planning_state()
    seat = state.prompt.seat if state.prompt else -1
    assert state.thief(seat).pool == 10
    assert planned(state) == [(MOVE, 10)]  # nothing else worth playing
    with_cards = state.with_thief(seat, hand=("G13", "G02", "G17", "G13"))
    assert planned(with_cards) == [(MOVE, 8), ("G13", 1), ("G13", 1)]
    others = state.with_thief(seat, hand=("G02",))
    assert planned(others) == [(MOVE, 9), (AMBUSH, 1)]  # Cleverness swaps the card


def test_greedy_walks_on_after_escaping_the_dungeon() -> None:
    state = planning_state()
    seat = state.prompt.seat if state.prompt else -1
    dungeon = "V" + state.thief(seat).space[0]
    jailed = state.with_thief(seat, space=dungeon, pool=2, hand=("G13",))
    assert planned(jailed) == [(MOVE, 1), ("G13", 1)]


def test_greedy_resolves_move_first_then_its_movement_card_and_discards_others_first() -> None:
    state = planning_state()
    seat = state.prompt.seat if state.prompt else -1
    turn = Action("sneak", MOVE), Action("resolve", "G13"), Action("decline", "G13")
    assert aot_greedy._turn(state, seat, [Action("decline", MOVE), *turn]) == turn[0]
    assert aot_greedy._turn(state, seat, turn[1:]) == turn[1]
    discards = [Action("discard", c) for c in ("G13", "G10", "G02", "G17")]
    assert aot_greedy._discard(discards) == Action("discard", "G02")
    assert aot_greedy._discard(discards[:2] + discards[3:]) == Action("discard", "G10")


def test_greedy_cloaks_itself_before_the_guards_when_carrying_the_emperors_jewel() -> None:
    state = planning_state()
    seat = state.prompt.seat if state.prompt else -1
    unguarded = replace(state, guards=(), captains=()).with_thief(seat, hand=("G10",))
    assert planned(unguarded) == [(MOVE, 9), (AMBUSH, 1)]  # no danger: Cleverness instead
    carrying = state.with_thief(seat, hand=("G10", "G13"), ej=True)
    assert planned(carrying) == [("G10", 8), (MOVE, 1), ("G13", 1)]


def test_with_no_bots_named_the_bench_prints_the_targets_table() -> None:
    from rich.console import Console

    from arena.cli import main
    from arena.cli.bench_commands import _targets_table

    wide = Console(width=200, file=io.StringIO())
    wide.print(_targets_table(games=1, seed=0))
    printed = wide.file.getvalue()  # type: ignore[attr-defined]
    for measure in (
        "4 greedy: everybody loses",
        "1 greedy vs 3 random: greedy wins",
        "2 players greedy vs random: a winner",
        "1 search vs 3 greedy: search wins",
        "2 players search vs greedy: duplicate pair score",
        "search CPU a game, default budget",
    ):
        assert measure in printed
    alone = CliRunner().invoke(main, ["bench", "aot", "greedy"])
    assert alone.exit_code == 2 and "name the FIELD bot too" in alone.output
