"""The Node.js example bot in 3- and 4-player Caper (section 12): against the scripted gateway it
holds several seats of one game (both seats of a team, V11; every seat of a Snitch game) and
answers each seat's requests legally; on the real gateway it plays a team match and a Snitch
table (V12) against built-in bots, logging its role from GameStarted.seats."""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterator

import pytest

from arena.games.caper import CAPER, ActionKind
from arena.gateway.testing import TEST_POLICY, running_arena
from arena.play.match import play_match
from arena.referee.referee import Termination
from arena.referee.seats import layout
from arena.v1 import bot_pb2
from bots_sdk.kit_tables import Table
from tests.bots_sdk.fake_gateway import TOKEN, FakeGateway, Script, Session, welcomed
from tests.bots_sdk.js import finish, node_bot_ready, start_node_bot
from tests.bots_sdk.online import wait_online
from tests.bots_sdk.test_js_bot import Played

pytestmark = pytest.mark.timeout(240)

# (seed, players, the seats the Node bot holds): a team of each colour, one Snitch-game seat,
# and every seat of a Snitch game at once.
GAMES = [(1, 4, (0, 2)), (2, 4, (1, 3)), (3, 3, (2,)), (4, 3, (0, 1, 2))]


def _seated_game(
    session: Session, seed: int, players: int, seats: tuple[int, ...], played: Played
) -> Iterator[bot_pb2.ConnectResponse]:
    config: dict[str, str | int] = {"city": "rome", "players": players}
    state = CAPER.create(config, seed)
    table = Table(
        f"js{seed}", CAPER, config, layout(CAPER, config), seats, state, random.Random(seed)
    )
    for seat in seats:
        yield table.started(seat, "node", 5000)
    while (mover := CAPER.current_player(table.state)) is not None:
        legal = list(CAPER.legal_actions(table.state))
        action = table.others.choice(legal)
        if mover in seats:
            request = table.request(mover, legal, 5000)
            yield bot_pb2.ConnectResponse(decision_request=request)
            reply = session.receive(timeout_s=10).action_reply
            if reply.request_id != request.request_id:
                played.problems.append(f"answered {reply.request_id!r} for {request.request_id!r}")
            if reply.WhichOneof("choice") != "legal_index" or reply.legal_index >= len(legal):
                played.problems.append(f"{request.request_id}: not a legal index: {reply}")
                return
            action = legal[reply.legal_index]
            played.choices.append((table.role(mover), action, legal))
        table.apply(action)
    for seat in seats:
        over = table.over(seat, CAPER.result(table.state), "normal", "")
        yield bot_pb2.ConnectResponse(game_over=over)


def _script(played: Played) -> Script:
    def script(session: Session) -> Iterator[bot_pb2.ConnectResponse]:
        yield from welcomed(session)
        for seed, players, seats in GAMES:
            yield from _seated_game(session, seed, players, seats, played)
        session.closed.wait(timeout=30)

    return script


def test_the_node_bot_answers_every_seat_it_holds_in_3_and_4_player_games() -> None:
    node_bot_ready()
    played = Played()
    gateway = FakeGateway([_script(played)]).start()
    try:
        code, output = finish(start_node_bot(gateway.target, TOKEN, max_games=len(GAMES)))
    finally:
        gateway.stop()
    assert code == 0, output
    assert played.problems == []
    roles = {role for role, _, _ in played.choices}
    assert roles == {"mastermind", "lookout", "snitch"}
    kinds = {action.kind for _, action, _ in played.choices}
    assert {ActionKind.GIVE, ActionKind.SEND} <= kinds
    # its role, from GameStarted.seats, for each seat it holds
    assert "game js1 started: caper, seat 0 (mastermind, cream); seats: node, random, node" in (
        output
    )
    assert "game js1 started: caper, seat 2 (lookout, cream)" in output
    assert "game js3 started: caper, seat 2 (snitch)" in output
    # a game counts once, when all its seats are over: 4 games, 2 + 2 + 1 + 3 GameOvers
    assert output.count(" over: ") == 8 and "played 4 games: stopping" in output
    team_lines = [line for line in output.splitlines() if "game js1 over" in line]
    assert (
        len(team_lines) == 2 and len({line.split(": ")[1].split()[0] for line in team_lines}) == 1
    )


@pytest.mark.parametrize(
    ("players", "lineup", "games"),
    [(4, ("NODE", "greedy"), 2), (3, ("NODE", "greedy", "random"), 3)],
    ids=["team", "snitch-table"],
)
def test_the_node_bot_plays_3_and_4_player_caper_on_the_real_gateway(
    redis_server_url: str, players: int, lineup: tuple[str, ...], games: int
) -> None:
    with running_arena(redis_server_url) as arena:
        name = f"js-{secrets.token_hex(3)}"
        node = start_node_bot(arena.target, arena.register_bot(name), max_games=games)
        try:
            wait_online(arena, name)
            entrants = [name if entrant == "NODE" else entrant for entrant in lineup]
            config: dict[str, str | int] = {"city": "paris", "players": players}
            outcomes = play_match(
                arena.client, CAPER, config, entrants, games, 5, TEST_POLICY, "m" + name
            )
        finally:
            code, output = finish(node)
    assert all(o.termination is Termination.NORMAL for o in outcomes), [o.reason for o in outcomes]
    assert code == 0, output
    assert f"played {games} games: stopping" in output
    held = [seat for o in outcomes for seat, who in enumerate(o.record.players) if who == name]
    assert output.count(" over: ") == len(held) == output.count(" started: caper")
    if players == 4:  # both seats of its team in each game, with the team's roles
        assert len(held) == 2 * games
        assert "(mastermind, cream)" in output and "(lookout, cream)" in output
        assert "(mastermind, mint)" in output and "(lookout, mint)" in output
    else:  # V12: every role of the table once
        assert "(mastermind, cream)" in output and "(mastermind, mint)" in output
        assert "(snitch)" in output
