"""The site's one Jinja2 environment and the helpers every page module renders with.

Templates are autoescaped (Starlette's `Jinja2Templates` turns it on for .html), so a bot or
tournament name can never inject markup. The replay pages render through `page` too.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import redis
from starlette.requests import Request
from starlette.responses import HTMLResponse
from starlette.templating import Jinja2Templates

from arena.web import links, signer
from arena.web.grid import grid_html
from arena.web.notice import clear_notice, read_notice

HERE = Path(__file__).parent
TEMPLATES = Jinja2Templates(directory=str(HERE / "templates"))
TEMPLATES.env.globals["links"] = links
TEMPLATES.env.globals["render_grid"] = grid_html
TEMPLATES.env.trim_blocks = True
TEMPLATES.env.lstrip_blocks = True


def page(
    request: Request,
    template: str,
    context: dict[str, Any],
    status_code: int = 200,
    headers: dict[str, str] | None = None,
) -> HTMLResponse:
    """`template` rendered with `context`; every page extends base.html, whose header shows
    who is signed in (`signer`) with the sign-out form, and the notice of the action that led
    here, if any (`arena.web.notice`), once."""
    context = {"signer": signer.shown_signer(request), "notice": read_notice(request), **context}
    response = TEMPLATES.TemplateResponse(
        request, template, context, status_code=status_code, headers=headers
    )
    clear_notice(request, response)
    return response


def store_client(request: Request) -> redis.Redis:
    """The Redis client `create_app` was given: pages read it through `arena.store` only."""
    client: redis.Redis = request.app.state.redis
    return client


class NotFound(LookupError):
    """A page asked for something the store does not hold; the message says what."""
