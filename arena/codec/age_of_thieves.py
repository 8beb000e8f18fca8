"""Age of Thieves engine values ⇄ wire messages (`proto/arena/v1/age_of_thieves.proto`).

`arena.codec` registers these functions as the game's codec. An observation is the engine's
JSON-ready mapping (observation.py); it is rebuilt field by field in the engine's key order, so
that a round trip gives back an equal value. Malformed actions raise `InvalidActionError`,
observations that describe no engine value `CodecError`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from arena.codec.errors import CodecError
from arena.games.age_of_thieves.observation import AgeOfThievesObservation, _freeze
from arena.games.age_of_thieves.state import VERBS, Action, parse_action
from arena.games.api import InvalidActionError
from arena.v1 import age_of_thieves_pb2 as pb
from arena.v1 import game_pb2

_STATUS = {"calm": pb.AGE_OF_THIEVES_STATUS_CALM, "alarm": pb.AGE_OF_THIEVES_STATUS_ALARM}
_STATUS_NAMES = {value: name for name, value in _STATUS.items()}
_JEWELS = {
    "yellow": pb.AGE_OF_THIEVES_JEWEL_KIND_YELLOW,
    "green": pb.AGE_OF_THIEVES_JEWEL_KIND_GREEN,
    "ej": pb.AGE_OF_THIEVES_JEWEL_KIND_EMPERORS_JEWEL,
}
_JEWEL_NAMES = {value: name for name, value in _JEWELS.items()}
_CARD_STATUS = {
    "pending": pb.AGE_OF_THIEVES_CARD_STATUS_PENDING,
    "resolved": pb.AGE_OF_THIEVES_CARD_STATUS_RESOLVED,
    "declined": pb.AGE_OF_THIEVES_CARD_STATUS_DECLINED,
}
_CARD_STATUS_NAMES = {value: name for name, value in _CARD_STATUS.items()}
# Verb "plan" is AGE_OF_THIEVES_VERB_PLAN: the wire enum names every verb of the engine.
_VERBS: dict[str, pb.AgeOfThievesVerb.ValueType] = {
    verb: pb.AgeOfThievesVerb.Value(f"AGE_OF_THIEVES_VERB_{verb.upper()}") for verb in VERBS
}
_VERB_NAMES = {value: verb for verb, value in _VERBS.items()}
# Plain fields of the observation, copied as they are, in groups between the structured ones.
_HEAD = ("seat", "players", "round")
_TABLE = ("first_player", "event", "guard_initiative", "escape_district", "alarm_next_round",
          "closed_exit")  # fmt: skip
_FIGURES = ("guards", "captains", "guard_supply", "captain_supply")
_SUPPLY = ("yellow_supply", "green_supply", "face_down_tiles")
_EFFECTS = ("fire", "smoke", "bribed", "trapped_guards", "action_deck", "discard",
            "calm_events_left", "alarm_events_left", "events_seen")  # fmt: skip
_TAIL = ("actions_done", "district_deck")
_FLAGS = ("first_player_orders_guards", "specials")
_SHEET = ("emperors_jewel", "best_thief", "green", "yellow", "trinkets", "informers",
          "guild_agents", "pockets", "vp")  # fmt: skip
_THIEF_HEAD = ("thief", "space", "in_dungeon")
_THIEF_ROUND = ("resolved", "exclusive", "arrested", "hidden", "protected", "trapped",
                "theft_marker", "robbed", "blue_ap", "red_ap")  # fmt: skip
_THIEF_NEXT = ("planned", "jailed", "cloak", "free_hidden", "purple_next", "draws_next",
               "bola_next")  # fmt: skip


# --- observations -------------------------------------------------------------------------------


def observation_to_proto(obs: AgeOfThievesObservation) -> game_pb2.Observation:
    data = obs.to_json()
    winner, to_move = data["winner"], data["to_move"]
    message = pb.AgeOfThievesObservation(
        **_pick(data, _HEAD + _TABLE + _FIGURES + _SUPPLY + _EFFECTS + _TAIL + _FLAGS),
        status=_STATUS[data["status"]],
        to_move=None if to_move < 0 else to_move,
        decision=data["decision"],
        options=data["options"],
        hand=data["hand"],
        plan=[_planned_to_proto(p) for p in data["plan"]],
        peeks=[pb.AgeOfThievesPeek(space=space, tile=tile) for space, tile in data["peeks"]],
        thieves=[_thief_to_proto(t) for t in data["thieves"]],
        jewels=[pb.AgeOfThievesJewel(space=s, kind=_JEWELS[k]) for s, k in data["jewels"]],
        open_tiles=[pb.AgeOfThievesOpenTile(space=s, tile=t) for s, t in data["open_tiles"]],
        turns_left=[_turn_to_proto(turn) for turn in data["turns_left"]],
        over=data["over"],
        winner=None if winner < 0 else winner,
        reason=data["reason"],
        tasks=[_task_to_proto(task) for task in data["tasks"]],
        prompt_task=_task_to_proto(data["prompt_task"]) if data["prompt_task"] else None,
    )
    return game_pb2.Observation(age_of_thieves=message)


def _pick(data: Mapping[str, Any], names: Sequence[str]) -> dict[str, Any]:
    return {name: data[name] for name in names}


def _planned_to_proto(planned: Mapping[str, Any]) -> pb.AgeOfThievesPlannedCard:
    return pb.AgeOfThievesPlannedCard(
        card=planned["card"],
        ap=planned["ap"],
        under=planned["under"],
        status=_CARD_STATUS[planned["status"]],
    )


def _thief_to_proto(thief: Mapping[str, Any]) -> pb.AgeOfThievesThief:
    spent = thief["spent"]
    return pb.AgeOfThievesThief(
        **_pick(thief, (*_THIEF_HEAD, "exit", "hand_size", *_THIEF_ROUND, *_THIEF_NEXT)),
        escaped_round=thief["escaped"][0],
        escaped_index=thief["escaped"][1],
        sheet=pb.AgeOfThievesSheet(**_pick(thief["sheet"], _SHEET)),
        plan=[_planned_to_proto(p) for p in thief["plan"]],
        pool=thief["pool"],
        spent=None if spent is None else pb.AgeOfThievesSpent(informers=spent[0],
                                                              guild_agents=spent[1]),
    )  # fmt: skip


def _turn_to_proto(turn: Sequence[Any]) -> pb.AgeOfThievesTurn:
    who, n = turn
    if who == "guards":
        return pb.AgeOfThievesTurn(guards=True, n=n)
    return pb.AgeOfThievesTurn(seat=who, n=n)


def _task_to_proto(task: Sequence[Any]) -> pb.AgeOfThievesTask:
    name, seat, arg, n = task
    return pb.AgeOfThievesTask(name=name, seat=seat, arg=arg, n=n)


def observation_from_proto(msg: game_pb2.Observation) -> AgeOfThievesObservation:
    obs = msg.age_of_thieves
    if obs.players not in (2, 3, 4):
        raise CodecError(f"Age of Thieves has 2, 3 or 4 players, this observation {obs.players}")
    if len(obs.thieves) != obs.players:
        raise CodecError(
            f"an Age of Thieves observation has one thief per player ({obs.players}), "
            f"this one has {len(obs.thieves)}"
        )
    if obs.seat >= obs.players:
        raise CodecError(f"seat {obs.seat} is not one of the {obs.players} seats")
    data: dict[str, Any] = {
        **_copy(obs, _HEAD),
        "status": _enum(_STATUS_NAMES, obs.status, "guard status"),
        **_copy(obs, _TABLE),
        "to_move": obs.to_move if obs.HasField("to_move") else -1,
        "decision": obs.decision,
        "options": list(obs.options),
        "hand": list(obs.hand),
        "plan": [_planned_from_proto(p) for p in obs.plan],
        "peeks": [[p.space, p.tile] for p in obs.peeks],
        "thieves": [_thief_from_proto(t) for t in obs.thieves],
        **_copy(obs, _FIGURES),
        "jewels": [[j.space, _enum(_JEWEL_NAMES, j.kind, "jewel kind")] for j in obs.jewels],
        **_copy(obs, _SUPPLY),
        "open_tiles": [[t.space, t.tile] for t in obs.open_tiles],
        **_copy(obs, _EFFECTS),
        "turns_left": [["guards" if t.guards else t.seat, t.n] for t in obs.turns_left],
        "over": obs.over,
        "winner": obs.winner if obs.HasField("winner") else -1,
        "reason": obs.reason,
        **_copy(obs, _TAIL),
        "tasks": [_task_from_proto(t) for t in obs.tasks],
        "prompt_task": _task_from_proto(obs.prompt_task) if obs.HasField("prompt_task") else [],
        **_copy(obs, _FLAGS),
    }
    return AgeOfThievesObservation(obs.seat, _freeze(data))


def _copy(message: Any, names: Sequence[str]) -> dict[str, Any]:
    """The named fields of `message`, repeated ones as lists (the engine's JSON form)."""
    copied: dict[str, Any] = {}
    for name in names:
        value = getattr(message, name)
        copied[name] = value if isinstance(value, bool | int | str) else list(value)
    return copied


def _enum(names: Mapping[Any, str], value: int, what: str) -> str:
    try:
        return names[value]
    except KeyError:
        raise CodecError(f"unknown Age of Thieves {what} {value}") from None


def _planned_from_proto(planned: pb.AgeOfThievesPlannedCard) -> dict[str, Any]:
    return {
        "card": planned.card,
        "ap": planned.ap,
        "under": planned.under,
        "status": _enum(_CARD_STATUS_NAMES, planned.status, "card status"),
    }


def _thief_from_proto(thief: pb.AgeOfThievesThief) -> dict[str, Any]:
    spent = thief.spent if thief.HasField("spent") else None
    return {
        **_copy(thief, _THIEF_HEAD),
        "escaped": [thief.escaped_round, thief.escaped_index],
        "exit": thief.exit,
        "sheet": _copy(thief.sheet, _SHEET),
        "hand_size": thief.hand_size,
        "plan": [_planned_from_proto(p) for p in thief.plan],
        **_copy(thief, _THIEF_ROUND),
        "pool": thief.pool if thief.HasField("pool") else None,
        "spent": None if spent is None else [spent.informers, spent.guild_agents],
        **_copy(thief, _THIEF_NEXT),
    }


def _task_from_proto(task: pb.AgeOfThievesTask) -> list[Any]:
    return [task.name, task.seat, task.arg, task.n]


# --- actions ------------------------------------------------------------------------------------


def action_to_proto(action: Action) -> game_pb2.Action:
    wire = pb.AgeOfThievesAction(verb=_VERBS[action.kind], arg=action.arg)
    return game_pb2.Action(age_of_thieves=wire)


def action_from_proto(msg: game_pb2.Action) -> Action:
    wire = msg.age_of_thieves
    verb = _VERB_NAMES.get(wire.verb)
    if verb is None:
        try:
            got = pb.AgeOfThievesVerb.Name(wire.verb)
        except ValueError:  # proto3 enums are open: a newer peer may send a number we do not know
            got = f"{wire.verb} (unknown)"
        raise InvalidActionError(f"the Age of Thieves verb is {got}: set one of the verbs listed")
    if wire.arg != wire.arg.strip() or " " in wire.arg:
        raise InvalidActionError(f"an Age of Thieves argument has no spaces, got {wire.arg!r}")
    return parse_action(f"{verb} {wire.arg}" if wire.arg else verb)  # the engine's own checks
