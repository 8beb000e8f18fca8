"""`arena ladder rebuild`: recompute every rating of a ladder from its results log.

The log and the `applied` hash are the source of truth; standings, leaderboards and histories are
derived from them. A rebuild replays the log in its stored order through the same maths and the
same serialisers as the live path, compares with what is stored, and (unless asked only to check)
replaces the derived keys in one transaction, retried if a result is rated meanwhile.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass

import redis

from arena.store import keys
from arena.store.ladders import LadderDefinition
from arena.store.ratings.records import (
    BOARDS,
    AnyResult,
    board_values,
    hash_mapping,
    history_entries,
    replay,
    result_from_json,
    skill_value,
    standing_fields,
    summary_value,
)
from arena.store.values import as_text


@dataclass(frozen=True, slots=True)
class RebuildReport:
    results: int  # results replayed
    players: int
    mismatched: tuple[str, ...]  # players whose stored values differed from the replay
    written: bool

    @property
    def identical(self) -> bool:
        return not self.mismatched


@dataclass(frozen=True, slots=True)
class _Derived:
    """Everything a replay derives, as the exact strings and numbers the live path stores."""

    standings: dict[str, dict[str, str]]
    histories: dict[str, list[str]]
    boards: dict[str, dict[str, float]]
    summary: dict[str, str]
    skill: dict[str, str]


def _derive(ladder: LadderDefinition, log: list[AnyResult]) -> _Derived:
    final, periods = replay(ladder.params, log)
    histories: dict[str, list[str]] = defaultdict(list)
    for period in periods:
        for player, entries in history_entries(
            period.results, period.position, period.after
        ).items():
            histories[player].extend(entries)
    boards = {
        board: {player: board_values(s)[index] for player, s in final.items()}
        for index, board in enumerate(BOARDS)
    }
    standings = {player: standing_fields(s) for player, s in final.items()}
    summary = {player: summary_value(s) for player, s in final.items()}
    skill = {player: skill_value(s) for player, s in final.items()}
    return _Derived(standings, dict(histories), boards, summary, skill)


def _differing(stored: Mapping[str, object], expected: Mapping[str, object]) -> set[str]:
    return {key for key in stored.keys() | expected.keys() if stored.get(key) != expected.get(key)}


def _compare(client: redis.Redis, slug: str, derived: _Derived) -> tuple[list[str], set[str]]:
    """(players whose stored values differ from the replay's, every player stored anywhere)."""
    pipe = client.pipeline(transaction=False)
    for board in BOARDS:
        pipe.zrange(keys.ladder_board(slug, board), 0, -1, withscores=True)
    pipe.hgetall(keys.ladder_summary(slug))
    pipe.hgetall(keys.ladder_skill(slug))
    *boards, summary, skill = pipe.execute()
    wrong: set[str] = set()
    for board, stored in zip(BOARDS, boards, strict=True):
        wrong |= _differing({as_text(n): v for n, v in stored}, derived.boards[board])
    stored_summary = {as_text(k): as_text(v) for k, v in summary.items()}
    wrong |= _differing(stored_summary, derived.summary)
    stored_skill = {as_text(k): as_text(v) for k, v in skill.items()}
    wrong |= _differing(stored_skill, derived.skill)
    live = {as_text(n) for stored in boards for n, _ in stored} | set(stored_summary)
    live |= set(stored_skill)
    players = sorted(live | set(derived.standings))
    pipe = client.pipeline(transaction=False)
    for player in players:
        pipe.hgetall(keys.ladder_standing(slug, player))
        pipe.lrange(keys.ladder_history(slug, player), 0, -1)
    replies = pipe.execute()
    for index, player in enumerate(players):
        standing = {as_text(k): as_text(v) for k, v in replies[2 * index].items()}
        history = [as_text(entry) for entry in replies[2 * index + 1]]
        expected = derived.standings.get(player, {})
        if standing != expected or history != derived.histories.get(player, []):
            wrong.add(player)
    return sorted(wrong), live


def _write(pipe: redis.client.Pipeline, slug: str, derived: _Derived, live: set[str]) -> None:
    for player in live | set(derived.standings):
        pipe.delete(keys.ladder_standing(slug, player), keys.ladder_history(slug, player))
    pipe.delete(keys.ladder_summary(slug), keys.ladder_skill(slug))
    pipe.delete(*(keys.ladder_board(slug, b) for b in BOARDS))
    for player, fields in derived.standings.items():
        pipe.hset(keys.ladder_standing(slug, player), mapping=hash_mapping(fields))
        pipe.rpush(keys.ladder_history(slug, player), *derived.histories[player])
    for board, values in derived.boards.items():
        if values:
            pipe.zadd(keys.ladder_board(slug, board), values)
    if derived.summary:
        pipe.hset(keys.ladder_summary(slug), mapping=hash_mapping(derived.summary))
        pipe.hset(keys.ladder_skill(slug), mapping=hash_mapping(derived.skill))


def rebuild(client: redis.Redis, ladder: LadderDefinition, write: bool = True) -> RebuildReport:
    """Replay the ladder's results log; with `write`, replace the stored ratings by the replay's."""
    slug = ladder.ref.slug
    with client.pipeline() as pipe:
        while True:
            try:
                # Every rating update writes `applied`: watching it makes the replay and the
                # rewrite one atomic step, or a retry if a result was rated in between.
                pipe.watch(keys.ladder_applied(slug))  # type: ignore[no-untyped-call]
                log = pipe.lrange(keys.ladder_log(slug), 0, -1)
                results = [result_from_json(as_text(entry)) for entry in log]
                derived = _derive(ladder, results)
                wrong, live = _compare(client, slug, derived)
                if write:
                    pipe.multi()
                    _write(pipe, slug, derived, live)
                    pipe.execute()
                return RebuildReport(len(results), len(derived.standings), tuple(wrong), write)
            except redis.WatchError:
                continue
