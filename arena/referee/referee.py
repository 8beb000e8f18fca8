"""The referee: plays one game between seats under a fault policy, and writes its record.

A seat is anything that can make a decision: a built-in bot in this process or a remote bot
behind the gateway. The referee owns the game's randomness (the seed) and times the seats with the
timer it is handed (the caller's clock: the referee reads none itself); the seats only answer.
What the game record says about how it ended is decided here.

Games of 2, 3 and 4 seats are refereed alike. A fault loses the game for the seat at fault and
its whole side (a team loses with either of its seats); the other sides win it. With three sides
or more they share the win and the faulty seat places last (`seats.forfeit_result`).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol

from arena.bots.base import Bot
from arena.games.api import Config, ConfigError, Game, GameError, Observation, Result
from arena.games.record import ActionTexts, GameRecord
from arena.referee.seats import SeatInfo, forfeit_result, layout


class Termination(StrEnum):
    """How a game ended; every value but NORMAL is a loss for the seat at fault."""

    NORMAL = "normal"
    RESIGNATION = "resignation"
    TIMEOUT = "timeout"  # one missed deadline more than the policy allows
    ILLEGAL_ACTION = "illegal_action"
    DISCONNECT = "disconnect"  # away longer than the grace period
    VOIDED = "voided"  # an infrastructure failure: the game is replayed, never scored


class Fault(StrEnum):
    TIMEOUT = "timeout"  # no answer in time: a strike, and a random legal action is played
    ILLEGAL = "illegal action"
    DISCONNECTED = "disconnected"  # away longer than the grace period
    RESIGNED = "resigned"


_FAULT_ENDS = {
    Fault.TIMEOUT: Termination.TIMEOUT,
    Fault.ILLEGAL: Termination.ILLEGAL_ACTION,
    Fault.DISCONNECTED: Termination.DISCONNECT,
    Fault.RESIGNED: Termination.RESIGNATION,
}


@dataclass(frozen=True, slots=True)
class FaultPolicy:
    """Per-match time control and what faults cost (ARCHITECTURE.md, "How a remote bot plays")."""

    move_ms: int = 1000  # budget for each decision
    bank_ms: int = 10_000  # extra time a seat may draw on over the whole game
    max_strikes: int = 3  # missed deadlines that forfeit the game
    grace_ms: int = 10_000  # how long a disconnected bot may take to come back

    def __post_init__(self) -> None:
        for name in ("move_ms", "bank_ms", "grace_ms"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must not be negative")
        if self.max_strikes < 1:
            raise ValueError("max_strikes must be at least 1")


UNTIMED = FaultPolicy(move_ms=10**9, bank_ms=0, max_strikes=1, grace_ms=0)

# Seconds from any fixed start, never going back (`time.perf_counter` in a real game): the
# referee measures each decision with it and reads no clock of its own.
Timer = Callable[[], float]


def bot_rng(seed: int, seat: int) -> random.Random:
    """The generator a built-in bot in `seat` of game `seed` draws from: games replay exactly."""
    return random.Random(f"{seed}/{seat}")


@dataclass(frozen=True, slots=True)
class GameInfo:
    game_id: str
    game: str
    rules_version: int
    config: Config
    seat: int
    opponent: str  # the entrant(s) of the other sides, ", "-joined: the opponent with 2 sides
    policy: FaultPolicy
    seats: tuple[SeatInfo, ...] = ()  # every seat: its player, role and team


@dataclass(slots=True)
class DecisionRequest:
    """One decision asked of a seat. Slotted and not frozen: one is made per action, and a
    frozen dataclass is noticeably slower to construct."""

    game_id: str
    seat: int
    legal: Sequence[Any]
    move_ms: int
    bank_ms: int
    strikes: int
    move_number: int  # actions played in the game so far, by both seats
    observe: Callable[[], Observation] = field(repr=False, compare=False)
    _seen: Observation | None = field(default=None, repr=False, compare=False)

    @property
    def observation(self) -> Observation:
        """The seat's view, built on first use: building it costs more than an engine step, and
        a built-in bot that never looks at it (random) should not pay for it."""
        if self._seen is None:
            self._seen = self.observe()
        return self._seen


class Unobserved:
    """What a built-in bot that declares `observes = False` is given instead of a view."""

    seat = -1

    def to_json(self) -> dict[str, Any]:
        raise GameError("this bot declared that it plays without looking at the game")


UNOBSERVED = Unobserved()


@dataclass(frozen=True, slots=True)
class Decision:
    action: Any = None  # one of the legal actions, or None with a fault
    fault: Fault | None = None
    detail: str = ""


class Seat(Protocol):
    name: str

    def start(self, info: GameInfo) -> None: ...

    def decide(self, request: DecisionRequest) -> Decision: ...

    def finish(self, info: GameInfo, outcome: GameOutcome) -> None: ...


@dataclass(frozen=True, slots=True)
class GameOutcome:
    record: GameRecord
    result: Result
    termination: Termination
    reason: str = ""
    faults: tuple[tuple[int, str], ...] = ()  # (seat, what happened) in order
    latencies_ms: tuple[tuple[float, ...], ...] = ()  # per seat: each decision, as clocked
    timeouts: tuple[int, ...] = ()  # per seat: deadlines missed


class BuiltinSeat:
    """A built-in bot playing in the worker's own process."""

    def __init__(
        self, bot: Bot, game: Game[Any, Any], seed: int, seat: int, name: str | None = None
    ) -> None:
        self.name = name or bot.name  # the entrant's name ("random/2") where it differs
        self._bot, self._game, self._rng = bot, game, bot_rng(seed, seat)
        self._observes = getattr(bot, "observes", True)

    def start(self, info: GameInfo) -> None:
        pass

    def decide(self, request: DecisionRequest) -> Decision:
        observation = request.observation if self._observes else UNOBSERVED
        return Decision(self._bot.choose(self._game, observation, request.legal, self._rng))

    def choose(self, state: Any, seat: int, legal: Sequence[Any]) -> Any:
        """`decide` without the request and the decision around it: the referee's way with its
        own bots, which neither time out nor resign, and whose moves it checks all the same."""
        observation = self._game.observation(state, seat) if self._observes else UNOBSERVED
        return self._bot.choose(self._game, observation, legal, self._rng)

    def finish(self, info: GameInfo, outcome: GameOutcome) -> None:
        pass


@dataclass
class _Clock:
    bank_ms: int
    strikes: int = 0
    latencies_ms: list[float] = field(default_factory=list)

    def mean_latency_ms(self) -> float:
        return (
            round(sum(self.latencies_ms) / len(self.latencies_ms), 3) if self.latencies_ms else 0.0
        )


def referee_game(
    game: Game[Any, Any],
    config: Config,
    seed: int,
    seats: Sequence[Seat],
    policy: FaultPolicy,
    game_id: str,
    *,
    timer: Timer,
    texts: ActionTexts | None = None,
) -> GameOutcome:
    """Play one game to its end or to a forfeit, and return its record and result. The record
    holds the actions as text: `texts` remembers them across the games a caller plays (the
    same actions recur in every game), else they are remembered for this game alone."""
    texts = ActionTexts() if texts is None else texts
    return _Referee(game, config, seed, seats, policy, game_id, timer, texts).play()


class _Referee:
    def __init__(
        self,
        game: Game[Any, Any],
        config: Config,
        seed: int,
        seats: Sequence[Seat],
        policy: FaultPolicy,
        game_id: str,
        timer: Timer,
        texts: ActionTexts,
    ) -> None:
        self.game, self.config, self.seed, self.seats = game, config, seed, seats
        self.policy, self.game_id, self.timer, self.texts = policy, game_id, timer, texts
        self._rng: random.Random | None = (
            None  # made on a first timeout: most games never need it, so they skip the seeding
        )
        self.clocks = [_Clock(policy.bank_ms) for _ in seats]
        self.faults: list[tuple[int, str]] = []
        self.layout = layout(game, config)
        if self.layout.seat_count != len(seats):
            raise ConfigError(
                f"{game.name} with {dict(config)} has {self.layout.seat_count} seats, "
                f"not {len(seats)}"
            )

    def play(self) -> GameOutcome:
        game, seats = self.game, self.seats
        infos = [self._info(seat) for seat in range(len(seats))]
        for seat, info in zip(seats, infos, strict=True):
            seat.start(info)
        state = game.create(self.config, self.seed)
        actions: list[str] = []
        forfeit: tuple[int, Fault, str] | None = None
        while forfeit is None and (mover := game.current_player(state)) is not None:
            action, forfeit = self._decide(state, mover, len(actions))
            if action is not None:
                state = game.apply(state, action, mover)
                actions.append(self.texts.text(game, action))
        outcome = self._outcome(state, actions, forfeit)
        for seat, info in zip(seats, infos, strict=True):
            seat.finish(info, outcome)
        return outcome

    def _info(self, seat: int) -> GameInfo:
        names = [seat.name for seat in self.seats]
        side = self.layout.sides[self.layout.side_of(seat)]
        others = dict.fromkeys(name for other, name in enumerate(names) if other not in side)
        return GameInfo(
            self.game_id,
            self.game.id,
            self.game.rules_version,
            self.config,
            seat,
            ", ".join(others),
            self.policy,
            self.layout.seat_infos(names),
        )

    def _decide(
        self, state: Any, mover: int, move_number: int
    ) -> tuple[Any, tuple[int, Fault, str] | None]:
        """The action to play for `mover`, or a forfeit (seat, fault, reason)."""
        game, clock, policy = self.game, self.clocks[mover], self.policy
        legal = game.legal_actions(state)
        seat = self.seats[mover]
        if type(seat) is BuiltinSeat:  # built in: no request or reply objects to allocate a move
            started = self.timer()
            action = seat.choose(state, mover, legal)
            return self._checked(state, mover, legal, action, started)
        request = DecisionRequest(
            self.game_id,
            mover,
            legal,
            policy.move_ms,
            clock.bank_ms,
            clock.strikes,
            move_number,
            functools.partial(game.observation, state, mover),
        )
        started = self.timer()
        decision = seat.decide(request)
        if decision.fault is None:
            return self._checked(state, mover, legal, decision.action, started)
        clock.latencies_ms.append((self.timer() - started) * 1000)
        if decision.fault is Fault.TIMEOUT:
            clock.strikes += 1
            clock.bank_ms = 0
            self.faults.append((mover, f"missed the deadline (strike {clock.strikes})"))
            if clock.strikes >= policy.max_strikes:
                return None, (mover, Fault.TIMEOUT, f"{clock.strikes} missed deadlines")
            return legal[self._fault_rng().randrange(len(legal))], None
        detail = f": {decision.detail}" if decision.detail else ""
        return None, (mover, decision.fault, f"{decision.fault.value}{detail}")

    def _checked(
        self, state: Any, mover: int, legal: Sequence[Any], action: Any, started: float
    ) -> tuple[Any, tuple[int, Fault, str] | None]:
        """`action`, answered in time since `started`, if legal; the bank pays for time over."""
        elapsed_ms = (self.timer() - started) * 1000
        clock = self.clocks[mover]
        clock.latencies_ms.append(elapsed_ms)
        if action not in legal:
            reason = f"illegal action: {self._why_illegal(state, action, mover)}"
            return None, (mover, Fault.ILLEGAL, reason)
        over_ms = int(elapsed_ms) - self.policy.move_ms
        if over_ms > 0:  # the bank pays for the time over the move's budget
            clock.bank_ms = max(0, clock.bank_ms - over_ms)
        return action, None

    def _fault_rng(self) -> random.Random:
        """The generator of fault moves: random but reproducible."""
        if self._rng is None:
            self._rng = random.Random(f"referee/{self.seed}")
        return self._rng

    def _why_illegal(self, state: Any, action: Any, mover: int) -> str:
        try:
            self.game.apply(state, action, mover)
        except GameError as error:
            return str(error)
        return repr(action)

    def _outcome(
        self, state: Any, actions: list[str], forfeit: tuple[int, Fault, str] | None
    ) -> GameOutcome:
        seats = self.seats
        if forfeit is None:
            result, termination, reason = self.game.result(state), Termination.NORMAL, ""
        else:
            loser, fault, reason = forfeit
            result = forfeit_result(self.layout, loser, reason)
            termination = _FAULT_ENDS[fault]
            self.faults.append((loser, f"forfeited: {reason}"))
        meta = {
            "game_id": self.game_id,
            "faults": [list(fault) for fault in self.faults],
            "mean_decision_ms": [clock.mean_latency_ms() for clock in self.clocks],
        }
        record = GameRecord(
            game=self.game.id,
            rules_version=self.game.rules_version,
            config=dict(self.config),
            seed=self.seed,
            actions=tuple(actions),
            players=tuple(seat.name for seat in seats),
            termination=termination.value,
            result=result.to_json(),
            meta=meta,
        )
        return GameOutcome(
            record,
            result,
            termination,
            reason,
            tuple(self.faults),
            tuple(tuple(clock.latencies_ms) for clock in self.clocks),
            tuple(clock.strikes for clock in self.clocks),
        )
