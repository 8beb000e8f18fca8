"""The pure part of a connection: arena message in, bot call, reply out."""

from __future__ import annotations

import logging
from collections.abc import Sequence

import pytest

from arena import codec
from arena.games.api import Result
from arena.games.caper import CAPER, Action, ActionKind
from arena.games.caper_europe import CAPER_EUROPE
from arena.v1 import bot_pb2
from bots_sdk import (
    Decision,
    EuropeAction,
    EuropeActionKind,
    EuropeObservation,
    GameAction,
    GameEnd,
    Observation,
)
from bots_sdk.player import REMEMBERED_REPLIES, BotFault, Player
from tests.bots_sdk import messages
from tests.bots_sdk.bots import (
    BothEditionsFirstBot,
    FakeClock,
    FirstBot,
    HookRaisingBot,
    IllegalBot,
    LastBot,
    RaisingBot,
    SlowBot,
    WrongTypeBot,
)


def _reply(player: Player, message: bot_pb2.ConnectResponse) -> bot_pb2.ActionReply:
    reply = player.handle(message)
    assert reply is not None and reply.WhichOneof("message") == "action_reply"
    return reply.action_reply


@pytest.mark.parametrize("moves", [0, 7, 20, 40])
def test_the_reply_is_the_index_of_the_bots_choice(moves: int) -> None:
    state = messages.midgame_state(moves=moves)
    legal = CAPER.legal_actions(state)
    reply = _reply(Player(LastBot()), messages.decision(state, request_id="g1.9"))
    assert reply.request_id == "g1.9"
    assert reply.WhichOneof("choice") == "legal_index"
    assert reply.legal_index == len(legal) - 1
    assert codec.action_from_reply(CAPER, reply, legal) == legal[-1]


def test_the_bot_sees_the_engine_observation_and_actions() -> None:
    state = messages.midgame_state()
    seen: list[tuple[object, object]] = []

    class Spy(FirstBot):
        def decide(self, decision: Decision) -> GameAction:
            seen.append((decision.observation, decision.legal))
            legal = [a for a in decision.legal if isinstance(a, Action)]
            assert decision.legal_text == tuple(CAPER.action_text(a) for a in legal)
            assert decision.game == "caper"
            assert (decision.deadline_ms, decision.bank_ms, decision.strikes) == (1000, 500, 1)
            return decision.legal[0]

    Player(Spy()).handle(messages.decision(state))
    seat = CAPER.current_player(state)
    assert seat is not None
    assert seen == [(CAPER.observation(state, seat), tuple(CAPER.legal_actions(state)))]


def test_a_request_sent_again_gets_the_same_answer_without_asking_the_bot() -> None:
    bot = FirstBot()
    player = Player(bot)
    message = messages.decision(messages.midgame_state())
    first = player.handle(message)
    assert player.handle(message) == first
    assert bot.calls == 1


def test_old_answers_are_forgotten() -> None:
    bot = FirstBot()
    player = Player(bot)
    state = messages.midgame_state()
    for n in range(REMEMBERED_REPLIES + 1):
        player.handle(messages.decision(state, request_id=f"r{n}"))
    player.handle(messages.decision(state, request_id="r0"))
    assert bot.calls == REMEMBERED_REPLIES + 2


def test_an_illegal_action_is_sent_as_an_action_for_the_arena_to_judge(
    caplog: pytest.LogCaptureFixture,
) -> None:
    bot = IllegalBot()
    bot.calls = 5
    state = messages.midgame_state()
    reply = _reply(Player(bot), messages.decision(state))
    assert reply.WhichOneof("choice") == "action"
    chosen = codec.action_from_reply(CAPER, reply, CAPER.legal_actions(state))
    assert chosen == Action(ActionKind.DISCARD, "The Dame")
    assert "not legal" in caplog.text


@pytest.mark.parametrize("bot", [RaisingBot(), WrongTypeBot()], ids=["raises", "returns-int"])
def test_a_failing_bot_raises_bot_fault_naming_the_game(bot: FirstBot) -> None:
    with pytest.raises(BotFault, match="game g7"):
        Player(bot).handle(messages.decision(messages.midgame_state(), game_id="g7"))


def test_hooks_get_typed_game_start_and_end() -> None:
    bot = FirstBot()
    player = Player(bot)
    assert player.handle(messages.game_started("g1", seat=1)) is None
    player.handle(messages.game_over("g1", seat=1, winner=1))
    (start,) = bot.started
    assert (start.game_id, start.seat, start.game, start.opponent) == ("g1", 1, "caper", "greedy")
    assert dict(start.config) == {"city": "rome"}
    assert (start.move_ms, start.bank_ms, start.max_strikes) == (1000, 10_000, 3)
    (end,) = bot.ended
    assert end.won and end.termination == "normal" and end.result.scores == (30, 20)
    assert player.games_over == 1


def test_a_game_over_told_twice_is_counted_once() -> None:
    bot = FirstBot()
    player = Player(bot)
    player.handle(messages.game_over("g1"))
    player.handle(messages.game_over("g1"))
    player.handle(messages.game_over("g2"))
    assert player.games_over == 2 and len(bot.ended) == 2


def test_a_raising_hook_is_a_bot_fault() -> None:
    with pytest.raises(BotFault, match="on_game_over"):
        Player(HookRaisingBot()).handle(messages.game_over("g1"))


def test_a_late_answer_is_logged(caplog: pytest.LogCaptureFixture) -> None:
    clock = FakeClock()
    bot = SlowBot(clock, think_s=2.0)
    bot.calls = 10
    with caplog.at_level(logging.WARNING, logger="bots_sdk"):
        Player(bot, clock=clock).handle(messages.decision(messages.midgame_state()))
    assert "past the 1000 ms deadline" in caplog.text


def test_arena_errors_are_logged_and_need_no_reply(caplog: pytest.LogCaptureFixture) -> None:
    error = bot_pb2.Error(
        code=bot_pb2.ERROR_CODE_DEADLINE_EXCEEDED, message="too late", request_id="g1.3"
    )
    reply = Player(FirstBot()).handle(bot_pb2.ConnectResponse(error=error))
    assert reply is None
    assert "ERROR_CODE_DEADLINE_EXCEEDED too late" in caplog.text
    assert "g1.3" in caplog.text


def test_a_request_for_an_unknown_game_is_a_codec_error() -> None:
    message = messages.decision(messages.midgame_state())
    message.decision_request.observation.ClearField("caper")
    with pytest.raises(codec.CodecError):
        Player(FirstBot()).handle(message)


# --- Caper: Europe -------------------------------------------------------------------------------


@pytest.mark.parametrize("moves", [0, 9, 30])
def test_a_europe_bot_sees_the_europe_observation_and_actions(moves: int) -> None:
    state = messages.midgame_state(moves=moves, city="barcelona", game=CAPER_EUROPE)
    seen: list[Decision] = []

    class Spy(BothEditionsFirstBot):
        def decide(self, decision: Decision) -> GameAction:
            seen.append(decision)
            return decision.legal[-1]

    message = messages.decision(state, request_id="e.1", game=CAPER_EUROPE)
    reply = _reply(Player(Spy()), message)
    seat = CAPER_EUROPE.current_player(state)
    assert seat is not None
    (decision,) = seen
    assert decision.game == "caper-europe"
    assert isinstance(decision.observation, EuropeObservation)
    assert decision.observation == CAPER_EUROPE.observation(state, seat)
    legal = tuple(CAPER_EUROPE.legal_actions(state))
    assert decision.legal == legal and all(isinstance(a, EuropeAction) for a in legal)
    assert decision.legal_text == tuple(CAPER_EUROPE.action_text(a) for a in legal)
    assert reply.legal_index == len(legal) - 1


def test_a_first_edition_action_in_a_europe_game_is_a_bot_fault() -> None:
    state = messages.midgame_state(moves=3, game=CAPER_EUROPE)
    bot = IllegalBot()
    bot.calls = 5  # from now on it answers Action(DISCARD, "The Dame"), a first-edition action
    with pytest.raises(BotFault, match=r"game e9: act must return .* a caper-europe game"):
        Player(bot).handle(messages.decision(state, game_id="e9", game=CAPER_EUROPE))


def test_an_illegal_europe_action_is_sent_as_an_action_for_the_arena_to_judge() -> None:
    state = messages.midgame_state(moves=0, game=CAPER_EUROPE)
    wrong = EuropeAction(EuropeActionKind.DISCARD, "dame")  # a Thief round: no discards

    class Wrong(BothEditionsFirstBot):
        def act(self, observation: Observation, legal: Sequence[GameAction]) -> GameAction:
            return wrong

    reply = _reply(Player(Wrong()), messages.decision(state, game=CAPER_EUROPE))
    assert reply.WhichOneof("choice") == "action"
    assert codec.action_from_reply(CAPER_EUROPE, reply, CAPER_EUROPE.legal_actions(state)) == wrong


def test_europe_game_start_and_end_reach_the_hooks(caplog: pytest.LogCaptureFixture) -> None:
    bot = BothEditionsFirstBot()
    player = Player(bot)
    player.handle(messages.game_started("e1", seat=0, game=CAPER_EUROPE))
    draw = Result((31, 31), None, ({"locations": 31}, {"locations": 31}), "draw", {"coins": [1, 1]})
    with caplog.at_level(logging.INFO, logger="bots_sdk"):
        player.handle(messages.game_over("e1", seat=0, result=draw))
    assert bot.started[0].game == "caper-europe"
    (end,) = bot.ended
    assert end.result == draw and not end.won
    assert end.outcome == "drawn" and "seat 0 over: drawn 31-31" in caplog.text  # was "lost"


def test_a_game_nobody_escaped_is_lost_by_everyone_not_drawn() -> None:
    """Age of Thieves, section 19: no thief left the city, so nobody wins."""
    nobody = Result((0, 0, 0), None, ({}, {}, {}), "", {"everyone_loses": True, "winners": []})
    ends = [GameEnd("a1", seat, nobody, "normal", "") for seat in range(3)]
    assert [end.outcome for end in ends] == ["everyone lost"] * 3
    won = Result((5, 0, 0), 0, ({}, {}, {}), "", {"everyone_loses": False, "winners": [0]})
    assert [GameEnd("a2", s, won, "normal", "").outcome for s in range(3)] == [
        "won",
        "lost",
        "lost",
    ]
