"""One bot instance per (game, seat) in the SDK's Player: a bot holding both seats of a team (V11)
gets two instances that share nothing (V9), the seats and roles of GameStarted, and who won in
team and Snitch games (V5, V10)."""

from __future__ import annotations

import random
import threading
from collections.abc import Sequence
from typing import Any

import pytest

from arena import codec
from arena.games.api import Result
from arena.games.caper import CAPER, CaperObservation
from arena.referee.seats import forfeit_result, layout
from arena.v1 import bot_pb2
from bots_sdk import Bot, GameAction, GameEnd, GameStart, Observation
from bots_sdk import player as player_module
from bots_sdk.player import BotFault, Player
from tests.bots_sdk import messages
from tests.bots_sdk.bots import FirstBot, Journal

ROLES = {2: ("mastermind",) * 2, 3: ("mastermind", "mastermind", "snitch")}
ROLES[4] = (*ROLES[2], "lookout", "lookout")
TEAMS = {2: ("cream", "mint"), 3: ("cream", "mint", ""), 4: ("cream", "mint", "cream", "mint")}


class SeatKeeper(Bot):
    """Keeps its seat's memory in `self`; the journal (shared by copies) lists the instances."""

    def __init__(self) -> None:
        self.journal = Journal()
        self.seats_seen: set[tuple[str, int]] = set()
        self.hands: list[tuple[str, ...]] = []
        self.start: GameStart | None = None
        self.end: GameEnd | None = None

    def on_game_start(self, game: GameStart) -> None:
        self.start = game
        self.journal.started.append(game)
        self.journal.instances.append(self)

    def act(self, observation: Observation, legal: Sequence[GameAction]) -> GameAction:
        assert isinstance(observation, CaperObservation)
        self.hands.append(observation.hand)
        return legal[0]

    def decide(self, decision: Any) -> GameAction:
        self.seats_seen.add((decision.game_id, decision.seat))
        self.journal.calls += 1
        return super().decide(decision)

    def on_game_over(self, game: GameEnd) -> None:
        self.end = game
        self.journal.ended.append(game)


def _started(
    game_id: str, seat: int, players: int, names: Sequence[str]
) -> bot_pb2.ConnectResponse:
    config: dict[str, str | int] = {"city": "rome", "players": players}
    started = bot_pb2.GameStarted(
        game_id=game_id,
        seat=seat,
        game="caper",
        rules_version=CAPER.rules_version,
        config=codec.config_to_proto(config),
        opponent_name="random",
        time_control=bot_pb2.TimeControl(move_ms=1000, bank_ms=0, max_strikes=3),
        seats=[
            bot_pb2.GameSeat(player_name=name, role=role, team=team)
            for name, role, team in zip(names, ROLES[players], TEAMS[players], strict=True)
        ],
    )
    return messages.wire(bot_pb2.ConnectResponse(game_started=started))


def _over(game_id: str, seat: int, result: Result) -> bot_pb2.ConnectResponse:
    over = bot_pb2.GameOver(game_id=game_id, result=codec.result_to_proto(result), seat=seat)
    return messages.wire(bot_pb2.ConnectResponse(game_over=over))


def _play(player: Player, players: int, seats: tuple[int, ...], seed: int) -> list[Any]:
    """A whole game in which `player` holds `seats` and random players the others; the engine
    observation of every request it was sent, in order."""
    game_id, rng = f"g{seed}", random.Random(seed)
    names = ["me" if seat in seats else "random" for seat in range(players)]
    for seat in seats:
        player.handle(_started(game_id, seat, players, names))
    state, asked = CAPER.create({"city": "rome", "players": players}, seed), []
    while (mover := CAPER.current_player(state)) is not None:
        legal = CAPER.legal_actions(state)
        action = rng.choice(legal)
        if mover in seats:
            asked.append(CAPER.observation(state, mover))
            request = f"{game_id}.{mover}.{len(asked)}"
            reply = player.handle(messages.decision(state, request_id=request, game_id=game_id))
            assert reply is not None
            action = codec.action_from_reply(CAPER, reply.action_reply, legal)
        state = CAPER.apply(state, action)
    for seat in seats:
        player.handle(_over(game_id, seat, CAPER.result(state)))
    return asked


@pytest.mark.parametrize("team", [(0, 2), (1, 3)], ids=["cream", "mint"])
def test_v9_a_bot_holding_both_seats_of_a_team_gets_two_instances(team: tuple[int, int]) -> None:
    prototype = SeatKeeper()
    player = Player(prototype)
    asked = _play(player, 4, team, seed=11 + team[0])
    starts = prototype.journal.started
    assert [s.seat for s in starts] == list(team)
    instances = [i for i in prototype.journal.instances if isinstance(i, SeatKeeper)]
    assert len(instances) == 2 and instances[0] is not instances[1]
    assert prototype.hands == [] and not prototype.seats_seen  # the prototype is never played
    for instance, seat in zip(instances, team, strict=True):
        assert instance.seats_seen == {(f"g{11 + team[0]}", seat)}  # its own seat only
        assert instance.start is not None and instance.start.seat == seat
        assert instance.end is not None and instance.end.seat == seat
        # V9: each instance saw exactly its own seat's hands, decision by decision
        assert instance.hands == [obs.hand for obs in asked if obs.seat == seat]
        assert instance.hands  # both the Mastermind and the Lookout decided
    assert player.instances() == {}  # dropped after their GameOver
    assert player.games_over == 1  # one game, although two seats ended


def test_instances_live_until_their_own_game_over() -> None:
    player = Player(FirstBot())
    names = ["me", "random", "me", "random"]
    player.handle(_started("t", 0, 4, names))
    player.handle(_started("t", 2, 4, names))
    player.handle(_started("u", 1, 2, ["random", "me"]))
    assert set(player.instances()) == {("t", 0), ("t", 2), ("u", 1)}
    assert len({id(bot) for bot in player.instances().values()}) == 3
    result = Result((10, 20, 10, 20), 1, ({},) * 4, "", {"winners": [1, 3]})
    player.handle(_over("t", 0, result))
    assert set(player.instances()) == {("t", 2), ("u", 1)} and player.games_over == 0
    player.handle(_over("t", 0, result))  # a resend: nothing more
    player.handle(_over("t", 2, result))
    assert set(player.instances()) == {("u", 1)} and player.games_over == 1


def test_a_long_running_bot_remembers_only_the_latest_games_over(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A bot runs for months: what the Player keeps per finished game is bounded, and a resend
    of a recent GameOver is still ignored (counted and hooked once)."""
    monkeypatch.setattr(player_module, "REMEMBERED_SEATS_OVER", 8)
    player = Player(FirstBot())
    result = Result((10, 20), 1, ({},) * 2, "")
    for n in range(50):
        player.handle(_started(f"g{n}", 0, 2, ["me", "random"]))
        player.handle(_over(f"g{n}", 0, result))
    player.handle(_over("g49", 0, result))  # a resend after a reconnect
    assert player.games_over == 50
    assert len(player._over) == 8 and not player.instances()


def test_a_class_is_called_for_every_seat() -> None:
    made: list[FirstBot] = []

    def factory() -> FirstBot:
        made.append(FirstBot())
        return made[-1]

    player = Player(factory)
    assert len(made) == 1  # the prototype, for the bot's name, games and version
    _play(player, 4, (1, 3), seed=5)
    assert len(made) == 3 and all(bot.calls > 0 for bot in made[1:]) and made[0].calls == 0


def test_one_shared_instance_when_the_bot_opts_out() -> None:
    class Shared(SeatKeeper):
        one_instance_per_seat = False

    bot = Shared()
    _play(Player(bot), 4, (0, 2), seed=3)
    assert bot.seats_seen == {("g3", 0), ("g3", 2)}  # the one instance saw both seats


def test_a_bot_that_cannot_be_copied_is_told_how_to_fix_it() -> None:
    class Locked(FirstBot):
        def __init__(self) -> None:
            super().__init__()
            self.lock = threading.Lock()  # deepcopy refuses locks

    with pytest.raises(BotFault, match="pass the class to run, or set one_instance_per_seat"):
        Player(Locked()).handle(messages.game_started("g1"))
    player = Player(Locked)  # the class works: each seat gets its own lock
    player.handle(messages.game_started("g1"))
    assert list(player.instances()) == [("g1", 0)]


@pytest.mark.parametrize("players", [3, 4])
def test_game_start_names_every_seat_and_this_seats_role(players: int) -> None:
    bot = FirstBot()
    player = Player(bot)
    names = [f"p{seat}" for seat in range(players)]
    for seat in range(players):
        player.handle(_started(f"s{seat}", seat, players, names))
    for seat, start in enumerate(bot.started):
        assert [s.player for s in start.seats] == names
        assert [s.role for s in start.seats] == list(ROLES[players])
        assert (start.role, start.team) == (ROLES[players][seat], TEAMS[players][seat])
        assert dict(start.config) == {"city": "rome", "players": players}


def test_an_older_arena_without_seats_gives_empty_roles() -> None:
    bot = FirstBot()
    Player(bot).handle(messages.game_started("g1", seat=1))
    (start,) = bot.started
    assert start.seats == () and (start.role, start.team) == ("", "")


def _won(result: Result, seats: int) -> list[bool]:
    bot = FirstBot()
    player = Player(bot)
    for seat in range(seats):
        player.handle(_over(f"w{seat}", seat, result))
    return [end.won for end in bot.ended]


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_v10_a_lookout_wins_when_its_team_does(seed: int) -> None:
    state = CAPER.create({"city": "paris", "players": 4}, seed)
    rng = random.Random(seed)
    while not CAPER.is_terminal(state):
        state = CAPER.apply(state, rng.choice(CAPER.legal_actions(state)))
    result = CAPER.result(state)
    assert result.winner is not None
    team = (result.winner, result.winner + 2)
    assert _won(result, 4) == [seat in team for seat in range(4)]


@pytest.mark.parametrize("winner", [0, 1, 2])
def test_v5_the_snitch_table_has_one_winner(winner: int) -> None:
    result = Result((30, 20, 25), winner, ({}, {}, {}), "", {"winners": [winner]})
    assert _won(result, 3) == [seat == winner for seat in range(3)]


def test_after_a_forfeit_at_a_table_the_sides_not_at_fault_win() -> None:
    seating = layout(CAPER, {"city": "paris", "players": 3})
    result = forfeit_result(seating, 2, "the Snitch timed out")
    assert result.winner is None  # no single winner: `won` must read "winners"
    assert _won(result, 3) == [True, True, False]


def test_a_two_player_draw_is_won_by_nobody() -> None:
    draw = Result((31, 31), None, ({}, {}), "draw", {})
    assert _won(draw, 2) == [False, False]
