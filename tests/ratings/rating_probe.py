"""Run by tests/compiled/test_compiled_engine.py in a child process, once in pure Python and once
with a compiled build (`ARENA_COMPILED_ENGINE`, which also holds the `RATINGS` modules:
`arena.ratings.single`, `glicko2` and `batch`): rates seeded random results of every kind in batches, as
`apply_many` does, and prints as JSON which rating modules are native code and a digest of every
EVAL a batch would send (the bytes written to Redis: log, standings, boards, histories)."""

from __future__ import annotations

import hashlib
import json
import random
import sys

from arena.compiled.loader import RATINGS, compiled_modules
from arena.ratings.ladder import Standing
from arena.store.ladders import LadderDefinition, ladder_ref
from arena.store.ratings.batch import check_sides, rate_fresh
from arena.store.ratings.records import AnyResult, RatedResult, TableResult

KINDS = {"pairs": 2, "tables": 3, "teams": 4}


def made(kind: str, count: int, rng: random.Random) -> list[AnyResult]:
    names = [f"bot-{i}" for i in range(40)]
    results: list[AnyResult] = []
    for i in range(count):
        at = float(i) if i % 2 else i  # an int `at` must stay an int in the JSON
        if kind == "pairs":
            a, b = rng.sample(names, 2)
            results.append(RatedResult(f"r{i}", a, b, rng.choice((0.0, 0.25, 0.5, 1.0)), at))
            continue
        seats = rng.sample(names, KINDS[kind])
        sides = [(s,) for s in seats] if kind == "tables" else [tuple(seats[:2]), tuple(seats[2:])]
        results.append(TableResult(f"t{i}", tuple((s, float(rng.randrange(3))) for s in sides), at))
    return results


def digest(kind: str, count: int, seed: int) -> str:
    config: dict[str, str | int] = {"city": "paris", "players": KINDS[kind]}
    ladder = LadderDefinition(ladder_ref(kind), config=config)
    results = made(kind, count, random.Random(seed))
    outcomes = check_sides(ladder, results)
    current: dict[str, Standing] = {}
    sha = hashlib.sha256()
    for start in range(0, count, 97):
        _, _, command = rate_fresh(ladder, outcomes, results[start : start + 97], start, current)
        sha.update(json.dumps(command[2:]).encode())
    return sha.hexdigest()


def main() -> None:
    count = int(sys.argv[1])
    digests = {kind: digest(kind, count, 7) for kind in KINDS}
    native = [name for name in compiled_modules() if name in RATINGS]
    print(json.dumps({"compiled": native, "digests": digests}))


if __name__ == "__main__":
    main()
