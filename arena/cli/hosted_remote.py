"""`arena bot submit --site URL`: a bot's owner submits from their own machine through the web
site's API (`/api/bots/NAME/versions`, the bot's token as a Bearer token), with no access to
the arena's Redis. The folder or archive is checked and packed here first (the canonical
archive, under the same limits), so most refusals need no upload; the site checks it again.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any
from urllib.parse import quote

from arena.hosted.archive import pack, read_submission
from arena.store.bot_versions import BuildState, ProgramLog, VersionInfo

TIMEOUT_S = 60.0
BUILD_WAIT_S = 200.0  # a build's own limit is 120 s; the site starts it after answering
POLL_S = 1.0


class SiteError(ValueError):
    """The site refused or could not be reached; the message says why."""


def _call(
    site: str, name: str, token: str | None, body: bytes | None = None, what: str = "versions"
) -> Any:
    if not token:
        raise SiteError("give the bot's token: --token or ARENA_BOT_TOKEN")
    url = f"{site.rstrip('/')}/api/bots/{quote(name, safe='')}/{what}"
    request = urllib.request.Request(url, data=body, method="POST" if body is not None else "GET")
    request.add_header("Authorization", f"Bearer {token}")
    if body is not None:
        request.add_header("Content-Type", "application/gzip")
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_S) as response:
            return json.loads(response.read())
    except urllib.error.HTTPError as error:
        raise SiteError(_error_text(error)) from None
    except (urllib.error.URLError, OSError) as error:
        reason = getattr(error, "reason", error)
        raise SiteError(f"cannot reach the site at {site}: {reason}") from None
    except ValueError:
        raise SiteError(f"{site} did not answer as an arena site does") from None


def _error_text(error: urllib.error.HTTPError) -> str:
    try:
        return str(json.loads(error.read())["error"])
    except (ValueError, KeyError, TypeError, OSError):
        return f"the site answered {error.code} {error.reason}"


def _version(fields: dict[str, Any]) -> VersionInfo:
    known = {key: fields[key] for key in VersionInfo.__dataclass_fields__ if key in fields}
    return VersionInfo(**{**known, "build": BuildState(fields["build"])})


def submit(site: str, name: str, path: Path, token: str | None) -> tuple[VersionInfo, bool]:
    """Upload `path` as a new version of bot `name`; the version and whether it is new."""
    _, packed = pack(read_submission(path))
    answer = _call(site, name, token, packed)
    return _version(answer), bool(answer["new"])


def versions(site: str, name: str, token: str | None) -> list[VersionInfo]:
    """The bot's versions, newest first, with their builds' output."""
    return [_version(fields) for fields in _call(site, name, token)]


def program_log(site: str, name: str, token: str | None) -> ProgramLog | None:
    """The end of the bot's program's stderr in its last match, and why it stopped early."""
    fields = _call(site, name, token, what="program-log")
    return None if fields is None else ProgramLog(**fields)


def wait_for_build(site: str, name: str, version: str, token: str | None) -> VersionInfo:
    """The version once the site has built it (or given up waiting)."""
    deadline = time.monotonic() + BUILD_WAIT_S
    while True:
        found = [info for info in versions(site, name, token) if info.version == version]
        if not found:
            raise SiteError(f"version {version} of bot {name} is gone from the site")
        if found[0].build is not BuildState.PENDING or time.monotonic() > deadline:
            return found[0]
        time.sleep(POLL_S)
