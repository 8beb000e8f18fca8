"""What a remote SDK bot receives over the wire in 3- and 4-player Caper, captured and checked
against the engine replaying the stored game records (V4, V9: each seat sees only its own view).

`CapturingClient` is the SDK's own client with a Player that keeps every GameStarted,
DecisionRequest and GameOver as received; `SeatRecorder` notes, instance by instance, which
(game, seat) each of the SDK's per-seat instances was given."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import redis

from arena import codec
from arena.games.caper import CAPER
from arena.games.caper.game import SEAT_ROLES
from arena.games.caper.observation import observe, resample_hidden
from arena.games.caper.state import SNITCH, State
from arena.games.record import GameRecord, replay_states
from arena.store import keys
from arena.store.values import as_text
from arena.v1 import bot_pb2
from bots_sdk import Backoff, Bot, Decision, GameAction, GameEnd, GameStart
from bots_sdk.client import Client
from bots_sdk.player import Player

FAST = Backoff(initial_s=0.1, maximum_s=1.0)


@dataclass
class Seen:
    """What the SDK's instances were given, shared by every copy of one `SeatRecorder`."""

    # instance serial (given at its GameStart; None before) -> the (game, seat) keys it was given
    keys: dict[int | None, set[tuple[str, int]]] = field(default_factory=dict)
    starts: list[GameStart] = field(default_factory=list)
    ends: list[GameEnd] = field(default_factory=list)

    def __deepcopy__(self, memo: dict[int, Any]) -> Seen:
        return self

    def note(self, serial: int | None, game_id: str, seat: int) -> None:
        self.keys.setdefault(serial, set()).add((game_id, seat))


class SeatRecorder(Bot):
    """A seeded random legal action per decision; notes which seat each instance was given."""

    name = "seat-recorder"

    def __init__(self) -> None:
        self.seen = Seen()
        self.serial: int | None = None  # this instance's number, from its GameStart

    def on_game_start(self, game: GameStart) -> None:
        self.serial = len(self.seen.starts)
        self.seen.starts.append(game)
        self.seen.note(self.serial, game.game_id, game.seat)

    def decide(self, decision: Decision) -> GameAction:
        self.seen.note(self.serial, decision.game_id, decision.seat)
        key = f"{decision.game_id}/{decision.seat}/{decision.move_number}"
        return random.Random(key).choice(decision.legal)

    def act(self, observation: Any, legal: Sequence[GameAction]) -> GameAction:
        raise AssertionError("decide is overridden")

    def on_game_over(self, game: GameEnd) -> None:
        self.seen.note(self.serial, game.game_id, game.seat)
        self.seen.ends.append(game)


class CapturingPlayer(Player):
    """The SDK's Player, keeping each game message as it came off the wire."""

    def __init__(self, bot: Bot) -> None:
        super().__init__(bot)
        self.messages: list[bot_pb2.ConnectResponse] = []

    def handle(self, message: bot_pb2.ConnectResponse) -> bot_pb2.ConnectRequest | None:
        if message.WhichOneof("message") in ("game_started", "decision_request", "game_over"):
            copy = bot_pb2.ConnectResponse()
            copy.CopyFrom(message)
            self.messages.append(copy)
        return super().handle(message)

    def of_kind(self, kind: str) -> list[Any]:
        return [getattr(m, kind) for m in self.messages if m.WhichOneof("message") == kind]


class CapturingClient(Client):
    def __init__(self, bot: Bot, target: str, token: str) -> None:
        super().__init__(bot, target, token, backoff=FAST)
        self.player: CapturingPlayer = CapturingPlayer(bot)


def stored_record(client: redis.Redis, game_id: str) -> GameRecord:
    stored = client.get(keys.game_record(game_id))
    assert stored is not None, f"no record of game {game_id}"
    return GameRecord.loads(as_text(stored))


def own_hand(state: State, seat: int) -> list[str]:
    """The cards `seat` holds, read from the state itself (not from the engine's observation)."""
    if state.players == 3 and seat == SNITCH:
        drawn = state.snitch_deck[:2] if state.to_move == SNITCH else ()
        return sorted(card.name for card in drawn)
    return sorted(card.name for card in (*state.hands, *state.lookout_hands)[seat])


def check_views(
    client: redis.Redis, player: CapturingPlayer, name: str
) -> Counter[tuple[int, int]]:
    """Every captured message checked against its game's record; decisions per (players, seat)."""
    records: dict[str, GameRecord] = {}
    states: dict[str, list[Any]] = {}
    for started in player.of_kind("game_started"):
        record = records.setdefault(started.game_id, stored_record(client, started.game_id))
        _check_started(started, record, name)
    covered: Counter[tuple[int, int]] = Counter()
    rng = random.Random(0)
    for request in player.of_kind("decision_request"):
        record = records.setdefault(request.game_id, stored_record(client, request.game_id))
        if request.game_id not in states:
            states[request.game_id] = [state for _, state in replay_states(record)]
        state = states[request.game_id][request.move_number]
        _check_request(request, state, record, name, rng)
        covered[(state.players, request.seat)] += 1
    return covered


def _check_started(started: bot_pb2.GameStarted, record: GameRecord, name: str) -> None:
    players = int(record.config.get("players", 2))
    assert [s.player_name for s in started.seats] == list(record.players)
    roles = SEAT_ROLES[players]
    assert [(s.role, s.team) for s in started.seats] == [(r.role, r.team) for r in roles]
    assert record.players[started.seat] == name


def _check_request(
    request: bot_pb2.DecisionRequest, state: State, record: GameRecord, name: str, rng: Any
) -> None:
    seat, where = request.seat, f"{request.request_id}"
    assert CAPER.current_player(state) == seat, where
    assert record.players[seat] == name, where
    wire = request.observation
    caper = wire.caper
    assert caper.seat == seat and caper.players == state.players, where
    assert sorted(caper.hand) == own_hand(state, seat), where  # its own hand, as dealt
    assert not caper.HasField("opponent_hand"), where  # V4, V9: never another seat's hand
    assert codec.observation_from_proto(wire) == CAPER.observation(state, seat), where
    # Nothing on the wire depends on what the seat may not see: deal every hidden card anew
    # (other hands, the Snitch deck, the decks' order) and the bytes stay the same.
    other = resample_hidden(state, seat, rng)
    resent = codec.observation_to_proto(observe(other, seat)).SerializeToString(deterministic=True)
    assert resent == wire.SerializeToString(deterministic=True), where
    legal = CAPER.legal_actions(state)
    assert list(request.legal_actions) == codec.legal_actions_to_proto(CAPER, legal), where


def instances_by_seat(seen: Seen) -> dict[tuple[str, int], int]:
    """(game, seat) -> the one instance that played it; fails if an instance saw two seats or
    a request reached an instance that never had a GameStart."""
    assert None not in seen.keys, f"instances without a GameStart: {seen.keys.get(None)}"
    owner: dict[tuple[str, int], int] = {}
    for serial, seats in seen.keys.items():
        assert serial is not None and len(seats) == 1, f"one instance was given {sorted(seats)}"
        (key,) = seats
        assert key not in owner, f"{key} was played by two instances"
        owner[key] = serial
    return owner
