"""`arena tournament ...` and `arena worker`: organising tournaments that the worker pool plays."""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Sequence

import redis
from rich.table import Table

from arena.bots import BUILTIN_BOTS, builtin_name, make_bot
from arena.cli import table_views
from arena.games import base_config, get_game
from arena.match.table_score import table_size
from arena.ratings import BTFit, RatingError, fit_bradley_terry
from arena.store.bots import BotRegistry
from arena.store.tournaments import TournamentStore, round_to_json
from arena.tournament import Bye, ByeKind, ByePoints, Tiebreak, crosstable, export_trf, standings
from arena.tournament.definition import Format, TimeControl, TournamentDefinition
from arena.tournament.lifecycle import Command
from arena.tournament.points_text import points_text
from arena.tournament.swiss import SwissSystem, max_swiss_rounds
from workers import liveness, tournament

TIEBREAK_LABELS = {  # short headers keep the table readable in 80 columns; the caption explains
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
    unknown = [
        e for e in entrants if builtin_name(e) not in BUILTIN_BOTS and registry.by_name(e) is None
    ]
    if unknown:
        builtin = ", ".join(sorted(BUILTIN_BOTS))
        raise UnknownEntrantError(
            f"unknown entrant(s): {', '.join(unknown)} (register them with `arena bot register`, "
            f"or use a built-in bot: {builtin})"
        )
    for entrant in entrants:
        registry.check_plays(entrant, game)


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
) -> TournamentDefinition:
    # 2 players is the game's default: left out, so 2-player configs stay as they were
    config = base_config(game, city, players)  # no city for a game played on one board
    get_game(game).create(config, seed)  # a bad game, city or number of players fails here
    size = table_size(get_game(game), config)  # 3+ sides: a tournament of tables
    if games_per_match is None:  # a duplicate table plays its deal once per rotation (V12)
        games_per_match = size or 2
    if format == Format.SWISS and rounds is None:
        count = len(entrants)
        rounds = table_views.default_rounds(count, size) if size else default_swiss_rounds(count)
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
    )
    check_entrants(client, definition.entrants, game)
    TournamentStore(client).create(definition)
    return definition


def default_swiss_rounds(entrants: int) -> int:
    """Enough rounds for one entrant to win them all, if pairings allow that many."""
    if entrants < 2:
        return 1  # the definition then explains what is wrong
    return max(1, min(math.ceil(math.log2(entrants)), max_swiss_rounds(entrants)))


def parse_tiebreak(text: str) -> Tiebreak:
    try:
        return Tiebreak(text.strip().replace("-", "_"))
    except ValueError:
        known = ", ".join(t.value for t in Tiebreak)
        raise ValueError(f"unknown tie-break {text!r}: choose from {known}") from None


def standings_table(client: redis.Redis, name: str) -> Table:
    """Points, tie-breaks and a Bradley-Terry rating fitted to every game of the event."""
    store = TournamentStore(client)
    definition = store.get(name)
    if definition.table_size:
        return table_views.standings_table(client, name)
    history, entrants = store.history(name), store.entrants(name)
    rows = standings(
        entrants, history.results, history.byes, definition.tiebreaks, definition.bye_points
    )
    fit = _rating_fit(store.games(name), entrants)
    ties = [TIEBREAK_LABELS[t] for t in definition.tiebreaks]
    caption = ", ".join(f"{short} = {long}" for short, long in ties)
    caption += f"; {bye_footer(definition.bye_points, definition.format)}"
    if fit is not None:
        caption += f"; {fit.caption()}"
    table = Table(title=f"{name}: standings ({store.status(name).value})", caption=caption)
    table.add_column("#", justify="right")
    table.add_column("entrant", no_wrap=True)
    for header in ("pts", "game pts", "n", "wins", *(short for short, _ in ties)):
        table.add_column(header, justify="right")
    table.add_column("rating", justify="right", no_wrap=True)
    for row in rows:
        table.add_row(
            str(row.rank),
            row.entrant,
            points_text(row.points),
            points_text(row.game_points),
            str(row.matches),
            str(row.wins),
            *(points_text(row.tiebreak(t)) for t in definition.tiebreaks),
            _rating_cell(fit, row.entrant),
        )
    return table


def _rating_fit(games: list[tuple[str, str, float]], entrants: Sequence[str]) -> BTFit | None:
    try:
        return fit_bradley_terry(games, entrants=entrants)
    except RatingError:
        return None  # too few games yet to say anything


def _rating_cell(fit: BTFit | None, entrant: str) -> str:
    if fit is None:
        return "-"
    estimate = fit.estimate(entrant)
    return f"{estimate.rating:.0f} ±{(estimate.high - estimate.low) / 2:.0f}"


def crosstable_table(client: redis.Redis, name: str) -> Table:
    """Rows and columns in final-rank order; byes in their own column; the footer says what a
    bye scores, from the same `ByePoints` the points column was computed with."""
    store = TournamentStore(client)
    definition = store.get(name)  # an unknown name fails here, clearly
    if definition.table_size:
        return table_views.crosstable_table(client, name)
    entrants, history = store.entrants(name), store.history(name)
    rows = standings(
        entrants, history.results, history.byes, definition.tiebreaks, definition.bye_points
    )
    ranked = [row.entrant for row in rows]
    grid = crosstable(entrants, history.results)
    table = Table(
        title=f"{name}: crosstable (game points)",
        caption=bye_footer(definition.bye_points, definition.format),
    )
    table.add_column("#", justify="right")
    table.add_column("entrant", no_wrap=True)
    for index, _ in enumerate(ranked, start=1):
        table.add_column(str(index), justify="center")
    table.add_column("byes")
    table.add_column("pts", justify="right")
    for index, row in enumerate(rows, start=1):
        cells = []
        for other in ranked:
            met = grid[row.entrant][other] if other != row.entrant else None
            cells.append(
                "x" if met is None else " ".join(points_text(e.game_points) for e in met) or "."
            )
        byes = [
            bye_cell(b, definition.bye_points) for b in history.byes if b.entrant == row.entrant
        ]
        table.add_row(f"{index}", row.entrant, *cells, " ".join(byes), points_text(row.points))
    return table


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


def export(client: redis.Redis, name: str, fmt: str, through_round: int | None = None) -> str:
    store = TournamentStore(client)
    definition = store.get(name)
    if definition.table_size:
        return table_views.export(client, name, fmt)
    history = store.history(name)
    if fmt == "trf":
        return export_trf(
            store.entrants(name),
            history.results,
            history.byes,
            through_round=through_round,
            total_rounds=definition.planned_rounds,
            tournament_name=name,
            bye_points=definition.bye_points,
            tiebreaks=definition.tiebreaks,
        )
    rows = standings(
        store.entrants(name), history.results, history.byes, definition.tiebreaks,
        definition.bye_points,
    )  # fmt: skip
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
                "rounds": [json.loads(round_to_json(r)) for r in store.rounds(name)],
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


def enter_late(client: redis.Redis, name: str, entrant: str) -> None:
    store = TournamentStore(client)
    definition = store.get(name)
    if definition.format is not Format.SWISS:
        raise ValueError(f"{name} is a {definition.format.value}: only a Swiss takes late entries")
    if definition.table_size:  # pods have no absence byes to make up for the rounds missed
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


def start(client: redis.Redis, name: str) -> int:
    """Start a created tournament; how many rounds were scheduled. Any other state is refused."""
    return len(tournament.start(client, name))


def stop(client: redis.Redis, name: str) -> int:
    """Stop a running tournament: nothing more is played or queued, its results stay, and
    `resume` goes on. Any other state is refused. How many queued jobs were taken off."""
    TournamentStore(client).transition(name, Command.STOP, "the organiser stopped it")
    return liveness.take_off_queue(client, name)
