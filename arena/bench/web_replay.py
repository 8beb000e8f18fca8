"""How long the game page of a 200-move replay takes to load. It measures, it never asserts:

    arena bench web-replay [--fetches 5] [--browser]

The game is a real one: a 3-player Age of Thieves game between random bots (the longest game
the arena plays; a Caper game has 42 moves), its record stored with its deal's twins in an
embedded Redis so the page shows it in full. The site runs on a real uvicorn on loopback; each
figure is the median of `fetches` runs:

- page: the HTML of /games/<id>, read to the last byte;
- frames cold: /games/<id>/frames.json?seat=all with the frame cache emptied (replay, every
  seat's observation and the engine's text for each of the 200+ steps, JSON);
- frames warm: the same from the cache (a finished record never changes);
- full: the page, its script and style sheets and the frames, as a browser fetches them;
- browser (with --browser, when Playwright and /usr/bin/chromium are there): from navigation
  until the viewer has drawn its first frame, frames cold.
"""

from __future__ import annotations

import statistics
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import redis
import uvicorn

from arena.games import get_game
from arena.games.record import GameRecord
from arena.play.local import play_rotation
from arena.store import keys
from arena.store.server import connect, redis_url
from arena.web import replay
from arena.web.app import create_app

MATCH = "mbench"  # a match of its own: shown once its deal's three games are stored
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]


@dataclass(frozen=True, slots=True)
class ReplayFigures:
    moves: int
    page_bytes: int
    frames_bytes: int
    frames_sent: int  # gzipped
    page_ms: float
    frames_cold_ms: float
    frames_warm_ms: float
    full_ms: float  # page + replay.js + both style sheets + frames (cold)
    browser_ms: float | None
    fetches: int

    def line(self) -> str:
        browser = "" if self.browser_ms is None else f"; chromium until drawn {self.browser_ms:.0f}"
        return (
            f"Replay page of a {self.moves}-move game ({self.page_bytes / 1e3:.1f} kB of HTML, "
            f"{self.frames_bytes / 1e6:.2f} MB of frames, {self.frames_sent / 1e3:.0f} kB "
            f"gzipped): page {self.page_ms:.1f} ms, frames "
            f"cold {self.frames_cold_ms:.0f} ms, warm {self.frames_warm_ms:.1f} ms, full load "
            f"{self.full_ms:.0f} ms{browser} (median of {self.fetches}, ms)"
        )


def long_game(moves: int = 200) -> GameRecord:
    """The first 3-player Age of Thieves game (seeds from 0) of `moves` to `moves` + 10 moves."""
    game = get_game("age-of-thieves")
    for seed in range(200):
        record = play_rotation(game, {"players": 3}, seed, ["random"] * 3, 0).record
        if moves <= len(record.actions) <= moves + 10:
            return record
    raise RuntimeError(f"no game of {moves} to {moves + 10} moves in 200 seeds")


def store(client: redis.Redis, record: GameRecord) -> str:
    for index in range(3):
        client.set(keys.game_record(f"{MATCH}.g{index}"), record.dumps())
    return f"{MATCH}.g0"


@contextmanager
def serving(client: redis.Redis) -> Iterator[str]:
    """The site on a real uvicorn on a free loopback port, in a thread; yields its URL."""
    server = uvicorn.Server(uvicorn.Config(create_app(client), log_level="warning", port=0))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        while not server.started:
            if not thread.is_alive():
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.01)
        port = server.servers[0].sockets[0].getsockname()[1]
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


def _fetch(url: str, gzip: bool = True) -> tuple[float, int]:
    """Milliseconds to read `url` to the last byte, and how many bytes came (as a browser asks:
    gzip accepted, unless told not to)."""
    request = urllib.request.Request(url, headers={"Accept-Encoding": "gzip"} if gzip else {})
    started = time.perf_counter()
    with urllib.request.urlopen(request, timeout=120) as response:
        size = len(response.read())
    return (time.perf_counter() - started) * 1000, size


def _median(runs: int, measure: Callable[[], float]) -> float:
    return statistics.median(measure() for _ in range(runs))


def _cold(url: str) -> float:
    replay._frames_packed.cache_clear()
    return _fetch(url)[0]


def _full(site: str, game_id: str) -> float:
    replay._frames_packed.cache_clear()
    paths = [f"/games/{game_id}", "/static/site.css", "/static/cards.css", "/static/replay.js"]
    paths.append(f"/games/{game_id}/frames.json?seat=all")
    return sum(_fetch(site + path)[0] for path in paths)


def _browser(site: str, game_id: str, runs: int) -> float | None:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return None
    if not CHROMIUM.exists():
        return None
    times = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        for _ in range(runs):
            replay._frames_packed.cache_clear()
            page = browser.new_page()
            started = time.perf_counter()
            page.goto(f"{site}/games/{game_id}")
            page.wait_for_selector("#replay[data-ready=true]", timeout=120_000)
            times.append((time.perf_counter() - started) * 1000)
            page.close()
        browser.close()
    return statistics.median(times)


def replay_page(fetches: int = 5, browser: bool = False) -> ReplayFigures:
    record = long_game()
    with redis_url() as url:
        client = connect(url)
        game_id = store(client, record)
        with serving(client) as site:
            page_url, frames_url = f"{site}/games/{game_id}", f"{site}/games/{game_id}/frames.json"
            _, page_bytes = _fetch(page_url)  # warm: imports, templates, card tables
            _, frames_bytes = _fetch(frames_url + "?seat=all", gzip=False)
            _, frames_sent = _fetch(frames_url + "?seat=all")
            figures = ReplayFigures(
                moves=len(record.actions),
                page_bytes=page_bytes,
                frames_bytes=frames_bytes,
                frames_sent=frames_sent,
                page_ms=_median(fetches, lambda: _fetch(page_url)[0]),
                frames_cold_ms=_median(fetches, lambda: _cold(frames_url + "?seat=all")),
                frames_warm_ms=_median(fetches, lambda: _fetch(frames_url + "?seat=all")[0]),
                full_ms=_median(fetches, lambda: _full(site, game_id)),
                browser_ms=_browser(site, game_id, fetches) if browser else None,
                fetches=fetches,
            )
        client.close()
    return figures
