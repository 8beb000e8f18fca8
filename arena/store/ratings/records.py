"""How rated results and standings are stored: the serialisers and the one write path.

The live update (`arena.store.ratings.store`) and `arena ladder rebuild`
(`arena.store.ratings.rebuild`) both go through `write_period` and these serialisers, so equal
standings are stored as equal bytes.
Floats are written with `repr`, which parses back to the very same float.

A result is a `RatedResult` (two bots, A's share of the points: what the workers produce today)
or a `TableResult` (any number of sides, each one bot or a team, with its score: tables of the
Snitch game, team results). The log holds both, told apart by their JSON shape.
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
from arena.ratings.ladder import LadderParams, Outcome, Standing, rate_outcomes
from arena.ratings.single import rate_one
from arena.store import keys
from arena.store.values import as_text

BOARDS = ("elo", "glicko", "rd", "games", "ordinal")
_FLOATS = ("elo", "rating", "rd", "volatility", "points", "mu", "sigma")
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

    @property
    def players(self) -> tuple[str, str]:
        return self.player_a, self.player_b

    def outcome(self) -> Outcome:
        return Outcome.pair(self.player_a, self.player_b, self.score_a)


@dataclass(frozen=True, slots=True)
class TableResult:
    """One result between several sides, each a bot or a team of bots, with the side's score
    (the higher the better; equal scores tie), under a unique id."""

    result_id: str
    sides: tuple[tuple[tuple[str, ...], float], ...]
    at: float
    games: int = 1
    period: str = ""

    def __post_init__(self) -> None:
        sides = tuple((tuple(names), float(score)) for names, score in self.sides)
        object.__setattr__(self, "sides", sides)
        if not self.result_id:
            raise InvalidResultError("a rated result needs an id")
        self.outcome()  # refuses a bad shape now, not when it is rated

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(player for names, _ in self.sides for player in names)

    def outcome(self) -> Outcome:
        return Outcome.table(self.sides)

    def to_json(self) -> str:
        sides = [[list(names), score] for names, score in self.sides]
        return json.dumps(
            {
                "id": self.result_id,
                "sides": sides,
                "at": self.at,
                "games": self.games,
                "period": self.period,
            }
        )


AnyResult = RatedResult | TableResult


def result_from_json(text: str) -> AnyResult:
    """A logged result: a list is a `RatedResult`, an object a `TableResult`."""
    data = json.loads(text)
    if isinstance(data, list):
        return RatedResult(*data)
    sides = tuple((tuple(names), score) for names, score in data["sides"])
    return TableResult(data["id"], sides, data["at"], data["games"], data["period"])


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
    # Fields missing from a standing stored before they existed (mu, sigma) keep their
    # initial values until `arena ladder rebuild` recomputes them from the log.
    values: dict[str, Any] = {name: float(fields[name]) for name in _FLOATS if name in fields}
    values.update({name: int(fields[name]) for name in _INTS})
    return Standing(**values)


Summary = tuple[float, float, float, int, float, float]  # Elo, Glicko-2, RD, results, mu, sigma


def summary_value(standing: Standing) -> str:
    """The scrape-time summary of a standing: "elo rating rd games"."""
    return f"{standing.elo!r} {standing.rating!r} {standing.rd!r} {standing.games}"


def skill_value(standing: Standing) -> str:
    """The scrape-time Weng-Lin values of a standing: "mu sigma"."""
    return f"{standing.mu!r} {standing.sigma!r}"


def parse_summary(value: bytes | str, skill: bytes | str | None) -> Summary:
    """A summary and its skill values; a ladder rated before Weng-Lin existed may have no skill
    values for a bot yet: the initial ones."""
    elo, rating, rd, games = as_text(value).split()
    mu, sigma = as_text(skill).split() if skill is not None else (Standing().mu, Standing().sigma)
    return float(elo), float(rating), float(rd), int(games), float(mu), float(sigma)


def board_values(standing: Standing) -> tuple[float, float, float, float, float]:
    """The standing's score on each of `BOARDS`."""
    s = standing
    return s.elo, s.rating, s.rd, float(s.games), s.ordinal


def history_entry(
    result: AnyResult, outcome: Outcome, position: int, player: str, after: Standing
) -> str:
    side = next(i for i, team in enumerate(outcome.teams) if player in team)
    others = [p for i, team in enumerate(outcome.teams) if i != side for p in team]
    return json.dumps(
        {
            "result": result.result_id,
            "position": position,
            "at": result.at,
            "opponent": ", ".join(others),
            "score": outcome.shares[side],
            "place": outcome.ranks[side] + 1,
            "elo": after.elo,
            "rating": after.rating,
            "rd": after.rd,
            "volatility": after.volatility,
            "mu": after.mu,
            "sigma": after.sigma,
        }
    )


def write_period(
    pipe: redis.client.Pipeline,
    slug: str,
    results: Sequence[AnyResult],
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
    skills = {player: skill_value(standing) for player, standing in after.items()}
    pipe.hset(keys.ladder_skill(slug), mapping=hash_mapping(skills))
    for index, board in enumerate(BOARDS):
        values = {player: board_values(standing)[index] for player, standing in after.items()}
        pipe.zadd(keys.ladder_board(slug, board), values)
    for player, entries in history_entries(results, position, after).items():
        pipe.rpush(keys.ladder_history(slug, player), *entries)


def history_entries(
    results: Sequence[AnyResult], position: int, after: Mapping[str, Standing]
) -> dict[str, list[str]]:
    """Each player's new history entries for a period: one per result, oldest first."""
    entries: dict[str, list[str]] = {}
    for offset, result in enumerate(results):
        outcome = result.outcome()
        for player in result.players:
            entry = history_entry(result, outcome, position + offset, player, after[player])
            entries.setdefault(player, []).append(entry)
    return entries


@dataclass(frozen=True, slots=True)
class RatedPeriod:
    results: tuple[AnyResult, ...]
    position: int  # log index of its first result
    after: dict[str, Standing]


def replay(
    params: LadderParams, log: Sequence[AnyResult]
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
        if len(results) == 1:  # the same floats, faster (tests/ratings/test_single.py)
            after = rate_one(current, results[0].outcome(), params)
        else:
            after = rate_outcomes(current, [r.outcome() for r in results], params)
        current.update(after)
        periods.append(RatedPeriod(results, position, after))
        position += len(results)
    return current, periods
