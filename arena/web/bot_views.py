"""View model of the bots page: registered bots, who is connected now, the version each gave
in its last Hello, and each bot's recent matches with links to their games.

Never a token or a token hash: `BotInfo` carries neither, and nothing here reads them.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from arena.store.bots import BotInfo
from arena.tournament.points_text import points_text
from arena.web import links

RECENT = 6  # matches listed per bot


@dataclass(frozen=True, slots=True)
class PlayedMatch:
    """One match (or table) from a tournament or a ladder, seen from nobody's side yet."""

    where: str  # the tournament's name, or the ladder's title
    where_url: str
    label: str  # "round 3", "match 17"
    sides: tuple[str, ...]
    scores: tuple[float, ...]  # each side's game points (or share), in `sides` order
    game_id: str  # its first game, "" if none is stored
    # A ladder table's place of the bot (first in `sides`), whose `scores` then hold only its
    # share: its rating history keeps no other side's score. 0 otherwise.
    place: int = 0


@dataclass(frozen=True, slots=True)
class RecentMatch:
    where: str
    where_url: str
    label: str
    opponents: str
    score: str  # "1.5 - 0.5" from the bot's side
    game_url: str  # its first game, "" if none is stored
    versus_url: str = ""  # the head-to-head page against its one opponent, "" at a table


@dataclass(frozen=True, slots=True)
class BotRow:
    name: str
    online: bool
    version: str
    plays: str  # the games its Hello named, "any" if none
    registered: str
    recent: tuple[RecentMatch, ...]
    revoked: str = ""  # the day it was revoked, "" while it is live
    hosted: str = ""  # a hosted bot's newest version: the arena runs it, nobody connects it


def recent_for(name: str, own: Iterable[PlayedMatch], limit: int = RECENT) -> list[RecentMatch]:
    """`name`'s matches (its own, newest first), each scored from its side."""
    shown = []
    for m in list(own)[:limit]:
        index = m.sides.index(name)
        others = [s for i, s in enumerate(m.sides) if i != index]
        rest = " - ".join(points_text(p) for i, p in enumerate(m.scores) if i != index)
        score = (
            f"share {points_text(m.scores[index])}, place {m.place}"
            if m.place
            else f"{points_text(m.scores[index])} - {rest}"
        )
        first = links.game_url(m.game_id) if m.game_id else ""
        two_sided = len(others) == 1 and not m.place  # a ladder table names its others as one
        versus = links.head_to_head_url(name, others[0]) if two_sided else ""
        shown.append(
            RecentMatch(
                m.where, m.where_url, m.label, ", ".join(others), score, first, versus,
            )
        )  # fmt: skip
    return shown


def rows(
    bots: Sequence[BotInfo],
    online: Mapping[str, bool],
    versions: Mapping[str, str],
    plays: Mapping[str, frozenset[str] | None],
    recent: Mapping[str, Sequence[PlayedMatch]],
    hosted: Mapping[str, str] | None = None,
) -> list[BotRow]:
    """One row per registered bot, connected bots first, then by name."""
    hosted = hosted or {}
    built = [
        BotRow(
            bot.name,
            online.get(bot.bot_id, False),
            versions.get(bot.bot_id, "") or "-",
            ", ".join(sorted(plays.get(bot.bot_id) or ())) or "any",
            _day(bot.created),
            tuple(recent_for(bot.name, recent.get(bot.name, ()))),
            _day(bot.revoked) if bot.revoked is not None else "",
            hosted.get(bot.bot_id, ""),
        )
        for bot in bots
    ]
    return sorted(built, key=lambda row: (not row.online, row.name))


def _day(timestamp: float) -> str:
    return datetime.datetime.fromtimestamp(timestamp, datetime.UTC).strftime("%Y-%m-%d")


def opponents(recent: Iterable[RecentMatch]) -> list[tuple[str, str]]:
    """Each one opponent of these matches once, newest first, with its head-to-head page."""
    seen: dict[str, str] = {}
    for m in recent:
        if m.versus_url:
            seen.setdefault(m.opponents, m.versus_url)
    return list(seen.items())
