"""Ladder definitions in Redis: which game, rating constants, match format and enabled bots.

A ladder is keyed by (game, rules version, name): when a game's rules version is bumped, its old
ratings stay where they were and the same ladder name starts afresh. The rating constants are
fixed at creation (a rebuild replays the results log with them); the enabled built-in bots may
change at any time.

The config is fixed too, and with it the number of players: 2-, 3- and 4-player Caper share rules
version 1, so a ladder keeps to one of them (its key need not say which) and refuses results of
another shape. Make one ladder per player count, e.g. "snitch" with players 3.
"""

from __future__ import annotations

import functools
import json
import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import redis

from arena.bots import BUILTIN_BOTS, builtin_name, make_bot
from arena.games import get_game
from arena.ratings import Glicko2Config, WengLinConfig
from arena.ratings.ladder import LadderParams
from arena.store import keys, states
from arena.store.values import as_text
from arena.tournament.lifecycle import Command, State

LADDER_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$")
DEFAULT_BOTS = ("random", "greedy")


class LadderError(ValueError):
    """A ladder operation that cannot be done; the message says why."""


class UnknownLadderError(LadderError):
    pass


class UnknownBotError(LadderError):
    pass


@dataclass(frozen=True, slots=True)
class LadderRef:
    game: str
    rules_version: int
    name: str

    @property
    def slug(self) -> str:
        return f"{self.game}.v{self.rules_version}.{self.name}"

    def __str__(self) -> str:
        return f"{self.name} ({self.game} rules v{self.rules_version})"


@dataclass(frozen=True, slots=True)
class LadderDefinition:
    ref: LadderRef
    params: LadderParams = field(default_factory=LadderParams)
    config: Mapping[str, str | int] = field(default_factory=lambda: {"city": "paris"})
    # 0: one duplicate set, each deal once per rotation of the sides (a pair: the same deal
    # twice, seats swapped; a table of three: three times, every entrant in every seat, V12).
    games_per_match: int = 0
    move_ms: int = 1000
    bank_ms: int = 10_000
    max_strikes: int = 3
    grace_ms: int = 10_000
    seed: int = 1
    remote: bool = True  # also pair registered bots while they are connected
    bots: tuple[str, ...] = DEFAULT_BOTS  # enabled built-in bots

    def __post_init__(self) -> None:
        players = self.config.get("players", 2)
        if not isinstance(players, int) or not 2 <= players <= 4:
            raise LadderError(f"a ladder's players must be 2, 3 or 4, not {players!r}")
        sides, games = self.sides, self.games_per_match or self.sides
        object.__setattr__(self, "games_per_match", games)
        if sides == 2 and (games < 2 or games % 2):
            raise LadderError("games per match must be even (duplicate pairs), at least 2")
        if games < sides or games % sides:
            raise LadderError(
                f"games per table must be a multiple of {sides}: each deal is played once per "
                f"rotation of the seats (V12), so every entrant plays every seat"
            )

    @property
    def players(self) -> int:
        return int(self.config.get("players", 2))

    @property
    def sides(self) -> int:
        """Sides of each game: the 4-player team game has two, one entrant playing both seats
        of a team (V11); otherwise each player is a side."""
        return 2 if self.players == 4 else self.players

    @property
    def tables(self) -> bool:
        """Games of three or more sides, played in tables: only Weng-Lin rates them (Elo and
        Glicko-2 rate two-sided results)."""
        return self.sides > 2

    def fixed_json(self) -> str:
        """Everything but the enabled bots: stored once, never changed."""
        p = self.params
        return json.dumps(
            {
                "game": self.ref.game,
                "rules_version": self.ref.rules_version,
                "name": self.ref.name,
                "k": p.k,
                "tau": p.glicko.tau,
                "provisional_rd": p.provisional_rd,
                "weng_lin": [p.weng_lin.beta, p.weng_lin.kappa, p.weng_lin.tau],
                "config": dict(self.config),
                "games_per_match": self.games_per_match,
                "time_control": [self.move_ms, self.bank_ms, self.max_strikes, self.grace_ms],
                "seed": self.seed,
                "remote": self.remote,
            },
            sort_keys=True,
        )

    @classmethod
    def from_stored(cls, fixed: str, bots: Sequence[str]) -> LadderDefinition:
        d = json.loads(fixed)
        move_ms, bank_ms, max_strikes, grace_ms = d["time_control"]
        return cls(
            LadderRef(d["game"], d["rules_version"], d["name"]),
            LadderParams(
                d["k"],
                Glicko2Config(tau=d["tau"]),
                d["provisional_rd"],
                # Ladders created before Weng-Lin was added use its defaults.
                WengLinConfig(*d.get("weng_lin", ())),
            ),
            d["config"],
            d["games_per_match"],
            move_ms,
            bank_ms,
            max_strikes,
            grace_ms,
            d["seed"],
            d["remote"],
            tuple(bots),
        )


def ladder_ref(name: str, game: str = "caper", rules_version: int | None = None) -> LadderRef:
    """The ladder `name` of `game`, for the game's current rules unless a version is given."""
    if not LADDER_NAME.match(name):
        raise LadderError(
            f"bad ladder name {name!r}: use 1-40 letters, digits, '_' or '-', "
            "starting with a letter or digit"
        )
    version = get_game(game).rules_version if rules_version is None else rules_version
    return LadderRef(game, version, name)


def slug_ref(slug: str) -> LadderRef:
    game, version, name = slug.split(".", 2)
    return LadderRef(game, int(version.removeprefix("v")), name)


@functools.lru_cache(maxsize=256)  # checked on every rated result: build each spec's bot once
def check_builtin(spec: str) -> str:
    """`spec` if it names a built-in bot (e.g. "search@50"), else a clear error."""
    if builtin_name(spec) not in BUILTIN_BOTS:
        known = ", ".join(sorted(BUILTIN_BOTS))
        raise UnknownBotError(f"unknown built-in bot {spec!r}: known bots are {known}")
    make_bot(spec)  # raises a clear error for a bad budget or iteration count
    return spec


class LadderStore:
    def __init__(self, client: redis.Redis) -> None:
        self._redis = client

    def create(self, definition: LadderDefinition) -> None:
        for spec in definition.bots:
            check_builtin(spec)
        key = keys.ladder(definition.ref.slug)
        if not self._redis.hsetnx(key, "definition", definition.fixed_json()):
            raise LadderError(f"ladder {definition.ref} already exists")
        pipe = self._redis.pipeline()
        bots, created = json.dumps(definition.bots), time.time()
        pipe.hset(key, mapping={"bots": bots, "state": State.CREATED.value, "created": created})
        pipe.sadd(keys.ladders(), definition.ref.slug)
        pipe.execute()

    def get(self, ref: LadderRef) -> LadderDefinition:
        fixed, bots = self._redis.hmget(keys.ladder(ref.slug), ["definition", "bots"])
        if fixed is None:
            known = ", ".join(str(r) for r in self.refs()) or "none yet"
            raise UnknownLadderError(f"unknown ladder {ref}; known ladders: {known}")
        return LadderDefinition.from_stored(as_text(fixed), json.loads(as_text(bots or "[]")))

    def find(
        self, name: str, game: str | None = None, rules_version: int | None = None
    ) -> LadderDefinition:
        """The ladder called `name`. Ladder names are rarely shared between games, so the name
        alone finds its game; `game` only picks one when several games have a ladder `name`.
        Without `rules_version`, each game's current rules are preferred."""
        if game is not None:
            return self.get(ladder_ref(name, game, rules_version))
        named = [r for r in self.refs() if r.name == name]
        if rules_version is not None:
            named = [r for r in named if r.rules_version == rules_version]
        current = [r for r in named if r.rules_version == get_game(r.game).rules_version]
        found = current or named
        games = sorted({r.game for r in found})
        if len(games) > 1:
            raise LadderError(
                f"ladder {name} exists for several games ({', '.join(games)}): "
                "say which with --game"
            )
        if not found:
            ladder_ref(name)  # a malformed name gets its own message
            known = ", ".join(str(r) for r in self.refs()) or "none yet"
            raise UnknownLadderError(f"unknown ladder {name}; known ladders: {known}")
        return self.get(max(found, key=lambda r: r.rules_version))

    def get_slug(self, slug: str) -> LadderDefinition:
        return self.get(slug_ref(slug))

    def refs(self) -> list[LadderRef]:
        found = [slug_ref(as_text(s)) for s in self._redis.smembers(keys.ladders())]
        return sorted(found, key=lambda r: (r.game, r.rules_version, r.name))

    def all(self) -> list[LadderDefinition]:
        return [self.get(ref) for ref in self.refs()]

    def set_bots(self, ref: LadderRef, bots: Sequence[str]) -> LadderDefinition:
        """Enable exactly `bots` (built-in specs) on the ladder; ratings already earned stay."""
        self.get(ref)
        for spec in bots:
            check_builtin(spec)
        self._redis.hset(keys.ladder(ref.slug), "bots", json.dumps(list(bots)))
        return self.get(ref)

    def state(self, ref: LadderRef) -> State:
        """Created until started (or first run); running (the worker pool keeps it playing);
        stopped by its organiser (nothing more is paired, its queued matches are not played)
        until resumed."""
        key = keys.ladder(ref.slug)
        value = self._redis.hget(key, "state")
        if value is not None:
            return State(as_text(value))
        self.get(ref)  # an unknown ladder fails here; one stored before states gets one
        rated = self._redis.llen(keys.ladder_log(ref.slug))
        return states.set_derived(
            self._redis, key, "state", State.RUNNING if rated else State.CREATED
        )

    def transition(
        self,
        ref: LadderRef,
        command: Command,
        reason: str = "",
        also: Mapping[str, str | int] | None = None,
    ) -> State:
        """Apply `command` to the ladder's state in one transaction (with the fields `also`, such
        as how the pool fills it), or refuse it naming the state (`LifecycleError`); the state
        it was in."""
        self.state(ref)  # an unknown ladder fails here; a state missing is derived
        return states.transition(
            self._redis, keys.ladder(ref.slug), "state", f"ladder {ref}", command,
            lambda state: self._state_detail(ref, state), reason, also,
        )  # fmt: skip

    def _state_detail(self, ref: LadderRef, state: State) -> str:
        rated = self._redis.llen(keys.ladder_log(ref.slug))
        detail = f"{rated} rated result{'' if rated == 1 else 's'}"
        reason = (
            self._redis.hget(keys.ladder(ref.slug), "reason") if state is State.STOPPED else None
        )
        return f"{detail}; {as_text(reason)}" if reason else detail

    def check_player(self, name: str, registered: bool | None = None) -> str:
        """`name` if it is a built-in bot spec or a registered bot, else `UnknownBotError`.
        `registered` says whether the registry has the name, if the caller has looked it up."""
        if builtin_name(name) in BUILTIN_BOTS:
            return check_builtin(name)
        if registered is None:
            registered = bool(self._redis.hexists(keys.bot_names(), name))
        if not registered:
            known = ", ".join(sorted(BUILTIN_BOTS))
            raise UnknownBotError(
                f"unknown bot {name!r}: not a registered bot, nor a built-in one ({known})"
            )
        return name
