"""Arena messages in, bot calls, replies out: the part of a connection that needs no network.

The client feeds every message it receives to `Player.handle` and sends what comes back; the
conformance kit (`bots_sdk.testing`) feeds it messages built from engine games. Both paths run
exactly this code, so a bot that passes the kit is called the same way on a live arena.

Every message names its game and seat; the Player keeps one bot instance per (game, seat) (see
`bots_sdk.bot`), made at the seat's GameStarted (or its first request, after a reconnect) and
dropped after its GameOver, so two seats of one game never share state.
"""

from __future__ import annotations

import copy
import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from arena import codec
from arena.games import GAMES
from arena.games.api import Game
from arena.v1 import bot_pb2
from bots_sdk.bot import Bot, BotSource, Decision, GameEnd, GameSeat, GameStart

LOG = logging.getLogger("bots_sdk")
REMEMBERED_REPLIES = 1024  # enough for every request that can be in flight across a reconnect
REMEMBERED_SEATS_OVER = 4096  # far more than a reconnect can send again


class BotFault(Exception):
    """The bot's own code failed (raised, or returned something that is not an action).

    The connection goes on: the arena's fault policy decides what a missing answer costs."""

    def __init__(self, what: str, game_id: str, cause: BaseException | None = None) -> None:
        super().__init__(f"game {game_id}: {what}")
        self.game_id = game_id
        self.__cause__ = cause


SeatKey = tuple[str, int]  # (game id, seat)


class Player:
    """Turns `ConnectResponse` messages into bot calls and `ConnectRequest` replies.

    `bot` is the prototype instance (deep-copied for each seat) or a class / zero-argument
    factory (called for each seat); `self.bot` is the prototype, whose attributes (`games`,
    `version`, ...) describe the bot, and the one instance used when it sets
    `one_instance_per_seat = False`."""

    def __init__(self, bot: BotSource, clock: Callable[[], float] = time.monotonic) -> None:
        self._factory = None if isinstance(bot, Bot) else bot
        self.bot = bot if isinstance(bot, Bot) else _made(bot)
        self._games_over = 0  # games over for every seat the bot held in them
        self._seats: dict[SeatKey, Bot] = {}  # the instance of each seat in play
        # The seats whose GameOver arrived, the latest ones only: a bot runs for months.
        self._over: OrderedDict[SeatKey, None] = OrderedDict()
        self._clock = clock
        # The arena sends pending requests again after a reconnect: a request answered before
        # the break is answered the same way, without asking the bot a second time.
        self._replies: OrderedDict[str, bot_pb2.ConnectRequest] = OrderedDict()

    @property
    def games_over(self) -> int:
        return self._games_over

    def handle(self, message: bot_pb2.ConnectResponse) -> bot_pb2.ConnectRequest | None:
        """The reply to send, if any. Raises `BotFault` when the bot's code fails."""
        kind = message.WhichOneof("message")
        if kind == "decision_request":
            return self._decide(message.decision_request)
        if kind == "game_started":
            start = _start(message)
            bot = self._instance(start.game_id, start.seat)
            self._call_hook(start.game_id, bot.on_game_start, start)
        elif kind == "game_over":
            self._game_over(message.game_over)
        elif kind == "error":
            _log_error(message.error)
        elif kind == "welcome":
            LOG.warning("ignoring a second Welcome on the same stream")
        # Pong needs nothing: receiving it is the point.
        return None

    def _decide(self, request: bot_pb2.DecisionRequest) -> bot_pb2.ConnectRequest:
        known = self._replies.get(request.request_id)
        if known is not None:
            LOG.debug("request %s sent again; same answer", request.request_id)
            return known
        game, decision = _decision(request)
        bot = self._instance(request.game_id, request.seat)
        started = self._clock()
        try:
            action = bot.decide(decision)
        except Exception as error:
            raise BotFault("the bot raised while deciding", request.game_id, error) from error
        elapsed_ms = (self._clock() - started) * 1000
        if elapsed_ms > request.deadline_ms:
            LOG.warning(
                "game %s: the bot took %.0f ms, past the %d ms deadline; the arena has already "
                "played a random move for it",
                request.game_id,
                elapsed_ms,
                request.deadline_ms,
            )
        reply = bot_pb2.ConnectRequest(action_reply=_reply(game, decision, action))
        self._remember(request.request_id, reply)
        return reply

    def _remember(self, request_id: str, reply: bot_pb2.ConnectRequest) -> None:
        self._replies[request_id] = reply
        while len(self._replies) > REMEMBERED_REPLIES:
            self._replies.popitem(last=False)

    def instances(self) -> dict[SeatKey, Bot]:
        """The bot instance of each (game id, seat) still in play."""
        return dict(self._seats)

    def _instance(self, game_id: str, seat: int) -> Bot:
        """The seat's instance, made on its first message."""
        key = (game_id, seat)
        bot = self._seats.get(key)
        if bot is not None:
            return bot
        bot = self._new_instance(game_id, seat)
        if key not in self._over:  # never keep one for a seat already over: it would leak
            self._seats[key] = bot
        return bot

    def _new_instance(self, game_id: str, seat: int) -> Bot:
        if not self.bot.one_instance_per_seat:
            return self.bot
        try:
            made = copy.deepcopy(self.bot) if self._factory is None else _made(self._factory)
        except Exception as error:
            raise BotFault(
                f"could not make the bot's instance for seat {seat} ({error!r}): pass the class "
                "to run, or set one_instance_per_seat = False",
                game_id,
                error,
            ) from error
        return made

    def _game_over(self, over: bot_pb2.GameOver) -> None:
        key = (over.game_id, over.seat)
        if key in self._over:
            return  # told twice (a resend after a reconnect): the hook already ran
        bot = self._instance(*key)
        self._over[key] = None
        while len(self._over) > REMEMBERED_SEATS_OVER:
            self._over.popitem(last=False)
        self._seats.pop(key, None)
        # A game counts once, when every seat the bot holds in it is over (a team: both).
        if not any(game_id == over.game_id for game_id, _ in self._seats):
            self._games_over += 1
        end = _end(over)
        score = "-".join(str(points) for points in end.result.scores)
        why = f"{end.termination}: {end.reason}" if end.reason else end.termination
        LOG.info("game %s seat %d over: %s %s (%s)", end.game_id, end.seat, end.outcome, score, why)
        self._call_hook(over.game_id, bot.on_game_over, end)

    def _call_hook(self, game_id: str, hook: Callable[[Any], None], info: object) -> None:
        try:
            hook(info)
        except Exception as error:
            raise BotFault(f"the bot raised in {hook.__name__}", game_id, error) from error


def _decision(request: bot_pb2.DecisionRequest) -> tuple[Game[Any, Any], Decision]:
    field = request.observation.WhichOneof("game")
    game = GAMES.get((field or "").replace("_", "-"))
    if game is None:  # Hello named only the games the SDK knows: this is the arena's mistake
        raise codec.CodecError(f"request {request.request_id} is for a game this SDK cannot play")
    decision = Decision(
        request_id=request.request_id,
        game_id=request.game_id,
        seat=request.seat,
        observation=codec.observation_from_proto(request.observation),
        legal=tuple(codec.action_from_proto(game, legal.action) for legal in request.legal_actions),
        legal_text=tuple(legal.text for legal in request.legal_actions),
        deadline_ms=request.deadline_ms,
        bank_ms=request.bank_ms,
        strikes=request.strikes,
        move_number=request.move_number,
        game=game.id,
    )
    return game, decision


def _reply(game: Game[Any, Any], decision: Decision, action: object) -> bot_pb2.ActionReply:
    if not codec.is_action(game, action):
        raise BotFault(
            f"act must return one of the legal actions, not {type(action).__name__} {action!r} "
            f"(this is a {game.id} game)",
            decision.game_id,
        )
    if action in decision.legal:
        return bot_pb2.ActionReply(
            request_id=decision.request_id, legal_index=decision.legal.index(action)
        )
    # Sent as it is so that the arena's record says which rule it breaks (the game is lost):
    # quietly replacing it would hide the bug from the bot's author.
    LOG.error(
        "game %s: the bot chose %r, which is not legal; the arena will forfeit the game",
        decision.game_id,
        game.action_text(action),
    )
    return bot_pb2.ActionReply(
        request_id=decision.request_id, action=codec.action_to_proto(game, action)
    )


def _made(factory: Callable[[], Bot]) -> Bot:
    made = factory()
    if not isinstance(made, Bot):
        raise TypeError(f"expected a bots_sdk.Bot, got {type(made).__name__}")
    return made


def _start(message: bot_pb2.ConnectResponse) -> GameStart:
    started = message.game_started
    clock = started.time_control
    seats = tuple(GameSeat(s.player_name, s.role, s.team) for s in started.seats)
    own = seats[started.seat] if started.seat < len(seats) else GameSeat("", "", "")
    return GameStart(
        game_id=started.game_id,
        game=started.game,
        seat=started.seat,
        rules_version=started.rules_version,
        config=codec.config_from_proto(started.config),
        opponent=started.opponent_name,
        move_ms=clock.move_ms,
        bank_ms=clock.bank_ms,
        max_strikes=clock.max_strikes,
        seats=seats,
        role=own.role,
        team=own.team,
    )


def _end(over: bot_pb2.GameOver) -> GameEnd:
    result, termination = codec.result_from_proto(over.result)
    return GameEnd(over.game_id, over.seat, result, termination, over.reason)


def _log_error(error: bot_pb2.Error) -> None:
    name = bot_pb2.ErrorCode.Name(error.code) if error.code in bot_pb2.ErrorCode.values() else ""
    about = f" (request {error.request_id})" if error.request_id else ""
    LOG.error("the arena refused a message%s: %s %s", about, name or error.code, error.message)
