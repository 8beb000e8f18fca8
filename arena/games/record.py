"""Game records: (game id, rules version, config, seed, actions) fully describe a game.

Replaying a record reproduces every state and the final result exactly, so a stored record is
both the replay file and the audit trail of a rated game.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena.games.api import Game, GameError, JsonValue, Result

RECORD_FORMAT = 1


class RecordError(GameError):
    """A game record is malformed, from another rules version, or does not replay."""


@dataclass(frozen=True, slots=True)
class GameRecord:
    game: str
    rules_version: int
    config: Mapping[str, str | int]
    seed: int
    actions: tuple[str, ...]
    players: tuple[str, ...] = ()
    termination: str = "normal"  # why the game ended: normal, forfeit, ...
    result: Mapping[str, JsonValue] | None = None
    meta: Mapping[str, JsonValue] = field(default_factory=dict)  # ids, timings: not replayed

    def to_json(self) -> dict[str, JsonValue]:
        return {
            "format": RECORD_FORMAT,
            "game": self.game,
            "rules_version": self.rules_version,
            "config": dict(self.config),
            "seed": self.seed,
            "players": list(self.players),
            "actions": list(self.actions),
            "termination": self.termination,
            "result": None if self.result is None else dict(self.result),
            "meta": dict(self.meta),
        }

    @classmethod
    def from_json(cls, data: object) -> GameRecord:
        """Read a record, checking every field's type; `RecordError` says which is wrong."""
        if not isinstance(data, dict):
            raise RecordError("a game record must be a JSON object")
        if data.get("format", RECORD_FORMAT) != RECORD_FORMAT:
            raise RecordError(f"unsupported record format {data.get('format')!r}")
        return cls(
            game=_field(data, "game", str),
            rules_version=_field(data, "rules_version", int),
            config=_config(_field(data, "config", dict)),
            seed=_field(data, "seed", int),
            actions=tuple(_strings(_field(data, "actions", list), "actions")),
            players=tuple(_strings(data.get("players", []), "players")),
            termination=_field(data, "termination", str, "normal"),
            result=_field(data, "result", dict, None),
            meta=_field(data, "meta", dict, {}),
        )

    def dumps(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False, sort_keys=True)

    @classmethod
    def loads(cls, text: str) -> GameRecord:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise RecordError(f"not valid JSON: {error}") from None
        return cls.from_json(data)

    @classmethod
    def load(cls, path: Path) -> GameRecord:
        try:
            return cls.loads(path.read_text(encoding="utf-8"))
        except OSError as error:
            raise RecordError(f"cannot read {path}: {error.strerror}") from None


_MISSING = object()


def _field(data: dict[str, Any], name: str, kind: type, default: Any = _MISSING) -> Any:
    value = data.get(name, default)
    if value is _MISSING:
        raise RecordError(f"game record has no {name!r}")
    if value is default:
        return value
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise RecordError(f"{name!r} must be {kind.__name__}, got {type(value).__name__}")
    return value


def _strings(values: object, name: str) -> list[str]:
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        raise RecordError(f"{name!r} must be a list of strings")
    return values


def _config(config: dict[str, Any]) -> dict[str, str | int]:
    for key, value in config.items():
        if not isinstance(value, str | int) or isinstance(value, bool):
            raise RecordError(f"config {key!r} must be a string or an integer")
    return config


def replay_states(record: GameRecord) -> Iterator[tuple[str | None, Any]]:
    """Yield (action text, state) from the initial state (action None) to the last.

    Raises `RecordError` if the record names another rules version or an action does not apply.
    """
    game = _game_for(record)
    try:
        state = game.create(record.config, record.seed)
    except GameError as error:
        raise RecordError(f"record cannot be set up: {error}") from None
    yield None, state
    for number, text in enumerate(record.actions, start=1):
        try:
            state = game.apply(state, game.parse_action(text))
        except GameError as error:
            raise RecordError(f"action {number} ({text!r}) does not replay: {error}") from None
        yield text, state


def replay(record: GameRecord) -> tuple[Any, Result | None]:
    """The final state and, for a finished game, its result, checked against the stored one."""
    game = _game_for(record)
    state: Any = None
    for _, state in replay_states(record):  # noqa: B007 - the last state is the one we want
        pass
    result = game.result(state) if game.is_terminal(state) else None
    if result is not None and record.result is not None and record.termination == "normal":
        stored = record.result.get("scores")
        if stored is not None and list(stored) != list(result.scores):
            raise RecordError(
                f"record says scores {stored}, the replay gives {list(result.scores)}"
            )
    return state, result


class ActionTexts:
    """`game.action_text` remembered per game, rules version and distinct action.

    An action's text depends on the action alone, and the same few actions recur in every game,
    so writing each game's record reuses the texts already written. Up to `kept` texts are held:
    a game has a few thousand distinct actions, and on reaching the bound the memory starts over,
    so it never grows without limit. Unhashable actions are written out every time.
    """

    def __init__(self, kept: int = 100_000) -> None:
        self.kept = kept
        self._texts: dict[tuple[str, int, Any], str] = {}

    def text(self, game: Game[Any, Any], action: Any) -> str:
        try:
            key = (game.id, game.rules_version, action)
            text = self._texts.get(key)
        except TypeError:  # an unhashable action
            return game.action_text(action)
        if text is None:
            if len(self._texts) >= self.kept:
                self._texts.clear()
            text = self._texts[key] = game.action_text(action)
        return text

    def __len__(self) -> int:
        return len(self._texts)


def _game_for(record: GameRecord) -> Any:
    from arena.games import get_game  # the registry imports every game; records need not

    try:
        game = get_game(record.game)
    except GameError as error:
        raise RecordError(str(error)) from None
    if record.rules_version != game.rules_version:
        raise RecordError(
            f"record is for {record.game} rules version {record.rules_version}, "
            f"this engine plays version {game.rules_version}"
        )
    return game


def outcome_text(result: Mapping[str, Any], players: Sequence[str]) -> str:
    """How a game ended, in words, from its result (`Result.to_json`): "greedy wins", both
    seats of a team ("ann and bob win"), "everyone lost" when an Age of Thieves game ends with
    no thief escaped (section 19: nobody wins, which is not a draw), else "drawn"."""
    details = result.get("details") or {}
    winners = details.get("winners", [result.get("winner")])
    named = list(dict.fromkeys(players[seat] for seat in winners if seat is not None))
    if named:
        return " and ".join(named) + (" wins" if len(named) == 1 else " win")
    return "everyone lost" if details.get("everyone_loses") else "drawn"
