"""First-edition Caper engine values ⇄ wire messages (`proto/arena/v1/caper.proto`).

`arena.codec` registers these functions as the game's codec. Malformed actions raise
`InvalidActionError`, observations that describe no engine value `CodecError`.
"""

from __future__ import annotations

from google.protobuf.internal.containers import RepeatedCompositeFieldContainer

from arena.codec.errors import CodecError
from arena.codec.shared import check_fields, enum_label
from arena.games.api import InvalidActionError
from arena.games.caper import CATALOGUE, Action, ActionKind, CaperObservation
from arena.games.caper.observation import PublicStack
from arena.games.caper.state import NONE
from arena.v1 import caper_pb2, game_pb2

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


def observation_to_proto(obs: CaperObservation) -> game_pb2.Observation:
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
    _sides_into(obs, caper.sides)
    return game_pb2.Observation(caper=caper)


def _sides_into(
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


def observation_from_proto(msg: game_pb2.Observation) -> CaperObservation:
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
        board=(_crews_from_proto(cream), _crews_from_proto(mint)),
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


def _crews_from_proto(side: caper_pb2.CaperSide) -> tuple[tuple[PublicStack, ...], ...]:
    return tuple(tuple(_stack_from_proto(stack) for stack in crew.stacks) for crew in side.crews)


def _stack_from_proto(stack: caper_pb2.CaperStack) -> PublicStack:
    return tuple((placed.card, placed.flipped) for placed in stack.cards)


def action_to_proto(action: Action) -> game_pb2.Action:
    caper = caper_pb2.CaperAction(
        kind=_ACTION_KINDS[action.kind],
        card=action.card,
        location=None if action.location == NONE else action.location,
        thief=None if action.thief == NONE else action.thief,
        target=None if action.target == NONE else action.target,
        other=action.other,
    )
    return game_pb2.Action(caper=caper)


def action_from_proto(msg: game_pb2.Action) -> Action:
    caper = msg.caper
    kind = _ENGINE_KINDS.get(caper.kind)
    if kind is None:
        known = ", ".join(caper_pb2.CaperActionKind.Name(v) for v in _ENGINE_KINDS)
        got = enum_label(caper_pb2.CaperActionKind, caper.kind)
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
    check_fields(
        kind.name, present, required, required | ({"target"} if kind in _MAY_FLIP else set())
    )
