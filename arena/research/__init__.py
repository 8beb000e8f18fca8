"""Research adapters: every game as a PettingZoo AEC environment and an OpenSpiel game.

Needs the `research` extra (`pip install -e '.[research]'`): numpy, gymnasium, PettingZoo and
OpenSpiel. Nothing else in the arena imports this package, so the server runs without them.

- `arena.research.pettingzoo_env.env("caper", city="rome", players=3)`: an AEC environment.
- `arena.research.openspiel_game.register()`, then `pyspiel.load_game("arena_caper(city=rome)")`.

Both see a seat's view only through the engine's `observation(state, seat)`, and both enumerate
a game's actions once, in a fixed table (`arena.research.actions`).
"""
