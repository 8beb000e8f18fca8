"""Registered bots: names, ids and secret tokens, of which Redis keeps only a hash."""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import redis

from arena.store import keys
from arena.store.values import as_text

NAME_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$")


class BotRegistryError(ValueError):
    """A registration or lookup that cannot be done; the message says why."""


@dataclass(frozen=True, slots=True)
class BotInfo:
    bot_id: str
    name: str
    created: float
    revoked: float | None = None  # when its owner or the organiser revoked it


def new_token(nbytes: int = 32) -> str:
    """A random URL-safe token that never starts with '-': given on a command line
    (`--token $TOKEN`), one that did would be read as an option (1 token in 64)."""
    while (token := secrets.token_urlsafe(nbytes)).startswith("-"):
        pass
    return token


def token_hash(token: str) -> str:
    # Tokens are 256 random bits, so a fast hash is enough: there is nothing to brute-force.
    return hashlib.sha256(token.encode()).hexdigest()


def is_admin(token: str | None, admin_token: str | None) -> bool:
    """Constant-time check; with no admin token configured, nobody is admin."""
    if token is None or not admin_token:
        return False
    return hmac.compare_digest(token.encode(), admin_token.encode())


class BotRegistry:
    def __init__(self, client: redis.Redis) -> None:
        self._redis = client

    def register(self, name: str) -> tuple[BotInfo, str]:
        """A new bot and its token. The token is returned once and never stored."""
        if not NAME_PATTERN.match(name):
            raise BotRegistryError(
                f"bad bot name {name!r}: use 1-40 letters, digits, '.', '_' or '-', "
                "starting with a letter or digit"
            )
        bot_id = "b" + secrets.token_hex(8)
        token = new_token()
        if not self._redis.hsetnx(keys.bot_names(), name, bot_id):
            raise BotRegistryError(f"a bot named {name!r} is already registered")
        created = time.time()
        digest = token_hash(token)
        pipe = self._redis.pipeline()
        pipe.hset(keys.bot(bot_id), mapping={"name": name, "token": digest, "created": created})
        pipe.hset(keys.bot_tokens(), digest, bot_id)
        pipe.execute()
        return BotInfo(bot_id, name, created), token

    def rotate_token(self, bot_id: str) -> str:
        """A new token for the bot, returned once; the old one stops working at once."""
        old = self._live_token(bot_id)
        token = new_token()
        digest = token_hash(token)
        pipe = self._redis.pipeline()  # MULTI: no moment holds both tokens, or neither
        pipe.hdel(keys.bot_tokens(), as_text(old))
        pipe.hset(keys.bot_tokens(), digest, bot_id)
        pipe.hset(keys.bot(bot_id), "token", digest)
        pipe.execute()
        return token

    def revoke(self, bot_id: str) -> None:
        """No token works for the bot again; its name and id stay, marked revoked, so its
        results stay in history under them (and the name is never given to another bot)."""
        old = self._live_token(bot_id)
        pipe = self._redis.pipeline()
        pipe.hdel(keys.bot_tokens(), old)
        pipe.hset(keys.bot(bot_id), mapping={"token": "", "revoked": time.time()})
        pipe.execute()

    def _live_token(self, bot_id: str) -> str:
        """The hash of the bot's token; an error for an unknown or revoked bot."""
        token, name = self._redis.hmget(keys.bot(bot_id), ["token", "name"])
        if token is None or name is None:
            raise BotRegistryError(f"there is no bot with id {bot_id!r}")
        if not token:
            raise BotRegistryError(f"bot {as_text(name)} was revoked")
        return as_text(token)

    def authenticate(self, token: str) -> BotInfo | None:
        """The bot whose token this is, or None."""
        bot_id = self._redis.hget(keys.bot_tokens(), token_hash(token))
        return None if bot_id is None else self.get(as_text(bot_id))

    def holds_token(self, bot_id: str, digest: str) -> bool:
        """Whether `digest` is the hash of the bot's current token (compared in constant
        time); False once the bot is gone or its token replaced."""
        stored = self._redis.hget(keys.bot(bot_id), "token")
        if not stored:  # gone, or revoked
            return False
        return hmac.compare_digest(as_text(stored), digest)

    def get(self, bot_id: str) -> BotInfo | None:
        return _info(bot_id, self._redis.hgetall(keys.bot(bot_id)))

    def by_name(self, name: str) -> BotInfo | None:
        bot_id = self._redis.hget(keys.bot_names(), name)
        return None if bot_id is None else self.get(as_text(bot_id))

    def all(self) -> list[BotInfo]:
        """Every registered bot, by name: two round trips however many there are."""
        ids = self.ids()
        pipe = self._redis.pipeline(transaction=False)
        for bot_id in ids:
            pipe.hgetall(keys.bot(bot_id))
        found = (_info(i, data) for i, data in zip(ids, pipe.execute() if ids else [], strict=True))
        return sorted((bot for bot in found if bot is not None), key=lambda bot: bot.name)

    def ids(self) -> list[str]:
        """Every registered bot's id (revoked ones too), in one round trip."""
        return [as_text(value) for value in self._redis.hvals(keys.bot_names())]

    def online_among(self, bot_ids: Sequence[str]) -> frozenset[str]:
        """Which of these bots a gateway holds a stream of now, in one round trip."""
        pipe = self._redis.pipeline(transaction=False)
        for bot_id in bot_ids:
            pipe.exists(keys.bot_online(bot_id))
        flags = pipe.execute() if bot_ids else []
        return frozenset(i for i, flag in zip(bot_ids, flags, strict=True) if flag)

    def hellos(self, bot_ids: Sequence[str]) -> dict[str, tuple[str, frozenset[str] | None]]:
        """Each bot's `version` and `declared_games` (what its last Hello said), in one round
        trip."""
        pipe = self._redis.pipeline(transaction=False)
        for bot_id in bot_ids:
            pipe.hmget(keys.bot(bot_id), ["version", "games"])
        replies = pipe.execute() if bot_ids else []
        return {
            bot_id: ("" if version is None else as_text(version), _games(games))
            for bot_id, (version, games) in zip(bot_ids, replies, strict=True)
        }

    def revoked_among(self, names: Iterable[str]) -> frozenset[str]:
        """Which of `names` are revoked bots (built-in bots and unknown names never are), in
        two round trips however many names a standings table holds."""
        wanted = list(dict.fromkeys(names))
        ids = self._redis.hmget(keys.bot_names(), wanted) if wanted else []
        known = [(name, as_text(i)) for name, i in zip(wanted, ids, strict=True) if i is not None]
        pipe = self._redis.pipeline(transaction=False)
        for _, bot_id in known:
            pipe.hexists(keys.bot(bot_id), "revoked")
        flags = pipe.execute() if known else []
        return frozenset(name for (name, _), flag in zip(known, flags, strict=True) if flag)

    def declared_games(self, bot_id: str) -> frozenset[str] | None:
        """The games the bot's last Hello named, or None if it never named any (it may be
        scheduled for any game then)."""
        return _games(self._redis.hget(keys.bot(bot_id), "games"))

    def record_hello(self, bot_id: str, games: Sequence[str], version: str) -> None:
        """What a hosted bot's program said in its Hello, as the gateway records a remote
        bot's: the games it plays (the ladders' matchmaker reads them) and its version."""
        self._redis.hset(keys.bot(bot_id), mapping={"games": ",".join(games), "version": version})

    def version(self, bot_id: str) -> str:
        """The bot_version its last Hello gave ("" if none, or it never connected)."""
        value = self._redis.hget(keys.bot(bot_id), "version")
        return "" if value is None else as_text(value)

    def ids_of(self, names: Sequence[str]) -> dict[str, str | None]:
        """Each name's bot id (None for a name no bot has), in one round trip."""
        found = self._redis.hmget(keys.bot_names(), list(names)) if names else []
        return {n: None if i is None else as_text(i) for n, i in zip(names, found, strict=True)}

    def check_all_play(self, names: Sequence[str], game: str) -> None:
        """`check_plays` for every one of `names`, in two round trips."""
        ids = {name: i for name, i in self.ids_of(names).items() if i is not None}
        hellos = self.hellos(list(ids.values()))
        for name, bot_id in ids.items():
            _check_game(name, hellos[bot_id][1], game)

    def check_plays(self, name: str, game: str) -> None:
        """Refuse to schedule a registered bot for a game its Hello said it does not play."""
        bot = self.by_name(name)
        _check_game(name, None if bot is None else self.declared_games(bot.bot_id), game)

    def is_online(self, bot_id: str) -> bool:
        return bool(self._redis.exists(keys.bot_online(bot_id)))


def _info(bot_id: str, data: Mapping[bytes | str, bytes | str]) -> BotInfo | None:
    """A bot's record from its hash; None for no hash (no such bot)."""
    if not data:
        return None
    fields = {as_text(key): as_text(value) for key, value in data.items()}
    revoked = float(fields["revoked"]) if "revoked" in fields else None
    return BotInfo(bot_id, fields["name"], float(fields["created"]), revoked)


def _games(value: bytes | str | None) -> frozenset[str] | None:
    """The games a Hello named (stored comma-separated); None if it named none."""
    games = frozenset(g for g in as_text(value).split(",") if g) if value else frozenset()
    return games or None


def _check_game(name: str, games: frozenset[str] | None, game: str) -> None:
    if games is not None and game not in games:
        named = ", ".join(sorted(games))
        raise BotRegistryError(f"bot {name!r} does not play {game}: its last Hello named {named}")
