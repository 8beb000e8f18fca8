"""A hosted bot's versions on the site, for its owner or the organiser: each with its build
state and, for a failed build, what the build wrote; and a form to submit a new version.

The upload is a multipart form of the CSRF token and one archive (.tar.gz or .zip). Its size is
checked from Content-Length before anything is read, and the body is read no further than the
limit whatever the header said, so an oversized upload is refused without being held. A new
version that needs building is built after the answer is sent (in the site's process, in the
sandbox); if the site cannot build, the first worker to play it does.
"""

from __future__ import annotations

import contextlib
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser

import redis
from starlette.background import BackgroundTask
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from arena.hosted.archive import DEFAULT_SUBMISSION_LIMITS
from arena.play import hosted_versions
from arena.play.hosted_build import build
from arena.services import hosted, signin
from arena.store.bot_versions import BotVersions, BuildState, VersionInfo
from arena.store.bots import BotInfo, BotRegistry
from arena.store.web_sessions import WebSession
from arena.web import links, signer
from arena.web.organiser import NO_STORE, back_to
from arena.web.render import NotFound, page, store_client

UPLOAD_LIMIT_BYTES = DEFAULT_SUBMISSION_LIMITS.archive_bytes + 64 * 1024  # the archive + form
ARCHIVE_FIELD = "archive"


def routes() -> list[Route]:
    return [
        Route("/bots/{name}/versions", versions_page, methods=["GET"]),
        Route("/bots/{name}/versions", submit_version, methods=["POST"]),
    ]


def _owned(request: Request, session: WebSession | None, doing: str) -> BotInfo:
    """The bot named in the URL, managed by `session`: else the sign-in page, a 403 or a 404."""
    if session is None:
        raise signer.SignInNeeded
    name = request.path_params["name"]
    bot = BotRegistry(store_client(request)).by_name(name)
    if bot is None:
        raise NotFound(f"there is no bot named {name!r}")
    if not signin.may_manage_bot(session, bot.bot_id):
        raise HTTPException(403, f"only {name}'s owner or the organiser may {doing}")
    return bot


async def versions_page(request: Request) -> Response:
    session = signer.current(request)
    bot = _owned(request, session, "see its versions")
    found = hosted.versions(store_client(request), bot.name) if bot.revoked is None else []
    chosen = hosted_versions.played(found)
    log = BotVersions(store_client(request)).program_log(bot.bot_id)
    context = {
        "bot": bot, "versions": found, "played": chosen, "log": log, "limit_mib": _limit_mib(),
    }  # fmt: skip
    return page(request, "bot_versions.html", context, headers=NO_STORE)


async def submit_version(request: Request) -> Response:
    form, archive = await _read_upload(request)
    session = signer.require_signer(request, form)
    bot = _owned(request, session, "submit a version")
    url = links.bot_versions_url(bot.name)
    if archive is None or not archive:
        return back_to(request, url, "choose an archive (.tar.gz or .zip) to submit", True)
    client = store_client(request)
    try:
        submitted = hosted.store_version(client, bot, archive)
    except ValueError as error:
        return back_to(request, url, str(error), refused=True)
    info = submitted.version
    said = "stored" if submitted.new else "already stored"
    response = back_to(request, url, f"version {info.version} {said}")
    if info.build is BuildState.PENDING:
        response.background = BackgroundTask(build_quietly, client, bot, info)
    return response


def build_quietly(client: redis.Redis, bot: BotInfo, info: VersionInfo) -> None:
    """Build now if this process can; if it cannot (no sandbox here), a worker will."""
    with contextlib.suppress(OSError, ValueError):
        build(client, bot, info)


async def _read_upload(request: Request) -> tuple[signer.Form, bytes | None]:
    """The form's fields and its archive's bytes (None if it sent none); 413 past the limit."""
    kind = request.headers.get("content-type", "")
    if not kind.startswith("multipart/form-data"):
        return await signer.read_form(request), None
    return _parse_multipart(kind, await read_capped(request))


async def read_capped(request: Request) -> bytes:
    """The request's body, refused (413) from its Content-Length before it is read, or as soon
    as more than the limit has arrived, whatever the header said."""
    over = HTTPException(413, f"the upload is over the limit of {_limit_mib()} MiB")
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > UPLOAD_LIMIT_BYTES:
        raise over
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > UPLOAD_LIMIT_BYTES:
            raise over
    return bytes(body)


def _parse_multipart(kind: str, body: bytes) -> tuple[signer.Form, bytes | None]:
    head = f"Content-Type: {kind}\r\nMIME-Version: 1.0\r\n\r\n".encode()
    message = BytesParser(policy=policy.HTTP).parsebytes(head + body)
    fields: signer.Form = {}
    archive: bytes | None = None
    if not isinstance(message, EmailMessage) or not message.is_multipart():
        return fields, None
    for part in message.iter_parts():
        name = part.get_param("name", header="content-disposition")
        payload = part.get_payload(decode=True)
        if not isinstance(name, str) or not isinstance(payload, bytes):
            continue
        if name == ARCHIVE_FIELD and archive is None:
            archive = payload
        elif name not in fields:
            fields[name] = payload.decode("utf-8", "replace")
    return fields, archive


def _limit_mib() -> int:
    return DEFAULT_SUBMISSION_LIMITS.archive_bytes // (1024 * 1024)
