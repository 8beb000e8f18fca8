"""Ladders of the Snitch game (tables of three, V12) and of the 4-player team game (V11): how
tables are drawn, scored from placements and rated once, and the CLI around them."""

from __future__ import annotations

import json
import random
import time

import redis
from click.testing import CliRunner, Result
from rich.console import Console

from arena.cli import main
from arena.cli.ladder_views import print_match
from arena.games.api import Config
from arena.games.caper import CAPER
from arena.games.record import GameRecord, replay
from arena.ratings.matchmaking import Candidate, choose_tables, weng_lin_candidate
from arena.referee.seats import layout, placements
from arena.store import keys
from arena.store.ladders import LadderDefinition, LadderStore, ladder_ref
from arena.store.ratings import RatedResult, RatingStore, TableResult
from arena.store.values import as_text
from workers.ladder import ladder_match_id, play_and_rate
from workers.matchmaker import Matchmaker, run_ladder

SNITCH: Config = {"city": "paris", "players": 3}
TEAMS: Config = {"city": "paris", "players": 4}


def arena(url: str, *args: str) -> Result:
    return CliRunner().invoke(main, [*args, "--redis-url", url], catch_exceptions=False)


def one_line_error(result: Result, expected: str) -> None:
    assert result.exit_code == 1, result.output
    assert expected in result.output, result.output
    assert "Traceback" not in result.output


def _record(client: redis.Redis, game_id: str) -> GameRecord:
    stored = client.get(keys.game_record(game_id))
    assert stored is not None, game_id
    return GameRecord.loads(as_text(stored))


def test_tables_group_bots_of_similar_rating_disjoint_and_reproducibly() -> None:
    low = [Candidate(f"low{i}", 1500 + i, 50, 10) for i in range(3)]
    high = [Candidate(f"high{i}", 2500 + i, 50, 10) for i in range(3)]
    for seed in range(20):
        tables = choose_tables([*low, *high], 3, 5, random.Random(seed))
        assert len(tables) == 2 and all(len(set(t)) == 3 for t in tables)
        assert sorted(name for t in tables for name in t) == sorted(c.name for c in low + high)
        assert all(len({name[:3] for name in t}) == 1 for t in tables), tables
        shuffled = list(reversed([*low, *high]))
        assert tables == choose_tables(shuffled, 3, 5, random.Random(seed))
    # Too few idle bots for a table: none; slots bound the number of tables.
    assert choose_tables(low[:2], 3, 5, random.Random(1)) == []
    assert len(choose_tables([*low, *high], 3, 1, random.Random(1))) == 1


def test_the_neediest_bot_always_gets_a_seat() -> None:
    settled = [Candidate(f"s{i}", 1500, 40, 200) for i in range(5)]
    newcomer = weng_lin_candidate("new", 25.0, 25.0 / 3.0, 0)
    assert (newcomer.rating, newcomer.rd) == (1500.0, 350.0)  # Weng-Lin's start on Glicko's scale
    for seed in range(20):
        (table,) = choose_tables([*settled, newcomer], 3, 1, random.Random(seed))
        assert "new" in table


def test_V12_a_table_is_rated_once_from_its_placements(redis_client: redis.Redis) -> None:
    ladder = LadderDefinition(ladder_ref("snitch"), config=SNITCH, bots=("random", "greedy"))
    LadderStore(redis_client).create(ladder)
    assert ladder.games_per_match == 3  # one duplicate table: every entrant in every seat
    players = ("greedy", "random", "search#4")
    summary = play_and_rate(redis_client, ladder.ref.slug, 5, players)
    assert summary["rated"] is True
    match_id = ladder_match_id(ladder.ref.slug, 5)
    (result,) = RatingStore(redis_client).results(ladder)
    assert isinstance(result, TableResult) and result.games == 3
    # Placements from the stored games, each entrant's side looked up by its seat.
    seating = layout(CAPER, SNITCH)
    places: dict[str, list[float]] = {p: [] for p in players}
    seats_played: dict[str, set[int]] = {p: set() for p in players}
    for index in range(3):
        record = _record(redis_client, f"{match_id}.g{index}")
        _, played = replay(record)  # the stored result is what its actions give
        assert played is not None
        side_places = placements(played, seating)
        for side, seats in enumerate(seating.sides):
            places[record.players[seats[0]]].append(side_places[side])
        for seat, name in enumerate(record.players):
            seats_played[name].add(seat)
    assert all(seats_played[p] == {0, 1, 2} for p in players)  # Cream, Mint and Snitch once
    expected = {p: (3 - sum(places[p]) / 3) / 2 for p in players}
    assert {names[0]: score for names, score in result.sides} == expected
    assert sum(score for _, score in result.sides) == 1.5  # placement points: k/2 a table
    assert summary["points"] == [expected[p] for p in players]
    store = RatingStore(redis_client)
    before = store.standings(ladder, players)
    # A second play of the same table (a job run twice) scores the same id: not rated again.
    again = play_and_rate(redis_client, ladder.ref.slug, 5, players)
    assert again["rated"] is False
    replayed = TableResult(match_id, result.sides, time.time(), 3)
    assert store.apply(ladder, replayed) is None
    assert store.standings(ladder, players) == before and len(store.results(ladder)) == 1
    # Only Weng-Lin rates a table: Elo and Glicko-2 stay where they started.
    assert all(s.elo == 1500 and s.rating == 1500 and s.games == 1 for s in before.values())
    assert len({s.mu for s in before.values()}) > 1


def test_V11_a_team_ladder_plays_both_seats_of_each_team_and_rates_like_pairs(
    redis_client: redis.Redis,
) -> None:
    ladder = LadderDefinition(ladder_ref("teams"), config=TEAMS, bots=("random", "greedy"))
    LadderStore(redis_client).create(ladder)
    summary = run_ladder(Matchmaker(redis_client, ladder, seed=3), max_matches=2, inline=True)
    assert (summary.enqueued, summary.finished) == (2, 2)
    store = RatingStore(redis_client)
    results = store.results(ladder)
    assert all(isinstance(r, RatedResult) and r.games == 2 for r in results)
    first = results[0]
    assert isinstance(first, RatedResult)
    seats = _record(redis_client, f"{first.result_id}.g0").players
    assert list(seats) == [first.player_a, first.player_b] * 2  # Mastermind and Lookout each
    board = dict(store.leaderboard(ladder))
    assert {s.games for s in board.values()} == {2}
    assert any(s.elo != 1500 for s in board.values()) and any(s.mu != 25 for s in board.values())


def test_cli_creates_runs_and_shows_a_table_ladder(
    redis_client: redis.Redis, redis_server_url: str
) -> None:
    url = redis_server_url
    bots = "random,greedy,search#4"
    created = arena(url, "ladder", "create", "snitch", "--players", "3", "--bots", bots)
    assert created.exit_code == 0, created.output
    assert "tables of 3" in created.output and "Weng-Lin" in created.output
    ran = arena(url, "ladder", "run", "snitch", "--max-matches", "2", "--inline", "--seed", "2")
    assert ran.exit_code == 0, ran.output
    assert "2 matches: 2 played, 0 failed" in ran.output and "Weng-Lin" in ran.output
    assert "Elo" not in ran.output  # a table ladder shows no Elo at all
    shown = arena(url, "ladder", "show", "snitch")
    assert shown.exit_code == 0, shown.output
    assert shown.output == arena(url, "ladder", "show", "snitch", "--by", "ordinal").output
    history = arena(url, "ladder", "history", "snitch", "greedy")
    assert history.exit_code == 0 and "place" in history.output
    rebuilt = arena(url, "ladder", "rebuild", "snitch")
    assert rebuilt.exit_code == 0 and "identical" in rebuilt.output
    assert arena(url, "ladder", "show", "snitch").output == shown.output
    assert arena(url, "ladder", "history", "snitch", "greedy").output == history.output
    teams = arena(url, "ladder", "create", "teams", "--players", "4")
    assert teams.exit_code == 0 and "teams of 2 seats" in teams.output and "Elo" in teams.output
    fixed = redis_client.hget(keys.ladder("caper.v1.teams"), "definition")
    assert fixed is not None
    stored = json.loads(as_text(fixed))
    assert stored["config"] == TEAMS and stored["games_per_match"] == 2
    listed = arena(url, "ladder", "list").output
    assert "3 (tables)" in listed and "4 (teams)" in listed


def test_bad_table_ladder_input_gives_one_clear_line(
    redis_client: redis.Redis, redis_server_url: str
) -> None:
    url = redis_server_url
    one_line_error(
        arena(url, "ladder", "create", "five", "--players", "5"),
        "a ladder's players must be 2, 3 or 4, not 5",
    )
    one_line_error(
        arena(url, "ladder", "create", "s", "--players", "3", "--games-per-match", "4"),
        "games per table must be a multiple of 3",
    )
    one_line_error(
        arena(url, "ladder", "create", "t", "--players", "4", "--games-per-match", "3"), "even"
    )
    assert arena(url, "ladder", "create", "snitch", "--players", "3").exit_code == 0
    for board in ("elo", "glicko"):
        one_line_error(
            arena(url, "ladder", "show", "snitch", "--by", board),
            f"plays tables of 3, which only Weng-Lin rates: it has no {board} order",
        )


def test_a_table_mate_of_last_time_is_drawn_less_often() -> None:
    pool = [Candidate(name, 1500, 60, 50) for name in "abcdef"]
    last = {"a": ("b", "c"), "b": ("a", "c"), "c": ("a", "b")}
    again = fresh = 0
    for seed in range(300):
        (table,) = choose_tables(pool, 3, 1, random.Random(seed), last)
        if "a" in table:
            mates = set(table) - {"a"}
            again += len(mates & {"b", "c"})
            fresh += len(mates - {"b", "c"})
    # Without the penalty b or c would be a's mate 2 times for 3 of d, e, f; with it, far fewer.
    assert again * 5 < fresh * 2, (again, fresh)


def test_the_run_lines_say_what_each_match_or_table_did() -> None:
    console = Console(record=True, width=200)
    listen = print_match(console)
    table = ("a", "b", "c")
    rated = {"match_id": "m1", "points": [1.0, 0.5, 0.0], "ordinal": [1.0, 0.0, -1.0]}
    listen("j1", table, "finished", {**rated, "ordinal_change": [1.0, 0.0, -1.0], "rated": True})
    listen("j2", table, "finished", {"match_id": "m2", "players": list(table), "rated": False})
    listen("j3", ("a", "b"), "finished", {"match_id": "m3", "players": ["a", "b"], "rated": False})
    listen("j4", table, "failed", None)
    lines = console.export_text().splitlines()
    assert lines == [
        "m1: a 1.00, b 0.50, c 0.00   Weng-Lin a 1.00 (+1.00), b 0.00 (+0.00), c -1.00 (-1.00)",
        "m2: a, b, c was rated already",
        "m3: a vs b was rated already",
        "j4: a vs b vs c failed",
    ]
