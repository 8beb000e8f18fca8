"""Greedy plays Age of Thieves exactly as the known-good bots did: its behaviour defines the
measured targets of `arena bench aot`, and the search's rollouts play it, so a faster greedy
must take the very same decisions.

`data/aot_known_games.json` holds games the bots of a known-good commit played (greedy against
greedy at 4 players, covering every card greedy plays, the sewers and Sprint, and greedy
against random at 2 and 3), and for the first game the end spaces `aot_greedy.ends` ranked
first at each movement (the search's alternatives). Here the same bots play the same deals.
After a change of the rules, or a deliberate change of greedy's play, write the file again on
the commit to pin, from the repository root, and say why in that commit:

    .venv/bin/python -m tests.bots.test_aot_known_games
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from arena.bots import aot_greedy, make_bot
from arena.games.age_of_thieves.game import AGE_OF_THIEVES as GAME
from arena.play.local import play_game

KNOWN = Path(__file__).parent / "data" / "aot_known_games.json"
# (seat by seat, the bots; the seed): the deals and seats of the known games.
DEALS: tuple[tuple[tuple[str, ...], int], ...] = (
    (("greedy",) * 4, 30),
    (("greedy",) * 4, 34),
    (("random", "greedy"), 1),
    (("greedy", "random", "random"), 2),
)
RANKED = 4  # end spaces kept per movement: greedy's and the search's alternatives


def play(players: tuple[str, ...], seed: int) -> list[str]:
    """The actions of the game `players` play on deal `seed`, fresh bots in every seat."""
    config = {"players": len(players)}
    return list(play_game(GAME, config, seed, [make_bot(name) for name in players]).record.actions)


def rankings(players: int, seed: int, actions: list[str]) -> list[list[str]]:
    """At each movement of the game `actions` record, the end spaces `ends` ranks first for
    the seat moving, from where he stands."""
    state, found = GAME.create({"players": players}, seed), []
    for text in actions:
        prompt = state.prompt
        if prompt is not None and prompt.name == "move":
            here = state.thief(prompt.seat).space
            _, scored = aot_greedy.ends(state, prompt.seat, prompt.task.n, here)
            found.append([space for _, space in scored[:RANKED]])
        state = GAME.apply(state, GAME.parse_action(text), GAME.current_player(state))
    return found


def known() -> list[dict[str, Any]]:
    games: list[dict[str, Any]] = json.loads(KNOWN.read_text())
    return games


def test_the_known_games_are_the_listed_deals() -> None:
    assert [(tuple(g["players"]), g["seed"]) for g in known()] == list(DEALS)
    assert all(len(g["actions"]) > 100 for g in known())


@pytest.mark.parametrize("index", range(len(DEALS)))
def test_greedy_plays_a_known_game_again_decision_for_decision(index: int) -> None:
    game = known()[index]
    assert play(tuple(game["players"]), game["seed"]) == game["actions"]


def test_greedy_ranks_the_end_spaces_of_a_known_game_as_before() -> None:
    game = known()[0]
    found = rankings(len(game["players"]), game["seed"], game["actions"])
    assert len(found) > 50
    assert found == game["ends"]


def write() -> None:
    """Play the deals with the bots of this checkout and store them as the known games."""
    games: list[dict[str, Any]] = []
    for players, seed in DEALS:
        actions = play(players, seed)
        games.append({"players": list(players), "seed": seed, "actions": actions})
    first = games[0]
    first["ends"] = rankings(len(DEALS[0][0]), DEALS[0][1], first["actions"])
    KNOWN.parent.mkdir(exist_ok=True)
    KNOWN.write_text(json.dumps(games, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    write()
