"""The writes of a batch of rated results as one Lua script: the same keys and bytes as
`write_period`, but a handful of arguments a batch instead of about forty a player.

Packing commands is what costs most in redis-py: every argument is encoded one by one. A
standing is 11 hash fields, and a player also appears in the summary, the skill hash and five
leaderboards. Here Python sends everything as one JSON text, each player's values the strings
the serialisers of `write_period` and the rebuild give (`arena.ratings.batch.packed`), and the
script only decodes it (cjson, in C) and issues the commands. Hash fields go in `standing_fields`
order, so even a DUMP of a new standing is the same.

The script builds each player's standing and history key from their prefix: the arena runs on
one Redis server (a Redis Cluster would need every key declared, and these on one slot).
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from arena.ratings.ladder import Standing
from arena.store import keys
from arena.store.ratings.records import BOARDS, AnyResult, standing_fields

# ARGV: the standing and history key prefixes, the standing's field names (tab-joined), and
# one JSON array: the `applied` hash's fields and values (each id, then its log index), the log's
# entries, then per player its name, its `packed` values and its new history entries. One JSON
# text because redis-py encodes argument by argument and Lua's pattern matching splits slowly:
# cjson decodes it all in C (a sixth less script CPU). Lua's unpack() has a stack limit
# (8,000 values in Redis): long argument lists go in chunks.
_SCRIPT = """
local function chunked(command, key, values)
  for first = 1, #values, 1000 do
    redis.call(command, key, unpack(values, first, math.min(first + 999, #values)))
  end
end
local names = {}
for name in string.gmatch(ARGV[3], '[^\\t]+') do names[#names + 1] = name end
local count = #names
local data = cjson.decode(ARGV[4])
-- Exactly once without WATCH: the batch was rated for a log of this length and none of its ids
-- rated; anything else means someone else rated meanwhile, and nothing is written (0).
local applied, ids = data[1], {}
if redis.call('LLEN', KEYS[2]) ~= tonumber(applied[2]) then return 0 end
for at = 1, #applied, 2 do ids[#ids + 1] = applied[at] end
for first = 1, #ids, 1000 do
  local seen = redis.call('HMGET', KEYS[1], unpack(ids, first, math.min(first + 999, #ids)))
  for _, position in ipairs(seen) do
    if position then return 0 end
  end
end
chunked('HSET', KEYS[1], applied)
chunked('RPUSH', KEYS[2], data[2])
local boards = #KEYS - 4
local summary, skill, scores = {}, {}, {}
for b = 1, boards do scores[b] = {} end
local fields = {}
for _, p in ipairs(data[3]) do
  local player = p[1]
  for i = 1, count do
    fields[2 * i - 1] = names[i]
    fields[2 * i] = p[1 + i]
  end
  redis.call('HSET', ARGV[1] .. player, unpack(fields))
  redis.call('RPUSH', ARGV[2] .. player, unpack(p, count + 4 + boards))
  summary[#summary + 1] = player
  summary[#summary + 1] = p[count + 2]
  skill[#skill + 1] = player
  skill[#skill + 1] = p[count + 3]
  for b = 1, boards do
    local board = scores[b]
    board[#board + 1] = p[count + 3 + b]
    board[#board + 1] = player
  end
end
chunked('HSET', KEYS[3], summary)
chunked('HSET', KEYS[4], skill)
for b = 1, boards do chunked('ZADD', KEYS[4 + b], scores[b]) end
return 1
"""
_FIELDS = "\t".join(standing_fields(Standing()))


def batch_command(
    slug: str,
    results: Sequence[AnyResult],
    position: int,
    players: Sequence[tuple[str, ...]],
) -> list[str | int]:
    """The EVAL holding every write of `results`, rated one after another from log index
    `position`: `players` holds each player's row (`arena.ratings.batch.player_rows`: its
    values after the last of them, its new history entries). It replies 1, or 0 and writes
    nothing if the log is no longer `position` long or one of the ids is rated."""
    applied: list[str] = []
    for offset, result in enumerate(results):
        applied += (result.result_id, str(position + offset))
    fixed = [
        keys.ladder_applied(slug),
        keys.ladder_log(slug),
        keys.ladder_summary(slug),
        keys.ladder_skill(slug),
        *(keys.ladder_board(slug, board) for board in BOARDS),
    ]
    prefixes = keys.ladder_standing(slug, ""), keys.ladder_history(slug, "")
    # Raw UTF-8 (not \u escapes): cjson passes it through byte for byte.
    blob = json.dumps(
        (applied, [r.to_json() for r in results], players),
        ensure_ascii=False,
        separators=(",", ":"),
    )
    return ["EVAL", _SCRIPT, len(fixed), *fixed, *prefixes, _FIELDS, blob]
