"""Bots: register one (its token is shown once), list them with their connection, and check
that the players of a match or test can play it before any of them hears of it.

A bot's token can be rotated (the old one stops working and its open stream is closed) and a
bot revoked: no token works for it again, its stream is closed, and its name and results stay,
marked revoked.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import redis

from arena.bots import BUILTIN_BOTS, builtin_name, make_bot
from arena.games.api import Config, Game
from arena.play import hosted_versions
from arena.play.match import UnknownPlayerError
from arena.ratings.ladder import Standing
from arena.store.bot_versions import BotVersions
from arena.store.bots import BotInfo, BotRegistry, BotRegistryError
from arena.store.ladders import LadderDefinition, LadderStore
from arena.store.ratings import RatingStore
from arena.store.relay import RunnerRelay, StreamEnd


@dataclass(frozen=True, slots=True)
class ListedBot:
    info: BotInfo
    online: bool
    hosted: str | None = None  # a hosted bot's newest version


@dataclass(frozen=True, slots=True)
class BotDetail:
    """One bot as its page shows it: never its token nor the token's hash."""

    listed: ListedBot
    version: str  # what its last Hello reported, "" if it never said hello
    games: frozenset[str] | None  # the games its Hello named, None for any
    played: str | None = None  # a hosted bot's version that "NAME" plays now


def register(client: redis.Redis, name: str) -> tuple[BotInfo, str]:
    """A new bot and its token (the registry keeps only its hash)."""
    return BotRegistry(client).register(name)


def rotate_token(client: redis.Redis, name: str) -> tuple[BotInfo, str]:
    """A new token for the bot named `name` (shown once): the old one is refused from now on
    and the gateway holding its stream closes it at its next heartbeat."""
    bot = BotRegistry(client).by_name(name)
    if bot is None:
        raise BotRegistryError(f"there is no bot named {name!r}")
    token = BotRegistry(client).rotate_token(bot.bot_id)
    RunnerRelay(client).end_stream(bot.bot_id, StreamEnd.TOKEN_ROTATED)
    return bot, token


def revoke(client: redis.Redis, name: str) -> BotInfo:
    """Revoke the bot named `name`: its token is refused from now on, its open stream closed at
    the gateway's next heartbeat; its results stay in history under its name, marked."""
    registry = BotRegistry(client)
    bot = registry.by_name(name)
    if bot is None:
        raise BotRegistryError(f"there is no bot named {name!r}")
    registry.revoke(bot.bot_id)
    RunnerRelay(client).end_stream(bot.bot_id, StreamEnd.BOT_REVOKED)
    revoked = registry.get(bot.bot_id)
    assert revoked is not None  # revoking keeps the record
    return revoked


def revoked_among(client: redis.Redis, names: Iterable[str]) -> frozenset[str]:
    """Which of these players are revoked bots, for the tables that mark them."""
    return BotRegistry(client).revoked_among(names)


def counts(client: redis.Redis) -> tuple[int, int]:
    """How many bots are registered, and how many of them are connected now, without reading
    any bot's record: two round trips."""
    registry = BotRegistry(client)
    ids = registry.ids()
    return len(ids), len(registry.online_among(ids))


def listing(client: redis.Redis) -> list[ListedBot]:
    """Every registered bot, with whether a gateway holds its stream now and, for a hosted bot,
    its newest version: three round trips however many bots there are."""
    registry = BotRegistry(client)
    bots = registry.all()
    ids = [bot.bot_id for bot in bots]
    online, newest = registry.online_among(ids), BotVersions(client).newest_of(ids)
    return [ListedBot(bot, bot.bot_id in online, newest.get(bot.bot_id)) for bot in bots]


def detail(client: redis.Redis, name: str) -> BotDetail | None:
    """The bot named `name` with its connection, its last Hello and, for a hosted bot that is
    not revoked, its newest and played versions; None if no bot has that name."""
    registry = BotRegistry(client)
    bot = registry.by_name(name)
    if bot is None:
        return None
    version, games = registry.hellos([bot.bot_id]).get(bot.bot_id, ("", None))
    versions = BotVersions(client)
    chosen = hosted_versions.played(versions.all(bot.bot_id)) if bot.revoked is None else None
    newest = versions.newest_of([bot.bot_id]).get(bot.bot_id)
    listed = ListedBot(bot, registry.is_online(bot.bot_id), newest)
    return BotDetail(listed, version, games, chosen.version if chosen else None)


def ratings(client: redis.Redis, name: str) -> list[tuple[LadderDefinition, Standing]]:
    """The bot's standing on every ladder it has a rated result on, in the ladders' order."""
    store, found = RatingStore(client), []
    for ladder in LadderStore(client).all():
        standing = store.standings(ladder, [name])[name]
        if standing.games:
            found.append((ladder, standing))
    return found


def check_players(
    client: redis.Redis, game: Game[Any, Any], config: Config, players: Sequence[str], seed: int
) -> None:
    """Everything a match needs, checked before any bot hears of it: the configuration, each
    built-in bot's spec, and each registered bot's game and live connection (an absent bot
    would otherwise lose every game after waiting out its grace periods); a hosted bot needs
    none: the arena runs it."""
    game.create(config, seed)  # an unknown city fails here
    registry, relay = BotRegistry(client), RunnerRelay(client)
    for name in players:
        if builtin_name(name) in BUILTIN_BOTS:
            make_bot(name)  # a bad spec ("search@fast") fails here
            continue
        bot = registry.by_name(name)
        if bot is None:
            known = ", ".join(sorted(BUILTIN_BOTS))
            raise UnknownPlayerError(
                f"unknown player {name!r}: not a registered bot, nor a built-in one ({known})"
            )
        if bot.revoked is not None:
            raise BotRegistryError(f"bot {name} was revoked: it plays no more")
        registry.check_plays(name, game.id)
        if not relay.is_online(bot.bot_id) and not BotVersions(client).is_hosted(bot.bot_id):
            raise BotRegistryError(
                f"bot {name} is not connected: start it (see `arena bot list`), then retry"
            )
