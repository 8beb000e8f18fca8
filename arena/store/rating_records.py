"""How rated results and standings are stored: the serialisers and the one write path.

The live update (`arena.store.ratings`) and `arena ladder rebuild` (`arena.store.rebuild`) both
go through `write_period` and these serialisers, so equal standings are stored as equal bytes.
Floats are written with `repr`, which parses back to the very same float.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import groupby
from typing import Any

import redis
from redis.typing import EncodableT

from arena.ratings.errors import InvalidResultError, require_score
from arena.ratings.ladder import LadderParams, Standing, rate_period
from arena.store import keys
from arena.store.values import as_text

BOARDS = ("elo", "glicko", "rd", "games")
_FLOATS = ("elo", "rating", "rd", "volatility", "points")
_INTS = ("games", "wins", "draws", "losses")


@dataclass(frozen=True, slots=True)
class RatedResult:
    """One result to rate: A's share of the points against B, under a unique id."""

    result_id: str
    player_a: str
    player_b: str
    score_a: float
    at: float  # when it was played (unix time), kept in the log so a rebuild copies it
    games: int = 1  # games behind the result (a duplicate match is one result)
    period: str = ""  # id of the rating period it was rated in; "" until rated

    def __post_init__(self) -> None:
        object.__setattr__(self, "score_a", require_score(self.score_a))
        if self.player_a == self.player_b:
            raise InvalidResultError(f"{self.player_a!r} cannot be rated against itself")
        if not self.result_id:
            raise InvalidResultError("a rated result needs an id")

    def to_json(self) -> str:
        return json.dumps(
            [
                self.result_id,
                self.player_a,
                self.player_b,
                self.score_a,
                self.at,
                self.games,
                self.period,
            ]
        )

    @classmethod
    def from_json(cls, text: str) -> RatedResult:
        return cls(*json.loads(text))

    def seen_by(self, player: str) -> tuple[str, float]:
        """(opponent, score) from `player`'s side."""
        if player == self.player_a:
            return self.player_b, self.score_a
        return self.player_a, 1.0 - self.score_a


def standing_fields(standing: Standing) -> dict[str, str]:
    """The hash fields of a standing."""
    fields = {name: repr(float(getattr(standing, name))) for name in _FLOATS}
    fields.update({name: str(int(getattr(standing, name))) for name in _INTS})
    return fields


def hash_mapping(fields: Mapping[str, str]) -> dict[EncodableT, EncodableT]:
    """The same fields, typed as redis-py's HSET wants them."""
    return {key: value for key, value in fields.items()}  # noqa: C416  (a retyped copy)


def standing_from_fields(raw: Mapping[bytes | str, bytes | str]) -> Standing:
    """A stored standing; an empty hash is a player not rated yet (initial values)."""
    if not raw:
        return Standing()
    fields = {as_text(k): as_text(v) for k, v in raw.items()}
    values: dict[str, Any] = {name: float(fields[name]) for name in _FLOATS}
    values.update({name: int(fields[name]) for name in _INTS})
    return Standing(**values)


def summary_value(standing: Standing) -> str:
    """The scrape-time summary of a standing: "elo rating rd games"."""
    return f"{standing.elo!r} {standing.rating!r} {standing.rd!r} {standing.games}"


def parse_summary(value: bytes | str) -> tuple[float, float, float, int]:
    elo, rating, rd, games = as_text(value).split()
    return float(elo), float(rating), float(rd), int(games)


def board_values(standing: Standing) -> tuple[float, float, float, float]:
    """The standing's score on each of `BOARDS`."""
    return standing.elo, standing.rating, standing.rd, float(standing.games)


def history_entry(result: RatedResult, position: int, player: str, after: Standing) -> str:
    opponent, score = result.seen_by(player)
    return json.dumps(
        {
            "result": result.result_id,
            "position": position,
            "at": result.at,
            "opponent": opponent,
            "score": score,
            "elo": after.elo,
            "rating": after.rating,
            "rd": after.rd,
            "volatility": after.volatility,
        }
    )


def write_period(
    pipe: redis.client.Pipeline,
    slug: str,
    results: Sequence[RatedResult],
    position: int,
    after: Mapping[str, Standing],
) -> None:
    """Queue every write of one rated period, whose first result goes at log index `position`."""
    # One command per key, whatever the number of results and players: less to send.
    positions = {r.result_id: str(position + offset) for offset, r in enumerate(results)}
    pipe.hset(keys.ladder_applied(slug), mapping=hash_mapping(positions))
    pipe.rpush(keys.ladder_log(slug), *(result.to_json() for result in results))
    for player, standing in after.items():
        pipe.hset(
            keys.ladder_standing(slug, player), mapping=hash_mapping(standing_fields(standing))
        )
    summaries = {player: summary_value(standing) for player, standing in after.items()}
    pipe.hset(keys.ladder_summary(slug), mapping=hash_mapping(summaries))
    for index, board in enumerate(BOARDS):
        values = {player: board_values(standing)[index] for player, standing in after.items()}
        pipe.zadd(keys.ladder_board(slug, board), values)
    for player, entries in history_entries(results, position, after).items():
        pipe.rpush(keys.ladder_history(slug, player), *entries)


def history_entries(
    results: Sequence[RatedResult], position: int, after: Mapping[str, Standing]
) -> dict[str, list[str]]:
    """Each player's new history entries for a period: one per result, oldest first."""
    entries: dict[str, list[str]] = {}
    for offset, result in enumerate(results):
        for player in (result.player_a, result.player_b):
            entry = history_entry(result, position + offset, player, after[player])
            entries.setdefault(player, []).append(entry)
    return entries


@dataclass(frozen=True, slots=True)
class RatedPeriod:
    results: tuple[RatedResult, ...]
    position: int  # log index of its first result
    after: dict[str, Standing]


def replay(
    params: LadderParams, log: Sequence[RatedResult]
) -> tuple[dict[str, Standing], list[RatedPeriod]]:
    """Final standings and every period's new standings, recomputed from the log in its order.

    A period's results are contiguous in the log (one transaction wrote them), so consecutive
    entries with the same period id are rated together, as they were live.
    """
    current: dict[str, Standing] = {}
    periods = []
    position = 0
    for _, group in groupby(log, key=lambda result: result.period):
        results = tuple(group)
        games = [(r.player_a, r.player_b, r.score_a) for r in results]
        after = rate_period(current, games, params)
        current.update(after)
        periods.append(RatedPeriod(results, position, after))
        position += len(results)
    return current, periods
