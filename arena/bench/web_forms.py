"""`arena bench web`'s organiser and busiest-page figures.

- Creating and starting an event from the site, signed in as the organiser: the POSTs a browser
  sends (the New tournament form, then the event page's Start button) and the page each leads
  to, for a Swiss of `entrants` registered bots (every one checked as the CLI checks it; the
  start pairs round 1 and queues its matches). No worker runs: nothing is played.
- The pages that grow with the field, over the finished Swiss of `arena.bench.web.build_swiss`
  with every entrant registered as a bot: the overview, the tournaments list, the bots page
  and a head-to-head page (the standings page has its own figures).

Each request is timed twice: the server's own time (its Server-Timing header) and the whole
request, read to the last byte.
"""

from __future__ import annotations

import http.cookiejar
import re
import statistics
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass

import redis

from arena.bench.web import build_swiss, fresh_arena
from arena.store.bots import BotRegistry
from arena.web import links
from arena.web.event_actions import DEFAULTS
from arena.web.server import WebSettings, serving

ADMIN = "bench-organiser-token"
CSRF = re.compile(r'name="csrf" value="([^"]+)"')


@dataclass(frozen=True, slots=True)
class Timed:
    status: int
    body: str
    server_ms: float
    fetch_ms: float


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None  # a 303 is the answer timed; its page is fetched and timed on its own


class Browser:
    """Cookies kept, redirects not followed: what a browser sends, one request at a time."""

    def __init__(self, base: str) -> None:
        self.base = base
        jar = urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        self._opener = urllib.request.build_opener(jar, _NoRedirect())

    def request(self, path: str, form: dict[str, str] | None = None) -> Timed:
        data = None if form is None else urllib.parse.urlencode(form).encode()
        started = time.perf_counter()
        try:
            with self._opener.open(self.base + path, data, timeout=600) as response:
                status, body, headers = response.status, response.read(), response.headers
        except urllib.error.HTTPError as error:  # a 303 (not followed) or a refusal
            status, body, headers = error.code, error.read(), error.headers
        fetch_ms = (time.perf_counter() - started) * 1000
        timing = headers.get("server-timing", "")
        server_ms = float(timing.partition("dur=")[2] or "nan")
        return Timed(status, body.decode(errors="replace"), server_ms, fetch_ms)

    def csrf(self, path: str) -> str:
        found = CSRF.search(self.request(path).body)
        if found is None:
            raise RuntimeError(f"{path} has no form with a CSRF token")
        return found.group(1)

    def sign_in(self, token: str) -> None:
        form = {"csrf": self.csrf(links.sign_in_url()), "token": token, "next": "/"}
        if self.request(links.sign_in_url(), form).status != 303:
            raise RuntimeError("the bench's organiser could not sign in")


def _posted(browser: Browser, path: str, form: dict[str, str]) -> Timed:
    got = browser.request(path, form)
    if got.status != 303:
        raise RuntimeError(f"POST {path} answered {got.status}: {got.body[:300]}")
    return got


@dataclass(frozen=True, slots=True)
class EventFormFigures:
    entrants: int
    events: int
    create_server_ms: float  # medians over the events
    create_ms: float
    start_server_ms: float
    start_ms: float
    page_ms: float  # the started event's page, the Start button's 303 leads there


def _register(client: redis.Redis, names: list[str]) -> None:
    registry = BotRegistry(client)
    for name in names:
        registry.register(name)


def event_form(entrants: int = 1024, events: int = 3) -> EventFormFigures:
    names = [f"bot{i:04d}" for i in range(entrants)]
    creates, starts, pages = [], [], []
    with fresh_arena() as client:
        _register(client, names)
        with serving(client, settings=WebSettings(ADMIN)) as site:
            browser = Browser(site)
            browser.sign_in(ADMIN)
            for number in range(events):
                name = f"form-{number}"
                form = {**DEFAULTS, "name": name, "entrants": ", ".join(names)}
                form["csrf"] = browser.csrf(links.new_tournament_url())
                creates.append(_posted(browser, links.new_tournament_url(), form))
                csrf = browser.csrf(links.tournament_url(name))
                starts.append(
                    _posted(browser, links.tournament_action_url(name, "start"), {"csrf": csrf})
                )
                pages.append(browser.request(links.tournament_url(name)))
    return EventFormFigures(
        entrants,
        events,
        statistics.median(t.server_ms for t in creates),
        statistics.median(t.fetch_ms for t in creates),
        statistics.median(t.server_ms for t in starts),
        statistics.median(t.fetch_ms for t in starts),
        statistics.median(t.fetch_ms for t in pages),
    )


@dataclass(frozen=True, slots=True)
class PageTime:
    path: str
    bytes: int
    first_server_ms: float
    server_ms: float  # then, median of the Server-Timing durations
    fetch_ms: float


def busiest_pages(entrants: int = 1024, rounds: int = 10, fetches: int = 5) -> list[PageTime]:
    """The pages over a finished `entrants`-entrant Swiss, every entrant a registered bot."""
    paths = [
        links.home_url(),
        links.tournaments_url(),
        links.bots_url(),
        links.head_to_head_url("bot0000", "bot0001"),
    ]
    with fresh_arena() as client:
        build_swiss(client, entrants, rounds)
        _register(client, [f"bot{i:04d}" for i in range(entrants)])
        with serving(client) as site:
            browser = Browser(site)
            return [_timed_page(browser, path, fetches) for path in paths]


def _timed_page(browser: Browser, path: str, fetches: int) -> PageTime:
    first = browser.request(path)
    if first.status != 200:
        raise RuntimeError(f"{path} answered {first.status}")
    runs = [browser.request(path) for _ in range(fetches)]
    return PageTime(
        path,
        len(first.body.encode()),
        first.server_ms,
        statistics.median(r.server_ms for r in runs),
        statistics.median(r.fetch_ms for r in runs),
    )
