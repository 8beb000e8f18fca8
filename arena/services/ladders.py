"""Ladders: create one, find it, set its built-in bots, start, stop and resume it, and say in
words what it rates. A ladder's state follows the event lifecycle (`arena.tournament.lifecycle`):
a running ladder is kept playing by the worker pool (`services.ladder_runs`), a stopped one's bots
are paired no more until it resumes.

`arena ladder run` (`workers.matchmaker`) follows a ladder's matches as they are played, or plays
them itself; `begin_run` is the check it passes first.
"""

from __future__ import annotations

from collections.abc import Sequence

import redis

from arena.games import base_config
from arena.ratings import Glicko2Config
from arena.ratings.ladder import LadderParams
from arena.services import ladder_runs
from arena.store.ladder_runs import DEFAULT_CONCURRENCY, fill_fields
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


def begin_run(
    client: redis.Redis,
    ref: LadderRef,
    concurrency: int = DEFAULT_CONCURRENCY,
    budget: int | None = None,
) -> None:
    """`arena ladder run`: a created or running ladder runs on, with `concurrency` matches in
    flight and, with `budget`, that many matches more at most; a stopped or finished ladder is
    refused, naming its state. Nothing is queued here: the caller fills it."""
    check_concurrency(concurrency)
    also = fill_fields(concurrency, budget)
    LadderStore(client).transition(ref, Command.RUN, also=also)


def start(client: redis.Redis, ref: LadderRef, concurrency: int = DEFAULT_CONCURRENCY) -> int:
    """Start a created ladder: the worker pool keeps `concurrency` of its matches in flight from
    now on, with no process of its own; refused, naming its state, if running, stopped or
    finished. How many matches are queued at once."""
    check_concurrency(concurrency)
    LadderStore(client).transition(ref, Command.START, also=fill_fields(concurrency, None))
    return len(ladder_runs.fill(client, ref))


def stop(client: redis.Redis, ref: LadderRef) -> None:
    """Nothing more is paired; a match in play finishes and is rated, a queued one is not
    played; its ratings stay."""
    LadderStore(client).transition(ref, Command.STOP, "the organiser stopped it")


def resume(client: redis.Redis, ref: LadderRef) -> int:
    """The worker pool fills it again (with no end, if a run had given it one); how many
    matches are queued at once."""
    LadderStore(client).transition(ref, Command.RESUME, also={"budget": ""})
    return len(ladder_runs.fill(client, ref))


def check_concurrency(concurrency: int) -> None:
    if concurrency < 1:
        raise LadderError(f"concurrency must be at least 1, not {concurrency}")


def created(definition: LadderDefinition) -> str:
    """What the organiser reads once a ladder is created (not its seed, which fixes its deals)."""
    remote = " and registered bots, connected or hosted" if definition.remote else ""
    bots = ", ".join(definition.bots)
    return f"Created ladder {definition.ref}: {rates(definition)}; {bots}{remote}"


def plays(definition: LadderDefinition) -> str:
    """Which built-in bots the ladder keeps playing."""
    return f"Ladder {definition.ref} plays: {', '.join(definition.bots) or 'no built-in bots'}."


def started(ref: LadderRef, queued: int) -> str:
    return (
        f"Ladder {ref} started: the workers (`arena worker`) keep its bots playing; "
        f"{queued} match(es) queued now"
    )


def stopped(ref: LadderRef) -> str:
    return (
        f"Ladder {ref} stopped: its bots are paired no more and its queued matches are not "
        "played (a match in play finishes and is rated)"
    )


def resumed(ref: LadderRef, queued: int) -> str:
    return (
        f"Ladder {ref} is running again; the workers keep its bots playing ({queued} match(es) "
        "queued now)."
    )


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
