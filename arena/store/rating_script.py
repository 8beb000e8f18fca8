"""The writes of a batch of rated results as one Lua script: the same keys and bytes as
`write_period`, but a few arguments a player instead of about forty.

Packing commands is what costs most in redis-py: every argument is encoded one by one. A
standing is 11 hash fields, and a player also appears in the summary, the skill hash and five
leaderboards. Here Python sends each player's values as one tab-joined string, made by the very
serialisers `write_period` and the rebuild use (`standing_fields`, `summary_value`, `skill_value`,
`board_values` through `repr`), and the script only splits it and issues the commands. Hash
fields go in `standing_fields` order, so even a DUMP of a new standing is the same.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import redis

from arena.ratings.ladder import Standing
from arena.store import keys
from arena.store.rating_records import (
    BOARDS,
    AnyResult,
    board_values,
    skill_value,
    standing_fields,
    summary_value,
)

# Lua's unpack() has a stack limit (8,000 values in Redis): long argument lists go in chunks.
_SCRIPT = """
local function chunked(command, key, values)
  for first = 1, #values, 1000 do
    redis.call(command, key, unpack(values, first, math.min(first + 999, #values)))
  end
end
local function split(text)
  local parts = {}
  for part in string.gmatch(text, '[^\\t]+') do parts[#parts + 1] = part end
  return parts
end
local boards = tonumber(ARGV[1])
local names = split(ARGV[2])
local results = tonumber(ARGV[3])
local applied, log = {}, {}
local at = 4
for _ = 1, results do
  applied[#applied + 1] = ARGV[at]
  applied[#applied + 1] = ARGV[at + 1]
  log[#log + 1] = ARGV[at + 2]
  at = at + 3
end
chunked('HSET', KEYS[1], applied)
chunked('RPUSH', KEYS[2], log)
local summary, skill, scores = {}, {}, {}
for b = 1, boards do scores[b] = {} end
local key = 5 + boards
while at <= #ARGV do
  local player, values, entries = ARGV[at], split(ARGV[at + 1]), tonumber(ARGV[at + 2])
  local fields = {}
  for i, name in ipairs(names) do
    fields[#fields + 1] = name
    fields[#fields + 1] = values[i]
  end
  redis.call('HSET', KEYS[key], unpack(fields))
  redis.call('RPUSH', KEYS[key + 1], unpack(ARGV, at + 3, at + 2 + entries))
  summary[#summary + 1] = player
  summary[#summary + 1] = values[#names + 1]
  skill[#skill + 1] = player
  skill[#skill + 1] = values[#names + 2]
  for b = 1, boards do
    scores[b][#scores[b] + 1] = values[#names + 2 + b]
    scores[b][#scores[b] + 1] = player
  end
  key = key + 2
  at = at + 3 + entries
end
chunked('HSET', KEYS[3], summary)
chunked('HSET', KEYS[4], skill)
for b = 1, boards do chunked('ZADD', KEYS[4 + b], scores[b]) end
"""


def _packed(standing: Standing) -> str:
    """A player's standing fields, summary, skill and board scores, tab-joined."""
    values = [*standing_fields(standing).values(), summary_value(standing), skill_value(standing)]
    values.extend(repr(float(score)) for score in board_values(standing))
    return "\t".join(values)


def queue_batch_writes(
    pipe: redis.client.Pipeline,
    slug: str,
    results: Sequence[AnyResult],
    position: int,
    final: Mapping[str, Standing],
    histories: Mapping[str, Sequence[str]],
) -> None:
    """Queue (as one EVAL) every write of `results`, rated one after another from log index
    `position`: `final` is each player's standing after the last of them, `histories` its new
    history entries in order (both in the order players first appear)."""
    names = "\t".join(standing_fields(Standing()))
    args: list[str | int] = [len(BOARDS), names, len(results)]
    for offset, result in enumerate(results):
        args.extend((result.result_id, str(position + offset), result.to_json()))
    player_keys: list[str] = []
    for player, standing in final.items():
        entries = histories[player]
        args.extend((player, _packed(standing), len(entries), *entries))
        player_keys.extend((keys.ladder_standing(slug, player), keys.ladder_history(slug, player)))
    fixed = [
        keys.ladder_applied(slug),
        keys.ladder_log(slug),
        keys.ladder_summary(slug),
        keys.ladder_skill(slug),
        *(keys.ladder_board(slug, board) for board in BOARDS),
    ]
    pipe.execute_command(  # type: ignore[no-untyped-call]
        "EVAL", _SCRIPT, len(fixed) + len(player_keys), *fixed, *player_keys, *args
    )
