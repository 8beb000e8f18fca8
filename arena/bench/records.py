"""A fingerprint of the engines' behaviour: one sha256 over the records of seeded random games.

Every variant (Caper for 2, 3 and 4 players, Caper Europe in each city, Age of Thieves for 2, 3
and 4 players) plays `games` random-vs-random games from seeds 0, 1, ...; each finished game
becomes a `GameRecord` (actions and result) and the records are hashed in order. A refactoring
that must not change behaviour shows the same hash before and after it.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from arena.games import get_game
from arena.games.api import Config
from arena.games.record import GameRecord

# (game id, config) of every variant fingerprinted, in the order they are hashed.
VARIANTS: tuple[tuple[str, Config], ...] = (
    *(("caper", {"city": "paris", "players": players}) for players in (2, 3, 4)),
    *(("caper-europe", {"city": city}) for city in ("paris", "barcelona", "rome", "london")),
    *(("age-of-thieves", {"players": players}) for players in (2, 3, 4)),
)


@dataclass(frozen=True, slots=True)
class VariantHash:
    game: str
    config: Config
    games: int
    decisions: int
    sha256: str


def random_record(game_id: str, config: Config, seed: int) -> GameRecord:
    """One random-vs-random game from `seed` (deal and choices alike), as a finished record."""
    game = get_game(game_id)
    rng = random.Random(seed)
    state = game.create(config, seed)
    actions: list[str] = []
    while not game.is_terminal(state):
        legal = game.legal_actions(state)
        action = legal[rng.randrange(len(legal))]
        actions.append(game.action_text(action))
        state = game.apply(state, action)
    return GameRecord(
        game=game_id,
        rules_version=game.rules_version,
        config=dict(config),
        seed=seed,
        actions=tuple(actions),
        result=game.result(state).to_json(),
    )


def variant_hashes(games: int) -> Iterator[VariantHash]:
    """Each variant's hash over `games` records, in `VARIANTS` order."""
    for game_id, config in VARIANTS:
        digest = hashlib.sha256()
        decisions = 0
        for seed in range(games):
            record = random_record(game_id, config, seed)
            decisions += len(record.actions)
            digest.update(record.dumps().encode())
            digest.update(b"\n")
        yield VariantHash(game_id, config, games, decisions, digest.hexdigest())


def records_hash(games: int, report: Callable[[str], object] = print) -> str:
    """Report each variant's hash and return one sha256 over all of them."""
    overall = hashlib.sha256()
    for one in variant_hashes(games):
        settings = ", ".join(f"{key}={value}" for key, value in one.config.items())
        report(f"{one.game} ({settings}): {one.games} games, {one.decisions} decisions")
        report(f"  {one.sha256}")
        overall.update(one.sha256.encode())
    return overall.hexdigest()
