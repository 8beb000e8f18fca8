"""The replay viewer in a real browser (Debian's chromium driven by Playwright)."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse
from starlette.routing import Route

from tests.web.browser import serve


def _hello(request: Request) -> HTMLResponse:
    return HTMLResponse(
        "<!doctype html><title>up</title><button id=b onclick=\"this.textContent='clicked'\">click</button>"
    )


def test_the_browser_drives_a_page_served_by_a_real_uvicorn(page: Page, artifacts: Path) -> None:
    with serve(Starlette(routes=[Route("/", _hello)])) as server:
        page.goto(server.url + "/")
        page.click("#b")
        assert page.text_content("#b") == "clicked"
        page.screenshot(path=artifacts / "hello.png")
    assert (artifacts / "hello.png").stat().st_size > 0
