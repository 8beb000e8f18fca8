"""The pieces of every step of an Age of Thieves replay, placed on the drawn city (`aot_svg`).

Pure: a function of the frames' views (each one seat's observation, or the "all" view), never of
the engine's state, so a seat's pieces hold only what that seat sees: a face-down city tile is a
"?" unless that seat has peeked at it. Each piece keeps one id over the whole game (thief by
seat; guards, captains and jewels followed from step to step, the nearest to where one was
taking its id), so the page can slide it to its new space. Pieces sharing a space stand on
slots around its centre. A step also carries the mover's path (the spaces his thief crossed in
the movement this step ends) and a line for every other figure that changed space.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from arena.games.age_of_thieves import Board, catalogue, components
from arena.web.aot_layout import Layout

SLOT_RADIUS = 12.0  # pieces sharing a space stand this far from its centre
FIGURES = ("thief", "guard", "captain")
SHORT_TILE = {  # the two letters a tile shows, for tiles whose initials say little
    "informer": "In",
    "trinket": "Tr",
    "manhole": "Mh",
    "ladder": "La",
    "back_of_hand": "BH",
}
JEWEL_WORDS = {"yellow": "yellow jewel", "green": "green jewel", "ej": "the Emperor's Jewel"}
Piece = dict[str, Any]
# A piece as the page gets it: a list in this order, the keys said once here, not per piece.
PACKED = ("id", "kind", "space", "x", "y", "label", "cls", "title")


@cache
def _tile_names() -> dict[str, str]:
    return {tile.id: tile.name for tile in components().city_tiles}


@cache
def _thief_names() -> dict[str, str]:
    return {thief.id: thief.name for thief in catalogue().thieves}


def tile_label(kind: str) -> str:
    if kind in SHORT_TILE:
        return SHORT_TILE[kind]
    words = _tile_names().get(kind, kind).replace("-", " ").split()
    return "".join(word[0] for word in words[:2]).upper()


@dataclass(slots=True)
class _Follow:
    """Ids of look-alike figures (guards, captains, jewels of a kind) from step to step."""

    board: Board
    kind: str
    where: dict[str, str] = field(default_factory=dict)  # id -> space
    made: int = 0

    def step(self, spaces: Sequence[str]) -> dict[str, str]:
        left = Counter(spaces)
        kept: dict[str, str] = {}
        for id, space in self.where.items():  # a figure still on its space keeps its id
            if left[space] > 0:
                kept[id], left[space] = space, left[space] - 1
        new = sorted(left.elements())
        for id, space in self.where.items():  # a moved one: the nearest space left
            if id in kept or not new:
                continue
            nearest = min(new, key=lambda s: (self._distance(space, s), s))
            kept[id] = nearest
            new.remove(nearest)
        for space in new:
            kept[f"{self.kind}-{self.made}"] = space
            self.made += 1
        self.where = kept
        return kept

    def _distance(self, a: str, b: str) -> int:
        found = self.board.distance(a, b)
        return found if found >= 0 else 10_000


@dataclass(slots=True)
class _Pieces:
    layout: Layout
    follows: dict[str, _Follow] = field(default_factory=dict)

    def follow(self, kind: str, spaces: Sequence[str]) -> dict[str, str]:
        if kind not in self.follows:
            self.follows[kind] = _Follow(self.layout.board, kind)
        return self.follows[kind].step(spaces)


def board_frames(
    layout: Layout,
    views: Sequence[Mapping[str, Any]],
    movers: Sequence[int | None],
    actions: Sequence[str | None],
) -> list[dict[str, Any]]:
    """For each view in order: its pieces, the mover's path and the other figures' moves."""
    state = _Pieces(layout)
    placed = [_placed(layout, _pieces(state, view)) for view in views]
    stepped = [_stepped_to(layout, action) for action in actions]
    frames = []
    for step, pieces in enumerate(placed):
        trail = _trail(layout, placed, movers, stepped, step)
        moved = _moved(layout, placed, movers, step)
        frames.append({"pieces": pieces, "trail": trail, "moved": moved})
    return frames


def packed(board: Mapping[str, Any]) -> dict[str, Any]:
    """A frame's board for the page: each piece as a list in PACKED's order."""
    pieces = [[piece[key] for key in PACKED] for piece in board["pieces"]]
    return {**board, "pieces": pieces}


def _pieces(state: _Pieces, view: Mapping[str, Any]) -> list[Piece]:
    found: list[Piece] = []
    found += _tiles(view)
    for kind in ("yellow", "green", "ej"):
        spaces = [space for space, jewel in view.get("jewels", []) if jewel == kind]
        for id, space in state.follow(f"jewel-{kind}", spaces).items():
            found.append(_piece(id, "jewel", space, "EJ" if kind == "ej" else "", kind))
            found[-1]["title"] = f"{JEWEL_WORDS.get(kind, kind)} on {space}"
    bribed, trapped = set(view.get("bribed", [])), set(view.get("trapped_guards", []))
    for kind in ("captain", "guard"):
        for id, space in state.follow(kind, view.get(f"{kind}s", [])).items():
            marks = [m for m, on in (("bribed", bribed), ("trapped", trapped)) if space in on]
            piece = _piece(id, kind, space, "C" if kind == "captain" else "", " ".join(marks))
            piece["title"] = ", ".join([f"{kind} on {space}", *marks]) if marks else ""
            found.append(piece)
    found += _thieves(view)
    for kind in ("fire", "smoke"):
        for space in view.get(kind, []):
            found.append(_piece(f"{kind}-{space}", kind, space, "", ""))
    return found


def _piece(id: str, kind: str, space: str, label: str, cls: str) -> Piece:
    """A piece; its title stays "" where the page's own ("guard on N34") says it all."""
    return {"id": id, "kind": kind, "space": space, "label": label, "cls": cls, "title": ""}


def _tiles(view: Mapping[str, Any]) -> list[Piece]:
    """Face-down tiles as "?" (their kind only where this view has peeked), open ones named."""
    peeked = dict(view.get("peeks", []))
    names, found = _tile_names(), []
    for space in view.get("face_down_tiles", []):
        kind = peeked.get(space)
        piece = _piece(f"tile-{space}", "tile", space, "?", "face-down")
        if kind is not None:
            piece["label"] = tile_label(kind)
            piece["title"] = (
                f"a face-down city tile on {space}: {names.get(kind, kind)} (peeked at)"
            )
        found.append(piece)
    for space, kind in view.get("open_tiles", []):
        piece = _piece(f"tile-{space}", "tile", space, tile_label(kind), "open")
        piece["title"] = f"{names.get(kind, kind)} on {space}"
        found.append(piece)
    return found


def _thieves(view: Mapping[str, Any]) -> list[Piece]:
    found = []
    for seat, thief in enumerate(view.get("thieves", [])):
        space = thief.get("space") or thief.get("exit") or ""
        if not space:  # not on the board yet: his start field is still to choose
            continue
        state = [
            word
            for word, on in (
                ("in the dungeon", thief.get("in_dungeon")),
                ("hidden", thief.get("hidden")),
                ("escaped", not thief.get("space")),
            )
            if on
        ]
        name = _thief_names().get(thief.get("thief", ""), thief.get("thief", ""))
        cls = " ".join([f"seat-{seat}", *(w.split()[-1] for w in state)])
        piece = _piece(f"thief-{seat}", "thief", space, str(seat), cls)
        piece["title"] = ", ".join([f"{name} (seat {seat}) on {space}", *state])
        found.append(piece)
    return found


def _placed(layout: Layout, pieces: list[Piece]) -> list[Piece]:
    """Each piece's point: the space's centre, or a slot around it when others share it."""
    sharing: dict[str, list[Piece]] = {}
    for piece in pieces:
        if piece["space"] not in layout.points:
            continue  # a space this board lacks: nothing to draw it on
        x, y = layout.at(piece["space"])
        piece["x"], piece["y"] = x, y
        if piece["kind"] not in ("fire", "smoke"):
            sharing.setdefault(piece["space"], []).append(piece)
    for together in sharing.values():
        if len(together) < 2:
            continue
        for i, piece in enumerate(together):
            angle = math.radians(-90.0 + 360.0 * i / len(together))
            piece["x"] = round(piece["x"] + SLOT_RADIUS * math.cos(angle), 1)
            piece["y"] = round(piece["y"] + SLOT_RADIUS * math.sin(angle), 1)
    return [piece for piece in pieces if "x" in piece]


def _spaces(pieces: list[Piece]) -> dict[str, str]:
    return {p["id"]: p["space"] for p in pieces if p["kind"] in FIGURES}


def _stepped_to(layout: Layout, action: str | None) -> str | None:
    """The space a "step X" decision walks onto (where he was caught, if he went on to the
    dungeon from there)."""
    words = (action or "").split()
    if len(words) == 2 and words[0] == "step" and words[1] in layout.points:
        return words[1]
    return None


def _trail(
    layout: Layout,
    placed: list[list[Piece]],
    movers: Sequence[int | None],
    stepped: Sequence[str | None],
    step: int,
) -> list[tuple[float, float]]:
    """The spaces the mover's thief crossed in the moves he made in a row up to `step`."""
    mover = movers[step]
    if mover is None:
        return []
    id = f"thief-{mover}"
    path: list[str] = []
    at = step
    while at > 0 and movers[at] == mover:
        now, before = _spaces(placed[at]).get(id), _spaces(placed[at - 1]).get(id)
        if now is None or before is None or now == before:
            break
        onto = stepped[at]
        path = ([onto] if onto is not None and onto != now else []) + [now, *path]
        at -= 1
    if not path:
        return []
    first = _spaces(placed[at]).get(id)
    return [layout.at(space) for space in ([first] if first else []) + path]


def _moved(
    layout: Layout, placed: list[list[Piece]], movers: Sequence[int | None], step: int
) -> list[tuple[float, float, float, float]]:
    """A line from where each other figure stood one step before to where it stands now."""
    if step == 0:
        return []
    before, now = _spaces(placed[step - 1]), _spaces(placed[step])
    lines = []
    for id, space in now.items():
        was = before.get(id)
        if was is None or was == space or id == f"thief-{movers[step]}":
            continue
        (x1, y1), (x2, y2) = layout.at(was), layout.at(space)
        lines.append((x1, y1, x2, y2))
    return lines


__all__ = ["PACKED", "board_frames", "packed", "tile_label"]
