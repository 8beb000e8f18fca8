"""Engine values ⇄ wire messages (`proto/arena/v1`): the only module that imports both.

The gateway, the referee and the Python SDK all convert through here, so a message means the same
on both ends of a stream. Game-specific conversions live in one `_GameCodec` per game id, in
`_CODECS`; a new game is one more entry there and one more field in the `Observation` and
`Action` oneofs of `game.proto`. Registered: first-edition Caper, Caper: Europe and Age of
Thieves (its conversions in `arena.codec_age_of_thieves`).

Errors: a malformed action raises the engine's `InvalidActionError`, so the referee treats it like
an unparsable action text; any other message that does not describe an engine value raises
`CodecError`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from google.protobuf.internal.containers import RepeatedCompositeFieldContainer

from arena import codec_age_of_thieves as thieves
from arena.codec_errors import CodecError as CodecError  # raised by every game's codec
from arena.games import caper_europe as europe
from arena.games.age_of_thieves.observation import AgeOfThievesObservation
from arena.games.age_of_thieves.state import Action as ThievesAction
from arena.games.api import Config, Game, InvalidActionError, Observation, Result
from arena.games.caper import CATALOGUE, Action, ActionKind, CaperObservation
from arena.games.caper.observation import PublicStack
from arena.games.caper.state import NONE
from arena.games.caper_europe.observation import EuropeObservation, PublicCrew
from arena.games.caper_europe.state import NONE as EUROPE_NONE
from arena.v1 import bot_pb2, caper_europe_pb2, caper_pb2, game_pb2

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


# Wire names of `Termination`, the values of `arena.match.referee.Termination` (a test checks).
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


# --- Caper (first edition) ---------------------------------------------------------------------

_ROUND_KINDS: dict[str, caper_pb2.CaperRoundKind.ValueType] = {
    "thief": caper_pb2.CAPER_ROUND_KIND_THIEF,
    "gear": caper_pb2.CAPER_ROUND_KIND_GEAR,
    "end": caper_pb2.CAPER_ROUND_KIND_END,
}
_ROUND_KIND_NAMES = {value: name for name, value in _ROUND_KINDS.items()}

_ACTION_KINDS: dict[ActionKind, caper_pb2.CaperActionKind.ValueType] = {
    ActionKind.THIEF: caper_pb2.CAPER_ACTION_KIND_THIEF,
    ActionKind.GEAR: caper_pb2.CAPER_ACTION_KIND_GEAR,
    ActionKind.DISCARD: caper_pb2.CAPER_ACTION_KIND_DISCARD,
    ActionKind.REPLAY: caper_pb2.CAPER_ACTION_KIND_REPLAY,
    ActionKind.PASS: caper_pb2.CAPER_ACTION_KIND_PASS,
    ActionKind.GIVE: caper_pb2.CAPER_ACTION_KIND_GIVE,
    ActionKind.SEND: caper_pb2.CAPER_ACTION_KIND_SEND,
}
_ENGINE_KINDS = {value: kind for kind, value in _ACTION_KINDS.items()}

# Which fields each kind must carry and which it may carry, as documented in caper.proto. The
# engine would refuse the others too, but as illegal; on the wire they are malformed.
_REQUIRED: dict[ActionKind, frozenset[str]] = {
    ActionKind.THIEF: frozenset({"card", "location"}),
    ActionKind.GEAR: frozenset({"card", "location", "thief"}),
    ActionKind.DISCARD: frozenset({"card"}),
    ActionKind.REPLAY: frozenset({"card", "location", "thief"}),
    ActionKind.PASS: frozenset(),
    ActionKind.GIVE: frozenset({"card", "other"}),
    ActionKind.SEND: frozenset({"card", "other"}),
}
_MAY_FLIP = frozenset({ActionKind.THIEF, ActionKind.GEAR, ActionKind.REPLAY})


def _caper_observation_to_proto(obs: CaperObservation) -> game_pb2.Observation:
    known = obs.opponent_hand
    caper = caper_pb2.CaperObservation(
        seat=obs.seat,
        city=obs.city,
        locations=obs.locations,
        round=obs.round,
        round_kind=_ROUND_KINDS[obs.round_kind],
        first_player=obs.first_player,
        to_move=None if obs.to_move < 0 else obs.to_move,
        hand=obs.hand,
        opponent_hand=None if known is None else caper_pb2.CaperHand(cards=known),
        opponent_hand_size=obs.opponent_hand_size,
        supply=obs.supply,
        thief_deck_size=obs.thief_deck_size,
        gear_deck_size=obs.gear_deck_size,
        pending=[
            caper_pb2.CaperPendingAbility(seat=seat, card=card, location=location)
            for seat, card, location in obs.pending
        ],
        players=obs.players,
        role=obs.role,
        hand_sizes=obs.hand_sizes,
        snitch_deck_size=obs.snitch_deck_size,
        passed=[caper_pb2.CaperPass(cards=cards) for cards in obs.passed],
        received=obs.received,
    )
    _caper_sides_into(obs, caper.sides)
    return game_pb2.Observation(caper=caper)


def _caper_sides_into(
    obs: CaperObservation, sides: RepeatedCompositeFieldContainer[caper_pb2.CaperSide]
) -> None:
    """The board, built in place: half the cost of nested messages built and then copied."""
    for seat, crews in enumerate(obs.board):
        side = sides.add(
            coins=obs.coins[seat], laundered=obs.laundered[seat], discards=obs.discards[seat]
        )
        for crew in crews:
            stacks = side.crews.add().stacks
            for stack in crew:
                cards = stacks.add().cards
                for name, flipped in stack:
                    cards.add(card=name, flipped=flipped)


def _caper_observation_from_proto(msg: game_pb2.Observation) -> CaperObservation:
    caper = msg.caper
    if len(caper.sides) != 2:
        raise CodecError(f"a Caper observation has 2 sides, this one has {len(caper.sides)}")
    if caper.round_kind not in _ROUND_KIND_NAMES:
        raise CodecError(f"unknown Caper round kind {caper.round_kind}")
    if caper.players not in (0, 2, 3, 4):
        raise CodecError(f"a Caper game has 2, 3 or 4 players, this one has {caper.players}")
    cream, mint = caper.sides
    return CaperObservation(
        seat=caper.seat,
        city=caper.city,
        locations=tuple(caper.locations),
        round=caper.round,
        round_kind=_ROUND_KIND_NAMES[caper.round_kind],
        first_player=caper.first_player,
        to_move=caper.to_move if caper.HasField("to_move") else -1,
        hand=tuple(caper.hand),
        opponent_hand=(
            tuple(caper.opponent_hand.cards) if caper.HasField("opponent_hand") else None
        ),
        opponent_hand_size=caper.opponent_hand_size,
        board=(_caper_crews_from_proto(cream), _caper_crews_from_proto(mint)),
        coins=(cream.coins, mint.coins),
        supply=caper.supply,
        laundered=(cream.laundered, mint.laundered),
        discards=(tuple(cream.discards), tuple(mint.discards)),
        thief_deck_size=caper.thief_deck_size,
        gear_deck_size=caper.gear_deck_size,
        pending=tuple((p.seat, p.card, p.location) for p in caper.pending),
        players=caper.players or 2,  # an older arena sends no count: it only had 2 players
        role=caper.role or "mastermind",
        hand_sizes=tuple(caper.hand_sizes),
        snitch_deck_size=caper.snitch_deck_size,
        passed=tuple(tuple(cards.cards) for cards in caper.passed),
        received=tuple(caper.received),
    )


def _caper_crews_from_proto(side: caper_pb2.CaperSide) -> tuple[tuple[PublicStack, ...], ...]:
    return tuple(
        tuple(_caper_stack_from_proto(stack) for stack in crew.stacks) for crew in side.crews
    )


def _caper_stack_from_proto(stack: caper_pb2.CaperStack) -> PublicStack:
    return tuple((placed.card, placed.flipped) for placed in stack.cards)


def _caper_action_to_proto(action: Action) -> game_pb2.Action:
    caper = caper_pb2.CaperAction(
        kind=_ACTION_KINDS[action.kind],
        card=action.card,
        location=None if action.location == NONE else action.location,
        thief=None if action.thief == NONE else action.thief,
        target=None if action.target == NONE else action.target,
        other=action.other,
    )
    return game_pb2.Action(caper=caper)


def _caper_action_from_proto(msg: game_pb2.Action) -> Action:
    caper = msg.caper
    kind = _ENGINE_KINDS.get(caper.kind)
    if kind is None:
        known = ", ".join(caper_pb2.CaperActionKind.Name(v) for v in _ENGINE_KINDS)
        got = _enum_label(caper_pb2.CaperActionKind, caper.kind)
        raise InvalidActionError(f"the Caper action kind is {got}: expected one of {known}")
    present = {
        name
        for name, is_set in (
            ("card", bool(caper.card)),
            ("location", caper.HasField("location")),
            ("thief", caper.HasField("thief")),
            ("target", caper.HasField("target")),
            ("other", bool(caper.other)),
        )
        if is_set
    }
    _check_caper_fields(kind, present)
    if unknown := [name for name in (caper.card, caper.other) if name and name not in CATALOGUE]:
        raise InvalidActionError(f"unknown card {unknown[0]!r}")
    return Action(
        kind,
        caper.card,
        caper.location if caper.HasField("location") else NONE,
        caper.thief if caper.HasField("thief") else NONE,
        caper.target if caper.HasField("target") else NONE,
        caper.other,
    )


def _check_caper_fields(kind: ActionKind, present: set[str]) -> None:
    required = _REQUIRED[kind]
    _check_fields(
        kind.name, present, required, required | ({"target"} if kind in _MAY_FLIP else set())
    )


def _check_fields(
    kind: str, present: set[str], required: frozenset[str], allowed: frozenset[str]
) -> None:
    """`InvalidActionError` naming the first missing field, or the fields that must be unset."""
    what = f"a {kind} action"
    if missing := sorted(required - present):
        raise InvalidActionError(f"{what} is missing {' and '.join(missing)}")
    if extra := sorted(present - allowed):
        raise InvalidActionError(f"{what} takes no {' or '.join(extra)}: leave it unset")


def _enum_label(enum: Any, value: int) -> str:
    """`value`'s name in the generated `enum`, or the number marked unknown."""
    try:
        return str(enum.Name(value))
    except ValueError:  # proto3 enums are open: a newer peer may send a number we do not know
        return f"{value} (unknown)"


# --- Caper: Europe ------------------------------------------------------------------------------

_EUROPE_ROUND_KINDS: dict[str, caper_europe_pb2.CaperEuropeRoundKind.ValueType] = {
    "thief": caper_europe_pb2.CAPER_EUROPE_ROUND_KIND_THIEF,
    "gear": caper_europe_pb2.CAPER_EUROPE_ROUND_KIND_GEAR,
    "end": caper_europe_pb2.CAPER_EUROPE_ROUND_KIND_END,
}
_EUROPE_ROUND_KIND_NAMES = {value: name for name, value in _EUROPE_ROUND_KINDS.items()}

_EUROPE_ACTION_KINDS: dict[europe.ActionKind, caper_europe_pb2.CaperEuropeActionKind.ValueType] = {
    europe.ActionKind.THIEF: caper_europe_pb2.CAPER_EUROPE_ACTION_KIND_THIEF,
    europe.ActionKind.GEAR: caper_europe_pb2.CAPER_EUROPE_ACTION_KIND_GEAR,
    europe.ActionKind.DISCARD: caper_europe_pb2.CAPER_EUROPE_ACTION_KIND_DISCARD,
    europe.ActionKind.RETURN: caper_europe_pb2.CAPER_EUROPE_ACTION_KIND_RETURN,
}
_EUROPE_ENGINE_KINDS = {value: kind for kind, value in _EUROPE_ACTION_KINDS.items()}

_EUROPE_GOODS: dict[int, caper_europe_pb2.CaperEuropeGood.ValueType] = {
    europe.Good.DIAMOND: caper_europe_pb2.CAPER_EUROPE_GOOD_DIAMOND,
    europe.Good.PAINTING: caper_europe_pb2.CAPER_EUROPE_GOOD_PAINTING,
    europe.Good.ANTIQUE: caper_europe_pb2.CAPER_EUROPE_GOOD_ANTIQUE,
}
_EUROPE_ENGINE_GOODS = {value: good for good, value in _EUROPE_GOODS.items()}

# As documented in caper_europe.proto: what each kind must carry, and what it may carry besides
# (a burn target and a grabbed type, for the cards that have those choices).
_EUROPE_REQUIRED: dict[europe.ActionKind, frozenset[str]] = {
    europe.ActionKind.THIEF: frozenset({"card", "location"}),
    europe.ActionKind.GEAR: frozenset({"card", "location", "thief"}),
    europe.ActionKind.DISCARD: frozenset({"card"}),
    europe.ActionKind.RETURN: frozenset({"good"}),
}
_EUROPE_CHOICES = frozenset({"target", "good"})
_EUROPE_PLAYS = frozenset({europe.ActionKind.THIEF, europe.ActionKind.GEAR})


def _europe_observation_to_proto(obs: EuropeObservation) -> game_pb2.Observation:
    known = obs.opponent_hand
    locations = [
        caper_europe_pb2.CaperEuropeLocation(
            card=card, marker=marker, goods=_europe_goods_to_proto(goods)
        )
        for card, marker, goods in zip(obs.locations, obs.markers, obs.goods, strict=True)
    ]
    message = caper_europe_pb2.CaperEuropeObservation(
        seat=obs.seat,
        city=obs.city,
        locations=locations,
        round=obs.round,
        round_kind=_EUROPE_ROUND_KINDS[obs.round_kind],
        first_player=obs.first_player,
        to_move=None if obs.to_move < 0 else obs.to_move,
        returning=None if obs.returning < 0 else obs.returning,
        hand=obs.hand,
        opponent_hand=None if known is None else caper_europe_pb2.CaperEuropeHand(cards=known),
        opponent_hand_size=obs.opponent_hand_size,
        sides=[_europe_side_to_proto(obs, seat) for seat in range(len(obs.crews))],
        supply=obs.supply,
        thief_deck_size=obs.thief_deck_size,
        gear_deck_size=obs.gear_deck_size,
    )
    return game_pb2.Observation(caper_europe=message)


def _europe_goods_to_proto(goods: Sequence[int]) -> caper_europe_pb2.CaperEuropeGoods:
    return caper_europe_pb2.CaperEuropeGoods(
        diamonds=goods[europe.Good.DIAMOND],
        paintings=goods[europe.Good.PAINTING],
        antiques=goods[europe.Good.ANTIQUE],
    )


def _europe_side_to_proto(obs: EuropeObservation, seat: int) -> caper_europe_pb2.CaperEuropeSide:
    crews = [
        caper_europe_pb2.CaperEuropeCrew(
            cards=[
                caper_europe_pb2.CaperEuropeCrewCard(card=card, thief=thief) for card, thief in crew
            ]
        )
        for crew in obs.crews[seat]
    ]
    return caper_europe_pb2.CaperEuropeSide(
        crews=crews,
        coins=obs.coins[seat],
        hq_coins=obs.hq_coins[seat],
        hq_goods=_europe_goods_to_proto(obs.hq_goods[seat]),
        discards=obs.discards[seat],
    )


def _europe_observation_from_proto(msg: game_pb2.Observation) -> EuropeObservation:
    obs = msg.caper_europe
    if len(obs.sides) != 2:
        raise CodecError(f"a Caper: Europe observation has 2 sides, this one has {len(obs.sides)}")
    if len(obs.locations) != 3:
        raise CodecError(
            f"a Caper: Europe observation has 3 Locations, this one has {len(obs.locations)}"
        )
    if any(len(side.crews) != len(obs.locations) for side in obs.sides):
        raise CodecError("each side of a Caper: Europe observation has one crew per Location")
    if obs.round_kind not in _EUROPE_ROUND_KIND_NAMES:
        raise CodecError(f"unknown Caper: Europe round kind {obs.round_kind}")
    first, second = obs.sides
    return EuropeObservation(
        seat=obs.seat,
        city=obs.city,
        locations=tuple(location.card for location in obs.locations),
        round=obs.round,
        round_kind=_EUROPE_ROUND_KIND_NAMES[obs.round_kind],
        first_player=obs.first_player,
        to_move=obs.to_move if obs.HasField("to_move") else -1,
        returning=obs.returning if obs.HasField("returning") else -1,
        hand=tuple(obs.hand),
        opponent_hand=tuple(obs.opponent_hand.cards) if obs.HasField("opponent_hand") else None,
        opponent_hand_size=obs.opponent_hand_size,
        crews=(_europe_crews_from_proto(first), _europe_crews_from_proto(second)),
        markers=tuple(location.marker for location in obs.locations),
        goods=tuple(_europe_goods_from_proto(location.goods) for location in obs.locations),
        hq_goods=(
            _europe_goods_from_proto(first.hq_goods),
            _europe_goods_from_proto(second.hq_goods),
        ),
        coins=(first.coins, second.coins),
        hq_coins=(first.hq_coins, second.hq_coins),
        supply=obs.supply,
        discards=(tuple(first.discards), tuple(second.discards)),
        thief_deck_size=obs.thief_deck_size,
        gear_deck_size=obs.gear_deck_size,
    )


def _europe_goods_from_proto(goods: caper_europe_pb2.CaperEuropeGoods) -> tuple[int, ...]:
    counts = {
        europe.Good.DIAMOND: goods.diamonds,
        europe.Good.PAINTING: goods.paintings,
        europe.Good.ANTIQUE: goods.antiques,
    }
    return tuple(counts[good] for good in europe.Good)


def _europe_crews_from_proto(side: caper_europe_pb2.CaperEuropeSide) -> tuple[PublicCrew, ...]:
    return tuple(tuple((placed.card, placed.thief) for placed in crew.cards) for crew in side.crews)


def _europe_action_to_proto(action: europe.Action) -> game_pb2.Action:
    message = caper_europe_pb2.CaperEuropeAction(
        kind=_EUROPE_ACTION_KINDS[action.kind],
        card=action.card,
        location=None if action.location == EUROPE_NONE else action.location,
        thief=None if action.thief == EUROPE_NONE else action.thief,
        target=None if action.target == EUROPE_NONE else action.target,
        good=caper_europe_pb2.CAPER_EUROPE_GOOD_UNSPECIFIED
        if action.good == EUROPE_NONE
        else _EUROPE_GOODS[action.good],
    )
    return game_pb2.Action(caper_europe=message)


def _europe_action_from_proto(msg: game_pb2.Action) -> europe.Action:
    wire = msg.caper_europe
    kind = _EUROPE_ENGINE_KINDS.get(wire.kind)
    if kind is None:
        known = ", ".join(
            caper_europe_pb2.CaperEuropeActionKind.Name(v) for v in _EUROPE_ENGINE_KINDS
        )
        got = _enum_label(caper_europe_pb2.CaperEuropeActionKind, wire.kind)
        raise InvalidActionError(f"the Caper: Europe action kind is {got}: expected one of {known}")
    good = EUROPE_NONE
    if wire.good != caper_europe_pb2.CAPER_EUROPE_GOOD_UNSPECIFIED:
        if wire.good not in _EUROPE_ENGINE_GOODS:
            got = _enum_label(caper_europe_pb2.CaperEuropeGood, wire.good)
            raise InvalidActionError(
                f"the stolen good is {got}: expected DIAMOND, PAINTING or ANTIQUE"
            )
        good = _EUROPE_ENGINE_GOODS[wire.good]
    present = {
        name
        for name, is_set in (
            ("card", bool(wire.card)),
            ("location", wire.HasField("location")),
            ("thief", wire.HasField("thief")),
            ("target", wire.HasField("target")),
            ("good", good != EUROPE_NONE),
        )
        if is_set
    }
    required = _EUROPE_REQUIRED[kind]
    _check_fields(
        kind.name,
        present,
        required,
        required | (_EUROPE_CHOICES if kind in _EUROPE_PLAYS else set()),
    )
    if wire.card and wire.card not in europe.CATALOGUE:
        raise InvalidActionError(f"unknown card {wire.card!r}")
    return europe.Action(
        kind,
        wire.card,
        wire.location if wire.HasField("location") else EUROPE_NONE,
        wire.thief if wire.HasField("thief") else EUROPE_NONE,
        wire.target if wire.HasField("target") else EUROPE_NONE,
        good,
    )


_CODECS: dict[str, _GameCodec] = {
    "caper": _GameCodec(
        field="caper",
        observation_type=CaperObservation,
        action_type=Action,
        observation_to_proto=_caper_observation_to_proto,
        observation_from_proto=_caper_observation_from_proto,
        action_to_proto=_caper_action_to_proto,
        action_from_proto=_caper_action_from_proto,
    ),
    "caper-europe": _GameCodec(
        field="caper_europe",
        observation_type=EuropeObservation,
        action_type=europe.Action,
        observation_to_proto=_europe_observation_to_proto,
        observation_from_proto=_europe_observation_from_proto,
        action_to_proto=_europe_action_to_proto,
        action_from_proto=_europe_action_from_proto,
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
