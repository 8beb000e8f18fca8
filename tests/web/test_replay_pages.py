"""The game pages over real HTTP (uvicorn on loopback) on a real Redis: finished games replay,
games in play (or sharing a deal with one) show no card and no seed, bad ids get the 404 page."""

from __future__ import annotations

import json
from collections.abc import Iterator

import httpx2 as httpx
import pytest
import redis
from rq import SimpleWorker
from rq.serializers import JSONSerializer

from arena.bots import make_bot
from arena.games import get_game
from arena.games.caper.cards import CATALOGUE
from arena.games.record import GameRecord
from arena.play.local import play_game, play_rotation
from arena.services import event_runs
from arena.store import keys
from arena.store.encounters import table_encounters
from arena.store.job_queue import QUEUE_NAME
from arena.store.ladders import LadderDefinition, LadderStore, ladder_ref
from arena.store.ratings import RatedResult, RatingStore
from arena.store.tournaments import Status, TournamentStore
from arena.store.values import as_text
from arena.web.app import create_app
from tests.web.browser import serve
from tests.workers.tournaments import create_and_start, work_in_process

pytestmark = pytest.mark.timeout(240)

FIELD = ["random", "greedy", "search#4", "search#8"]  # round robin: 3 rounds of 2 boards
SEED = 24680


@pytest.fixture
def web(redis_client: redis.Redis) -> Iterator[httpx.Client]:
    with serve(create_app(redis_client)) as server, httpx.Client(base_url=server.url) as client:
        yield client


def _record(client: redis.Redis, game_id: str) -> GameRecord:
    stored = client.get(keys.game_record(game_id))
    assert stored is not None, f"no record of {game_id}"
    return GameRecord.loads(as_text(stored))


def _assert_nothing_hidden(text: str, record: GameRecord | None) -> None:
    """No card name (hands, deals, plays) and no seed of the game in the page."""
    shown = [name for name in CATALOGUE if name in text]
    assert not shown, f"cards of a game in play reached the page: {shown}"
    if record is not None:
        assert record.seed > 99_999, "a seed long enough not to appear in a page by chance"
        assert str(record.seed) not in text
        assert not any(action in text for action in record.actions)


def test_a_finished_tournament_game_replays_over_http(
    redis_client: redis.Redis, web: httpx.Client
) -> None:
    create_and_start(redis_client, "rr", "round-robin", FIELD, seed=SEED)
    work_in_process(redis_client)
    assert TournamentStore(redis_client).status("rr") is Status.FINISHED
    game_id = "rr.r2.b1.g1"
    record = _record(redis_client, game_id)
    page = web.get(f"/games/{game_id}")
    assert page.status_code == 200
    assert 'id="game-status">finished' in page.text
    assert f'<dd id="move-count">{len(record.actions)}</dd>' in page.text
    assert record.result is not None
    assert " : ".join(map(str, record.result["scores"])) in page.text
    assert "/tournaments/rr" in page.text
    # Games are numbered from 1 for people, as the tournament page links them; ids from 0.
    twins = '<a href="/games/rr.r2.b1.g0">game 1</a> · <span class="this-game">game 2</span>'
    assert f'<dd id="match-games">{twins}</dd>' in page.text
    assert '<h1>Game 2 <small class="muted">id <span id="game-id">rr.r2.b1.g1</span>' in page.text
    frames = web.get(f"/games/{game_id}/frames.json", params={"seat": "all"}).json()
    assert len(frames["frames"]) == len(record.actions) + 1
    assert [f["action"] for f in frames["frames"][1:]] == list(record.actions)
    assert frames["frames"][-1]["scores"] == record.result["scores"]
    assert frames["players"] == list(record.players)
    packed = web.get(f"/games/{game_id}/frames.json", headers={"Accept-Encoding": "gzip"})
    assert packed.headers["content-encoding"] == "gzip" and packed.json() == frames
    assert int(packed.headers["content-length"]) < len(packed.content) / 5  # sent, unpacked
    seat = web.get(f"/games/{game_id}/frames.json", params={"seat": "1"}).json()
    assert seat["viewer"] == 1 and "hands" not in seat["frames"][0]["view"]
    bad = web.get(f"/games/{game_id}/frames.json", params={"seat": "2"})
    assert bad.status_code == 400 and "seat must be 'all' or a number from 0 to 1" in bad.text


def test_games_of_a_round_in_play_show_no_cards_and_no_seed(
    redis_client: redis.Redis, web: httpx.Client
) -> None:
    """Board 0's first match finished while board 1 of its round still plays: board 0's games
    share deals with board 1's (match seeds differ by 1), so they stay hidden too."""
    create_and_start(redis_client, "live", "round-robin", FIELD, seed=SEED)
    # One match of round 1 played, as by a worker halfway through the round's slice; the rest
    # still queued.
    event_runs.play(redis_client, "live", 1, 0)
    store = TournamentStore(redis_client)
    (played,) = store.results("live").values()
    for game_id in played.game_ids:
        record = _record(redis_client, game_id)  # stored: its game is over, its round is not
        page = web.get(f"/games/{game_id}")
        assert page.status_code == 200 and 'id="game-status">in play' in page.text
        assert " vs ".join(record.players) in page.text
        _assert_nothing_hidden(page.text, record)
        frames = web.get(f"/games/{game_id}/frames.json", params={"seat": "all"})
        assert frames.status_code == 404 and frames.json()["status"] == "in play"
        _assert_nothing_hidden(frames.text, record)
    waiting = [
        f"live.r1.b{board}.g0"
        for board in (0, 1)
        if f"live.r1.b{board}" not in store.recorded("live")
    ]
    assert waiting, "the other board of round 1 is not played yet"
    for game_id in [*waiting, "live.r3.b1.g1"]:
        page = web.get(f"/games/{game_id}")
        assert page.status_code == 200 and 'id="game-status">in play' in page.text
        _assert_nothing_hidden(page.text, None)


def test_a_finished_tournament_waits_for_another_one_dealing_the_same_cards(
    redis_client: redis.Redis, web: httpx.Client
) -> None:
    """Deals follow from game, config and seed: a tournament of the same base seed deals the
    finished one's cards again, board for board."""
    create_and_start(redis_client, "week1", "round-robin", FIELD, seed=SEED)
    work_in_process(redis_client)
    record = _record(redis_client, "week1.r1.b0.g0")
    assert 'id="game-status">finished' in web.get("/games/week1.r1.b0.g0").text
    create_and_start(redis_client, "other", "round-robin", FIELD, seed=SEED + 1)
    create_and_start(redis_client, "week2", "round-robin", FIELD[::-1], seed=SEED)
    page = web.get("/games/week1.r1.b0.g0")
    assert 'id="game-status">in play' in page.text
    _assert_nothing_hidden(page.text, record)
    work_in_process(redis_client)
    assert _record(redis_client, "week2.r1.b0.g0").seed == record.seed
    assert 'id="game-status">finished' in web.get("/games/week1.r1.b0.g0").text


def test_a_table_of_the_snitch_game_is_shown_once_every_table_of_its_round_is_played(
    redis_client: redis.Redis, web: httpx.Client
) -> None:
    """Tables deal like matches (table seed = base + round * 1009 + board): the same rule."""
    six = ["random", "greedy", "search#4", "search#8", "search#12", "search#16"]
    create_and_start(redis_client, "pods", "swiss", six, rounds=1, games_per_match=3, players=3)
    worker = SimpleWorker([QUEUE_NAME], connection=redis_client, serializer=JSONSerializer)
    worker.work(burst=True, max_jobs=1)
    (played,) = table_encounters(redis_client).results("pods").values()
    for game_id in played.game_ids:
        page = web.get(f"/games/{game_id}")
        assert 'id="game-status">in play' in page.text
        _assert_nothing_hidden(page.text, _record(redis_client, game_id))
    work_in_process(redis_client)
    game_id = played.game_ids[0]
    assert 'id="game-status">finished' in web.get(f"/games/{game_id}").text
    snitch = web.get(f"/games/{game_id}/frames.json", params={"seat": "2"}).json()
    record = _record(redis_client, game_id)
    assert snitch["viewer"] == 2 and len(snitch["frames"]) == len(record.actions) + 1


def test_ladder_games_are_shown_once_their_match_is_rated(
    redis_client: redis.Redis, web: httpx.Client
) -> None:
    definition = LadderDefinition(ladder_ref("main"))
    LadderStore(redis_client).create(definition)
    slug = definition.ref.slug
    game = get_game("caper")
    record = play_rotation(game, {"city": "paris"}, 5_551_212, ["greedy", "random"], 0).record
    redis_client.set(keys.game_record(f"{slug}.m1.g0"), record.dumps())
    before = web.get(f"/games/{slug}.m1.g0")
    assert 'id="game-status">in play' in before.text
    _assert_nothing_hidden(before.text, record)
    ratings = RatingStore(redis_client)
    ratings.apply(definition, RatedResult(f"{slug}.m1", "greedy", "random", 1.0, 1e9, 2))
    after = web.get(f"/games/{slug}.m1.g0")
    assert 'id="game-status">finished' in after.text and f"/ladders/{slug}" in after.text
    # A second ladder of the same game, config and seed deals match 1's cards in its match 1.
    twin = LadderDefinition(ladder_ref("twin"))
    LadderStore(redis_client).create(twin)
    LadderStore(redis_client).create(LadderDefinition(ladder_ref("apart"), seed=2))
    assert 'id="game-status">in play' in web.get(f"/games/{slug}.m1.g0").text
    ratings.apply(twin, RatedResult(f"{twin.ref.slug}.m1", "random", "greedy", 0.5, 1e9, 2))
    assert 'id="game-status">finished' in web.get(f"/games/{slug}.m1.g0").text


def test_a_match_of_its_own_is_shown_once_every_twin_of_its_deal_is_stored(
    redis_client: redis.Redis, web: httpx.Client
) -> None:
    """`arena match` on the network: games 0 and 1 play one deal with the seats swapped."""
    game = get_game("caper")
    first = play_rotation(game, {"city": "rome"}, 9_876_543, ["greedy", "random"], 0).record
    redis_client.set(keys.game_record("m1a2b3c4.g0"), first.dumps())
    page = web.get("/games/m1a2b3c4.g0")
    assert 'id="game-status">in play' in page.text
    _assert_nothing_hidden(page.text, first)
    twin = play_rotation(game, {"city": "rome"}, 9_876_543, ["greedy", "random"], 1).record
    redis_client.set(keys.game_record("m1a2b3c4.g1"), twin.dumps())
    assert 'id="game-status">finished' in web.get("/games/m1a2b3c4.g0").text


def test_an_age_of_thieves_game_nobody_escaped_says_everyone_lost(
    redis_client: redis.Redis, web: httpx.Client
) -> None:
    """Section 19: no thief left the city, so nobody wins; that is not a draw."""
    bots = [make_bot("random") for _ in range(4)]
    played = play_game(get_game("age-of-thieves"), {"players": 4}, 1, bots, ["a", "b", "c", "d"])
    assert played.result is not None and played.result.details["everyone_loses"]
    for index in range(4):  # every game of the deal stored: it may be shown
        redis_client.set(keys.game_record(f"m0a0t0.g{index}"), played.record.dumps())
    page = web.get("/games/m0a0t0.g0").text
    assert '<dd id="final-scores">0 : 0 : 0 : 0 · everyone lost</dd>' in page
    assert "drawn" not in page


BAD_IDS = [
    "nope",  # no .g<index>
    "m1a2b3c4.g7",  # no such record
    "rr.r1.b0.g0",  # no such tournament
    "caper.v1.main.m9.g0",  # no ladder record
    "x" * 300 + ".g0",
    "a b.g0",
    "%2e%2e.g0",
    "..%2F..%2Fetc.g0",
    "m1.g0%00",
    "m1.gx",
]


@pytest.mark.parametrize("game_id", BAD_IDS)
def test_unknown_and_malformed_ids_get_the_sites_404_page(
    redis_client: redis.Redis, web: httpx.Client, game_id: str
) -> None:
    page = web.get(f"/games/{game_id}")
    assert page.status_code == 404
    assert "404 · Not found" in page.text and "Traceback" not in page.text
    frames = web.get(f"/games/{game_id}/frames.json")
    assert frames.status_code == 404 and "Traceback" not in frames.text


def test_a_stored_record_that_cannot_be_read_is_not_found_not_a_traceback(
    redis_client: redis.Redis, web: httpx.Client
) -> None:
    redis_client.set(keys.game_record("mbroken.g0"), "{not json")
    redis_client.set(keys.game_record("mbroken.g1"), json.dumps({"game": "caper"}))
    for game_id in ("mbroken.g0", "mbroken.g1"):
        page = web.get(f"/games/{game_id}")
        assert page.status_code == 404 and "cannot be read" in page.text
        assert "Traceback" not in page.text


def test_a_record_of_older_rules_shows_its_facts_and_says_why_it_does_not_replay(
    redis_client: redis.Redis, web: httpx.Client
) -> None:
    played = play_rotation(get_game("caper"), {"city": "paris"}, 4_444_444, ["greedy", "random"], 0)
    old = GameRecord.from_json(played.record.to_json() | {"rules_version": 0})
    for index in (0, 1):
        redis_client.set(keys.game_record(f"mold.g{index}"), old.dumps())
    page = web.get("/games/mold.g0")
    assert page.status_code == 200 and 'id="game-status">finished' in page.text
    frames = web.get("/games/mold.g0/frames.json")
    assert frames.status_code == 500
    assert "rules version 0" in frames.json()["error"] and "Traceback" not in frames.text
