"""A game's record download and the engine's text view of one step, over real HTTP on a real
Redis: both follow the game page's rule (`arena.services.game_access`), so a game still hidden
gives neither, and an unknown one is not found."""

from __future__ import annotations

from collections.abc import Iterator

import httpx2 as httpx
import pytest
import redis

from arena.games import get_game
from arena.games.record import GameRecord, replay_states
from arena.play.local import play_rotation
from arena.store import keys
from arena.store.ladders import LadderDefinition, LadderStore, ladder_ref
from arena.store.ratings import RatedResult, RatingStore
from arena.web.app import create_app
from tests.web.browser import serve

pytestmark = pytest.mark.timeout(120)

SEED = 7_303_030


@pytest.fixture
def web(redis_client: redis.Redis) -> Iterator[httpx.Client]:
    with serve(create_app(redis_client)) as server, httpx.Client(base_url=server.url) as client:
        yield client


def _ladder_game(client: redis.Redis) -> tuple[LadderDefinition, str, GameRecord]:
    """A stored ladder game whose match is not rated yet: the site keeps it hidden."""
    definition = LadderDefinition(ladder_ref("dl"))
    LadderStore(client).create(definition)
    record = play_rotation(get_game("caper"), {"city": "paris"}, SEED, ["greedy", "random"], 0)
    game_id = f"{definition.ref.slug}.m1.g0"
    client.set(keys.game_record(game_id), record.record.dumps())
    return definition, game_id, record.record


def _rate(client: redis.Redis, definition: LadderDefinition) -> None:
    result = RatedResult(f"{definition.ref.slug}.m1", "greedy", "random", 1.0, 1e9, 2)
    RatingStore(client).apply(definition, result)


def test_the_record_downloads_once_the_game_is_shown_and_not_before(
    redis_client: redis.Redis, web: httpx.Client
) -> None:
    definition, game_id, record = _ladder_game(redis_client)
    hidden = web.get(f"/games/{game_id}/record.json")
    assert hidden.status_code == 404 and "in play" in hidden.text
    assert str(SEED) not in hidden.text
    _rate(redis_client, definition)
    shown = web.get(f"/games/{game_id}/record.json")
    assert shown.status_code == 200
    assert shown.headers["content-type"].startswith("application/json")
    assert shown.headers["content-disposition"] == f'attachment; filename="{game_id}.json"'
    assert GameRecord.loads(shown.text) == record and shown.json()["seed"] == SEED
    page = web.get(f"/games/{game_id}").text
    assert f'href="/games/{game_id}/record.json" download>Download record (JSON)' in page


def test_the_text_view_renders_a_step_as_the_engine_does_once_shown(
    redis_client: redis.Redis, web: httpx.Client
) -> None:
    definition, game_id, record = _ladder_game(redis_client)
    assert web.get(f"/games/{game_id}/text", params={"step": "3"}).status_code == 404
    _rate(redis_client, definition)
    game, states = get_game("caper"), [state for _, state in replay_states(record)]
    for step, seat in ((0, "all"), (3, "all"), (3, "1"), (len(record.actions), "0")):
        shown = web.get(f"/games/{game_id}/text", params={"step": str(step), "seat": seat})
        assert shown.status_code == 200 and shown.headers["content-type"].startswith("text/plain")
        viewer = None if seat == "all" else int(seat)
        assert shown.text == game.render(states[step], viewer) + "\n"
    for bad in ({"step": "-1"}, {"step": str(len(record.actions) + 1)}, {"seat": "7"}):
        refused = web.get(f"/games/{game_id}/text", params=bad)
        assert refused.status_code == 400 and refused.text.count("\n") == 1, refused.text
    page = web.get(f"/games/{game_id}").text
    assert f'href="/games/{game_id}/text?step=0&amp;seat=all"' in page


@pytest.mark.parametrize("path", ["record.json", "text"])
def test_unknown_games_have_no_record_and_no_text(web: httpx.Client, path: str) -> None:
    for game_id in ("nobody.g0", "caper.v1.main.m9.g0", "not-a-game-id"):
        missing = web.get(f"/games/{game_id}/{path}")
        assert missing.status_code == 404 and "Traceback" not in missing.text
