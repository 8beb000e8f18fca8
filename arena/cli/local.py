"""Local commands: play bots against each other, replay a record, list cards, the small demo."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from arena.bots import make_bot
from arena.games import base_config, get_game
from arena.games.action_words import action_words
from arena.games.api import Config, ConfigError, Game, Result
from arena.games.record import GameRecord, outcome_text, replay_states
from arena.hosted.local import command_of, is_program, started_programs
from arena.hosted.program import Program
from arena.play.hosted import playable
from arena.play.hosted_versions import PREFIX as HOSTED_PREFIX
from arena.play.local import PlayedGame, play_rotation
from arena.referee.seats import Layout, layout, lineup, side_results
from arena.stats import mean_ci, proportion_ci, ranks


@dataclass
class Tally:
    """What one bot did over a series of games, `sides` the game's number of sides."""

    name: str
    sides: int
    scores: list[int] = field(default_factory=list)
    placements: list[float] = field(default_factory=list)
    wins: int = 0
    side_games: list[int] = field(default_factory=list)
    side_wins: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.side_games, self.side_wins = [0] * self.sides, [0] * self.sides


def progress_bar(console: Console) -> Progress:
    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    )


def run_play(
    console: Console,
    bots: Sequence[str],
    players: int,
    deals: int,
    seed: int,
    game_id: str,
    city: str | None,
    duplicate: bool,
    save: Path | None,
    sandboxed: bool = True,
    runtimes: Sequence[Path] = (),
    redis_url: str | None = None,
) -> None:
    """Play `bots` against each other, one a side: two for 2 players and for the 4-player team
    game (each bot plays both seats of its team, V11), three for the Snitch game. With
    `duplicate` each deal is played once per rotation of the sides (V12). A bot named
    "cmd:COMMAND" is a program run in the current folder (in the sandbox unless not
    `sandboxed`), started once for every game; "hosted:NAME[@VERSION]" a hosted bot's stored
    version (from the Redis at `redis_url`), built first if it was not yet."""
    if deals < 1:
        raise ConfigError("--games must be at least 1")
    game = get_game(game_id)
    config: Config = base_config(game_id, city, players)
    seating = _seating(game, config, players, len(bots))
    hosted = _hosted_programs(bots, redis_url)
    for name in bots:  # fails fast on an unknown bot, before any progress bar
        if name not in hosted:
            command_of(name) if is_program(name) else make_bot(name)
    game.create(config, seed)  # and on a bad config
    sides = len(seating.sides)
    tallies = [Tally(f"{chr(ord('A') + i)}: {bot}", sides) for i, bot in enumerate(bots)]
    deal_totals: list[list[int]] = []
    total = deals * (sides if duplicate else 1)
    with (
        started_programs(bots, Path.cwd(), sandboxed, runtimes, given=hosted) as programs,
        progress_bar(console) as progress,
    ):
        task = progress.add_task(" vs ".join(bots), total=total)
        for deal in range(deals):
            # Without --duplicate, the sides rotate so no bot always sits in the same one.
            rotations = range(sides) if duplicate else [deal % sides]
            totals = [0] * len(bots)
            for index, rotation in enumerate(rotations):
                played = play_rotation(game, config, seed + deal, bots, rotation, programs)
                for bot, score in _record(tallies, seating, rotation, played.result).items():
                    totals[bot] += score
                if save is not None:
                    _save(save, played, deal, index)
                progress.advance(task)
            deal_totals.append(totals)
        _report_programs(console, programs)
    console.print(_play_table(tallies, seating, total))
    if duplicate:
        console.print(_duplicate_summary(deal_totals))
    if save is not None:
        console.print(f"Game records written to {save}/")


def _hosted_programs(
    bots: Sequence[str], redis_url: str | None
) -> dict[str, tuple[Sequence[str], Path, Sequence[Path], str]]:
    """The command, folder, lent folders and runtime of each "hosted:" bot in `bots`, its
    version ready to start."""
    names = [name for name in bots if name.startswith(HOSTED_PREFIX)]
    if not names:
        return {}
    from arena.cli.network import require_redis_url
    from arena.store.server import connect

    client = connect(require_redis_url(redis_url))
    found = {name: playable(client, name) for name in dict.fromkeys(names)}
    return {
        name: (ready.command, ready.folder, ready.runtimes, ready.runtime)
        for name, ready in found.items()
    }


def _report_programs(console: Console, programs: Mapping[str, Program]) -> None:
    """Why a program stopped playing before the end, and the last lines of its stderr."""
    for name, program in programs.items():
        if program.gone is not None:
            console.print(f"{name} stopped playing: {program.gone}")
            if tail := program.stderr.strip().splitlines()[-5:]:
                console.print("its stderr ends with:\n" + "\n".join(tail), markup=False)


def _seating(game: Game[Any, Any], config: Config, players: int, bots: int) -> Layout:
    """The game's seats for `players`, checked against the number of bots given."""
    seating = layout(game, config)
    if seating.seat_count != players:
        raise ConfigError(f"{game.name} is played by {seating.seat_count} players, not {players}")
    names = [seating.label(side) for side in range(len(seating.sides))]
    if bots != len(names):
        sides = ", ".join(names[:-1]) + f" and {names[-1]}"
        raise ConfigError(
            f"{game.name} with {players} players needs {len(names)} bots, one for each side "
            f"({sides}), not {bots}"
        )
    return seating


def _record(
    tallies: Sequence[Tally], seating: Layout, rotation: int, result: Result
) -> dict[int, int]:
    """Add one game to the tallies; return each bot's points in it."""
    bots = lineup(range(len(tallies)), rotation)  # the bot of each side
    for side, (bot, how) in enumerate(zip(bots, side_results(result, seating), strict=True)):
        tally = tallies[bot]
        tally.scores.append(how.score)
        tally.placements.append(how.place)
        tally.side_games[side] += 1
        tally.wins += how.won
        tally.side_wins[side] += how.won
    return {bot: tallies[bot].scores[-1] for bot in bots}


def _play_table(tallies: Sequence[Tally], seating: Layout, games: int) -> Table:
    table = Table(title=f"{games} games")
    sides = [f"as {seating.label(side)}" for side in range(len(seating.sides))]
    for column in ("bot", "wins", "win rate (95% CI)", "mean score (95% CI)", "mean place", *sides):
        table.add_column(column, justify="left" if column == "bot" else "right")
    for tally in tallies:
        side_rates = [
            f"{wins}/{played}" if played else "-"
            for wins, played in zip(tally.side_wins, tally.side_games, strict=True)
        ]
        table.add_row(
            tally.name,
            str(tally.wins),
            str(proportion_ci(tally.wins, games)),
            str(mean_ci(tally.scores)),
            f"{sum(tally.placements) / games:.2f}",
            *side_rates,
        )
    return table


def _duplicate_summary(deal_totals: Sequence[Sequence[int]]) -> str:
    """Duplicate deals compared by each bot's points over all the deal's rotations."""
    deals = len(deal_totals)
    if len(deal_totals[0]) == 2:
        pair_margins = [a - b for a, b in deal_totals]
        wins = sum(m > 0 for m in pair_margins)
        draws = sum(m == 0 for m in pair_margins)
        share = proportion_ci(wins + draws / 2, deals)
        return (
            f"Duplicate pairs: A won {wins}, drew {draws}, lost {deals - wins - draws} of {deals} "
            f"(A's pair score {share}); mean pair margin for A {mean_ci(pair_margins)}"
        )
    places = [ranks(totals) for totals in deal_totals]
    means = [sum(deal[bot] for deal in places) / deals for bot in range(len(deal_totals[0]))]
    named = ", ".join(f"{chr(ord('A') + bot)} {mean:.2f}" for bot, mean in enumerate(means))
    return (
        f"Duplicate tables ({deals} deals, each played in every rotation of the seats): "
        f"mean place by the points over a deal's rotations: {named}"
    )


def _save(directory: Path, played: PlayedGame, deal: int, index: int) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    record = played.record
    city = f"-{record.config['city']}" if "city" in record.config else ""
    players = f"-{record.config['players']}p" if "players" in record.config else ""
    name = f"{record.game}{city}{players}-seed{record.seed}-deal{deal}-{index}.json"
    (directory / name).write_text(record.dumps() + "\n", encoding="utf-8")


def run_replay(console: Console, path: Path, seat: int | None) -> None:
    record = GameRecord.load(path)
    game = get_game(record.game)
    seats = layout(game, record.config).seat_count
    players = record.players or tuple(f"seat {seat}" for seat in range(seats))
    console.print(
        f"[bold]{record.game}[/] v{record.rules_version} {dict(record.config)} seed {record.seed}: "
        f"{' vs '.join(players)}"
    )
    previous: Any = None
    state: Any = None
    for text, state in replay_states(record):
        mover = None if previous is None else game.current_player(previous)
        if text is not None and mover is not None:
            observed = game.observation(previous, mover if seat is None else seat).to_json()
            if seat is not None and hasattr(game, "action_seen_by"):  # hidden passes stay hidden
                text = game.action_seen_by(previous, game.parse_action(text), seat)
            words = action_words(record.game, text)
            console.print(f"  round {observed.get('round', '?')}  {players[mover]:>12}: {words}")
        previous = state
    console.print(game.render(state, seat))
    if game.is_terminal(state):
        console.print(_result_table(game.result(state), players))
    else:
        console.print(f"(the record stops before the end: {record.termination})")


def _result_table(result: Any, players: Sequence[str]) -> Table:
    table = Table(title="Score")
    table.add_column("category")
    for name in players:
        table.add_column(name, justify="right")
    capers = result.details.get("capers")
    markers = result.details.get("markers")  # Caper: Europe
    for index, name in enumerate(result.details.get("locations", ())):
        if capers:
            table.add_row(f"capers at {name}", *(str(row[index]) for row in capers))
        if markers:
            fields = zip(
                result.details["location_fields"], result.details["card_fields"], strict=True
            )
            table.add_row(
                f"{name} (marker {markers[index]:+d})",
                *(str(place[index] + cards[index]) for place, cards in fields),
            )
    # Seats may score by other categories (the Snitch of 3-player Caper): show every one.
    for category in dict.fromkeys(name for b in result.breakdown for name in b):
        cells = (str(b[category]) if category in b else "" for b in result.breakdown)
        table.add_row(category.replace("_", " "), *cells)
    table.add_row("[bold]total", *(f"[bold]{s}" for s in result.scores))
    tiebreak = f" on {result.tiebreak}" if result.tiebreak else ""
    table.caption = f"result: {outcome_text(result.to_json(), players)}{tiebreak}"
    return table


def run_cards(console: Console, game_id: str, city: str | None) -> None:
    from arena.games.caper.cards import CATALOGUE, City

    if game_id == "age-of-thieves":  # its data, listed before its rules engine is registered
        from arena.cli.aot_cards import aot_cards_tables

        for table in aot_cards_tables(city):
            console.print(table)
        return
    get_game(game_id)
    if game_id == "caper-europe":
        from arena.cli.europe_cards import europe_cards_table

        console.print(europe_cards_table(city))
        return
    if city is not None and city not in {c.value for c in City}:
        raise ConfigError(f"unknown city {city!r}")
    table = Table(title=f"{game_id} cards" + (f" ({city})" if city else ""))
    for column in ("card", "kind", "city", "colour", "cost", "income", "copies", "ability"):
        table.add_column(column)
    for card in CATALOGUE.values():
        if city is None or card.city.value in ("base", city):
            gear = card.kind.value == "gear"
            table.add_row(
                card.name,
                card.kind.value,
                card.city.value,
                card.colour.value if gear else "",
                str(card.cost) if gear else "",
                str(card.income) if card.kind.value == "thief" else "",
                str(card.copies),
                card.text,
            )
    console.print(table)
