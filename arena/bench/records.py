"""A fingerprint of the engines' behaviour: one sha256 over the records of seeded random games.

Every variant (Caper for 2, 3 and 4 players, Caper Europe in each city, Age of Thieves for 2, 3
and 4 players) plays `games` random-vs-random games from seeds 0, 1, ...; each finished game
becomes a `GameRecord` (actions and result) and the records are hashed in order. A refactoring
that must not change behaviour shows the same hash before and after it.

With a built-in bot (`bot`), that bot takes every other seat (seat plus seed even) and random
play the rest, each seat deciding from its own view: the fingerprint then also covers what the
bots read (observations, their helpers in the engines) and the decisions random play rarely
reaches.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

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
    return _finished(game_id, config, seed, actions, state)


def bot_record(game_id: str, config: Config, seed: int, bot: str) -> GameRecord:
    """One game from `seed`: `bot` in the seats whose number plus the seed is even, the random
    bot in the others, each seat choosing from its own view with its own random stream."""
    from arena.bots import make_bot  # the random fingerprint does without the bots

    game = get_game(game_id)
    state = game.create(config, seed)
    seats = game.seat_count(state) if hasattr(game, "seat_count") else game.num_players
    bots = [make_bot(bot if (seat + seed) % 2 == 0 else "random") for seat in range(seats)]
    rngs = [random.Random(f"{seed}/{seat}") for seat in range(seats)]
    actions: list[str] = []
    while (seat := game.current_player(state)) is not None:
        view = game.observation(state, seat)
        action = bots[seat].choose(game, view, game.legal_actions(state), rngs[seat])
        actions.append(game.action_text(action))
        state = game.apply(state, action, seat)
    return _finished(game_id, config, seed, actions, state)


def _finished(
    game_id: str, config: Config, seed: int, actions: list[str], state: Any
) -> GameRecord:
    game = get_game(game_id)
    return GameRecord(
        game=game_id,
        rules_version=game.rules_version,
        config=dict(config),
        seed=seed,
        actions=tuple(actions),
        result=game.result(state).to_json(),
    )


def variant_hashes(games: int, bot: str | None = None) -> Iterator[VariantHash]:
    """Each variant's hash over `games` records, in `VARIANTS` order; random games, or games
    with `bot` in every other seat."""
    for game_id, config in VARIANTS:
        digest = hashlib.sha256()
        decisions = 0
        for seed in range(games):
            if bot is None:
                record = random_record(game_id, config, seed)
            else:
                record = bot_record(game_id, config, seed, bot)
            decisions += len(record.actions)
            digest.update(record.dumps().encode())
            digest.update(b"\n")
        yield VariantHash(game_id, config, games, decisions, digest.hexdigest())


def records_hash(
    games: int, report: Callable[[str], object] = print, bot: str | None = None
) -> str:
    """Report each variant's hash and return one sha256 over all of them."""
    overall = hashlib.sha256()
    for one in variant_hashes(games, bot):
        settings = ", ".join(f"{key}={value}" for key, value in one.config.items())
        report(f"{one.game} ({settings}): {one.games} games, {one.decisions} decisions")
        report(f"  {one.sha256}")
        overall.update(one.sha256.encode())
    return overall.hexdigest()
