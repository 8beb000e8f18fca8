"""The replay viewer's view model: a finished game record turned into one frame per step.

Pure: no Redis, no web framework. The engine replays the record (`replay_states`); every frame
holds what one viewer may see at that step. A seat's frame is built from the engine's own
observation for that seat (`Game.observation`, which never holds another seat's hidden cards)
and the moves as that seat saw them (`action_seen_by`: a hidden pass stays hidden). The "all"
view adds every seat's own hand, for a finished game whose deals are all over (the access rule
is `arena.services.game_access`'s business, not this module's).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from arena.games import get_game
from arena.games.action_words import action_words
from arena.games.api import Game, GameError, JsonValue
from arena.games.record import GameRecord, RecordError, replay_states
from arena.referee.seats import layout
from arena.web.aot_layout import safe_layout
from arena.web.aot_pieces import board_frames, packed

ALL = None  # the viewer who sees every seat

# Age of Thieves observations carry the whole public state (for bots that rebuild one); the
# viewer's summary needs these fields only, which keeps a 200-move page small.
AOT_FIELDS = (
    "seat", "players", "round", "status", "first_player", "event", "guard_initiative",
    "escape_district", "alarm_next_round", "closed_exit", "to_move", "decision", "hand", "plan",
    "thieves", "guards", "captains", "guard_supply", "captain_supply", "jewels", "yellow_supply",
    "green_supply", "fire", "smoke", "action_deck", "discard", "calm_events_left",
    "alarm_events_left", "over", "winner", "reason", "face_down_tiles", "open_tiles", "peeks",
    "bribed", "trapped_guards",
)  # fmt: skip


class ViewerError(ValueError):
    """The viewer asked for is not a seat of this game (nor "all")."""


@dataclass(frozen=True, slots=True)
class Frame:
    """One step: the state after `action` (None for the deal), as the viewer sees it."""

    step: int
    action: str | None  # as the viewer saw it
    words: str | None  # the same, cards named as people read them (`action_words`)
    mover: int | None  # the seat that took `action`
    to_move: int | None  # the seat to act next; None once the game is over
    view: dict[str, JsonValue]  # the observation (a seat) or every seat's composite ("all")
    text: str  # the engine's own text rendering of the same view
    scores: tuple[int, ...] | None  # the result, at the final frame of a finished game
    board: dict[str, Any] | None = None  # Age of Thieves: the pieces on the city (`aot_pieces`)

    def to_json(self) -> dict[str, JsonValue]:
        found: dict[str, JsonValue] = {
            "step": self.step,
            "action": self.action,
            "words": self.words,
            "mover": self.mover,
            "to_move": self.to_move,
            "view": self.view,
            "text": self.text,
            "scores": None if self.scores is None else list(self.scores),
        }
        if self.board is not None:
            found["board"] = packed(self.board)
        return found


@dataclass(frozen=True, slots=True)
class Replay:
    game: str
    game_name: str
    config: Mapping[str, str | int]
    players: tuple[str, ...]  # per seat
    roles: tuple[str, ...]  # per seat: "cream mastermind", "snitch"; "" for a plain player
    viewer: int | None  # a seat, or ALL
    frames: tuple[Frame, ...]
    termination: str
    result: Mapping[str, JsonValue] | None  # as stored: a forfeit's result is the referee's

    @property
    def moves(self) -> int:
        return len(self.frames) - 1

    def to_json(self) -> dict[str, JsonValue]:
        return {
            "game": self.game,
            "game_name": self.game_name,
            "config": dict(self.config),
            "players": list(self.players),
            "roles": list(self.roles),
            "viewer": "all" if self.viewer is ALL else self.viewer,
            "moves": self.moves,
            "termination": self.termination,
            "result": None if self.result is None else dict(self.result),
            "frames": [frame.to_json() for frame in self.frames],
        }


def parse_viewer(text: str | None, seats: int) -> int | None:
    """`all` (or nothing) for every seat, else a seat number below `seats`."""
    if text is None or text == "all":
        return ALL
    if not text.isdigit() or int(text) >= seats:
        raise ViewerError(f"seat must be 'all' or a number from 0 to {seats - 1}, not {text!r}")
    return int(text)


def seat_count(record: GameRecord) -> int:
    """How many seats play the game of `record`; `RecordError` for an unknown game or config."""
    try:
        return layout(get_game(record.game), record.config).seat_count
    except GameError as error:
        raise RecordError(str(error)) from None


def build_replay(record: GameRecord, viewer: int | None) -> Replay:
    """Every frame of `record` seen by `viewer`; `RecordError` if the record does not replay,
    `ViewerError` if `viewer` is no seat of it."""
    seats = seat_count(record)
    if viewer is not ALL and not 0 <= viewer < seats:
        raise ViewerError(f"this game has seats 0 to {seats - 1}, not {viewer}")
    game = get_game(record.game)
    frames: list[Frame] = []
    previous: Any = None
    for step, (text, state) in enumerate(replay_states(record)):
        mover = None if previous is None else game.current_player(previous)
        action = None if text is None else _seen(game, previous, text, viewer)
        frames.append(_frame(game, state, step, action, mover, viewer, seats))
        previous = state
    if game.id == "age-of-thieves":
        frames = _with_board(record, frames)
    players = record.players or tuple(f"seat {seat}" for seat in range(seats))
    return Replay(
        record.game, game.name, record.config, players, roles(record), viewer, tuple(frames),
        record.termination, record.result,
    )  # fmt: skip


def _with_board(record: GameRecord, frames: list[Frame]) -> list[Frame]:
    """The frames with their pieces on the city, if this viewer knows the game's board."""
    drawn = safe_layout(record.config)
    if drawn is None:
        return frames
    views = [frame.view for frame in frames]
    movers, actions = [f.mover for f in frames], [f.action for f in frames]
    boards = board_frames(drawn, views, movers, actions)
    return [replace(frame, board=board) for frame, board in zip(frames, boards, strict=True)]


def text_at(record: GameRecord, viewer: int | None, step: int) -> str:
    """The engine's own text rendering of step `step` (0 is the deal) seen by `viewer`, as the
    frame of that step holds it; `ViewerError` for a step or seat the game does not have."""
    seats = seat_count(record)
    if viewer is not ALL and not 0 <= viewer < seats:
        raise ViewerError(f"this game has seats 0 to {seats - 1}, not {viewer}")
    if not 0 <= step <= len(record.actions):
        raise ViewerError(f"step must be a number from 0 to {len(record.actions)}, not {step}")
    game = get_game(record.game)
    for at, (_, state) in enumerate(replay_states(record)):
        if at == step:
            return game.render(state, viewer)
    raise RecordError(f"the record stops before step {step}")


def roles(record: GameRecord) -> tuple[str, ...]:
    """Each seat's team and role as people call it; "" where a seat is a plain player."""
    names = []
    for role in layout(get_game(record.game), record.config).roles:
        name = role.role if role.role != "player" else ""
        names.append(f"{role.team} {name}".strip() if name else role.team)
    return tuple(names)


def _seen(game: Game[Any, Any], before: Any, text: str, viewer: int | None) -> str:
    seen_by: Callable[[Any, Any, int], str] | None = getattr(game, "action_seen_by", None)
    if viewer is ALL or seen_by is None:
        return text
    return seen_by(before, game.parse_action(text), viewer)


def _frame(
    game: Game[Any, Any],
    state: Any,
    step: int,
    action: str | None,
    mover: int | None,
    viewer: int | None,
    seats: int,
) -> Frame:
    over = game.is_terminal(state)
    return Frame(
        step=step,
        action=action,
        words=None if action is None else action_words(game.id, action),
        mover=mover,
        to_move=game.current_player(state),
        view=view_of(game, state, viewer, seats),
        text=game.render(state, viewer),
        scores=tuple(game.result(state).scores) if over else None,
    )


def view_of(game: Game[Any, Any], state: Any, viewer: int | None, seats: int) -> dict[str, Any]:
    """The viewer's observation; for "all", seat 0's with every seat's own hand (and, in Age of
    Thieves, every thief as its own seat sees him: plans included)."""
    if viewer is not ALL:
        return _trimmed(game, game.observation(state, viewer).to_json())
    views = [game.observation(state, seat).to_json() for seat in range(seats)]
    view = dict(views[0])
    view["hands"] = [seen["hand"] for seen in views]
    if "thieves" in view:
        view["thieves"] = [seen["thieves"][seat] for seat, seen in enumerate(views)]
        peeks = {(space, kind) for seen in views for space, kind in seen["peeks"]}
        view["peeks"] = [list(peek) for peek in sorted(peeks)]
    return _trimmed(game, view)


def _trimmed(game: Game[Any, Any], view: dict[str, Any]) -> dict[str, Any]:
    if game.id != "age-of-thieves":
        return view
    return {key: view[key] for key in (*AOT_FIELDS, "hands") if key in view}
