"""Signing in: who a token makes you, rate limits on failures, and sessions that end."""

from __future__ import annotations

import pytest
import redis

from arena.metrics.collector import ArenaCollector
from arena.metrics.recorder import WEB_SIGNIN_FAILURES, read_counter
from arena.services import signin
from arena.services.signin import SignInLimits, SignInRefused
from arena.store import keys
from arena.store.bots import BotRegistry
from arena.store.web_sessions import ORGANISER, OWNER

ADMIN = "admin-token-for-tests"
LIMITS = SignInLimits(failures=3, window_s=60)


def test_the_admin_token_signs_in_the_organiser_and_a_bot_s_its_owner(
    redis_client: redis.Redis,
) -> None:
    bot, token = BotRegistry(redis_client).register("alpha")
    organiser = signin.sign_in(redis_client, ADMIN, ADMIN, "10.0.0.1")
    owner = signin.sign_in(redis_client, f" {token} ", ADMIN, "10.0.0.1")
    assert (organiser.role, organiser.bot_id) == (ORGANISER, "")
    assert (owner.role, owner.bot_id, owner.bot_name) == (OWNER, bot.bot_id, "alpha")
    assert signin.session(redis_client, owner.session_id) == owner
    assert redis_client.ttl(keys.web_session(owner.session_id)) > 0  # sessions expire


@pytest.mark.parametrize("token", ["", "nope", ADMIN[:-1], ADMIN + "x"])
def test_a_wrong_token_is_refused_and_counted(redis_client: redis.Redis, token: str) -> None:
    with pytest.raises(SignInRefused):
        signin.sign_in(redis_client, token, ADMIN, "10.0.0.1")
    with pytest.raises(SignInRefused):
        signin.sign_in(redis_client, ADMIN, None, "10.0.0.1")  # no admin token: nobody is
    counted = read_counter(redis_client, WEB_SIGNIN_FAILURES)
    assert counted[("wrong_token",)] == (1 if token else 0) + 1


def test_failures_from_one_address_lock_it_out_even_with_the_right_token(
    redis_client: redis.Redis,
) -> None:
    for n in range(LIMITS.failures):
        with pytest.raises(SignInRefused, match="neither"):
            signin.sign_in(redis_client, f"guess{n}-abcdef", ADMIN, "10.0.0.9", LIMITS)
    with pytest.raises(SignInRefused, match="too many failed sign-ins"):
        signin.sign_in(redis_client, ADMIN, ADMIN, "10.0.0.9", LIMITS)
    assert signin.sign_in(redis_client, ADMIN, ADMIN, "10.0.0.10", LIMITS).role == ORGANISER
    assert read_counter(redis_client, WEB_SIGNIN_FAILURES)[("rate_limited",)] == 1
    failures = list(redis_client.scan_iter(keys.web_signin_failures("*", "*")))
    assert failures and all(0 < redis_client.ttl(key) <= LIMITS.window_s for key in failures)


def test_failures_on_one_token_prefix_lock_it_out_from_every_address(
    redis_client: redis.Redis,
) -> None:
    _, token = BotRegistry(redis_client).register("alpha")
    for n in range(LIMITS.failures):
        with pytest.raises(SignInRefused):
            signin.sign_in(redis_client, token[:-1] + "?", ADMIN, f"10.1.0.{n}", LIMITS)
    with pytest.raises(SignInRefused, match="too many"):
        signin.sign_in(redis_client, token, ADMIN, "10.2.0.1", LIMITS)


def test_counter_keys_hold_no_token_characters(redis_client: redis.Redis) -> None:
    with pytest.raises(SignInRefused):
        signin.sign_in(redis_client, "secretprefix-and-more", ADMIN, "10.0.0.1")
    names = [str(key) for key in redis_client.scan_iter(keys.web_signin_failures("*", "*"))]
    assert len(names) == 2 and not any("secret" in name for name in names)


def test_an_owner_s_session_ends_when_the_bot_s_token_is_replaced_or_the_bot_gone(
    redis_client: redis.Redis,
) -> None:
    bot, token = BotRegistry(redis_client).register("alpha")
    first = signin.sign_in(redis_client, token, ADMIN, "10.0.0.1")
    second = signin.sign_in(redis_client, token, ADMIN, "10.0.0.1")
    assert first.session_id != second.session_id  # a new id at every sign-in
    redis_client.hset(keys.bot(bot.bot_id), "token", "0" * 64)
    assert signin.session(redis_client, first.session_id) is None
    assert not redis_client.exists(keys.web_session(first.session_id))
    redis_client.delete(keys.bot(bot.bot_id))
    assert signin.session(redis_client, second.session_id) is None


def test_sign_out_deletes_the_session(redis_client: redis.Redis) -> None:
    session = signin.sign_in(redis_client, ADMIN, ADMIN, "10.0.0.1")
    signin.sign_out(redis_client, session.session_id)
    assert signin.session(redis_client, session.session_id) is None


def test_refusals_are_in_the_metrics_exposition(redis_client: redis.Redis) -> None:
    with pytest.raises(SignInRefused):
        signin.sign_in(redis_client, "wrong", ADMIN, "10.0.0.1")
    text = ArenaCollector(redis_client).exposition().decode()
    assert 'arena_web_signin_failures_total{reason="wrong_token"} 1.0' in text
