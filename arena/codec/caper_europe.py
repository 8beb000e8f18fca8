"""Caper: Europe engine values ⇄ wire messages (`proto/arena/v1/caper_europe.proto`).

`arena.codec` registers these functions as the game's codec. Malformed actions raise
`InvalidActionError`, observations that describe no engine value `CodecError`.
"""

from __future__ import annotations

from collections.abc import Sequence

from arena.codec.errors import CodecError
from arena.codec.shared import check_fields, enum_label
from arena.games import caper_europe as europe
from arena.games.api import InvalidActionError
from arena.games.caper_europe.observation import EuropeObservation, PublicCrew
from arena.games.caper_europe.state import NONE
from arena.v1 import caper_europe_pb2, game_pb2

_ROUND_KINDS: dict[str, caper_europe_pb2.CaperEuropeRoundKind.ValueType] = {
    "thief": caper_europe_pb2.CAPER_EUROPE_ROUND_KIND_THIEF,
    "gear": caper_europe_pb2.CAPER_EUROPE_ROUND_KIND_GEAR,
    "end": caper_europe_pb2.CAPER_EUROPE_ROUND_KIND_END,
}
_ROUND_KIND_NAMES = {value: name for name, value in _ROUND_KINDS.items()}

_ACTION_KINDS: dict[europe.ActionKind, caper_europe_pb2.CaperEuropeActionKind.ValueType] = {
    europe.ActionKind.THIEF: caper_europe_pb2.CAPER_EUROPE_ACTION_KIND_THIEF,
    europe.ActionKind.GEAR: caper_europe_pb2.CAPER_EUROPE_ACTION_KIND_GEAR,
    europe.ActionKind.DISCARD: caper_europe_pb2.CAPER_EUROPE_ACTION_KIND_DISCARD,
    europe.ActionKind.RETURN: caper_europe_pb2.CAPER_EUROPE_ACTION_KIND_RETURN,
}
_ENGINE_KINDS = {value: kind for kind, value in _ACTION_KINDS.items()}

_GOODS: dict[int, caper_europe_pb2.CaperEuropeGood.ValueType] = {
    europe.Good.DIAMOND: caper_europe_pb2.CAPER_EUROPE_GOOD_DIAMOND,
    europe.Good.PAINTING: caper_europe_pb2.CAPER_EUROPE_GOOD_PAINTING,
    europe.Good.ANTIQUE: caper_europe_pb2.CAPER_EUROPE_GOOD_ANTIQUE,
}
_ENGINE_GOODS = {value: good for good, value in _GOODS.items()}

# As documented in caper_europe.proto: what each kind must carry, and what it may carry besides
# (a burn target and a grabbed type, for the cards that have those choices).
_REQUIRED: dict[europe.ActionKind, frozenset[str]] = {
    europe.ActionKind.THIEF: frozenset({"card", "location"}),
    europe.ActionKind.GEAR: frozenset({"card", "location", "thief"}),
    europe.ActionKind.DISCARD: frozenset({"card"}),
    europe.ActionKind.RETURN: frozenset({"good"}),
}
_CHOICES = frozenset({"target", "good"})
_PLAYS = frozenset({europe.ActionKind.THIEF, europe.ActionKind.GEAR})


def observation_to_proto(obs: EuropeObservation) -> game_pb2.Observation:
    known = obs.opponent_hand
    locations = [
        caper_europe_pb2.CaperEuropeLocation(card=card, marker=marker, goods=_goods_to_proto(goods))
        for card, marker, goods in zip(obs.locations, obs.markers, obs.goods, strict=True)
    ]
    message = caper_europe_pb2.CaperEuropeObservation(
        seat=obs.seat,
        city=obs.city,
        locations=locations,
        round=obs.round,
        round_kind=_ROUND_KINDS[obs.round_kind],
        first_player=obs.first_player,
        to_move=None if obs.to_move < 0 else obs.to_move,
        returning=None if obs.returning < 0 else obs.returning,
        hand=obs.hand,
        opponent_hand=None if known is None else caper_europe_pb2.CaperEuropeHand(cards=known),
        opponent_hand_size=obs.opponent_hand_size,
        sides=[_side_to_proto(obs, seat) for seat in range(len(obs.crews))],
        supply=obs.supply,
        thief_deck_size=obs.thief_deck_size,
        gear_deck_size=obs.gear_deck_size,
    )
    return game_pb2.Observation(caper_europe=message)


def _goods_to_proto(goods: Sequence[int]) -> caper_europe_pb2.CaperEuropeGoods:
    return caper_europe_pb2.CaperEuropeGoods(
        diamonds=goods[europe.Good.DIAMOND],
        paintings=goods[europe.Good.PAINTING],
        antiques=goods[europe.Good.ANTIQUE],
    )


def _side_to_proto(obs: EuropeObservation, seat: int) -> caper_europe_pb2.CaperEuropeSide:
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
        hq_goods=_goods_to_proto(obs.hq_goods[seat]),
        discards=obs.discards[seat],
    )


def observation_from_proto(msg: game_pb2.Observation) -> EuropeObservation:
    obs = msg.caper_europe
    if len(obs.sides) != 2:
        raise CodecError(f"a Caper: Europe observation has 2 sides, this one has {len(obs.sides)}")
    if len(obs.locations) != 3:
        raise CodecError(
            f"a Caper: Europe observation has 3 Locations, this one has {len(obs.locations)}"
        )
    if any(len(side.crews) != len(obs.locations) for side in obs.sides):
        raise CodecError("each side of a Caper: Europe observation has one crew per Location")
    if obs.round_kind not in _ROUND_KIND_NAMES:
        raise CodecError(f"unknown Caper: Europe round kind {obs.round_kind}")
    first, second = obs.sides
    return EuropeObservation(
        seat=obs.seat,
        city=obs.city,
        locations=tuple(location.card for location in obs.locations),
        round=obs.round,
        round_kind=_ROUND_KIND_NAMES[obs.round_kind],
        first_player=obs.first_player,
        to_move=obs.to_move if obs.HasField("to_move") else -1,
        returning=obs.returning if obs.HasField("returning") else -1,
        hand=tuple(obs.hand),
        opponent_hand=tuple(obs.opponent_hand.cards) if obs.HasField("opponent_hand") else None,
        opponent_hand_size=obs.opponent_hand_size,
        crews=(_crews_from_proto(first), _crews_from_proto(second)),
        markers=tuple(location.marker for location in obs.locations),
        goods=tuple(_goods_from_proto(location.goods) for location in obs.locations),
        hq_goods=(
            _goods_from_proto(first.hq_goods),
            _goods_from_proto(second.hq_goods),
        ),
        coins=(first.coins, second.coins),
        hq_coins=(first.hq_coins, second.hq_coins),
        supply=obs.supply,
        discards=(tuple(first.discards), tuple(second.discards)),
        thief_deck_size=obs.thief_deck_size,
        gear_deck_size=obs.gear_deck_size,
    )


def _goods_from_proto(goods: caper_europe_pb2.CaperEuropeGoods) -> tuple[int, ...]:
    counts = {
        europe.Good.DIAMOND: goods.diamonds,
        europe.Good.PAINTING: goods.paintings,
        europe.Good.ANTIQUE: goods.antiques,
    }
    return tuple(counts[good] for good in europe.Good)


def _crews_from_proto(side: caper_europe_pb2.CaperEuropeSide) -> tuple[PublicCrew, ...]:
    return tuple(tuple((placed.card, placed.thief) for placed in crew.cards) for crew in side.crews)


def action_to_proto(action: europe.Action) -> game_pb2.Action:
    message = caper_europe_pb2.CaperEuropeAction(
        kind=_ACTION_KINDS[action.kind],
        card=action.card,
        location=None if action.location == NONE else action.location,
        thief=None if action.thief == NONE else action.thief,
        target=None if action.target == NONE else action.target,
        good=caper_europe_pb2.CAPER_EUROPE_GOOD_UNSPECIFIED
        if action.good == NONE
        else _GOODS[action.good],
    )
    return game_pb2.Action(caper_europe=message)


def action_from_proto(msg: game_pb2.Action) -> europe.Action:
    wire = msg.caper_europe
    kind = _ENGINE_KINDS.get(wire.kind)
    if kind is None:
        known = ", ".join(caper_europe_pb2.CaperEuropeActionKind.Name(v) for v in _ENGINE_KINDS)
        got = enum_label(caper_europe_pb2.CaperEuropeActionKind, wire.kind)
        raise InvalidActionError(f"the Caper: Europe action kind is {got}: expected one of {known}")
    good = NONE
    if wire.good != caper_europe_pb2.CAPER_EUROPE_GOOD_UNSPECIFIED:
        if wire.good not in _ENGINE_GOODS:
            got = enum_label(caper_europe_pb2.CaperEuropeGood, wire.good)
            raise InvalidActionError(
                f"the stolen good is {got}: expected DIAMOND, PAINTING or ANTIQUE"
            )
        good = _ENGINE_GOODS[wire.good]
    present = {
        name
        for name, is_set in (
            ("card", bool(wire.card)),
            ("location", wire.HasField("location")),
            ("thief", wire.HasField("thief")),
            ("target", wire.HasField("target")),
            ("good", good != NONE),
        )
        if is_set
    }
    required = _REQUIRED[kind]
    check_fields(
        kind.name,
        present,
        required,
        required | (_CHOICES if kind in _PLAYS else set()),
    )
    if wire.card and wire.card not in europe.CATALOGUE:
        raise InvalidActionError(f"unknown card {wire.card!r}")
    return europe.Action(
        kind,
        wire.card,
        wire.location if wire.HasField("location") else NONE,
        wire.thief if wire.HasField("thief") else NONE,
        wire.target if wire.HasField("target") else NONE,
        good,
    )
