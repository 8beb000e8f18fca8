"""Signing in to the web site with the admin token (the organiser) or a bot's token (that
bot's owner), and the sessions that follow.

A token is checked as the gateway checks it: the admin token compared in constant time, a bot's
token hashed in full and looked up by that hash, then the stored hash compared in constant time,
so how long a wrong token takes never depends on how much of it was right. Failed sign-ins are
counted per client address and per token prefix; past the limit both are refused for a while,
and every refusal is counted for /metrics.
"""

from __future__ import annotations

from dataclasses import dataclass

import redis

from arena.metrics.recorder import record_signin_failure
from arena.store.bots import BotRegistry, is_admin, token_hash
from arena.store.web_sessions import ORGANISER, OWNER, FailureCounters, SessionStore, WebSession

PREFIX_CHARS = 6  # a token prefix shared by guesses aimed at one token


class SignInRefused(ValueError):
    """A sign-in that cannot be done; the message says why (never which part was wrong)."""


@dataclass(frozen=True, slots=True)
class SignInLimits:
    failures: int = 10  # failed sign-ins allowed per address and per token prefix ...
    window_s: int = 15 * 60  # ... within this window, counted from the first failure


def sign_in(
    client: redis.Redis,
    token: str,
    admin_token: str | None,
    address: str,
    limits: SignInLimits = SignInLimits(),
) -> WebSession:
    """A new session for the holder of `token`, or SignInRefused."""
    token = token.strip()
    if not token:
        raise SignInRefused("give the admin token or your bot's token")
    refuse_if_locked_out(client, token, address, limits)
    sessions = SessionStore(client)
    if is_admin(token, admin_token):
        return sessions.create(ORGANISER)
    digest = token_hash(token)
    bot = BotRegistry(client).authenticate(token)
    if bot is not None and BotRegistry(client).holds_token(bot.bot_id, digest):
        return sessions.create(OWNER, bot.bot_id, bot.name, digest)
    count_wrong_token(client, token, address, limits)
    raise SignInRefused("that is neither the admin token nor a registered bot's token")


def _subjects(token: str, address: str) -> dict[str, str]:
    return {"address": address, "prefix": token[:PREFIX_CHARS]}


def refuse_if_locked_out(
    client: redis.Redis, token: str, address: str, limits: SignInLimits = SignInLimits()
) -> None:
    """SignInRefused while the address or the token's prefix is past the failure limit: for a
    sign-in, and for any request a token authorises (the site's API)."""
    counters = FailureCounters(client, limits.window_s)
    if max(counters.counts(_subjects(token, address))) >= limits.failures:
        record_signin_failure(client, "rate_limited")
        minutes = limits.window_s // 60
        raise SignInRefused(f"too many failed sign-ins: try again in up to {minutes} minutes")


def count_wrong_token(
    client: redis.Redis, token: str, address: str, limits: SignInLimits = SignInLimits()
) -> None:
    """Count a refused token against its address and prefix."""
    FailureCounters(client, limits.window_s).add(_subjects(token, address))
    record_signin_failure(client, "wrong_token")


def session(client: redis.Redis, session_id: str) -> WebSession | None:
    """The live session of that id; a bot owner's ends once the bot's token is replaced or the
    bot revoked (the session is deleted then)."""
    found = SessionStore(client).get(session_id)
    if found is None or found.role == ORGANISER:
        return found
    if BotRegistry(client).holds_token(found.bot_id, found.token_digest):
        return found
    SessionStore(client).delete(session_id)
    return None


def renew_owner(client: redis.Redis, signer: WebSession, token: str) -> WebSession:
    """An owner who rotated their bot's token stays signed in: a new session bound to the new
    token replaces theirs (which the rotation ended)."""
    sessions = SessionStore(client)
    sessions.delete(signer.session_id)
    return sessions.create(OWNER, signer.bot_id, signer.bot_name, token_hash(token))


def sign_out(client: redis.Redis, session_id: str) -> None:
    SessionStore(client).delete(session_id)


def may_manage_bot(signer: WebSession, bot_id: str) -> bool:
    """The organiser manages every bot; an owner only their own."""
    return signer.role == ORGANISER or (signer.role == OWNER and signer.bot_id == bot_id)
