"""Engine values ⇄ wire messages (`proto/arena/v1`): the only package that imports both.

The gateway, the referee and the Python SDK all convert through here, so a message means the same
on both ends of a stream. This module is the generic API; each game's conversions live in a
module of their own (`caper`, `caper_europe`, `age_of_thieves`, with what they share in
`shared`), registered as one `_GameCodec` per game id in `_CODECS`: a new game is one more module,
one more entry there and one more field in the `Observation` and `Action` oneofs of `game.proto`.

Errors: a malformed action raises the engine's `InvalidActionError`, so the referee treats it like
an unparsable action text; any other message that does not describe an engine value raises
`CodecError`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from arena.codec import age_of_thieves as thieves
from arena.codec import caper, caper_europe
from arena.codec.errors import CodecError as CodecError  # raised by every game's codec
from arena.games import caper_europe as europe
from arena.games.age_of_thieves.observation import AgeOfThievesObservation
from arena.games.age_of_thieves.state import Action as ThievesAction
from arena.games.api import Config, Game, InvalidActionError, Observation, Result
from arena.games.caper import Action, CaperObservation
from arena.games.caper_europe.observation import EuropeObservation
from arena.v1 import bot_pb2, game_pb2

PROTOCOL_VERSION = 1  # echoed in Hello and Welcome; a change a v1 peer cannot read is arena.v2

# every game's observation and action types
AnyObservation = CaperObservation | EuropeObservation | AgeOfThievesObservation
AnyAction = Action | europe.Action | ThievesAction
A = TypeVar("A")


# --- the generic API ---------------------------------------------------------------------------


def observation_to_proto(obs: Observation) -> game_pb2.Observation:
    """`obs` (what any game's `observation` returns) as the `Observation` message of its game."""
    for codec in _CODECS.values():
        if isinstance(obs, codec.observation_type):
            return codec.observation_to_proto(obs)
    raise CodecError(f"no wire form for observations of type {type(obs).__name__}")


def observation_from_proto(msg: game_pb2.Observation) -> AnyObservation:
    """The engine observation `msg` describes; exact inverse of `observation_to_proto`."""
    field = msg.WhichOneof("game")
    codec = _BY_FIELD.get(field or "")
    if codec is None:
        raise CodecError("the observation names no game this arena knows")
    return codec.observation_from_proto(msg)


def action_to_proto(game: Game[Any, A], action: A) -> game_pb2.Action:
    """`action` of `game` as an `Action` message."""
    return _codec(game).action_to_proto(action)


def action_from_proto(game: Game[Any, A], msg: game_pb2.Action) -> A:
    """The engine action `msg` describes. `InvalidActionError` says what is malformed; whether
    the action is legal is for the engine's `apply` to say."""
    codec = _codec(game)
    key = (codec.field, msg.SerializeToString())  # the same bytes always say the same action
    action: A | None = _ACTIONS.get(key)
    if action is not None:
        return action
    field = msg.WhichOneof("game")
    if field != codec.field:
        got = f"Action.{field}" if field else "an Action with no game set"
        raise InvalidActionError(f"a {game.id} game needs Action.{codec.field}, got {got}")
    action = codec.action_from_proto(msg)  # the table is untyped; `game` fixes the type
    _cache(_ACTIONS, key, action)
    return action


def is_action(game: Game[Any, Any], value: object) -> bool:
    """Whether `value` is of `game`'s action type (what its `legal_actions` lists)."""
    return isinstance(value, _codec(game).action_type)


def legal_actions_to_proto(game: Game[Any, A], actions: Sequence[A]) -> list[game_pb2.LegalAction]:
    """Each legal action in both wire forms, structured and text, in the engine's order. Each
    message is built once per action and shared: pass them on (a message built from them copies
    them), never change one."""
    return [_legal_action(game, action) for action in actions]


def _legal_action(game: Game[Any, A], action: A) -> game_pb2.LegalAction:
    key = (game.id, action)
    legal = _LEGAL.get(key)
    if legal is None:
        legal = game_pb2.LegalAction(
            action=action_to_proto(game, action), text=game.action_text(action)
        )
        _cache(_LEGAL, key, legal)
    return legal


# Encoding and decoding actions is most of the cost of a decision on the wire, and a game has a
# few thousand distinct actions: each is converted once. Bounded, for actions sent by bots.
CACHED_ACTIONS = 20_000
_LEGAL: dict[tuple[str, object], game_pb2.LegalAction] = {}
_ACTIONS: dict[tuple[str, bytes], Any] = {}
K = TypeVar("K")
V = TypeVar("V")


def _cache(cache: dict[K, V], key: K, value: V) -> None:
    if len(cache) >= CACHED_ACTIONS:
        cache.clear()  # rare: cheaper than keeping an order for evictions
    cache[key] = value


def action_from_reply(game: Game[Any, A], reply: bot_pb2.ActionReply, legal: Sequence[A]) -> A:
    """The action a bot chose, given by index into `legal` or as a structured action."""
    choice = reply.WhichOneof("choice")
    if choice == "legal_index":
        if reply.legal_index >= len(legal):
            raise InvalidActionError(
                f"legal_index {reply.legal_index} is out of range: "
                f"there are {len(legal)} legal actions"
            )
        return legal[reply.legal_index]
    if choice == "action":
        return action_from_proto(game, reply.action)
    raise InvalidActionError("the reply chooses nothing: set legal_index or action")


# Wire names of `Termination`, the values of `arena.referee.referee.Termination` (a test checks).
TERMINATIONS: dict[str, game_pb2.Termination.ValueType] = {
    name.removeprefix("TERMINATION_").lower(): value
    for name, value in game_pb2.Termination.items()
    if value != game_pb2.TERMINATION_UNSPECIFIED
}
_TERMINATION_NAMES = {value: name for name, value in TERMINATIONS.items()}


def result_to_proto(result: Result, termination: str = "normal") -> game_pb2.GameResult:
    """`result` with why the game ended, one of `TERMINATIONS` (as stored in game records)."""
    if termination not in TERMINATIONS:
        known = ", ".join(TERMINATIONS)
        raise CodecError(f"unknown termination {termination!r}: expected one of {known}")
    return game_pb2.GameResult(
        scores=result.scores,
        winner=result.winner,
        breakdown=[game_pb2.ScoreBreakdown(points=dict(b)) for b in result.breakdown],
        tiebreak=result.tiebreak,
        termination=TERMINATIONS[termination],
        details_json=json.dumps(dict(result.details), ensure_ascii=False, sort_keys=True),
    )


def result_from_proto(msg: game_pb2.GameResult) -> tuple[Result, str]:
    """The engine `Result` and the termination name; inverse of `result_to_proto`."""
    termination = _TERMINATION_NAMES.get(msg.termination)
    if termination is None:
        raise CodecError(f"unknown termination value {msg.termination}")
    try:
        details = json.loads(msg.details_json or "{}")
    except json.JSONDecodeError as error:
        raise CodecError(f"details_json is not valid JSON: {error}") from None
    if not isinstance(details, dict):
        raise CodecError("details_json must hold a JSON object")
    result = Result(
        scores=tuple(msg.scores),
        winner=msg.winner if msg.HasField("winner") else None,
        breakdown=tuple(dict(b.points) for b in msg.breakdown),
        tiebreak=msg.tiebreak,
        details=details,
    )
    return result, termination


def config_to_proto(config: Config) -> dict[str, game_pb2.ConfigValue]:
    """A game configuration as the `map<string, ConfigValue>` of `GameStarted.config`."""
    return {key: _config_value(value) for key, value in config.items()}


def _config_value(value: str | int) -> game_pb2.ConfigValue:
    if isinstance(value, str):
        return game_pb2.ConfigValue(text=value)
    return game_pb2.ConfigValue(number=value)


def config_from_proto(values: Mapping[str, game_pb2.ConfigValue]) -> dict[str, str | int]:
    """The game configuration `values` describes; inverse of `config_to_proto`."""
    config: dict[str, str | int] = {}
    for key, value in values.items():
        kind = value.WhichOneof("value")
        if kind is None:
            raise CodecError(f"config {key!r} has no value")
        config[key] = value.text if kind == "text" else value.number
    return config


# --- one codec per game ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _GameCodec:
    field: str  # its field in the `game` oneofs: the game id with "-" written "_"
    observation_type: type[Any]
    action_type: type[Any]
    observation_to_proto: Callable[[Any], game_pb2.Observation]
    observation_from_proto: Callable[[game_pb2.Observation], AnyObservation]
    action_to_proto: Callable[[Any], game_pb2.Action]
    action_from_proto: Callable[[game_pb2.Action], Any]  # the game's own action type


def _codec(game: Game[Any, Any]) -> _GameCodec:
    codec = _CODECS.get(game.id)
    if codec is None:
        raise CodecError(f"game {game.id!r} has no wire form yet")
    return codec


_CODECS: dict[str, _GameCodec] = {
    "caper": _GameCodec(
        field="caper",
        observation_type=CaperObservation,
        action_type=Action,
        observation_to_proto=caper.observation_to_proto,
        observation_from_proto=caper.observation_from_proto,
        action_to_proto=caper.action_to_proto,
        action_from_proto=caper.action_from_proto,
    ),
    "caper-europe": _GameCodec(
        field="caper_europe",
        observation_type=EuropeObservation,
        action_type=europe.Action,
        observation_to_proto=caper_europe.observation_to_proto,
        observation_from_proto=caper_europe.observation_from_proto,
        action_to_proto=caper_europe.action_to_proto,
        action_from_proto=caper_europe.action_from_proto,
    ),
    "age-of-thieves": _GameCodec(
        field="age_of_thieves",
        observation_type=AgeOfThievesObservation,
        action_type=ThievesAction,
        observation_to_proto=thieves.observation_to_proto,
        observation_from_proto=thieves.observation_from_proto,
        action_to_proto=thieves.action_to_proto,
        action_from_proto=thieves.action_from_proto,
    ),
}
_BY_FIELD = {codec.field: codec for codec in _CODECS.values()}
