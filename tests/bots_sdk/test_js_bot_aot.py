"""The Node.js example bot plays Age of Thieves on the real gateway: a 3-player match against two
built-in bots, every game played to the end with the Node bot answering each of its decisions
legally by index (an illegal or malformed answer would end the game early)."""

from __future__ import annotations

import secrets

import pytest

from arena.games.age_of_thieves import AGE_OF_THIEVES
from arena.gateway.testing import TEST_POLICY, running_arena
from arena.play.match import play_match
from arena.referee.referee import Termination
from tests.bots_sdk.js import finish, node_bot_ready, start_node_bot
from tests.bots_sdk.online import wait_online

pytestmark = pytest.mark.timeout(240)


def test_the_node_bot_plays_a_3_player_age_of_thieves_match_on_the_real_gateway(
    redis_server_url: str,
) -> None:
    node_bot_ready()
    games = 3  # the match rotates the seats: the Node bot sits in each of the three once
    with running_arena(redis_server_url) as arena:
        name = f"js-{secrets.token_hex(3)}"
        node = start_node_bot(arena.target, arena.register_bot(name), max_games=games)
        try:
            wait_online(arena, name)
            outcomes = play_match(
                arena.client,
                AGE_OF_THIEVES,
                {"players": 3},
                [name, "random", "random"],
                games,
                5,
                TEST_POLICY,
                "m" + name,
            )
        finally:
            code, output = finish(node)
    assert all(o.termination is Termination.NORMAL for o in outcomes), [o.reason for o in outcomes]
    assert code == 0, output
    assert f"played {games} games: stopping" in output
    held = [seat for o in outcomes for seat, who in enumerate(o.record.players) if who == name]
    assert sorted(held) == [0, 1, 2]
    assert output.count(" started: age-of-thieves") == output.count(" over: ") == games
    moves = [m for o in outcomes for m in o.record.actions]
    assert len(moves) > 100  # whole games, the Node bot's decisions among them
