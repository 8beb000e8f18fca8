"""Every URL of the site, built here so that pages, the replay viewer and tests agree.

Game ids are the ids the workers store game records under (`arena.store.keys.game_record`):
`<match id>.g<index>`, where a tournament's match id is `<tournament>.r<round>.b<board>`
(`arena.store.tournaments.match_id`), a table's is its table id, and a ladder's is
`<slug>.m<number>` (`workers.ladder.ladder_match_id`). They hold letters, digits, '.', '_'
and '-' only, but every part is quoted anyway, so a URL never breaks on a name.

The game page (`game_url`) is served by `arena.web.replay`: `arena.web.app.create_app` adds the
routes of `arena.web.replay.routes()` (a list of Starlette routes) when that module exists.
"""

from __future__ import annotations

import re
from urllib.parse import quote, urlencode

GAMES_PREFIX = "/games/"


def _part(text: str) -> str:
    return quote(text, safe="")


def home_url() -> str:
    return "/"


def tournaments_url() -> str:
    return "/tournaments"


def tournament_url(name: str) -> str:
    return f"/tournaments/{_part(name)}"


def tournament_live_url(name: str) -> str:
    """JSON polled by the tournament page's script: progress, status, what changed."""
    return f"{tournament_url(name)}/live.json"


def tournament_download_url(name: str, fmt: str) -> str:
    """`fmt` is trf, json or csv: what `arena tournament export` writes."""
    return f"{tournament_url(name)}/export.{fmt}"


def new_tournament_url() -> str:
    """The organiser's form (GET) that creates a tournament (POST)."""
    return "/new-tournament"


def tournament_action_url(name: str, action: str) -> str:
    """POST: the organiser starts, stops or resumes the tournament (`action`)."""
    return f"{tournament_url(name)}/{action}"


def tournament_games_url(name: str) -> str:
    """The event's game records, gzipped JSON lines: `arena tournament export --games`."""
    return f"{tournament_url(name)}/games.jsonl.gz"


def ladders_url() -> str:
    return "/ladders"


def ladder_url(slug: str) -> str:
    return f"/ladders/{_part(slug)}"


def ladder_bot_url(slug: str, bot: str) -> str:
    return f"{ladder_url(slug)}/bots/{_part(bot)}"


def new_ladder_url() -> str:
    """The organiser's form (GET) that creates a ladder (POST)."""
    return "/new-ladder"


def ladder_action_url(slug: str, action: str) -> str:
    """POST: the organiser sets the ladder's bots, stops or resumes it (`action`)."""
    return f"{ladder_url(slug)}/{action}"


def bots_url() -> str:
    return "/bots"


def bot_url(name: str) -> str:
    """One bot's page: its connection, versions, recent matches and ratings."""
    return f"{bots_url()}/{_part(name)}"


def bot_rotate_url(name: str) -> str:
    """POST: a new token for the bot (its owner or the organiser)."""
    return f"{bots_url()}/{_part(name)}/rotate-token"


def bot_revoke_url(name: str) -> str:
    """POST: revoke the bot (its owner or the organiser); its results stay, marked."""
    return f"{bots_url()}/{_part(name)}/revoke"


def bot_versions_url(name: str) -> str:
    """A hosted bot's versions, for its owner or the organiser; POST: submit a new one."""
    return f"{bots_url()}/{_part(name)}/versions"


def head_to_head_url(first: str = "", second: str = "") -> str:
    """Two bots' matches against each other, from `first`'s side; without names, the form."""
    query = f"?a={quote(first, safe='')}&b={quote(second, safe='')}" if first and second else ""
    return f"/head-to-head{query}"


def sprts_url() -> str:
    return "/sprt"


def sprt_url(name: str) -> str:
    return f"{sprts_url()}/{_part(name)}"


def sprt_live_url(name: str) -> str:
    """JSON polled by the test's page: its state and pairs (`arena.web.sprt.live`)."""
    return f"{sprt_url(name)}/live.json"


def new_sprt_url() -> str:
    """The organiser's form (GET) that starts an SPRT test (POST)."""
    return "/new-sprt"


def sprt_action_url(name: str, action: str) -> str:
    """POST: the organiser stops or resumes the test (`action`)."""
    return f"{sprt_url(name)}/{action}"


def workers_url() -> str:
    return "/workers"


def game_url(game_id: str) -> str:
    """The replay page of one stored game record (key `arena.store.keys.game_record(game_id)`)."""
    return f"{GAMES_PREFIX}{_part(game_id)}"


def game_number(game_id: str) -> int | None:
    """The number people see for a game of a match: 1 for its first (id suffix `.g0`), as
    boards are numbered from 1 too; ids keep counting from 0. None for an id without one."""
    found = re.search(r"\.g(\d+)$", game_id)
    return int(found.group(1)) + 1 if found else None


def sign_in_url(next_path: str = "") -> str:
    """The sign-in page; `next_path` (a local path, checked again when used) is where it
    leads once signed in."""
    return f"/sign-in?{urlencode({'next': next_path})}" if next_path else "/sign-in"


def sign_out_url() -> str:
    return "/sign-out"


def register_url() -> str:
    """The open registration form (`arena web --open-registration`)."""
    return "/register"


def static_url(path: str) -> str:
    return f"/static/{path}"
