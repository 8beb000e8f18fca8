"""An SPRT test's history as inline SVG: the LLR over pairs between its two bounds, and the Elo
estimate over pairs with its 95% interval as a band. Pure: points in, SVG text out (escaped);
the grid and axes are the rating-history chart's own (`arena.web.chart.value_frame`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from arena.store.sprt import HistoryPoint
from arena.web.chart import BOTTOM, HEIGHT, LEFT, RIGHT, WIDTH, points_text, value_frame

Scale = Callable[[float], float]
MAX_DRAWN = 1_000  # points drawn per line: more add page weight a 760-pixel chart cannot show


def thinned(history: Sequence[HistoryPoint]) -> list[HistoryPoint]:
    """At most MAX_DRAWN points of `history`, evenly spaced, the first and the last kept."""
    every = max(1, -(-len(history) // MAX_DRAWN))  # a test with no pair yet has no points
    kept = list(history[::every])
    if history and kept[-1] is not history[-1]:
        kept[-1] = history[-1]
    return kept


def _frame(low: float, high: float, pairs: int, title: str) -> tuple[list[str], Scale, Scale]:
    """The SVG's opening, grid and axes for values `low`..`high` over pairs 0..`pairs`, with
    the functions placing a pair count (x) and a value (y)."""
    parts, y = value_frame(low, high, title)
    span = max(pairs, 1)

    def x(count: float) -> float:
        return LEFT + (WIDTH - LEFT - RIGHT) * count / span

    base = HEIGHT - BOTTOM
    for count in sorted({0, pairs // 2, pairs}):
        parts.append(
            f'<text x="{x(count):.1f}" y="{base + 16}" text-anchor="middle">{count}</text>'
        )
    parts.append(
        f'<text x="{(LEFT + WIDTH - RIGHT) / 2}" y="{HEIGHT - 4}" text-anchor="middle">'
        "pairs played</text>"
    )
    return parts, x, y


def llr_svg(history: Sequence[HistoryPoint], bounds: tuple[float, float]) -> str:
    """The LLR after each pair, with the lower (accept H0) and upper (accept H1) bounds."""
    if not history:
        return ""
    lower, upper = bounds
    last = history[-1]
    title = (
        f"LLR {last.llr:.3f} after {last.pairs} pairs; "
        f"bounds {lower:.3f} (accept H0) and {upper:.3f} (accept H1)"
    )
    llrs = [p.llr for p in history]
    parts, x, y = _frame(min(*llrs, lower), max(*llrs, upper), last.pairs, title)
    for label, bound, css in (("accept H1", upper, "bound-h1"), ("accept H0", lower, "bound-h0")):
        parts.append(
            f'<line class="bound {css}" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(bound):.1f}" '
            f'y2="{y(bound):.1f}"/><text class="bound-label" x="{WIDTH - RIGHT - 4}" '
            f'y="{y(bound) - 4:.1f}" text-anchor="end">{label} ({bound:.3f})</text>'
        )
    line = points_text([(x(p.pairs), y(p.llr)) for p in thinned(history)])
    parts.append(f'<polyline class="line llr" points="{line}"><title>LLR</title></polyline>')
    parts.append("</svg>")
    return "".join(parts)


def elo_svg(history: Sequence[HistoryPoint]) -> str:
    """The Elo estimate after each pair with a finite estimate and interval, the interval as a
    band; empty while there is none (before the first pairs that differ)."""
    shown = [
        (p.pairs, p.elo, p.low, p.high)
        for p in thinned(history)
        if p.elo is not None and p.low is not None and p.high is not None
        if all(math.isfinite(v) for v in (p.elo, p.low, p.high))
    ]
    if not shown:
        return ""
    pairs, elo, low, high = shown[-1]
    title = f"Elo estimate {elo:.1f} (95% interval {low:.1f} to {high:.1f}) after {pairs} pairs"
    low_end, high_end = min(s[2] for s in shown), max(s[3] for s in shown)
    parts, x, y = _frame(low_end, high_end, history[-1].pairs, title)
    upper = [(x(n), y(h)) for n, _, _, h in shown]
    lower = [(x(n), y(lo)) for n, _, lo, _ in shown]
    parts.append(f'<polygon class="band" points="{points_text(upper + lower[::-1])}"/>')
    line = points_text([(x(n), y(e)) for n, e, _, _ in shown])
    parts.append(f'<polyline class="line elo" points="{line}"><title>Elo</title></polyline>')
    parts.append("</svg>")
    return "".join(parts)
