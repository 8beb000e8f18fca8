"""Ladders: create one, find it, set its built-in bots, open it for its matchmaker, stop and
resume it, and say in words what it rates. A ladder's state follows the event lifecycle
(`arena.tournament.lifecycle`): a stopped ladder's matchmakers stop pairing until it resumes.

The matchmaker loop itself runs in `workers.matchmaker`; `begin_run` is the check it passes first.
"""

from __future__ import annotations

from collections.abc import Sequence

import redis

from arena.games import base_config
from arena.ratings import Glicko2Config
from arena.ratings.ladder import LadderParams
from arena.store.ladders import LadderDefinition, LadderError, LadderRef, LadderStore, ladder_ref
from arena.tournament.definition import TimeControl
from arena.tournament.lifecycle import Command


def bot_list(text: str) -> tuple[str, ...]:
    """Comma-separated bot names, in order, each once."""
    return tuple(dict.fromkeys(b.strip() for b in text.split(",") if b.strip()))


def create(
    client: redis.Redis,
    name: str,
    game: str,
    params: LadderParams,
    bots: Sequence[str],
    remote: bool,
    city: str | None,
    players: int,
    games_per_match: int | None,
    time_control: TimeControl,
    seed: int,
) -> LadderDefinition:
    """Create a ladder; its rating constants are fixed from then on."""
    definition = LadderDefinition(
        ladder_ref(name, game),
        params,
        base_config(game, city, players),
        games_per_match=games_per_match or 0,
        move_ms=time_control.move_ms,
        bank_ms=time_control.bank_ms,
        max_strikes=time_control.max_strikes,
        grace_ms=time_control.grace_ms,
        seed=seed,
        remote=remote,
        bots=tuple(bots),
    )
    LadderStore(client).create(definition)
    return definition


def params(k: float, tau: float, provisional_rd: float) -> LadderParams:
    """A ladder's rating constants: Elo's K, Glicko-2's tau, and the provisional deviation."""
    return LadderParams(k, Glicko2Config(tau=tau), provisional_rd)


def find(
    client: redis.Redis, name: str, game: str | None = None, rules_version: int | None = None
) -> LadderDefinition:
    """The ladder NAME (its game and the current rules unless given); refused if unknown."""
    return LadderStore(client).find(name, game, rules_version)


def set_bots(client: redis.Redis, ref: LadderRef, bots: Sequence[str]) -> LadderDefinition:
    return LadderStore(client).set_bots(ref, tuple(bots))


def begin_run(client: redis.Redis, ref: LadderRef) -> None:
    """A matchmaker may pair this ladder's bots: created or running; a stopped or finished
    ladder is refused, naming its state."""
    LadderStore(client).transition(ref, Command.RUN)


def stop(client: redis.Redis, ref: LadderRef) -> None:
    """Nothing more is paired or played; its ratings stay."""
    LadderStore(client).transition(ref, Command.STOP, "the organiser stopped it")


def resume(client: redis.Redis, ref: LadderRef) -> None:
    LadderStore(client).transition(ref, Command.RESUME)


def created(definition: LadderDefinition) -> str:
    """What the organiser reads once a ladder is created (not its seed, which fixes its deals)."""
    remote = " and connected registered bots" if definition.remote else ""
    bots = ", ".join(definition.bots)
    return f"Created ladder {definition.ref}: {rates(definition)}; {bots}{remote}"


def plays(definition: LadderDefinition) -> str:
    """Which built-in bots the ladder keeps playing."""
    return f"Ladder {definition.ref} plays: {', '.join(definition.bots) or 'no built-in bots'}."


def stopped(ref: LadderRef) -> str:
    return (
        f"Ladder {ref} stopped: its matchmakers stop pairing and its queued matches are not played"
    )


def resumed(ref: LadderRef) -> str:
    return f"Ladder {ref} is running again; `arena ladder run {ref.name}` pairs its bots."


def rates(definition: LadderDefinition) -> str:
    """What the ladder rates, in a few words."""
    p = definition.params
    if definition.tables:
        return (
            f"tables of {definition.sides}, {definition.games_per_match} games each, rated by "
            "Weng-Lin (mu, sigma; ordinal = mu - 3 sigma) from placements only"
        )
    teams = "teams of 2 seats, " if definition.players == 4 else ""
    return f"{teams}Elo K={p.k:g}, Glicko-2 tau={p.glicko.tau:g} and Weng-Lin"


def matches_note(definition: LadderDefinition) -> str:
    """What the count column counts: rated matches, each several games (W-D-L counts them too)."""
    return f"matches = rated matches of {definition.games_per_match} games each"


def board_for(definition: LadderDefinition, by: str | None) -> str:
    """The leaderboard to sort by: Elo by default, the Weng-Lin ordinal for tables."""
    if not definition.tables:
        return by or "elo"
    if by not in (None, "ordinal"):
        raise LadderError(
            f"ladder {definition.ref} plays tables of {definition.sides}, which only Weng-Lin "
            f"rates: it has no {by} order; use --by ordinal"
        )
    return "ordinal"
