"""Scoring a duplicate table of the Snitch game (V12): each deal ranks its entrants by the places
they took over its rotations, then by card points; a faulty seat places last. And where a pair's
rule differs from a table's of two."""

from __future__ import annotations

from arena.games import get_game
from arena.games.api import Config, Result
from arena.games.record import GameRecord
from arena.referee.referee import GameOutcome, Termination
from arena.referee.scoring import score_match, score_table, table_size
from arena.referee.seats import forfeit_result, layout, lineup

CONFIG: dict[str, str | int] = {"city": "paris", "players": 3}
SEATING = layout(get_game("caper"), CONFIG)
TABLE = ("ann", "bob", "cat")
PAIR_CONFIG: Config = {"players": 2}


def _won(scores: tuple[int, int, int], winner: int) -> Result:
    return Result(scores, winner, ({}, {}, {}), details={"winners": [winner]})


def _seats(rotation: int) -> tuple[str, ...]:
    return SEATING.seat_names(lineup(TABLE, rotation))


def test_each_deal_ranks_by_places_then_card_points() -> None:
    # seat 0 wins every rotation of the deal: ann, cat, bob each win once (a tie on places)
    games = [(_won((30, 20, 10), 0), _seats(r)) for r in range(3)]
    tied = score_table(TABLE, games, SEATING, duplicate=True)
    assert tied.points == (0.5, 0.5, 0.5) and tied.wins == (1, 1, 1)
    assert tied.cards == (60, 60, 60)
    # ... unless card points differ: ann (seat 1 in rotation 1) scored most over the deal;
    # bob and cat stay level and share second and third place
    games[1] = (_won((30, 25, 10), 0), _seats(1))
    by_cards = score_table(TABLE, games, SEATING, duplicate=True)
    assert _seats(1) == ("cat", "ann", "bob")
    assert by_cards.points == (1.0, 0.25, 0.25) and by_cards.cards == (65, 60, 60)


def test_a_seat_at_fault_places_last_although_every_seat_scores_nothing() -> None:
    faulty = forfeit_result(SEATING, 2, "timeout")  # seat 2 at fault in every rotation
    games = [(faulty, _seats(r)) for r in range(3)]
    scored = score_table(TABLE, games, SEATING, duplicate=True)
    assert scored.points == (0.5, 0.5, 0.5), "each entrant was at fault once: level"
    assert scored.cards == (0, 0, 0) and scored.wins == (2, 2, 2), "the others share the win"
    # ann wins rotation 0 but is at fault in rotation 1 (seat 1): last at the table
    games = [
        (_won((30, 20, 10), 0), _seats(0)),
        (forfeit_result(SEATING, 1, "timeout"), _seats(1)),
        (_won((30, 20, 10), 0), _seats(2)),
    ]
    scored = score_table(TABLE, games, SEATING, duplicate=True)
    assert scored.points == (0.0, 1.0, 0.5)


def test_without_duplicates_every_game_is_a_unit() -> None:
    games = [(_won((30, 20, 10), 0), _seats(0)), (_won((30, 20, 10), 0), _seats(0))]
    scored = score_table(TABLE, games, SEATING, duplicate=False)
    assert scored.points == (2.0, 1.0, 0.0)


def test_only_games_of_three_or_more_sides_are_played_at_tables() -> None:
    caper = get_game("caper")
    assert table_size(caper, CONFIG) == 3
    assert table_size(caper, {"city": "paris"}) == 0
    assert table_size(caper, {"city": "paris", "players": 4}) == 0, "two teams: two sides"


def _outcome(result: Result, players: tuple[str, str]) -> GameOutcome:
    record = GameRecord("age-of-thieves", 1, PAIR_CONFIG, 0, (), players, result=result.to_json())
    return GameOutcome(record, result, Termination.NORMAL)


def test_a_pair_counts_wins_only_where_a_table_of_two_would_also_place_the_losers() -> None:
    seating = layout(get_game("age-of-thieves"), PAIR_CONFIG)
    won_by_ann = Result((10, 50), 0, ({}, {}), details={"winners": [0]})
    nobody_won = Result((5, 30), None, ({}, {}), details={"winners": []})  # bob scored more
    deal = [(won_by_ann, ("ann", "bob")), (nobody_won, ("ann", "bob"))]
    pair = score_match([_outcome(r, p) for r, p in deal], ["ann", "bob"], duplicate=True)
    assert pair.game_points == (1.0, 0.0), "ann won the only game anybody won"
    table = score_table(("ann", "bob"), deal, seating, duplicate=True)
    assert table.points == (0.0, 1.0), "one first place each, then bob's 80 card points to 15"
    # Where every game has a winner the two rules agree: a win each, then bob's 50 card points
    # to ann's 45.
    deal[1] = (Result((5, 30), 1, ({}, {}), details={"winners": [1]}), ("ann", "bob"))
    deal[0] = (Result((40, 20), 0, ({}, {}), details={"winners": [0]}), ("ann", "bob"))
    pair = score_match([_outcome(r, p) for r, p in deal], ["ann", "bob"], duplicate=True)
    table = score_table(("ann", "bob"), deal, seating, duplicate=True)
    assert pair.game_points == table.points == (0.0, 1.0)
