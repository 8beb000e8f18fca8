"""Signed-in sessions of the web site and the counters that rate-limit failed sign-ins.

A session is a random id (the cookie's value) naming a Redis hash that expires: the person's
role, the bot they own (if any) with the hash of the token they signed in with, and the
session's CSRF token. A new id is made at each sign-in, so an id planted before it is worth
nothing; signing out deletes the hash.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass

import redis

from arena.store import keys
from arena.store.values import as_text

SESSION_TTL_S = 12 * 3600
ORGANISER = "organiser"
OWNER = "owner"


@dataclass(frozen=True, slots=True)
class WebSession:
    session_id: str
    role: str  # ORGANISER or OWNER
    bot_id: str  # the owned bot's id ("" for the organiser)
    bot_name: str
    token_digest: str  # the bot token's hash when signed in ("" for the organiser)
    csrf: str


class SessionStore:
    def __init__(self, client: redis.Redis, ttl_s: int = SESSION_TTL_S) -> None:
        self._redis = client
        self._ttl_s = ttl_s

    def create(
        self, role: str, bot_id: str = "", bot_name: str = "", token_digest: str = ""
    ) -> WebSession:
        new_id, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
        session = WebSession(new_id, role, bot_id, bot_name, token_digest, csrf)
        key = keys.web_session(new_id)
        pipe = self._redis.pipeline()
        pipe.hset(key, mapping={"role": role, "bot_id": bot_id, "bot_name": bot_name})
        pipe.hset(key, mapping={"token": token_digest, "csrf": csrf})
        pipe.expire(key, self._ttl_s)
        pipe.execute()
        return session

    def get(self, session_id: str) -> WebSession | None:
        if not session_id or len(session_id) > 100:
            return None
        data = self._redis.hgetall(keys.web_session(session_id))
        if not data:
            return None
        f = {as_text(k): as_text(v) for k, v in data.items()}
        return WebSession(session_id, f["role"], f["bot_id"], f["bot_name"], f["token"], f["csrf"])

    def delete(self, session_id: str) -> None:
        self._redis.delete(keys.web_session(session_id))


def _subject(text: str) -> str:
    # Counter keys name a digest: a client's address or a token's first characters never
    # appear in Redis as they are.
    return hashlib.sha256(text.encode()).hexdigest()[:32]


class FailureCounters:
    """Failed sign-ins per subject within a window (a counter that expires with it)."""

    def __init__(self, client: redis.Redis, window_s: int) -> None:
        self._redis = client
        self._window_s = window_s

    def counts(self, subjects: dict[str, str]) -> list[int]:
        """The current count of each (kind, subject)."""
        names = [keys.web_signin_failures(kind, _subject(s)) for kind, s in subjects.items()]
        return [int(as_text(v)) if v is not None else 0 for v in self._redis.mget(names)]

    def add(self, subjects: dict[str, str]) -> None:
        pipe = self._redis.pipeline()
        for kind, subject in subjects.items():
            key = keys.web_signin_failures(kind, _subject(subject))
            pipe.set(key, 0, ex=self._window_s, nx=True)  # the window starts at the first
            pipe.incr(key)
        pipe.execute()
