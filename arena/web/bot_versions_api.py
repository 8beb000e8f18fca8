"""The site's API for a hosted bot's owner on their own machine (`arena bot submit --site`):
submit a version, list the versions with their builds' output, read the end of its program's
stderr in its last match.

Authenticated by the bot's token (or the admin token) as `Authorization: Bearer TOKEN`, never by
the session cookie: a page of another site can make a browser send the cookie, not this header,
so these POSTs need no CSRF token. A wrong token counts as a failed sign-in, and the sign-in's
lock-out (per address and token prefix) refuses these requests too. The body of a submission is
the archive itself (.tar.gz or .zip), size-limited as the versions page's upload is.
"""

from __future__ import annotations

from dataclasses import asdict

from starlette.background import BackgroundTask
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from arena.play import hosted_versions
from arena.services import hosted, signin
from arena.store.bot_versions import BuildState, VersionInfo
from arena.store.bots import BotRegistryError
from arena.web import signer
from arena.web.bot_versions import build_quietly, read_capped
from arena.web.render import store_client

NO_STORE = {"Cache-Control": "no-store"}


API_PATH = "/api/bots/{name}/versions"  # `arena bot submit --site` calls it by this path
LOG_PATH = "/api/bots/{name}/program-log"  # `arena bot versions --program-log --site`


def routes() -> list[Route]:
    return [
        Route(API_PATH, submit_version, methods=["POST"]),
        Route(API_PATH, list_versions, methods=["GET"]),
        Route(LOG_PATH, program_log, methods=["GET"]),
    ]


class _Refused(Exception):
    def __init__(self, response: Response) -> None:
        self.response = response


def _bearer(request: Request) -> str:
    """The request's Bearer token, checked against the sign-in's failure limits; else a 401,
    or a 429 while its address or token prefix is locked out."""
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        message = "send the bot's token: Authorization: Bearer TOKEN"
        raise _Refused(JSONResponse({"error": message}, 401, headers=NO_STORE))
    try:
        signin.refuse_if_locked_out(store_client(request), token.strip(), _address(request))
    except signin.SignInRefused as error:
        raise _Refused(JSONResponse({"error": str(error)}, 429, headers=NO_STORE)) from None
    return token.strip()


def _address(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def _refused(request: Request, token: str, error: ValueError) -> JSONResponse:
    """A refusal as JSON: 404 for an unknown or revoked bot, 403 for a token that is not its
    owner's (counted as a failed sign-in), 400 for a submission that breaks a rule."""
    status = 404 if isinstance(error, BotRegistryError) else 400
    if isinstance(error, hosted.HostedError):
        status = 403
        signin.count_wrong_token(store_client(request), token, _address(request))
    return JSONResponse({"error": str(error)}, status_code=status, headers=NO_STORE)


def version_fields(info: VersionInfo, played: VersionInfo | None) -> dict[str, object]:
    return {**asdict(info), "build": info.build.value, "played": info == played}


async def submit_version(request: Request) -> Response:
    try:
        token = _bearer(request)
    except _Refused as refused:
        return refused.response
    body = await read_capped(request)
    client = store_client(request)
    try:
        submitted = hosted.submit(client, request.path_params["name"], body, token, _admin(request))
    except ValueError as error:
        return _refused(request, token, error)
    info = submitted.version
    answer = {"new": submitted.new, **version_fields(info, None)}
    task = None
    if info.build is BuildState.PENDING:
        task = BackgroundTask(build_quietly, client, submitted.bot, info)
    return JSONResponse(answer, status_code=201 if submitted.new else 200, background=task)


async def list_versions(request: Request) -> Response:
    try:
        token = _bearer(request)
    except _Refused as refused:
        return refused.response
    try:
        found = hosted.owner_versions(
            store_client(request), request.path_params["name"], token, _admin(request)
        )
    except ValueError as error:
        return _refused(request, token, error)
    played = hosted_versions.played(found)
    return JSONResponse([version_fields(info, played) for info in found], headers=NO_STORE)


async def program_log(request: Request) -> Response:
    """The end of the program's stderr in its last match (null before any)."""
    try:
        token = _bearer(request)
    except _Refused as refused:
        return refused.response
    try:
        log = hosted.program_log(
            store_client(request), request.path_params["name"], token, _admin(request)
        )
    except ValueError as error:
        return _refused(request, token, error)
    return JSONResponse(None if log is None else asdict(log), headers=NO_STORE)


def _admin(request: Request) -> str | None:
    return signer.settings(request).admin_token
