"""The SPRT pages: every test, and one test's state, LLR, bounds, pentanomial and Elo estimate,
as stored (the same figures `arena sprt status` prints)."""

from __future__ import annotations

import re

import redis
from starlette.testclient import TestClient

from arena.cli.sprt import describe
from arena.store import keys
from arena.store.sprt import HistoryPoint, SprtDefinition, SprtStore
from arena.web.app import create_app
from arena.web.sprt_chart import MAX_DRAWN, llr_svg, thinned
from tests.web.html_tables import hrefs, table


def _site(client: redis.Redis) -> TestClient:
    return TestClient(create_app(client), raise_server_exceptions=False)


def test_the_list_and_a_test_s_page_show_the_stored_figures(redis_client: redis.Redis) -> None:
    store = SprtStore(redis_client)
    store.create(SprtDefinition("ab", "search#64", "search#8", elo0=0.0, elo1=1.0))
    store.create(SprtDefinition("won", "greedy", "random", elo0=0.0, elo1=50.0, normalized=False))
    for number, halves in enumerate((4, 3, 2, 2, 0, 4, 1)):
        store.apply_pair("ab", number, halves)
    number = 0
    while store.apply_pair("won", number, 4) is not None:
        number += 1
    web = _site(redis_client)
    listing = web.get("/sprt")
    assert listing.status_code == 200
    rows = table(listing.text, "sprts")
    assert [row[:3] for row in rows[1:]] == [
        ["ab", "search#64 vs search#8", "running"],
        ["won", "greedy vs random", "accepted H1"],
    ]
    assert "/sprt/ab" in hrefs(listing.text) and "/sprt" in hrefs(web.get("/").text)
    page = web.get("/sprt/ab").text
    status = store.status("ab")
    lines = " ".join(describe(status))
    for figure in (f"LLR {status.llr:.3f}", "-2.944", "2.944", "normalised Elo"):
        assert figure.split()[-1] in page and figure in lines
    assert "-2.944, 2.944" in page
    assert table(page, "pentanomial") == [["LL", "LD+DL", "WL+DD+LW", "WD+DW", "WW"],
                                          ["1", "1", "2", "1", "2"]]  # fmt: skip
    elo = status.elo()
    assert elo is not None and f"{elo.elo:.1f} (95% interval {elo.low:.1f}" in page
    won = web.get("/sprt/won").text
    assert "logistic Elo" in won
    # Every pair won: no point estimate, but a bound, as `arena sprt status` prints it.
    text = store.status("won").elo_text()
    assert text.startswith("at least ") and "lower bound" in text
    assert text in won and text in " ".join(describe(store.status("won")))


def test_an_unknown_test_is_not_found_and_names_are_escaped(redis_client: redis.Redis) -> None:
    web = _site(redis_client)
    assert "No SPRT tests yet" in web.get("/sprt").text
    missing = web.get("/sprt/nope")
    assert missing.status_code == 404 and "no SPRT test" in missing.text
    SprtStore(redis_client).create(SprtDefinition("x", "<b>bad</b>", "random"))
    assert "<b>bad</b>" not in web.get("/sprt/x").text
    assert web.post("/sprt/x").status_code == 405


def _llr_points(page: str) -> list[str]:
    found = re.search(r'<polyline class="line llr" points="([^"]*)"', page)
    assert found is not None, "an LLR line"
    return found.group(1).split()


def test_a_test_s_page_charts_its_llr_between_the_bounds_and_its_elo_band(
    redis_client: redis.Redis,
) -> None:
    store = SprtStore(redis_client)
    store.create(SprtDefinition("ab", "search#64", "search#8", elo0=0.0, elo1=1.0))
    web = _site(redis_client)
    assert "<svg" not in web.get("/sprt/ab").text, "no chart before the first pair"
    for number, halves in enumerate((4, 3, 2, 2, 0, 4, 1)):
        store.apply_pair("ab", number, halves)
        store.apply_pair("ab", number, halves)  # counted twice: still one point
    page = web.get("/sprt/ab").text
    assert len(_llr_points(page)) == 7
    for label in ("accept H1 (2.944)", "accept H0 (-2.944)"):
        assert label in page
    assert page.count('<line class="bound ') == 2
    llr = store.status("ab").llr
    assert f'aria-label="LLR {llr:.3f} after 7 pairs; bounds -2.944' in page
    elo = store.status("ab").elo()
    assert elo is not None and f"Elo estimate {elo.elo:.1f} (95% interval" in page
    assert '<polygon class="band"' in page and '<polyline class="line elo"' in page


def test_a_test_without_history_charts_its_current_llr(redis_client: redis.Redis) -> None:
    store = SprtStore(redis_client)
    store.create(SprtDefinition("old", "greedy", "random", elo0=0.0, elo1=1.0))
    for number, halves in enumerate((4, 0, 2)):
        store.apply_pair("old", number, halves)
    redis_client.delete(keys.sprt_history("old"))
    assert len(_llr_points(_site(redis_client).get("/sprt/old").text)) == 1


def test_a_test_with_no_pair_yet_has_its_page_without_charts(redis_client: redis.Redis) -> None:
    SprtStore(redis_client).create(SprtDefinition("new", "greedy", "random"))
    got = _site(redis_client).get("/sprt/new")
    assert got.status_code == 200 and 'id="pairs">0<' in got.text
    assert thinned([]) == [] and 'id="elo-chart"' not in got.text


def test_a_long_history_is_drawn_with_at_most_a_thousand_points_ending_at_the_last() -> None:
    history = [HistoryPoint(n, n / 10_000, None, None, None) for n in range(1, 2_502)]
    drawn = thinned(history)
    assert len(drawn) <= MAX_DRAWN and drawn[0] is history[0] and drawn[-1] is history[-1]
    assert len(_llr_points(llr_svg(history, (-2.944, 2.944)))) == len(drawn)
    assert thinned(history[:7]) == history[:7]
