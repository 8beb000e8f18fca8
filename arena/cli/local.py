"""Local commands: play bots against each other, replay a record, list cards, the small demo."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from arena.bots import make_bot
from arena.games import get_game
from arena.games.api import Config, ConfigError
from arena.games.record import GameRecord, replay_states
from arena.match.local import PlayedGame, play_game
from arena.stats import mean_ci, proportion_ci


@dataclass
class Tally:
    """What one bot did over a series of games."""

    name: str
    scores: list[int] = field(default_factory=list)
    wins: int = 0
    seat_games: list[int] = field(default_factory=lambda: [0, 0])
    seat_wins: list[int] = field(default_factory=lambda: [0, 0])
    margins: list[int] = field(default_factory=list)


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
    bot_a: str,
    bot_b: str,
    deals: int,
    seed: int,
    game_id: str,
    config: Config,
    duplicate: bool,
    save: Path | None,
) -> None:
    if deals < 1:
        raise ConfigError("--games must be at least 1")
    game = get_game(game_id)
    bots = (make_bot(bot_a), make_bot(bot_b))
    game.create(config, seed)  # fails fast on a bad config, before any progress bar
    tallies = (Tally(f"A: {bot_a}"), Tally(f"B: {bot_b}"))
    pair_margins: list[int] = []
    total = deals * (2 if duplicate else 1)
    with progress_bar(console) as progress:
        task = progress.add_task(f"{bot_a} vs {bot_b}", total=total)
        for deal in range(deals):
            # Without --duplicate, seats alternate so neither bot always moves first.
            orders = [(0, 1), (1, 0)] if duplicate else [(0, 1) if deal % 2 == 0 else (1, 0)]
            margin = 0
            for index, order in enumerate(orders):
                seated = [bots[i] for i in order]
                played = play_game(game, config, seed + deal, seated)
                margin += _record(tallies, order, played)
                if save is not None:
                    _save(save, played, deal, index)
                progress.advance(task)
            pair_margins.append(margin)
    console.print(_play_table(tallies, total))
    if duplicate:
        wins = sum(m > 0 for m in pair_margins)
        draws = sum(m == 0 for m in pair_margins)
        share = proportion_ci(wins + draws / 2, deals)
        console.print(
            f"Duplicate pairs: A won {wins}, drew {draws}, lost {deals - wins - draws} of {deals} "
            f"(A's pair score {share}); mean pair margin for A {mean_ci(pair_margins)}"
        )
    if save is not None:
        console.print(f"Game records written to {save}/")


def _record(tallies: tuple[Tally, Tally], order: Sequence[int], played: PlayedGame) -> int:
    """Add one game to the tallies; return bot A's point margin."""
    scores = played.result.scores
    for seat, bot_index in enumerate(order):
        tally = tallies[bot_index]
        tally.scores.append(scores[seat])
        tally.margins.append(scores[seat] - scores[1 - seat])
        tally.seat_games[seat] += 1
        if played.result.winner == seat:
            tally.wins += 1
            tally.seat_wins[seat] += 1
    return tallies[0].margins[-1]


def _play_table(tallies: tuple[Tally, Tally], games: int) -> Table:
    table = Table(title=f"{games} games")
    for column in (
        "bot",
        "wins",
        "win rate (95% CI)",
        "mean score (95% CI)",
        "as seat 0",
        "as seat 1",
    ):
        table.add_column(column, justify="left" if column == "bot" else "right")
    for tally in tallies:
        seat_rates = [
            f"{tally.seat_wins[s]}/{tally.seat_games[s]}" if tally.seat_games[s] else "-"
            for s in (0, 1)
        ]
        table.add_row(
            tally.name,
            str(tally.wins),
            str(proportion_ci(tally.wins, games)),
            str(mean_ci(tally.scores)),
            *seat_rates,
        )
    return table


def _save(directory: Path, played: PlayedGame, deal: int, index: int) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    record = played.record
    city = record.config.get("city", "")
    name = f"{record.game}-{city}-seed{record.seed}-deal{deal}-{index}.json"
    (directory / name).write_text(record.dumps() + "\n", encoding="utf-8")


def run_replay(console: Console, path: Path, seat: int | None) -> None:
    record = GameRecord.load(path)
    game = get_game(record.game)
    players = record.players or ("seat 0", "seat 1")
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
            console.print(f"  round {observed.get('round', '?')}  {players[mover]:>12}: {text}")
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
    winners = result.details.get("winners", [result.winner])  # a team has several seats
    winner = " and ".join(players[seat] for seat in winners if seat is not None) or "nobody (draw)"
    tiebreak = f" on {result.tiebreak}" if result.tiebreak else ""
    table.caption = f"winner: {winner}{tiebreak}"
    return table


def run_cards(console: Console, game_id: str, city: str | None) -> None:
    from arena.games.caper.cards import CATALOGUE, City

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
