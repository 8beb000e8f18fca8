"""Events (tournaments): create, start, enter late, withdraw, stop, resume, progress and export.

Each operation validates its input and the event's state (`arena.tournament.lifecycle`) once,
here; the CLI and the web site only parse, call and render. A game of two sides is played in
pairs, of three or more at tables: the operations take one path for both, and what differs
(standings, TRF, late entries) is asked of the encounter model (`arena.tournament.encounter`).
"""

from __future__ import annotations

import csv
import io
import json
import math
import secrets
from collections.abc import Sequence
from dataclasses import dataclass

import redis

from arena.bots import BUILTIN_BOTS, builtin_name, make_bot
from arena.games import base_config, get_game
from arena.referee.scoring import table_size
from arena.services import event_liveness, event_ratings, event_runs
from arena.store.bots import BotRegistry
from arena.store.encounters import encounters_of, pod_history
from arena.store.results import round_to_json
from arena.store.tournaments import Status, TournamentStore
from arena.tournament import (
    Bye,
    ByeKind,
    ByePoints,
    TableStanding,
    Tiebreak,
    export_trf,
    standings,
    table_standings,
)
from arena.tournament.definition import Format, TimeControl, TournamentDefinition, max_pod_rounds
from arena.tournament.encounter import at_tables, boards, noun
from arena.tournament.lifecycle import Command
from arena.tournament.placement import DEFAULT_BYE_POINTS
from arena.tournament.points_text import points_text
from arena.tournament.swiss import SwissSystem, max_swiss_rounds

TABLE_BYE_POINTS = DEFAULT_BYE_POINTS  # what pairing pods uses too (`pods.pair_pods`' default)
EXPORT_FORMATS = ("json", "csv", "trf")

TIEBREAK_LABELS = {  # short headers keep a table readable in 80 columns; the caption explains
    Tiebreak.BUCHHOLZ: ("BH", "Buchholz"),
    Tiebreak.BUCHHOLZ_CUT1: ("BH-1", "Buchholz cut-1"),
    Tiebreak.SONNEBORN_BERGER: ("SB", "Sonneborn-Berger"),
    Tiebreak.WINS: ("W", "wins"),
    Tiebreak.DIRECT_ENCOUNTER: ("DE", "direct encounter"),
    Tiebreak.GAME_POINTS: ("GP", "game points"),
}


class UnknownEntrantError(ValueError):
    """An entrant that is neither a built-in bot nor a registered one."""


def check_entrants(client: redis.Redis, entrants: Sequence[str], game: str) -> None:
    registry = BotRegistry(client)
    for entrant in entrants:
        if builtin_name(entrant) in BUILTIN_BOTS:
            make_bot(entrant)  # a bad budget ("search@fast") is refused now, not mid-tournament
    registered = registry.ids_of([e for e in entrants if builtin_name(e) not in BUILTIN_BOTS])
    unknown = [name for name, bot_id in registered.items() if bot_id is None]
    if unknown:
        builtin = ", ".join(sorted(BUILTIN_BOTS))
        raise UnknownEntrantError(
            f"unknown entrant(s): {', '.join(unknown)} (register them with `arena bot register`, "
            f"or use a built-in bot: {builtin})"
        )
    registry.check_all_play(list(registered), game)


def create(
    client: redis.Redis,
    name: str,
    format: str,
    entrants: Sequence[str],
    rounds: int | None,
    game: str,
    city: str | None,
    games_per_match: int | None,
    duplicate: bool,
    time_control: TimeControl,
    seed: int,
    tiebreaks: Sequence[str] = (),
    absent_bye_points: float = 0.0,
    swiss_system: str = SwissSystem.ARENA,
    players: int = 2,
    rated: str | None = None,
) -> TournamentDefinition:
    """`rated`: the name of a ladder whose rating pool rates each finished match or table."""
    # 2 players is the game's default: left out, so 2-player configs stay as they were
    config = base_config(game, city, players)  # no city for a game played on one board
    get_game(game).create(config, seed)  # a bad game, city or number of players fails here
    size = table_size(get_game(game), config)  # 3+ sides: a tournament of tables
    if games_per_match is None:  # a duplicate table plays its deal once per rotation (V12)
        games_per_match = size or 2
    if format == Format.SWISS and rounds is None:
        count = len(entrants)
        rounds = default_table_rounds(count, size) if size else default_swiss_rounds(count)
    definition = TournamentDefinition(
        name=name,
        format=Format(format),
        entrants=tuple(entrants),
        game=game,
        config=config,
        rounds=rounds,
        games_per_match=games_per_match,
        duplicate=duplicate,
        time_control=time_control,
        seed=seed,
        tiebreaks=tuple(parse_tiebreak(t) for t in tiebreaks),
        absent_bye_points=absent_bye_points,
        swiss_system=SwissSystem(swiss_system),
        table_size=size,
        rating_ladder=event_ratings.rating_slug(client, rated, game, config),
    )
    check_entrants(client, definition.entrants, game)
    TournamentStore(client).create(definition)
    return definition


MAX_SEED = 2**31 - 1  # an event's seed: what `--seed` takes


def fresh_seed() -> int:
    """A new event's seed unless one is given: two events never share deals by default (a
    finished event's replays would show the next one's)."""
    return secrets.randbelow(MAX_SEED + 1)


def event_seed(given: int | None) -> int:
    """The seed given, checked, or a fresh one (`fresh_seed`)."""
    if given is None:
        return fresh_seed()
    if not 0 <= given <= MAX_SEED:
        raise ValueError(f"seed must be between 0 and {MAX_SEED}, not {given}")
    return given


def parse_time_control(text: str) -> TimeControl:
    """MOVE_MS+BANK_MS (the bank may be left out: none), as `--time-control` takes it."""
    move, _, bank = text.strip().partition("+")
    if not move.isdigit() or (bank and not bank.isdigit()):
        raise ValueError(f"--time-control is MOVE_MS+BANK_MS, e.g. 1000+10000, not {text!r}")
    return TimeControl(move_ms=int(move), bank_ms=int(bank or 0))


def time_control_text(time_control: TimeControl) -> str:
    """What `parse_time_control` reads back as `time_control`."""
    return f"{time_control.move_ms}+{time_control.bank_ms}"


def default_swiss_rounds(entrants: int) -> int:
    """Enough rounds for one entrant to win them all, if pairings allow that many."""
    if entrants < 2:
        return 1  # the definition then explains what is wrong
    return max(1, min(math.ceil(math.log2(entrants)), max_swiss_rounds(entrants)))


def default_table_rounds(entrants: int, size: int) -> int:
    """Enough rounds of pods for one entrant to win them all: log base `size` of the field."""
    if entrants < size:
        return 1  # the definition then explains what is wrong
    return max(1, min(math.ceil(math.log(entrants, size) - 1e-9), max_pod_rounds(entrants, size)))


def parse_tiebreak(text: str) -> Tiebreak:
    try:
        return Tiebreak(text.strip().replace("-", "_"))
    except ValueError:
        known = ", ".join(t.value for t in Tiebreak)
        raise ValueError(f"unknown tie-break {text!r}: choose from {known}") from None


def start(client: redis.Redis, name: str) -> int:
    """Start a created tournament; how many rounds were scheduled. Any other state is refused."""
    return len(event_runs.start(client, name))


def stop(client: redis.Redis, name: str) -> int:
    """Stop a running tournament: nothing more is played or queued, its results stay, and
    `resume` goes on. Any other state is refused. How many queued jobs were taken off."""
    TournamentStore(client).transition(name, Command.STOP, "the organiser stopped it")
    return event_liveness.take_off_queue(client, name)


def resume(client: redis.Redis, name: str) -> int:
    """Go on with a stopped tournament; how many unplayed encounters were queued again."""
    return event_runs.resume(client, name)


def enter_late(client: redis.Redis, name: str, entrant: str) -> None:
    store = TournamentStore(client)
    definition = store.get(name)
    if definition.format is not Format.SWISS:
        raise ValueError(f"{name} is a {definition.format.value}: only a Swiss takes late entries")
    if at_tables(definition):  # pods have no absence byes to make up for the rounds missed
        raise ValueError(f"{name} is played at tables: it takes no late entries")
    store.check(name, Command.ENTER)
    check_entrants(client, [entrant], definition.game)
    store.enter_late(name, entrant)


def withdraw(client: redis.Redis, name: str, entrant: str) -> None:
    store = TournamentStore(client)
    definition = store.get(name)
    if definition.format is not Format.SWISS:
        raise ValueError(
            f"{name} is a {definition.format.value}: its schedule is fixed, so withdrawals "
            "are only taken in a Swiss"
        )
    store.check(name, Command.WITHDRAW)
    store.withdraw(name, entrant)


@dataclass(frozen=True, slots=True)
class Progress:
    """How far an event has got: its encounters (matches of pairs, or tables) recorded and
    scheduled, its rounds scheduled and planned, its state and why it stopped, if it did."""

    done: int
    scheduled: int
    rounds: int
    planned: int
    status: Status
    reason: str

    @property
    def over(self) -> bool:
        return self.status in (Status.FINISHED, Status.STOPPED)


def progress(
    client: redis.Redis, name: str, definition: TournamentDefinition | None = None
) -> Progress:
    """Counted without reading any result: watchers and the site's live view poll this."""
    store = TournamentStore(client)
    definition = definition or store.get(name)
    encounters = encounters_of(client, definition)
    rounds = encounters.rounds(name)
    done, scheduled = encounters.recorded_count(name), sum(len(boards(r)) for r in rounds)
    status, reason = store.status(name), store.reason(name)
    return Progress(done, scheduled, len(rounds), definition.planned_rounds, status, reason)


def standings_at_tables(client: redis.Redis, name: str) -> list[TableStanding]:
    """The standings of an event of tables, from its stored tables and byes."""
    history = pod_history(client, name)
    entrants = TournamentStore(client).entrants(name)
    return table_standings(entrants, history.results, history.byes, TABLE_BYE_POINTS)


def bye_cell(bye: Bye, points: ByePoints) -> str:
    """`r3 U` for a pairing bye in round 3, `r1 Z` for a missed round (TRF codes)."""
    return f"r{bye.round} {'U' if bye.kind is ByeKind.PAIRING else _absence_code(points)}"


def bye_footer(points: ByePoints, format: Format) -> str:
    """What each kind of bye scores, in the words of the table it explains."""
    sits_out = "odd field: one entrant sits out each round"
    text = f"byes: U = pairing bye ({sits_out}) scores {_points_text(points.pairing)}"
    if format is Format.SWISS:
        text += (
            f"; {_absence_code(points)} = a missed round (late entry) scores "
            f"{_points_text(points.absent)}"
        )
    return text + "; counted in pts"


def _absence_code(points: ByePoints) -> str:
    return {0.0: "Z", 0.5: "H", 1.0: "F"}[points.absent]


def _points_text(value: float) -> str:
    return "1 point" if value == 1 else f"{points_text(value)} points"


@dataclass(frozen=True, slots=True)
class _Sheet:
    """What an export writes of one event's standings: CSV columns and rows, and the JSON's
    (pairs and tables rank by different scores, so their columns differ)."""

    columns: list[str]
    rows: list[list[object]]
    standings: list[dict[str, object]]


def export_formats(definition: TournamentDefinition) -> tuple[str, ...]:
    """What an event exports to: TRF is for two-sided games, so an event of tables has none."""
    return tuple(f for f in EXPORT_FORMATS if f != "trf" or not at_tables(definition))


def export(client: redis.Redis, name: str, fmt: str, through_round: int | None = None) -> str:
    """Standings and results as JSON or CSV, or a FIDE TRF file (pairs only; `through_round`
    cuts it after that round)."""
    if fmt not in EXPORT_FORMATS:
        raise ValueError(f"no export format {fmt!r}: choose {', '.join(EXPORT_FORMATS)}")
    store = TournamentStore(client)
    definition = store.get(name)
    if fmt == "trf":
        return _trf(store, definition, through_round)
    sheet = _table_sheet(client, name) if at_tables(definition) else _pair_sheet(store, definition)
    if fmt == "json":
        encounters = encounters_of(client, definition)
        results = encounters.results(name).values()
        return json.dumps(
            {
                "definition": json.loads(definition.to_json()),
                "status": store.status(name).value,
                "standings": sheet.standings,
                "rounds": [json.loads(round_to_json(r)) for r in encounters.rounds(name)],
                noun(definition, 2): [json.loads(r.to_json()) for r in results],
            },
            indent=2,
            sort_keys=True,
        )
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(sheet.columns)
    writer.writerows(sheet.rows)
    return out.getvalue()


def _trf(store: TournamentStore, definition: TournamentDefinition, through: int | None) -> str:
    name = definition.name
    if "trf" not in export_formats(definition):
        raise ValueError(
            f"{name} is a tournament of tables: TRF is for two-sided games; "
            "use --format json or csv"
        )
    history = store.history(name)
    return export_trf(
        store.entrants(name),
        history.results,
        history.byes,
        through_round=through,
        total_rounds=definition.planned_rounds,
        tournament_name=name,
        bye_points=definition.bye_points,
        tiebreaks=definition.tiebreaks,
    )


def _pair_sheet(store: TournamentStore, definition: TournamentDefinition) -> _Sheet:
    name, ties = definition.name, definition.tiebreaks
    history = store.history(name)
    rows = standings(store.entrants(name), history.results, history.byes, ties,
                     definition.bye_points)  # fmt: skip
    return _Sheet(
        columns=["rank", "entrant", "points", "game_points", "wins", *(t.value for t in ties)],
        rows=[
            [r.rank, r.entrant, r.points, r.game_points, r.wins, *(r.tiebreak(t) for t in ties)]
            for r in rows
        ],
        standings=[
            {
                "rank": r.rank,
                "entrant": r.entrant,
                "points": r.points,
                "game_points": r.game_points,
                "wins": r.wins,
                "tiebreaks": {t.value: r.tiebreak(t) for t in ties},
            }
            for r in rows
        ],
    )


def _table_sheet(client: redis.Redis, name: str) -> _Sheet:
    rows = standings_at_tables(client, name)
    columns = ["rank", "entrant", "points", "tables", "wins", "average_score", "byes"]
    values: list[list[object]] = [
        [r.rank, r.entrant, r.points, r.tables, r.wins, r.average_score, r.byes] for r in rows
    ]
    return _Sheet(
        columns=columns,
        rows=values,
        standings=[
            {**dict(zip(columns, v, strict=True)), "seats": list(r.seats)}
            for r, v in zip(rows, values, strict=True)
        ],
    )
