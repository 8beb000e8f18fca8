"""`arena tournament ...` and `arena worker`: organising tournaments that the worker pool plays."""

from __future__ import annotations

import csv
import io
import json
import time
from collections.abc import Sequence

import redis
from rich.console import Console, Group
from rich.live import Live
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from arena.bots import BUILTIN_BOTS, builtin_name, make_bot
from arena.games import get_game
from arena.store.bots import BotRegistry
from arena.store.tournaments import Status, TournamentStore
from arena.tournament import ByePoints, crosstable, export_trf, standings
from arena.tournament.definition import Format, TimeControl, TournamentDefinition
from workers import tournament


class UnknownEntrantError(ValueError):
    """An entrant that is neither a built-in bot nor a registered one."""


def check_entrants(client: redis.Redis, entrants: Sequence[str]) -> None:
    registry = BotRegistry(client)
    for entrant in entrants:
        if builtin_name(entrant) in BUILTIN_BOTS:
            make_bot(entrant)  # a bad budget ("search@fast") is refused now, not mid-tournament
    unknown = [
        e for e in entrants if builtin_name(e) not in BUILTIN_BOTS and registry.by_name(e) is None
    ]
    if unknown:
        builtin = ", ".join(sorted(BUILTIN_BOTS))
        raise UnknownEntrantError(
            f"unknown entrant(s): {', '.join(unknown)} (register them with `arena bot register`, "
            f"or use a built-in bot: {builtin})"
        )


def create(
    client: redis.Redis,
    name: str,
    format: str,
    entrants: Sequence[str],
    rounds: int | None,
    game: str,
    city: str,
    games_per_match: int,
    duplicate: bool,
    time_control: TimeControl,
    seed: int,
) -> TournamentDefinition:
    get_game(game).create({"city": city}, seed)  # a bad game or city fails here, clearly
    definition = TournamentDefinition(
        name=name,
        format=Format(format),
        entrants=tuple(entrants),
        game=game,
        config={"city": city},
        rounds=rounds,
        games_per_match=games_per_match,
        duplicate=duplicate,
        time_control=time_control,
        seed=seed,
    )
    check_entrants(client, definition.entrants)
    TournamentStore(client).create(definition)
    return definition


def progress(client: redis.Redis, name: str) -> tuple[int, int, int, Status]:
    """(matches recorded, matches scheduled, rounds planned, status)."""
    store = TournamentStore(client)
    scheduled = sum(len(r.pairings) for r in store.rounds(name))
    return len(store.results(name)), scheduled, store.get(name).planned_rounds, store.status(name)


def watch(console: Console, client: redis.Redis, name: str, timeout_s: float = 3600) -> Status:
    """A live progress display until the tournament finishes or stops."""
    bar = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
    )
    task = bar.add_task(name, total=None)
    end = time.monotonic() + timeout_s
    with Live(Group(bar), console=console, refresh_per_second=4, transient=True):
        while time.monotonic() < end:
            done, scheduled, planned, status = progress(client, name)
            rounds = len(TournamentStore(client).rounds(name))
            bar.update(task, completed=done, total=max(scheduled, 1))
            bar.update(task, description=f"{name}: round {rounds} of {planned}, matches")
            if status in (Status.FINISHED, Status.STOPPED):
                return status
            time.sleep(0.25)
    return progress(client, name)[3]


def standings_table(client: redis.Redis, name: str) -> Table:
    store = TournamentStore(client)
    definition = store.get(name)
    history = store.history(name)
    rows = standings(
        definition.entrants, history.results, history.byes, definition.tiebreaks, ByePoints()
    )
    table = Table(title=f"{name}: standings ({store.status(name).value})")
    for column in (
        "#",
        "entrant",
        "points",
        "game points",
        "matches",
        "wins",
        *(t.value for t in definition.tiebreaks),
    ):
        table.add_column(column, justify="left" if column == "entrant" else "right")
    for row in rows:
        ties = [f"{row.tiebreak(t):g}" for t in definition.tiebreaks]
        table.add_row(
            str(row.rank),
            row.entrant,
            f"{row.points:g}",
            f"{row.game_points:g}",
            str(row.matches),
            str(row.wins),
            *ties,
        )
    return table


def crosstable_table(client: redis.Redis, name: str) -> Table:
    store = TournamentStore(client)
    definition = store.get(name)
    grid = crosstable(definition.entrants, store.history(name).results)
    table = Table(title=f"{name}: crosstable (game points)")
    table.add_column("")
    for index, _ in enumerate(definition.entrants, start=1):
        table.add_column(str(index), justify="center")
    for index, entrant in enumerate(definition.entrants, start=1):
        cells = []
        for other in definition.entrants:
            met = grid[entrant][other] if other != entrant else None
            cells.append("x" if met is None else " ".join(f"{e.game_points:g}" for e in met) or ".")
        table.add_row(f"{index} {entrant}", *cells)
    return table


def export(client: redis.Redis, name: str, fmt: str) -> str:
    store = TournamentStore(client)
    definition = store.get(name)
    history = store.history(name)
    if fmt == "trf":
        return export_trf(
            definition.entrants,
            history.results,
            history.byes,
            total_rounds=definition.planned_rounds,
            tournament_name=name,
            tiebreaks=definition.tiebreaks,
        )
    rows = standings(definition.entrants, history.results, history.byes, definition.tiebreaks)
    if fmt == "json":
        return json.dumps(
            {
                "definition": json.loads(definition.to_json()),
                "status": store.status(name).value,
                "standings": [
                    {
                        "rank": r.rank,
                        "entrant": r.entrant,
                        "points": r.points,
                        "game_points": r.game_points,
                        "wins": r.wins,
                        "tiebreaks": {t.value: r.tiebreak(t) for t in definition.tiebreaks},
                    }
                    for r in rows
                ],
                "matches": [json.loads(m.to_json()) for m in store.results(name).values()],
            },
            indent=2,
            sort_keys=True,
        )
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(
        [
            "rank",
            "entrant",
            "points",
            "game_points",
            "wins",
            *(t.value for t in definition.tiebreaks),
        ]
    )
    for r in rows:
        writer.writerow(
            [
                r.rank,
                r.entrant,
                r.points,
                r.game_points,
                r.wins,
                *(r.tiebreak(t) for t in definition.tiebreaks),
            ]
        )
    return out.getvalue()


def start(client: redis.Redis, name: str) -> int:
    return len(tournament.start(client, name))
