"""Run by tests/compiled/test_compiled_engine.py in a child process, once with the pure-Python engine
and once with a compiled build (`ARENA_COMPILED_ENGINE`): plays seeded games of both Caper
editions and of Age of Thieves and prints, as JSON, which engine modules are native code, a digest of every game's
record and views per configuration, and the conformance checker's counts."""

from __future__ import annotations

import copy
import hashlib
import json
import pickle
import random
import sys
from typing import Any

from arena.bots import make_bot
from arena.compiled.loader import compiled_modules
from arena.games import get_game
from arena.games.age_of_thieves.game import AgeOfThievesGame
from arena.games.age_of_thieves.observation import resample_hidden as aot_resample
from arena.games.age_of_thieves.state import Action as AotAction
from arena.games.api import Config
from arena.games.caper import Action as CaperAction
from arena.games.caper import ActionKind as CaperKind
from arena.games.caper.observation import resample_hidden as caper_resample
from arena.games.caper_common.game import CaperFamilyGame
from arena.games.caper_europe import Action as EuropeAction
from arena.games.caper_europe import ActionKind as EuropeKind
from arena.games.caper_europe.observation import resample_hidden as europe_resample
from arena.games.conformance import HiddenResampler, check_game
from arena.games.record import GameRecord

CITIES = {"caper": ("paris", "rome", "london"), "caper-europe": ("paris", "barcelona", "rome")}
# (game, players): Caper for 2, 3 (the Snitch) and 4 (the Lookouts), Europe for 2, Age of
# Thieves for 2, 3 and 4.
TABLES = (
    ("caper", 2),
    ("caper", 3),
    ("caper", 4),
    ("caper-europe", 2),
    ("age-of-thieves", 2),
    ("age-of-thieves", 3),
    ("age-of-thieves", 4),
)
# Beside legal-looking actions, things a bot might send that are no action at all: the
# compiled engine checks declared types, and must still refuse these with a GameError.
PROBES: dict[str, tuple[Any, ...]] = {
    "caper": (CaperAction(CaperKind.PASS), CaperAction(CaperKind.GEAR, "Blazeblaster", 1, 0), None),
    "caper-europe": (EuropeAction(EuropeKind.DISCARD, "mime"), "discard mime", (0, "mime")),
    "age-of-thieves": (AotAction("step", "X99"), AotAction("done"), "done", None),
}
RESAMPLERS: dict[str, HiddenResampler] = {
    "caper": caper_resample,
    "caper-europe": europe_resample,
    "age-of-thieves": aot_resample,
}


def config_for(game_id: str, players: int, seed: int) -> Config:
    if game_id not in CITIES:  # a game on one board
        return {"players": players}
    cities = CITIES[game_id]
    config: dict[str, str | int] = {"city": cities[seed % len(cities)]}
    return config | ({"players": players} if players != 2 else {})


def play(game_id: str, config: Config, seed: int, bot: str | None) -> str:
    """One game, seeded: uniformly random actions (`bot` None) or `bot` in every seat seeing only
    its own view. Its record as JSON, then each mover's view before each action, then the
    final table as text."""
    game = get_game(game_id)
    assert isinstance(game, CaperFamilyGame | AgeOfThievesGame)
    state = game.create(config, seed)
    seats = game.seat_count(state)
    bots = [make_bot(bot) for _ in range(seats)] if bot else []
    rngs = [random.Random(f"{seed}/{seat}") for seat in range(seats)]
    actions: list[str] = []
    views: list[str] = []
    while (seat := game.current_player(state)) is not None:
        view = game.observation(state, seat)
        legal = game.legal_actions(state)
        if bots:
            action = bots[seat].choose(game, view, legal, rngs[seat])
        else:
            action = legal[rngs[seat].randrange(len(legal))]
        views.append(repr(view))
        actions.append(game.action_text(action))
        state = game.apply(state, action, seat)
    # The last view, pickled and deep-copied (the compiled classes need their own __reduce__).
    views += [repr(pickle.loads(pickle.dumps(view))), repr(copy.deepcopy(view))]
    result = game.result(state).to_json()
    record = GameRecord(game.id, game.rules_version, config, seed, tuple(actions), result=result)
    return "\n".join([json.dumps(record.to_json(), sort_keys=True), *views, game.render(state)])


def digests(games: int, bot_games: int) -> dict[str, str]:
    """Per table and player: the digest of `games` random and `bot_games` greedy games."""
    out = {}
    for game_id, players in TABLES:
        for bot, count in ((None, games), ("greedy", bot_games)):
            digest = hashlib.sha256()
            for seed in range(count):
                config = config_for(game_id, players, seed)
                digest.update(play(game_id, config, seed, bot).encode())
            out[f"{game_id}/{players} players/{bot or 'random'}"] = digest.hexdigest()
    return out


def conformance(games: int) -> dict[str, int]:
    """The conformance checker over `games` seeded games per table: decisions checked."""
    out = {}
    for game_id, players in TABLES:
        config = config_for(game_id, players, players)
        report = check_game(
            get_game(game_id), config, range(games), RESAMPLERS[game_id], PROBES[game_id]
        )
        out[f"{game_id}/{players} players"] = report.decisions
    return out


def main(argv: list[str]) -> None:
    games, bot_games, checked = (int(word) for word in argv)
    figures = {
        "digests": digests(games, bot_games),
        "conformance": conformance(checked),
        "compiled": compiled_modules(),
    }
    print(json.dumps(figures))


if __name__ == "__main__":
    main(sys.argv[1:])
