"""The city of an Age of Thieves game as an SVG drawing: districts, paths, spaces with what the
board prints on them (guardhouses, sewers, hideouts, alarm spaces, start fields, the treasury),
dungeons and exits, and the empty layers the replay viewer puts the figures on.

A pure function of the board (public data, the same for every seat): the page embeds it once
and its script moves the pieces of each step (`aot_pieces`) over it. Every text in it is
escaped here; the figures' shapes are symbols in its `<defs>`, drawn with `<use>`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from functools import cache
from html import escape

from arena.games.age_of_thieves import OUTER, District, Feature, Node, NodeKind, districts
from arena.games.age_of_thieves.hadria import CURRENT_BOARD
from arena.games.api import ConfigError
from arena.web.aot_layout import (
    CENTRE,
    PALACE_RADIUS,
    SIZE,
    WALL,
    Layout,
    board_version,
    district_arc,
    layout_of,
    polar,
    ring_radius,
)

SPACE_RADIUS = 15.0
LABEL_RADIUS = 492.0  # the district names, outside the wall between the two exits

# What a printed feature is called, for the spaces' tooltips and the legend (board legend, §3).
FEATURE_WORDS = {
    Feature.GUARDHOUSE: "guardhouse",
    Feature.SWORD_GUARDHOUSE: "guardhouse with swords (a guard starts here)",
    Feature.IMPERIAL_GUARDHOUSE: "imperial guardhouse",
    Feature.SEWER_ENTRANCE: "sewer entrance",
    Feature.SEWER_EXIT: "sewer exit",
    Feature.HIDEOUT: "hideout",
    Feature.GUARD_ALARM: "guard alarm space",
    Feature.CAPTAIN_ALARM: "captain alarm space",
    Feature.START: "start field",
    Feature.GREEN_JEWEL: "green jewel field",
    Feature.TREASURY: "treasury (the Emperor's Jewel starts here)",
}

_SYMBOLS = """<defs>
<symbol id="sym-thief" viewBox="-10 -12 20 24" overflow="visible"><circle cy="-5" r="6"/>\
<path d="M-9 11 C-9 0 -5 -1 0 -1 C5 -1 9 0 9 11 Z"/></symbol>
<symbol id="sym-guard" viewBox="-9 -10 18 20" overflow="visible">\
<path d="M0 -10 L9 -6 L8 3 C6 8 3 9 0 10 C-3 9 -6 8 -8 3 L-9 -6 Z"/></symbol>
<symbol id="sym-captain" viewBox="-11 -12 22 24" overflow="visible">\
<path d="M0 -12 L11 -7 L10 4 C8 9 4 11 0 12 C-4 11 -8 9 -10 4 L-11 -7 Z"/></symbol>
<symbol id="sym-jewel" viewBox="-8 -8 16 16" overflow="visible">\
<path d="M0 -8 L8 0 L0 8 L-8 0 Z"/></symbol>
<symbol id="sym-tile" viewBox="-8 -8 16 16" overflow="visible">\
<rect x="-8" y="-8" width="16" height="16" rx="2"/></symbol>
<symbol id="sym-fire" viewBox="-20 -20 40 40" overflow="visible">\
<path d="M0 -20 C8 -10 18 -6 16 6 C14 16 6 20 0 20 C-6 20 -14 16 -16 6 \
C-18 -6 -8 -10 0 -20 Z"/></symbol>
<symbol id="sym-smoke" viewBox="-22 -22 44 44" overflow="visible">\
<path d="M-14 8 C-24 8 -24 -6 -12 -6 C-12 -18 6 -20 8 -8 C20 -12 24 4 14 8 Z"/></symbol>
<marker id="arrow" viewBox="0 0 10 10" refX="7" refY="5" markerWidth="5" markerHeight="5" \
orient="auto-start-reverse"><path d="M0 0 L10 5 L0 10 Z" fill="#333"/></marker>
</defs>"""


def city_of(game_id: str, config: Mapping[str, object]) -> str:
    """The drawing for a game page: "" unless an Age of Thieves game on a board known here."""
    if game_id != "age-of-thieves":
        return ""
    try:
        return board_svg(board_version(config))
    except ConfigError:
        return ""


def legend() -> str:
    """What the marks on the city mean, each beside a small copy of its mark."""
    items = [
        ("space", "circle", "a space"),
        ("guardhouse", "rect", "guardhouse"),
        ("sword_guardhouse", "rect", "guardhouse with swords"),
        ("imperial_guardhouse", "rect", "imperial guardhouse"),
        ("sewer_entrance", "circle", "sewer entrance"),
        ("sewer_exit", "circle", "sewer exit"),
        ("hideout", "circle", "hideout"),
        ("guard_alarm", "circle", "guard alarm"),
        ("captain_alarm", "circle", "captain alarm"),
        ("start", "circle", "start field"),
        ("green_jewel", "circle", "green jewel field"),
        ("treasury", "circle", "treasury"),
    ]
    shapes = {
        "circle": '<circle cx="20" cy="20" r="15"/>',
        "rect": '<rect x="5" y="5" width="30" height="30" rx="4"/>',
    }
    marks = [
        f'<li><svg class="city" viewBox="0 0 40 40" aria-hidden="true"><g class="space {cls}">'
        f"{shapes[shape]}</g></svg>{escape(words)}</li>"
        for cls, shape, words in items
    ]
    pieces = [
        ("k-thief seat-0", "thief", "a thief (seat colour; faint: hidden)"),
        ("k-guard", "guard", "guard"),
        ("k-captain", "captain", "captain"),
        ("k-jewel yellow", "jewel", "jewels: yellow, green, the Emperor's"),
        ("k-tile face-down", "tile", "city tile"),
        ("k-fire", "fire", "fire"),
        ("k-smoke", "smoke", "smoke"),
    ]
    marks += [
        f'<li><svg class="city" viewBox="-12 -12 24 24" aria-hidden="true"><g class="piece {cls}">'
        f'<use href="#sym-{kind}" x="-10" y="-10" width="20" height="20" fill="currentColor"/>'
        f"</g></svg>{escape(words)}</li>"
        for cls, kind, words in pieces
    ]
    marks.append(
        '<li><svg class="city" viewBox="0 0 40 40" aria-hidden="true"><line class="path" x1="2" '
        'y1="20" x2="38" y2="20"/><line class="border-mark" x1="20" y1="10" x2="20" y2="30"/>'
        "</svg>a path across a district border</li>"
    )
    return '<ul class="aot-legend" id="city-legend">' + "".join(marks) + "</ul>"


def board_svg(version: str = CURRENT_BOARD) -> str:
    """The drawing of board `version` (a `ConfigError` for an unknown one)."""
    return _board_svg(version)


@cache
def _board_svg(version: str) -> str:
    drawn = layout_of(version)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" id="city" class="city" '
        f'viewBox="0 0 {SIZE:g} {SIZE:g}" role="img" '
        f'aria-labelledby="city-title" data-board="{escape(version)}">',
        f'<title id="city-title">The city of {escape(drawn.board.name)}</title>',
        _SYMBOLS,
        '<g id="districts">',
        *_districts(drawn),
        "</g>",
        '<g id="paths">',
        *(_path(drawn, a, b) for a, b in drawn.board.edges),
        "</g>",
        '<g id="spaces">',
        *(_space(drawn, node) for node in drawn.board.nodes),
        "</g>",
        '<g id="overlays"></g>',
        '<g id="moves"></g>',
        '<polyline id="trail" points="" marker-end="url(#arrow)"></polyline>',
        '<g id="pieces"></g>',
        "</svg>",
    ]
    return "\n".join(parts)


def _districts(drawn: Layout) -> list[str]:
    names = {info.id: info.name for info in districts()}
    outer_edge = WALL
    inner_edge = ring_radius(drawn.rings[0] - 0.5, drawn.rings)
    shapes = [f'<circle class="wall" cx="{CENTRE:g}" cy="{CENTRE:g}" r="{WALL + 6:g}"/>']
    for district in OUTER:
        start, end = district_arc(district)
        a, b = polar(start, outer_edge), polar(end, outer_edge)
        c, d = polar(end, inner_edge), polar(start, inner_edge)
        shapes.append(
            f'<path class="district d-{district.value}" d="M{a[0]} {a[1]} '
            f"A{outer_edge:g} {outer_edge:g} 0 0 1 {b[0]} {b[1]} L{c[0]} {c[1]} "
            f'A{inner_edge:g} {inner_edge:g} 0 0 0 {d[0]} {d[1]} Z"/>'
        )
        shapes.append(_district_name(district, names.get(district, district.value)))
    shapes.append(
        f'<circle class="district d-P" cx="{CENTRE:g}" cy="{CENTRE:g}" r="{PALACE_RADIUS:g}"/>'
    )
    return shapes


def _district_name(district: District, name: str) -> str:
    """Outside the wall, between the district's two exits: upright at the top and bottom,
    turned along the wall at the sides."""
    x, y = polar(district_arc(district)[0] + 45.0, LABEL_RADIUS)
    turn = {District.EAST: 90, District.WEST: -90}.get(district, 0)
    shift = {District.NORTH: -2.0, District.SOUTH: 20.0}.get(district, 8.0)
    rotate = f' transform="rotate({turn} {x} {y})"' if turn else ""
    return (
        f'<text class="district-name" x="{x}" y="{y + shift:g}" text-anchor="middle"{rotate}>'
        f"{escape(name)} ({district.value})</text>"
    )


def _path(drawn: Layout, a: str, b: str) -> str:
    (x1, y1), (x2, y2) = drawn.at(a), drawn.at(b)
    first, second = drawn.board.node(a), drawn.board.node(b)
    line = f'x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}"'
    if NodeKind.DUNGEON in (first.kind, second.kind) or NodeKind.EXIT in (first.kind, second.kind):
        return f'<line class="path leaf" {line}/>'
    if first.district is second.district:
        return f'<line class="path" {line}/>'
    # A path with a marked district border (§3): a bar across its middle.
    mx, my, length = (x1 + x2) / 2, (y1 + y2) / 2, math.hypot(x2 - x1, y2 - y1) or 1.0
    nx, ny = -(y2 - y1) / length * 9, (x2 - x1) / length * 9
    bar = f'x1="{mx + nx:.1f}" y1="{my + ny:.1f}" x2="{mx - nx:.1f}" y2="{my - ny:.1f}"'
    return f'<line class="path crossing" {line}/><line class="border-mark" {bar}/>'


def _space(drawn: Layout, node: Node) -> str:
    x, y = drawn.at(node.id)
    classes = " ".join(["space", f"k-{node.kind.value}", *sorted(f.value for f in node.features)])
    title = escape(_space_title(node))
    body = _shape(node, x, y)
    label = escape(node.id)
    text = f'<text class="space-id" x="{x}" y="{y + 3.5:g}" text-anchor="middle">{label}</text>'
    return (
        f'<g id="space-{label}" class="{classes}" data-space="{label}">'
        f"<title>{title}</title>{body}{text}</g>"
    )


def _space_title(node: Node) -> str:
    words = [node.id]
    if node.kind is NodeKind.DUNGEON:
        words.append("dungeon")
    elif node.kind is NodeKind.EXIT:
        words.append(f"exit ({node.exit_kind}): leaving the city")
    words += [FEATURE_WORDS[f] for f in sorted(node.features, key=lambda f: f.value)]
    names = {info.id: info.name for info in districts()}
    words.append(names.get(node.district, node.district.value))
    return " · ".join(words)


def _shape(node: Node, x: float, y: float) -> str:
    r = SPACE_RADIUS
    if node.kind is NodeKind.DUNGEON:
        bars = "".join(
            f'<line class="bars" x1="{x + dx:g}" y1="{y - r:g}" x2="{x + dx:g}" y2="{y + r:g}"/>'
            for dx in (-7.0, 0.0, 7.0)
        )
        return f'<rect x="{x - r:g}" y="{y - r:g}" width="{2 * r:g}" height="{2 * r:g}"/>{bars}'
    if node.kind is NodeKind.EXIT:
        if node.exit_kind == "ship":
            return (
                f'<path d="M{x - 20:g} {y - 4:g} L{x + 20:g} {y - 4:g} L{x + 13:g} {y + 10:g} '
                f'L{x - 13:g} {y + 10:g} Z"/><line class="mast" x1="{x:g}" y1="{y - 4:g}" '
                f'x2="{x:g}" y2="{y - 22:g}"/>'
            )
        return (
            f'<path d="M{x - 15:g} {y + 14:g} L{x - 15:g} {y - 4:g} A15 15 0 0 1 {x + 15:g} '
            f'{y - 4:g} L{x + 15:g} {y + 14:g} Z"/>'
        )
    if node.guardhouse:
        return f'<rect x="{x - r:g}" y="{y - r:g}" width="{2 * r:g}" height="{2 * r:g}" rx="4"/>'
    if Feature.TREASURY in node.features:
        return f'<circle cx="{x}" cy="{y}" r="{r + 7:g}"/>'
    return f'<circle cx="{x}" cy="{y}" r="{r:g}"/>'


__all__ = ["FEATURE_WORDS", "board_svg", "city_of", "legend"]
