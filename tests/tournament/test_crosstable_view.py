"""The crosstable and standings as `arena tournament` prints them, from a real Redis: rows in
final-rank order, byes shown, and a footer that says what a bye scores, as the points do."""

from __future__ import annotations

import secrets

import redis
from rich.console import Console
from rich.table import Table

from arena.cli import tournaments
from arena.services import events
from arena.store.results import StoredMatch, match_id
from arena.store.tournaments import TournamentStore
from arena.tournament import ByePoints, MatchResult, berger_rounds, late_entry_byes
from arena.tournament.definition import Format, TournamentDefinition


def render(table: Table) -> list[str]:
    console = Console(record=True, width=200)
    console.print(table)
    return console.export_text().splitlines()


def play_round_robin(client: redis.Redis, entrants: tuple[str, ...]) -> str:
    """A finished round robin in which the later seed always wins 2-0."""
    name = f"rr-{secrets.token_hex(3)}"
    store = TournamentStore(client)
    store.create(TournamentDefinition(name, Format.ROUND_ROBIN, entrants))
    for round_ in berger_rounds(entrants):
        store.save_round(name, round_)
        for board, p in enumerate(round_.pairings):
            later_is_seat0 = entrants.index(p.seat0) > entrants.index(p.seat1)
            points = (2, 0) if later_is_seat0 else (0, 2)
            result = MatchResult(round_.number, p.seat0, p.seat1, *points)
            store.record(name, StoredMatch(match_id(name, round_.number, board), result, (), (), 0))
    return name


def words(lines: list[str]) -> str:
    """The text with rich's wrapping undone."""
    return " ".join(" ".join(lines).split())


def row_of(lines: list[str], entrant: str) -> list[str]:
    """The cells of `entrant`'s row."""
    line = next(line for line in lines if f" {entrant} " in line)
    return line.replace("│", " ").split()


def test_crosstable_rows_follow_the_final_rank_and_show_byes(redis_client: redis.Redis) -> None:
    name = play_round_robin(redis_client, ("ann", "bob", "cat"))
    lines = render(tournaments.crosstable_table(redis_client, name))
    order = [e for line in lines for e in ("ann", "bob", "cat") if f" {e} " in line]
    assert order == ["cat", "bob", "ann"]  # cat beat both; seed order would be ann, bob, cat
    # cat: two wins and a bye; ann: two losses and a bye. Each sat out one round.
    cat, ann = row_of(lines, "cat"), row_of(lines, "ann")
    assert cat[-3].startswith("r") and cat[-2:] == ["U", "3"]
    assert ann[-2:] == ["U", "1"]
    # Column k is the entrant of row k: the diagonal is the "x".
    for index, entrant in enumerate(order):
        cells = row_of(lines, entrant)[2 : 2 + len(order)]
        assert cells[index] == "x"


def test_footer_says_a_round_robin_bye_scores_the_point_the_table_counts(
    redis_client: redis.Redis,
) -> None:
    name = play_round_robin(redis_client, ("ann", "bob", "cat"))
    footer = words(render(tournaments.crosstable_table(redis_client, name)))
    assert "U = pairing bye (odd field: one entrant sits out each round) scores 1 point" in footer
    standings = words(render(tournaments.standings_table(redis_client, name)))
    assert "scores 1 point" in standings
    # The points the footer promises are the points the tables show: 2 wins + 1 bye.
    assert row_of(render(tournaments.standings_table(redis_client, name)), "cat")[2] == "3"


def test_footer_follows_the_configured_bye_points() -> None:
    swiss = events.bye_footer(ByePoints(pairing=0.0, absent=0.5), Format.SWISS)
    assert "U = pairing bye" in swiss and "scores 0 points" in swiss
    assert "H = a missed round (late entry) scores 0.5 points" in swiss
    round_robin = events.bye_footer(ByePoints(), Format.ROUND_ROBIN)
    assert "scores 1 point" in round_robin and "missed round" not in round_robin
    assert [events.bye_cell(b, ByePoints()) for b in late_entry_byes("x", 3)] == [
        "r1 Z",
        "r2 Z",
    ]
