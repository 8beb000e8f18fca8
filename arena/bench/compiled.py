"""`arena bench engine --compare-compiled`: random-vs-random games/s of the pure-Python and the
compiled engines (both Caper editions and Age of Thieves), measured in the same run.

Each measurement is a child process (an interpreter loads one engine or the other, never both),
on one core, CPU time only. The two engines take turns, the first one alternating from round to
round, and each figure is the median of its rounds: on a machine shared with other work, load
that comes and goes then falls on both alike.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from arena.bench.engine import engine_configs, engine_throughput
from arena.compiled.loader import (
    DEFAULT_BUILD,
    ENVIRONMENT,
    BuildError,
    build_folder,
    compiled_modules,
    load_manifest,
)
from arena.games import CITYLESS
from arena.games.api import Config

COMPARED_GAMES = ("caper", "caper-europe", "age-of-thieves")


@dataclass(frozen=True, slots=True)
class Comparison:
    game: str
    config: Config
    pure: tuple[float, ...]  # games/s, one per round
    compiled: tuple[float, ...]

    @property
    def ratio(self) -> float:
        return statistics.median(self.compiled) / statistics.median(self.pure)


def measure(game_id: str, config: Config, seconds: float, build: Path | None) -> float:
    """Games/s in a child process with the pure-Python engine (`build` None) or the build."""
    env = {**os.environ, ENVIRONMENT: str(build) if build else "0"}
    command = [sys.executable, "-m", "arena.bench.compiled", game_id, json.dumps(config)]
    command += [str(seconds), "compiled" if build else "pure"]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise BuildError(f"the measurement failed: {done.stderr.strip()}")
    return float(done.stdout)


def compare(seconds: float, rounds: int, build: Path, city: str = "paris") -> Iterator[Comparison]:
    """Each compared game (in `city` if it has cities) with each number of players it takes,
    measured `rounds` times with each engine, in turns. `BuildError` if the build cannot be
    used."""
    load_manifest(build)
    for game_id in COMPARED_GAMES:
        for config in engine_configs(game_id, None if game_id in CITYLESS else city):
            figures: dict[Path | None, list[float]] = {None: [], build: []}
            for round_ in range(rounds):
                order = (None, build) if round_ % 2 == 0 else (build, None)
                for engine in order:
                    figures[engine].append(measure(game_id, config, seconds, engine))
            yield Comparison(game_id, config, tuple(figures[None]), tuple(figures[build]))


def report(comparison: Comparison) -> str:
    players = comparison.config.get("players", 2)
    pure = statistics.median(comparison.pure)
    compiled = statistics.median(comparison.compiled)
    where = comparison.config.get("city", "one board")  # a game without cities: its board
    return (
        f"{comparison.game} ({where}, {players} players): "
        f"pure {pure:,.0f}, compiled {compiled:,.0f} games/s: {comparison.ratio:.2f}x"
    )


def run(print_line: Callable[[str], None], seconds: float, rounds: int, city: str) -> None:
    """Compare against the build `ARENA_COMPILED_ENGINE` names, else `build/engine`."""
    build = build_folder(os.environ.get(ENVIRONMENT, "")) or DEFAULT_BUILD
    print_line(f"pure Python against the compiled build {build}")
    print_line(f"games/s on one core: medians of {rounds} runs of {seconds:g} s, taking turns")
    for comparison in compare(seconds, rounds, build, city):
        print_line(report(comparison))


def _child(game_id: str, config_json: str, seconds: str, engine: str) -> None:
    """In the child: check the engine asked for is the one loaded, then measure."""
    config = json.loads(config_json)
    figures = engine_throughput(game_id, config, float(seconds))
    if bool(compiled_modules()) != (engine == "compiled"):
        sys.exit(f"the {engine} engine was asked for but not loaded")
    print(figures.games_per_second)


if __name__ == "__main__":
    _child(*sys.argv[1:])
