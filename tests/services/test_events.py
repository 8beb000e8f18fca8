"""The events service's one exporter serves an event of pairs and one of tables alike: the same
formats, each event's own columns and results, and the same refusals; its entrants' checks."""

from __future__ import annotations

import json

import pytest
import redis

from arena.services import events
from arena.store import keys
from arena.store.bots import BotRegistry, BotRegistryError
from arena.store.tournaments import TournamentStore
from arena.tournament import Tiebreak
from arena.tournament.definition import Format, TournamentDefinition

FIELD = ("ann", "bob", "cat")


def _create(client: redis.Redis, name: str, table_size: int) -> None:
    definition = TournamentDefinition(
        name, Format.ROUND_ROBIN, FIELD, game="age-of-thieves" if table_size else "caper",
        table_size=table_size, games_per_match=3 if table_size else 2,
        tiebreaks=(Tiebreak.WINS,),
    )  # fmt: skip
    TournamentStore(client).create(definition)


def test_pairs_and_tables_export_their_own_columns_and_results(redis_client: redis.Redis) -> None:
    _create(redis_client, "duel", 0)
    _create(redis_client, "trio", 3)
    assert events.export(redis_client, "duel", "csv").splitlines() == [
        "rank,entrant,points,game_points,wins,wins",
        *(f"1,{e},0,0,0,0.0" for e in FIELD),
    ]
    assert events.export(redis_client, "trio", "csv").splitlines()[0] == (
        "rank,entrant,points,tables,wins,average_score,byes"
    )
    duel = json.loads(events.export(redis_client, "duel", "json"))
    trio = json.loads(events.export(redis_client, "trio", "json"))
    assert set(duel) == {"definition", "status", "standings", "rounds", "matches"}
    assert set(trio) == {"definition", "status", "standings", "rounds", "tables"}
    assert duel["standings"][0]["tiebreaks"] == {"wins": 0.0}
    assert trio["standings"][0]["seats"] == [] and "tiebreaks" not in trio["standings"][0]
    assert events.export(redis_client, "duel", "trf").startswith("012 duel")


def test_export_refuses_a_format_it_does_not_know_and_trf_of_tables(
    redis_client: redis.Redis,
) -> None:
    _create(redis_client, "trio", 3)
    with pytest.raises(ValueError, match="no export format 'xml': choose json, csv, trf"):
        events.export(redis_client, "trio", "xml")
    with pytest.raises(ValueError, match="trio is a tournament of tables: TRF is for two-sided"):
        events.export(redis_client, "trio", "trf")


def test_progress_counts_the_encounters_of_pairs_and_tables_alike(
    redis_client: redis.Redis,
) -> None:
    _create(redis_client, "duel", 0)
    _create(redis_client, "trio", 3)
    for name in ("duel", "trio"):
        now = events.progress(redis_client, name)
        assert (now.done, now.scheduled, now.rounds, now.status.value) == (0, 0, 0, "created")
        assert now.planned == TournamentStore(redis_client).get(name).planned_rounds > 0
        assert not now.over


def test_entrants_are_checked_as_the_cli_checks_them(redis_client: redis.Redis) -> None:
    registry = BotRegistry(redis_client)
    for name in ("lynx", "owl", "wren"):
        registry.register(name)
    owl = registry.by_name("owl")
    assert owl is not None  # its last Hello named another game only
    redis_client.hset(keys.bot(owl.bot_id), mapping={"games": "age-of-thieves", "version": "2"})
    field = ["random", "lynx", "ghost", "wren", "nobody"]
    with pytest.raises(events.UnknownEntrantError, match=r"unknown entrant\(s\): ghost, nobody "):
        events.check_entrants(redis_client, field, "caper")
    with pytest.raises(BotRegistryError, match="bot 'owl' does not play caper: its last Hello"):
        events.check_entrants(redis_client, ["random", "lynx", "owl", "wren"], "caper")
    events.check_entrants(redis_client, ["random", "lynx", "owl"], "age-of-thieves")
    with pytest.raises(ValueError, match="search@fast"):
        events.check_entrants(redis_client, ["search@fast", "lynx"], "caper")
