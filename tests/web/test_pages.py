"""The site over HTTP, on a real Redis holding a tournament played by real worker processes and
an SDK bot connected over gRPC: every page shows what the store holds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import redis
from starlette.testclient import TestClient

from arena.services import events
from arena.store.ladders import LadderDefinition, LadderStore, ladder_ref
from arena.store.ratings import RatedResult, RatingStore, TableResult
from arena.store.tournaments import Status, TournamentStore
from arena.tournament.lifecycle import Command
from arena.web.app import create_app
from tests.web.arena_fixtures import SDK_BOT, SDK_VERSION, connected_sdk_bot, play_swiss
from tests.web.html_tables import column, hrefs, table
from tests.workers.conftest import StartWorker
from tests.workers.tournaments import create_and_start, wait_until_over

pytestmark = pytest.mark.timeout(240)


def site(client: redis.Redis) -> TestClient:
    return TestClient(create_app(client), raise_server_exceptions=False)


def test_a_played_swiss_shows_its_stored_standings_rounds_games_and_downloads(
    redis_client: redis.Redis, redis_server_url: str, start_worker: StartWorker, tmp_path: Path
) -> None:
    with connected_sdk_bot(redis_client, redis_server_url, tmp_path):
        play_swiss(redis_client, start_worker)
        web = site(redis_client)
        page = web.get("/tournaments/cup")
        bots = web.get("/bots").text
    assert page.status_code == 200
    stored = json.loads(events.export(redis_client, "cup", "json"))
    expected = [(s["entrant"], f"{s['points']:g}") for s in stored["standings"]]
    shown = list(
        zip(
            column(page.text, "standings", "entrant"),
            column(page.text, "standings", "pts"),
            strict=True,
        )
    )
    assert shown == expected
    assert all(cell != "-" for cell in column(page.text, "standings", "rating"))  # fitted
    results = TournamentStore(redis_client).results("cup")
    links = hrefs(page.text)
    for match in results.values():
        r = match.result
        round_rows = table(page.text, f"round-{r.round}-table")
        assert [f"{r.seat0} – {r.seat1}", f"{r.game_points0:g} - {r.game_points1:g}"] in [
            row[1:3] for row in round_rows
        ]
        assert all(f"/games/{g}" in links for g in match.game_ids)
    assert len(table(page.text, "crosstable")) == 1 + len(stored["standings"])
    for fmt in ("trf", "csv", "json"):
        got = web.get(f"/tournaments/cup/export.{fmt}")
        assert got.status_code == 200 and got.text == events.export(redis_client, "cup", fmt)
    assert "97531" in web.get("/tournaments/cup").text  # finished: the seed may be shown now
    # The bots page: the SDK bot was connected while it played, with the version of its Hello.
    row = next(r for r in table(bots, "bots") if r[0] == SDK_BOT)
    assert row[1:3] == ["connected", SDK_VERSION]
    assert "cup round 3" in row[5]
    assert web.get("/tournaments").status_code == web.get("/").status_code == 200


def test_the_live_json_follows_a_running_tournament_to_its_end(
    redis_client: redis.Redis, start_worker: StartWorker
) -> None:
    create_and_start(redis_client, "live", "round-robin", ["random", "greedy", "search#4"])
    web = site(redis_client)
    before = web.get("/tournaments/live/live.json").json()
    assert before["status"] == "running" and before["live"] and before["done"] == 0
    assert 'data-live="/tournaments/live/live.json"' in web.get("/tournaments/live").text
    start_worker("live-a")
    assert wait_until_over(redis_client, "live").value == "finished"
    after = web.get("/tournaments/live/live.json").json()
    assert (after["done"], after["scheduled"], after["percent"], after["live"]) == (
        3,
        3,
        100,
        False,
    )
    assert "data-live" not in web.get("/tournaments/live").text  # nothing left to poll


def test_a_tournament_of_tables_shows_its_standings_and_refuses_trf_clearly(
    redis_client: redis.Redis, start_worker: StartWorker
) -> None:
    start_worker("tables-a")
    field = ["random", "greedy", "search#4", "search#8"]
    create_and_start(redis_client, "trio", "swiss", field, rounds=2, players=3, games_per_match=3)
    assert wait_until_over(redis_client, "trio").value == "finished"
    web = site(redis_client)
    page = web.get("/tournaments/trio").text
    stored = json.loads(events.export(redis_client, "trio", "json"))
    assert column(page, "standings", "entrant") == [s["entrant"] for s in stored["standings"]]
    assert column(page, "standings", "pts") == [f"{s['points']:g}" for s in stored["standings"]]
    refused = web.get("/tournaments/trio/export.trf")
    assert refused.status_code == 404 and "TRF is for two-sided games" in refused.text
    assert web.get("/tournaments/trio/export.csv").text == events.export(
        redis_client, "trio", "csv"
    )


def test_ladder_pages_rank_by_the_store_and_chart_each_bot_s_history(
    redis_client: redis.Redis,
) -> None:
    definition = LadderDefinition(ladder_ref("main"))
    LadderStore(redis_client).create(definition)
    ratings = RatingStore(redis_client)
    for n, score in enumerate([1.0, 1.0, 0.5, 0.0, 1.0], start=1):
        ratings.apply(
            definition, RatedResult(f"caper.v1.main.m{n}", "greedy", "random", score, 1e9 + n, 2)
        )
    web = site(redis_client)
    slug = definition.ref.slug
    page = web.get(f"/ladders/{slug}").text
    board = ratings.leaderboard(definition, "elo")
    assert column(page, "ladder", "bot") == [name for name, _ in board]
    assert column(page, "ladder", "Elo") == [f"{s.elo:.1f}" for _, s in board]
    assert f"/ladders/{slug}/bots/greedy" in hrefs(page)
    history = web.get(f"/ladders/{slug}/bots/greedy").text
    assert history.count("<polyline") == 2 and "<svg" in history
    assert column(history, "history", "#") == ["5", "4", "3", "2", "1"]
    assert f"/games/{slug}.m5.g0" in hrefs(history)
    assert slug in web.get("/ladders").text and slug in web.get("/").text
    assert column(web.get("/ladders").text, "ladders", "state") == ["created"]
    LadderStore(redis_client).transition(definition.ref, Command.RUN)
    LadderStore(redis_client).transition(definition.ref, Command.STOP)
    assert column(web.get("/ladders").text, "ladders", "state") == ["stopped"]
    assert 'status-stopped">stopped</span></h1>' in web.get(f"/ladders/{slug}").text


@pytest.mark.parametrize(
    "path",
    [
        "/tournaments/nope",
        "/tournaments/nope/live.json",
        "/tournaments/nope/export.csv",
        "/ladders/caper.v1.nope",
        "/ladders/not-a-slug",
        "/ladders/caper.v1.main/bots/nobody",
        "/no/such/page",
        "/tournaments/%3Cscript%3E",
    ],
)
def test_bad_ids_give_the_404_page_not_a_traceback(redis_client: redis.Redis, path: str) -> None:
    LadderStore(redis_client).create(LadderDefinition(ladder_ref("main")))
    got = site(redis_client).get(path)
    assert got.status_code == 404 and got.headers["content-type"].startswith("text/html")
    assert "404" in got.text and "Traceback" not in got.text and "<script>" not in got.text


def test_pages_answer_get_only_and_fail_with_plain_pages(
    redis_client: redis.Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    web = site(redis_client)
    for method in ("POST", "PUT", "DELETE"):
        got = web.request(method, "/tournaments")
        assert got.status_code == 405 and f"does not answer {method}" in got.text
    unreachable = site(redis.Redis.from_url("redis://127.0.0.1:1/0", socket_connect_timeout=1))
    got = unreachable.get("/tournaments")
    assert got.status_code == 503 and "cannot be reached" in got.text

    def broken(*args: object) -> list[str]:
        raise RuntimeError("a bug")

    monkeypatch.setattr(TournamentStore, "names", broken)
    got = web.get("/tournaments")
    assert got.status_code == 500 and "Server error" in got.text
    assert "a bug" not in got.text and "Traceback" not in got.text


def test_a_ladder_of_tables_shows_weng_lin_only_and_charts_mu(redis_client: redis.Redis) -> None:
    definition = LadderDefinition(ladder_ref("snitch"), config={"city": "paris", "players": 3})
    LadderStore(redis_client).create(definition)
    ratings = RatingStore(redis_client)
    for n in range(1, 4):
        sides = ((("greedy",), 2.0), (("random",), 1.0), (("search#4",), 0.0))
        ratings.apply(definition, TableResult(f"caper.v1.snitch.m{n}", sides, 1e9 + n, 3))
    web = site(redis_client)
    page = web.get(f"/ladders/{definition.ref.slug}").text
    headers = table(page, "ladder")[0]
    assert "Elo" not in headers and "Weng-Lin" in headers
    board = ratings.leaderboard(definition, "ordinal")
    assert (
        column(page, "ladder", "bot")
        == [name for name, _ in board]
        == ["greedy", "random", "search#4"]
    )
    history = web.get(f"/ladders/{definition.ref.slug}/bots/random").text
    assert column(history, "history", "place") == ["2", "2", "2"]
    assert history.count("<polyline") == 1  # mu, with its band


def test_a_stopped_tournament_says_why(redis_client: redis.Redis) -> None:
    create_and_start(redis_client, "halted", "round-robin", ["random", "greedy", "search#4"])
    TournamentStore(redis_client).set_status("halted", Status.STOPPED, "no valid pairing left")
    web = site(redis_client)
    page = web.get("/tournaments/halted").text
    assert "Stopped: no valid pairing left" in page and "data-live" not in page
    assert web.get("/tournaments/halted/live.json").json()["reason"] == "no valid pairing left"
