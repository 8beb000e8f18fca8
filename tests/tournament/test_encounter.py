"""The encounter model: what depends on the number of sides a board seats, decided in one place."""

from __future__ import annotations

from arena.tournament import PodHistory, Round, TableRound, berger_rounds, table_round_robin
from arena.tournament.definition import Format, TournamentDefinition
from arena.tournament.encounter import (
    at_tables,
    board_name,
    boards,
    describe_boards,
    noun,
    round_robin,
    sides,
    swiss_round,
)
from arena.tournament.swiss import History

FIELD = ("a", "b", "c", "d", "e", "f")


def _pairs(format: Format = Format.ROUND_ROBIN) -> TournamentDefinition:
    rounds = 3 if format is Format.SWISS else None
    return TournamentDefinition("p", format, FIELD, rounds=rounds)


def _tables(format: Format = Format.ROUND_ROBIN) -> TournamentDefinition:
    rounds = 2 if format is Format.SWISS else None
    return TournamentDefinition(
        "t", format, FIELD, game="age-of-thieves", rounds=rounds, games_per_match=3, table_size=3
    )


def test_a_definition_without_a_table_size_seats_pairs_and_one_with_it_tables() -> None:
    assert (sides(_pairs()), at_tables(_pairs())) == (2, False)
    assert (sides(_tables()), at_tables(_tables())) == (3, True)
    assert (noun(_pairs()), noun(_pairs(), 2), board_name(_pairs())) == (
        "match",
        "matches",
        "match",
    )
    assert (noun(_tables()), noun(_tables(), 2)) == ("table", "tables")
    assert board_name(_tables()) == "table of 3"


def test_the_boards_of_a_round_list_their_entrants_in_seat_order_whatever_the_kind() -> None:
    pair_round = berger_rounds(list(FIELD))[0]
    assert boards(pair_round) == tuple(p.entrants for p in pair_round.pairings)
    table_round = TableRound(1, (("a", "b", "c"), ("d", "e", "f")))
    assert boards(table_round) == (("a", "b", "c"), ("d", "e", "f"))


def test_a_round_robin_is_berger_pairings_for_pairs_and_a_round_robin_of_tables_at_tables() -> None:
    assert round_robin(_pairs()) == berger_rounds(list(FIELD))
    assert round_robin(_pairs(Format.DOUBLE_ROUND_ROBIN)) == berger_rounds(list(FIELD), double=True)
    assert round_robin(_tables()) == table_round_robin(FIELD, 3, seed=1)


def test_a_swiss_round_is_paired_from_the_history_of_its_kind() -> None:
    first_pairs = swiss_round(_pairs(Format.SWISS), FIELD, History(), (), 1)
    assert isinstance(first_pairs, Round) and len(first_pairs.pairings) == 3
    pods = swiss_round(_tables(Format.SWISS), FIELD, PodHistory(), ("f",), 1)
    assert isinstance(pods, TableRound)
    assert len(pods.tables) == 1 and "f" not in {e for t in pods.tables for e in t}


def test_a_job_description_names_its_boards_as_the_kind_says() -> None:
    pairs = (("a", "b"), ("c", "d"), ("e", "f"))
    assert describe_boards(_pairs(), pairs, 0, 1) == "board 1: a vs b"
    assert describe_boards(_pairs(), pairs, 1, 2) == "boards 2-3: c vs d, e vs f"
    tables = (("a", "b", "c"), ("d", "e", "f"))
    assert describe_boards(_tables(), tables, 0, 2) == "tables 1-2: a, b, c; d, e, f"
