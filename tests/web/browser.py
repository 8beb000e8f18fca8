"""Browser-test fixtures: Debian's chromium driven by Playwright, and a real uvicorn server.

Playwright never downloads a browser of its own here (the machines reach no browser builds):
it launches /usr/bin/chromium, which `make test-tools` installs from Debian when missing.
Screenshots go to tests/artifacts/web/<test name>/ (gitignored), to be looked at by a human.
"""

from __future__ import annotations

import os
import re
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
import uvicorn
from playwright.sync_api import Browser, Page, sync_playwright
from starlette.types import ASGIApp

CHROMIUM = Path("/usr/bin/chromium")
INSTALL = "make test-tools"  # apt-get installs Debian's chromium (APT_TOOLS in the Makefile)
# Headless, and nothing that reaches out to the internet or needs a GPU or a sandbox (root in CI).
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "web"
SERVER_START_S = 20.0


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """One chromium for the whole session; each test gets its own context (`page`)."""
    require_chromium(CHROMIUM)
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
        )
        yield launched
        launched.close()


def require_chromium(path: Path) -> None:
    """Fail (never skip) with the one command that installs the browser."""
    if not os.access(path, os.X_OK):
        pytest.fail(f"the browser tests need Debian's chromium at {path}: run `{INSTALL}`")


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    """A fresh page (own cookies and storage) at a laptop's size."""
    context = browser.new_context(viewport={"width": 1360, "height": 900})
    context.set_default_timeout(15_000)  # a wait that fails says where, not at pytest's timeout
    opened = context.new_page()
    yield opened
    context.close()


@pytest.fixture
def artifacts(request: pytest.FixtureRequest) -> Path:
    """This test's folder for screenshots, emptied of an earlier run's files."""
    folder = ARTIFACTS / re.sub(r"[^A-Za-z0-9_.-]+", "_", request.node.name)
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.png"):
        old.unlink()
    return folder


@dataclass(frozen=True, slots=True)
class LiveServer:
    url: str  # http://127.0.0.1:<port>, no trailing slash


@contextmanager
def serve(app: ASGIApp) -> Iterator[LiveServer]:
    """Serve `app` with a real uvicorn on a free loopback port, in a thread, until the block
    ends. The socket is bound here first, so the port is known before the server starts."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(app, log_level="warning", lifespan="off", access_log=False)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        _wait_started(server, thread)
        yield LiveServer(f"http://127.0.0.1:{port}")
    finally:
        server.should_exit = True
        thread.join(SERVER_START_S)
        sock.close()


def _wait_started(server: uvicorn.Server, thread: threading.Thread) -> None:
    deadline = time.monotonic() + SERVER_START_S
    while not server.started:
        if not thread.is_alive():
            raise RuntimeError("uvicorn stopped before it started serving (see the log above)")
        if time.monotonic() > deadline:
            raise RuntimeError(f"uvicorn did not start serving within {SERVER_START_S:.0f} s")
        time.sleep(0.02)
