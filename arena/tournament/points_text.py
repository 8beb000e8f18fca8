"""How people read points: one text for every table of the CLI and the site.

Placement points of 3- and 4-seat tables are thirds and sixths (a 4-seat table gives 1, 2/3,
1/3 and 0, ties split), which Python prints as 3.66667 or 0.166667. People see points rounded
to two decimals with trailing zeros dropped, as chess tables print 1.5: 3.67, 0.17, 1.5, 2.
Exports (JSON, CSV) keep the full value.
"""

from __future__ import annotations


def points_text(value: float) -> str:
    """`value` to two decimals, trailing zeros dropped: 3.67, 0.5, 2 (never "-0")."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text
