"""The writes of a batch of rated results as one Lua script: the same keys and bytes as
`write_period`, but a handful of arguments a batch instead of about forty a player.

Packing commands is what costs most in redis-py: every argument is encoded one by one. A
standing is 11 hash fields, and a player also appears in the summary, the skill hash and five
leaderboards. Here Python sends everything as one blob of lines, each player's values one
tab-joined line holding the strings the serialisers of `write_period` and the rebuild give
(`packed`), and the script only splits it and issues the commands. Hash fields go in
`standing_fields` order, so even a DUMP of a new standing is the same.

The script builds each player's standing and history key from their prefix: the arena runs on
one Redis server (a Redis Cluster would need every key declared, and these on one slot).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Mapping, Sequence

from arena.ratings.ladder import Outcome, Standing
from arena.ratings.weng_lin import ORDINAL_Z
from arena.store import keys
from arena.store.rating_records import BOARDS, AnyResult, standing_fields

# ARGV: the standing and history key prefixes, the standing's field names (tab-joined), the
# number of results, and one blob of lines: per result its id, log index and JSON, then per
# player its name, its values (tab-joined), its number of new history entries and those entries.
# One blob because redis-py encodes argument by argument; no line holds a newline (JSON escapes
# them, names are [A-Za-z0-9_.-] or built-in specs). Lua's unpack() has a stack limit (8,000
# values in Redis): long argument lists go in chunks.
_SCRIPT = """
local function chunked(command, key, values)
  for first = 1, #values, 1000 do
    redis.call(command, key, unpack(values, first, math.min(first + 999, #values)))
  end
end
local function split(text, separator)
  local parts = {}
  for part in string.gmatch(text, separator) do parts[#parts + 1] = part end
  return parts
end
local names = split(ARGV[3], '[^\\t]+')
local results = tonumber(ARGV[4])
local lines = split(ARGV[5], '[^\\n]+')
local applied, log = {}, {}
for at = 1, 3 * results, 3 do
  applied[#applied + 1] = lines[at]
  applied[#applied + 1] = lines[at + 1]
  log[#log + 1] = lines[at + 2]
end
chunked('HSET', KEYS[1], applied)
chunked('RPUSH', KEYS[2], log)
local boards = #KEYS - 4
local summary, skill, scores = {}, {}, {}
for b = 1, boards do scores[b] = {} end
local at = 3 * results + 1
while at <= #lines do
  local player, entries = lines[at], tonumber(lines[at + 2])
  local values = split(lines[at + 1], '[^\\t]+')
  local fields = {}
  for i, name in ipairs(names) do
    fields[#fields + 1] = name
    fields[#fields + 1] = values[i]
  end
  redis.call('HSET', ARGV[1] .. player, unpack(fields))
  redis.call('RPUSH', ARGV[2] .. player, unpack(lines, at + 3, at + 2 + entries))
  summary[#summary + 1] = player
  summary[#summary + 1] = values[#names + 1]
  skill[#skill + 1] = player
  skill[#skill + 1] = values[#names + 2]
  for b = 1, boards do
    scores[b][#scores[b] + 1] = values[#names + 2 + b]
    scores[b][#scores[b] + 1] = player
  end
  at = at + 3 + entries
end
chunked('HSET', KEYS[3], summary)
chunked('HSET', KEYS[4], skill)
for b = 1, boards do chunked('ZADD', KEYS[4 + b], scores[b]) end
"""
_FIELDS = "\t".join(standing_fields(Standing()))


def packed(s: Standing) -> str:
    """A player's standing fields, summary, skill and board scores, tab-joined: the strings
    `standing_fields`, `summary_value`, `skill_value` and `board_values` give (a test checks),
    each float's repr made once."""
    elo, rating, rd, mu, sigma = (repr(float(x)) for x in (s.elo, s.rating, s.rd, s.mu, s.sigma))
    games = str(int(s.games))
    ordinal = repr(float(s.mu - ORDINAL_Z * s.sigma))
    return "\t".join(
        (
            *(elo, rating, rd, repr(float(s.volatility)), repr(float(s.points)), mu, sigma),
            *(games, str(int(s.wins)), str(int(s.draws)), str(int(s.losses))),
            f"{elo} {rating} {rd} {games}",
            f"{mu} {sigma}",
            *(elo, rating, rd, repr(float(s.games)), ordinal),
        )
    )


def _number(value: float) -> str:
    """A number as json.dumps writes it: `repr` for ints and finite floats."""
    return repr(value) if math.isfinite(value) else json.dumps(value)


def history_lines(
    result: AnyResult, outcome: Outcome, position: int, after: Mapping[str, Standing]
) -> Iterator[tuple[str, str]]:
    """Each player's history entry for `result`, the string `history_entry` makes (a test
    checks), with the parts shared by the players of a result formatted once."""
    head = (
        f'{{"result": {json.dumps(result.result_id)}, "position": {position}, '
        f'"at": {_number(result.at)}, "opponent": '
    )
    teams = outcome.teams
    for side, team in enumerate(teams):
        others = ", ".join(p for i, other in enumerate(teams) if i != side for p in other)
        middle = (
            f'{head}{json.dumps(others)}, "score": {_number(outcome.shares[side])}, '
            f'"place": {outcome.ranks[side] + 1}, '
        )
        for player in team:
            s = after[player]
            if math.isfinite(s.elo + s.rating + s.rd + s.volatility + s.mu + s.sigma):
                yield (  # all finite (the usual case): repr is what json.dumps writes
                    player,
                    f'{middle}"elo": {s.elo!r}, "rating": {s.rating!r}, "rd": {s.rd!r}, '
                    f'"volatility": {s.volatility!r}, "mu": {s.mu!r}, "sigma": {s.sigma!r}}}',
                )
                continue
            yield (
                player,
                (
                    f'{middle}"elo": {_number(s.elo)}, "rating": {_number(s.rating)}, '
                    f'"rd": {_number(s.rd)}, "volatility": {_number(s.volatility)}, '
                    f'"mu": {_number(s.mu)}, "sigma": {_number(s.sigma)}}}'
                ),
            )


def batch_command(
    slug: str,
    results: Sequence[AnyResult],
    position: int,
    final: Mapping[str, Standing],
    histories: Mapping[str, Sequence[str]],
) -> list[str | int]:
    """The EVAL holding every write of `results`, rated one after another from log index
    `position`: `final` is each player's standing after the last of them, `histories` its new
    history entries in order (both in the order players first appear)."""
    lines: list[str] = []
    for offset, result in enumerate(results):
        lines.extend((result.result_id, str(position + offset), result.to_json()))
    for player, standing in final.items():
        entries = histories[player]
        lines.extend((player, packed(standing), str(len(entries)), *entries))
    fixed = [
        keys.ladder_applied(slug),
        keys.ladder_log(slug),
        keys.ladder_summary(slug),
        keys.ladder_skill(slug),
        *(keys.ladder_board(slug, board) for board in BOARDS),
    ]
    prefixes = keys.ladder_standing(slug, ""), keys.ladder_history(slug, "")
    blob = "\n".join(lines)
    return ["EVAL", _SCRIPT, len(fixed), *fixed, *prefixes, _FIELDS, len(results), blob]
