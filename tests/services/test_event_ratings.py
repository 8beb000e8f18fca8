"""Which ladder an event may be rated in: one that exists and plays the event's game, rules
version and number of players; and a definition stored before events named a ladder loads."""

from __future__ import annotations

import json

import pytest
import redis

from arena.games import get_game
from arena.services import events
from arena.store.ladders import LadderDefinition, LadderError, LadderStore, ladder_ref
from arena.tournament.definition import Format, TimeControl, TournamentDefinition

FIELD = ["random", "greedy", "search#8"]


def _create(client: redis.Redis, rated: str, players: int = 2, game: str = "caper") -> None:
    events.create(
        client, "cup", "round-robin", FIELD, None, game, None, None, True, TimeControl(), 7,
        players=players, rated=rated,
    )  # fmt: skip


def test_the_ladder_must_exist_and_play_the_same_game_rules_players_and_city(
    redis_client: redis.Redis,
) -> None:
    with pytest.raises(LadderError, match="unknown ladder main; known ladders: none yet"):
        _create(redis_client, "main")
    LadderStore(redis_client).create(LadderDefinition(ladder_ref("main")))
    with pytest.raises(LadderError, match=r"rates caper, but this event plays age-of-thieves"):
        _create(redis_client, "main", game="age-of-thieves")
    with pytest.raises(LadderError, match="rates games with players 2, but this event's have 4"):
        _create(redis_client, "main", players=4)
    rome = LadderDefinition(ladder_ref("rome"), config={"city": "rome"})
    LadderStore(redis_client).create(rome)
    with pytest.raises(
        LadderError, match="rates games with city rome, but this event's have paris"
    ):
        _create(redis_client, "rome")
    rules = get_game("caper").rules_version
    other = LadderDefinition(ladder_ref("other", "caper", rules + 1))
    LadderStore(redis_client).create(other)
    with pytest.raises(
        LadderError, match=f"rates rules v{rules + 1}, but this event plays v{rules}"
    ):
        _create(redis_client, "other")
    _create(redis_client, "main")


def test_a_definition_stored_without_a_rating_ladder_loads_unrated() -> None:
    definition = TournamentDefinition("cup", Format.ROUND_ROBIN, tuple(FIELD))
    stored = json.loads(definition.to_json())
    del stored["rating_ladder"]
    loaded = TournamentDefinition.from_json(json.dumps(stored))
    assert (loaded.rating_ladder, loaded.rated) == ("", False)
    rated = TournamentDefinition("cup", Format.ROUND_ROBIN, tuple(FIELD), rating_ladder="x.v1.y")
    assert TournamentDefinition.from_json(rated.to_json()).rated
