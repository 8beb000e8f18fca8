"""A conformance checker any game of the arena must pass (ARCHITECTURE.md, "Game engine API").

It plays random games and checks, at every step: no crash; legal actions sorted, unique and
non-empty until the end; `apply` never changes its input; every legal action applies and an
action outside the list is refused; observations are unchanged when only what that seat cannot
see is changed; conserved quantities stay put; and the recorded game replays exactly.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from arena.games.api import Config, Game, GameError
from arena.games.record import GameRecord, replay_states

HiddenResampler = Callable[[Any, int, random.Random], Any]


class ConformanceError(AssertionError):
    """An invariant broke; the message names the game, seed and step to reproduce it."""


@dataclass(frozen=True, slots=True)
class ConformanceReport:
    games: int
    decisions: int


def check_game(
    game: Game[Any, Any],
    config: Config,
    seeds: Sequence[int],
    resample_hidden: HiddenResampler,
    probes: Sequence[Any] = (),
) -> ConformanceReport:
    """Play one random game per seed and check every invariant; raise `ConformanceError`.

    `resample_hidden(state, seat, rng)` must return a state that differs from `state` only in
    what `seat` cannot see. `probes` are extra actions (legal or not) tried at every step: each
    must either be in the legal list and apply, or be refused with a `GameError`.
    """
    decisions = 0
    for seed in seeds:
        decisions += _check_one(game, config, seed, resample_hidden, probes)
    return ConformanceReport(games=len(seeds), decisions=decisions)


def _check_one(
    game: Game[Any, Any],
    config: Config,
    seed: int,
    resample_hidden: HiddenResampler,
    probes: Sequence[Any],
) -> int:
    rng = random.Random(seed)
    state = game.create(config, seed)
    conserved = game.conserved(state)
    actions: list[str] = []

    def fail(message: str) -> ConformanceError:
        return ConformanceError(
            f"{game.id} {dict(config)} seed {seed} step {len(actions)}: {message}"
        )

    while not game.is_terminal(state):
        legal = list(game.legal_actions(state))
        if not legal:
            raise fail("no legal action before the end")
        if legal != sorted(legal) or len(set(legal)) != len(legal):
            raise fail("legal actions are not sorted and unique")
        _check_observations(game, state, rng, resample_hidden, fail)
        _check_probes(game, state, legal, probes, fail)
        before = copy.deepcopy(state)
        action = rng.choice(legal)
        text = game.action_text(action)
        if game.parse_action(text) != action:
            raise fail(f"action text {text!r} does not parse back")
        state_after = game.apply(state, action, game.current_player(state))
        if state != before:
            raise fail("apply changed its input state")
        state = state_after
        actions.append(text)
        if game.conserved(state) != conserved:
            raise fail(f"conserved {dict(conserved)} became {dict(game.conserved(state))}")
    _check_end(game, config, seed, state, actions, fail)
    return len(actions)


def _check_observations(
    game: Game[Any, Any],
    state: Any,
    rng: random.Random,
    resample_hidden: HiddenResampler,
    fail: Callable[[str], ConformanceError],
) -> None:
    for seat in range(_seat_count(game, state)):
        seen = game.observation(state, seat).to_json()
        other = resample_hidden(state, seat, rng)
        if game.observation(other, seat).to_json() != seen:
            raise fail(f"seat {seat}'s observation depends on cards it cannot see")


def _seat_count(game: Game[Any, Any], state: Any) -> int:
    """Seats in the game of `state`: games with a `players` setting say so by `seat_count`."""
    seat_count = getattr(game, "seat_count", None)
    return game.num_players if seat_count is None else int(seat_count(state))


def _check_probes(
    game: Game[Any, Any],
    state: Any,
    legal: list[Any],
    probes: Sequence[Any],
    fail: Callable[[str], ConformanceError],
) -> None:
    for probe in probes:
        try:
            game.apply(state, probe)
        except GameError:
            if probe in legal:
                raise fail(f"legal action {probe} was refused") from None
            continue
        if probe not in legal:
            raise fail(f"{probe} is not listed as legal but was applied")


def _check_end(
    game: Game[Any, Any],
    config: Config,
    seed: int,
    state: Any,
    actions: list[str],
    fail: Callable[[str], ConformanceError],
) -> None:
    result = game.result(state)
    for seat, breakdown in enumerate(result.breakdown):
        if sum(breakdown.values()) != result.scores[seat]:
            raise fail(f"seat {seat}'s breakdown does not add up to its score")
    try:
        game.apply(state, game.legal_actions(state)[0] if game.legal_actions(state) else None)
    except GameError:
        pass
    else:
        raise fail("an action was accepted after the end")
    record = GameRecord(game.id, game.rules_version, dict(config), seed, tuple(actions))
    replayed = [s for _, s in replay_states(GameRecord.loads(record.dumps()))]
    if replayed[-1] != state or len(replayed) != len(actions) + 1:
        raise fail("the record does not replay to the same final state")
