"""The deterministic defaults of the first player's decisions (spec 22.6), for bots and tests that
leave them to the rules: a seeded-random yellow-jewel space and closed exit (`policy.*` streams,
22.7), the board guard farthest from every thief to relocate, the lowest id for a tied
plain-clothes guard space, and D-6's own order and target under the guard-ordering variant."""

from __future__ import annotations

from arena.games.age_of_thieves.activation import default_figure, default_target
from arena.games.age_of_thieves.guards import farthest
from arena.games.age_of_thieves.state import Action, State

FIRST_PLAYER = frozenset(
    {"jewel", "close", "relocate", "plain_guard", "reinforce", "guard_order", "guard_target"}
)


def default_action(state: State) -> Action | None:
    """The 22.6 default for the pending decision if it is one of the first player's; else None
    (a thief's own decisions have no default)."""
    prompt = state.prompt
    if prompt is None or prompt.name not in FIRST_PLAYER:
        return None
    options = prompt.options
    if prompt.name in ("jewel", "close", "reinforce"):
        rng, _ = state.streams.rng(f"policy.{prompt.name}")
        return options[rng.randrange(len(options))]
    if prompt.name == "relocate":
        return Action("target", farthest(state, tuple(a.arg for a in options)))
    if prompt.name == "guard_order":
        return Action("target", default_figure(state, prompt.task))
    if prompt.name == "guard_target":
        return Action("target", str(default_target(state, prompt.task)))
    return min(options)  # the plain-clothes guard: lowest id (D-8)
