"""A `Server-Timing: app;dur=<ms>` header on every response: how long the page took to build
(reads and rendering), apart from the network. `arena bench web` reports it."""

from __future__ import annotations

import time

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send


class ServerTiming:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()

        async def timed(message: Message) -> None:
            if message["type"] == "http.response.start":
                elapsed_ms = (time.perf_counter() - started) * 1000
                MutableHeaders(scope=message).append("server-timing", f"app;dur={elapsed_ms:.2f}")
            await send(message)

        await self.app(scope, receive, timed)
