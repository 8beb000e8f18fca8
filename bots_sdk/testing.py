"""A conformance kit for bot authors: check a bot against real games, without a server.

    python -m bots_sdk.testing my_bot:MyBot            # or path/to/my_bot.py:MyBot
    python -m bots_sdk.testing my_bot:MyBot --target localhost:50051 --token $TOKEN

`check_bot` plays engine games of every game the bot plays (`Bot.games`: first-edition Caper,
2-, 3- and 4-player, Caper: Europe and/or Age of Thieves for 2 to 4 thieves, the bot's seat
taking turns; random cities and seeds, random players in the other seats, several games in
flight at once as on a live arena). In the 3-player Snitch game the bot
takes every seat in turn (Cream, Mint, the Snitch's GIVE decisions); in the 4-player team game
it holds both seats of a team (V11: a Mastermind and a Lookout, whose decisions are SENDs).
At every decision it builds the exact DecisionRequest the gateway would send and passes it
through the SDK's own `Player` after a trip through bytes: the bot is called exactly as `run`
calls it, one instance per (game, seat). It checks that every answer is legal and in time, that
the game start/over hooks do not raise, and that a bot claiming `deterministic` is.
`check_bot_against_server` (in `bots_sdk.live_check`) checks the handshake and reconnects
against a live arena.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import logging
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from arena import codec
from arena.games.api import GameError
from arena.v1 import bot_pb2
from bots_sdk.bot import Bot, BotSource
from bots_sdk.kit_tables import CITIES, MAX_STRIKES, Table, variants
from bots_sdk.live_check import check_bot_against_server
from bots_sdk.player import BotFault, Player
from bots_sdk.report import Report

Reply = bot_pb2.ConnectRequest | None


@dataclass
class _Exchange:
    message: bytes  # a ConnectResponse, as the wire carries it
    reply: bytes | None  # the ConnectRequest sent back


@dataclass
class _Stats:
    decisions: int = 0
    total_ms: float = 0.0
    slowest_ms: float = 0.0
    transcript: list[_Exchange] = field(default_factory=list)
    by_role: Counter[str] = field(default_factory=Counter)  # decisions per seat role


def check_bot(
    bot: BotSource,
    *,
    games: int = 20,
    seed: int = 0,
    budget_ms: float = 1000.0,
    in_flight: int = 2,
    clock: Callable[[], float] = time.perf_counter,
    max_failures: int = 20,
) -> Report:
    """Play `games` games with random players in the other seats and report every problem
    found; the games take turns among the variants of the bot's `games` (first-edition Caper
    and Age of Thieves for 2, 3 and 4 players, Caper: Europe for 2).

    `budget_ms` is the time allowed per decision (the arena's default is 1000 ms); `clock`
    (seconds) measures it. Pass the bot's class rather than an instance so that the
    determinism check can replay the games on a fresh instance."""
    report = Report(f"conformance of {_label(bot)}", max_failures=max_failures)
    player = Player(bot, clock=clock)
    first = player.bot
    unknown = sorted(set(first.games) - set(CITIES))
    if unknown or not first.games:
        known = ", ".join(CITIES)
        raise ValueError(f"Bot.games must name games of {known}, got {first.games!r}")
    kit = _Kit(player, report, budget_ms, clock, first.games)
    kit.play(games, seed, in_flight)
    report.check(
        not report.failures,
        f"{kit.stats.decisions} decisions in {games} games: legal, in time, hooks fine",
        f"{len(report.failures)} problems",
    )
    if first.deterministic and not report.full:
        _check_determinism(bot, kit, report)
    if kit.stats.decisions:
        mean = kit.stats.total_ms / kit.stats.decisions
        report.notes.append(
            f"time per decision: mean {mean:.1f} ms, slowest {kit.stats.slowest_ms:.1f} ms"
        )
        roles = ", ".join(f"{role} {count}" for role, count in sorted(kit.stats.by_role.items()))
        report.notes.append(f"decisions by seat role: {roles}")
    return report


class _Kit:
    def __init__(
        self,
        player: Player,
        report: Report,
        budget_ms: float,
        clock: Callable[[], float],
        games: Sequence[str],
    ) -> None:
        self.player, self.report, self.budget_ms, self.clock = player, report, budget_ms, clock
        self.kinds = variants(tuple(games))
        self.stats = _Stats()

    def play(self, games: int, seed: int, in_flight: int) -> None:
        waiting = list(range(games))
        tables: list[Table] = []
        while (waiting or tables) and not self.report.full:
            while waiting and len(tables) < max(1, in_flight):
                tables.append(self._start(seed + waiting.pop(0)))
            # One decision per game in turn: the bot sees its games interleaved.
            tables = [table for table in tables if not self._advance(table)]

    def _start(self, game_seed: int) -> Table:
        table = Table.deal(game_seed, self.kinds)
        for seat in table.seats:
            self._send(table.started(seat, self.player.bot.name, int(self.budget_ms)))
        return table

    def _advance(self, table: Table) -> bool:
        """Play up to and including the bot's next decision; True once the game is over."""
        game = table.game
        while (mover := game.current_player(table.state)) is not None and (
            mover not in table.seats
        ):
            legal = game.legal_actions(table.state)
            table.apply(legal[table.others.randrange(len(legal))])
        if mover is None:
            self._game_over(table, game.result(table.state), "normal", "")
            return True
        legal = list(game.legal_actions(table.state))
        action, forfeit = self._ask(table, mover, legal)
        if forfeit:
            reason = f"the bot's {forfeit.replace('_', ' ')}"
            self._game_over(table, table.forfeit(mover, reason), forfeit, reason)
            return True
        table.apply(action)
        return False

    def _ask(self, table: Table, seat: int, legal: list[Any]) -> tuple[Any, str]:
        """The bot's action, or the arena's stand-in and a termination if it forfeits."""
        request = table.request(seat, legal, int(self.budget_ms))
        reply, elapsed_ms = self._send(bot_pb2.ConnectResponse(decision_request=request))
        where = f"game {table.game_id} seat {seat} move {table.moves}"
        self.stats.decisions += 1
        self.stats.by_role[table.role(seat)] += 1
        self.stats.total_ms += elapsed_ms
        self.stats.slowest_ms = max(self.stats.slowest_ms, elapsed_ms)
        if elapsed_ms > self.budget_ms:
            self.report.fail(f"{where}: took {elapsed_ms:.0f} ms, budget {self.budget_ms:.0f} ms")
        stand_in = legal[table.others.randrange(len(legal))]
        if reply is None:  # the bot failed (`_send` said how): the arena would time it out
            table.strikes[seat] = table.strikes.get(seat, 0) + 1  # a strike and a random move
            return stand_in, "timeout" if table.strikes[seat] >= MAX_STRIKES else ""
        answer = reply.action_reply
        if answer.request_id != request.request_id:
            self.report.fail(f"{where}: replied to {answer.request_id!r}")
        try:
            action = codec.action_from_reply(table.game, answer, legal)
        except GameError as error:
            self.report.fail(f"{where}: malformed reply: {error}")
            return stand_in, "illegal_action"
        if action not in legal:
            self.report.fail(f"{where}: illegal action {action}: {_why_illegal(table, action)}")
            return stand_in, "illegal_action"
        return action, ""

    def _game_over(self, table: Table, result: Any, termination: str, reason: str) -> None:
        for seat in table.seats:  # one GameOver per seat, as the arena sends them
            over = table.over(seat, result, termination, reason)
            self._send(bot_pb2.ConnectResponse(game_over=over))

    def _send(
        self, message: bot_pb2.ConnectResponse
    ) -> tuple[bot_pb2.ConnectRequest | None, float]:
        """Through bytes and the SDK's Player, as on a live stream; the reply and its time."""
        wire = message.SerializeToString()
        started = self.clock()
        try:
            reply = self.player.handle(bot_pb2.ConnectResponse.FromString(wire))
        except BotFault as fault:
            self.report.fail(f"{fault}: {fault.__cause__!r}" if fault.__cause__ else str(fault))
            reply = None
        elapsed_ms = (self.clock() - started) * 1000
        sent = None if reply is None else reply.SerializeToString()
        self.stats.transcript.append(_Exchange(wire, sent))
        return reply, elapsed_ms


def _check_determinism(bot: BotSource, kit: _Kit, report: Report) -> None:
    """The same messages again, to a fresh Player (fresh instances of a class, or new copies of
    the untouched prototype): every answer must be the same."""
    replay = Player(bot)
    differences = 0
    for exchange in kit.stats.transcript:
        message = bot_pb2.ConnectResponse.FromString(exchange.message)
        try:
            reply = replay.handle(message)
        except BotFault:
            reply = None
        again = None if reply is None else reply.SerializeToString()
        if exchange.reply is not None and again != exchange.reply:
            differences += 1
    report.check(
        differences == 0,
        "deterministic: the same games again gave the same answers",
        f"{differences} answers changed on replay",
    )


def _why_illegal(table: Table, action: Any) -> str:
    try:
        table.game.apply(table.state, action)
    except GameError as error:
        return str(error)
    return "not in the legal list"


def _instance(bot: BotSource) -> Bot:
    made = bot if isinstance(bot, Bot) else bot()
    if not isinstance(made, Bot):
        raise TypeError(f"expected a bots_sdk.Bot, got {type(made).__name__}")
    return made


def _label(bot: BotSource) -> str:
    return type(bot).__name__ if isinstance(bot, Bot) else getattr(bot, "__name__", repr(bot))


def load_bot(spec: str) -> Callable[[], Bot]:
    """`module:Class` or `path/to/file.py:Class` (any callable returning a Bot) as a factory."""
    where, _, attr = spec.rpartition(":")
    if not where or not attr:
        raise ValueError(f"expected module:BotClass, got {spec!r}")
    if where.endswith(".py"):
        loaded = importlib.util.spec_from_file_location("bot_under_test", where)
        if loaded is None or loaded.loader is None:
            raise ValueError(f"cannot load {where}")
        module = importlib.util.module_from_spec(loaded)
        loaded.loader.exec_module(module)
    else:
        module = importlib.import_module(where)
    factory: Any = getattr(module, attr)
    if not callable(factory):
        raise ValueError(f"{spec} is not a class or a factory")

    def make() -> Bot:
        return _instance(factory)

    make.__name__ = attr  # what reports call the bot
    return make


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bots_sdk.testing", description=__doc__)
    parser.add_argument("bot", help="module:BotClass or path/to/file.py:BotClass")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--budget-ms", type=float, default=1000.0)
    parser.add_argument("--target", help="also check against this live arena (host:port)")
    parser.add_argument("--token", help="the bot's token, with --target")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(message)s")
    sys.path.insert(0, ".")  # so that `my_bot:MyBot` finds my_bot.py where the author stands
    factory = load_bot(args.bot)
    reports = [check_bot(factory, games=args.games, seed=args.seed, budget_ms=args.budget_ms)]
    if args.target:
        if not args.token:
            parser.error("--target needs --token")
        reports.append(check_bot_against_server(factory(), args.target, args.token))
    for report in reports:
        print(report)
    return 0 if all(report.ok for report in reports) else 1


__all__ = ["Report", "check_bot", "check_bot_against_server", "load_bot", "main"]

if __name__ == "__main__":
    sys.exit(main())
