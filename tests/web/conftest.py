"""Fixtures of the web tests: a real chromium (`tests.web.browser`) and real workers."""

from __future__ import annotations

from tests.web.browser import artifacts, browser, page
from tests.workers.conftest import start_worker

__all__ = ["artifacts", "browser", "page", "start_worker"]
