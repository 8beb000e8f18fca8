"""A rating-history chart as inline SVG: a line per rating, a shaded band for its uncertainty.

Pure: points in, SVG text out (escaped), so the ladder bot page needs no script and no library.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape

WIDTH, HEIGHT = 760, 280
LEFT, RIGHT, TOP, BOTTOM = 56, 16, 16, 36


@dataclass(frozen=True, slots=True)
class Series:
    """Values after each rated result, with a half-width of uncertainty for each (0: none)."""

    label: str
    values: tuple[float, ...]
    spread: tuple[float, ...]
    css: str = "line"  # "line" (solid, with its band) or "line2" (dashed, no band)


def nice_step(span: float) -> float:
    raw = span / 5
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000):
        if step >= raw:
            return float(step)
    return raw


def value_frame(low: float, high: float, title: str) -> tuple[list[str], Callable[[float], float]]:
    """A chart's opening (titled), its horizontal grid labelled with values from `low` to
    `high` (widened to whole steps) and its x axis line, with the function placing a value."""
    if high - low < 1e-9:
        low, high = low - 1, high + 1
    step = nice_step(high - low)
    low, high = step * (low // step), step * -(-high // step)

    def y(value: float) -> float:
        return TOP + (HEIGHT - TOP - BOTTOM) * (high - value) / (high - low)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'role="img" aria-label="{escape(title)}"><title>{escape(title)}</title>'
    ]
    tick = low
    while tick <= high + 1e-9:
        parts.append(
            f'<line class="grid" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(tick):.1f}" '
            f'y2="{y(tick):.1f}"/><text x="{LEFT - 6}" y="{y(tick) + 4:.1f}" '
            f'text-anchor="end">{tick:g}</text>'
        )
        tick += step
    base = HEIGHT - BOTTOM
    parts.append(f'<line class="axis" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{base}" y2="{base}"/>')
    return parts, y


def points_text(coordinates: Sequence[tuple[float, float]]) -> str:
    """SVG `points` for a polyline or polygon."""
    return " ".join(f"{px:.1f},{py:.1f}" for px, py in coordinates)


def history_svg(series: Sequence[Series], title: str) -> str:
    """An SVG chart of `series` against result number (1 = the first rated result)."""
    count = max((len(s.values) for s in series), default=0)
    if count == 0:
        return ""
    lows = [v - d for s in series for v, d in zip(s.values, s.spread, strict=True)]
    highs = [v + d for s in series for v, d in zip(s.values, s.spread, strict=True)]
    parts, y = value_frame(min(lows), max(highs), title)

    def x(index: int) -> float:
        return LEFT + (WIDTH - LEFT - RIGHT) * (index / max(count - 1, 1))

    base = HEIGHT - BOTTOM
    for index in _x_ticks(count):
        parts.append(
            f'<text x="{x(index):.1f}" y="{base + 16}" text-anchor="middle">{index + 1}</text>'
        )
    parts.append(
        f'<text x="{(LEFT + WIDTH - RIGHT) / 2}" y="{HEIGHT - 4}" text-anchor="middle">'
        "rated results</text>"
    )
    parts += [_series_svg(s, x, y) for s in series]
    parts.append(_legend(series))
    parts.append("</svg>")
    return "".join(parts)


def _series_svg(s: Series, x: Callable[[int], float], y: Callable[[float], float]) -> str:
    svg = ""
    pairs = list(zip(s.values, s.spread, strict=True))
    if any(s.spread) and s.css == "line":
        upper = [(x(i), y(v + d)) for i, (v, d) in enumerate(pairs)]
        lower = [(x(i), y(v - d)) for i, (v, d) in enumerate(pairs)]
        svg += f'<polygon class="band" points="{points_text(upper + lower[::-1])}"/>'
    line = points_text([(x(i), y(v)) for i, v in enumerate(s.values)])
    return svg + (
        f'<polyline class="{s.css}" points="{line}"><title>{escape(s.label)}</title></polyline>'
    )


def _x_ticks(count: int) -> list[int]:
    every = max(1, -(-count // 10))
    return [i for i in range(count) if i % every == 0 or i == count - 1]


def _legend(series: Sequence[Series]) -> str:
    items = []
    for offset, s in enumerate(series):
        left = LEFT + 10 + 190 * offset
        items.append(
            f'<line class="{s.css}" x1="{left}" x2="{left + 24}" y1="{TOP + 6}" y2="{TOP + 6}"/>'
            f'<text x="{left + 30}" y="{TOP + 10}">{escape(s.label)}</text>'
        )
    return "".join(items)
