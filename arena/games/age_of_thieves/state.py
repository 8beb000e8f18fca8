"""Immutable values of an Age of Thieves game: the state, its parts, and actions with their text.

The engine is a small interpreter: a state holds a queue of `Task`s (the steps of the round still
to run) and at most one `Prompt` (the decision one seat must take now, with its options). Every
value is a named tuple of tuples, so states are hashable and compare by value, which the record
replay and the conformance checker rely on, and a changed copy is one pass over its fields.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from typing import Any, NamedTuple, TypeVar

from arena.games.age_of_thieves.streams import Streams
from arena.games.api import InvalidActionError

V = TypeVar("V", bound=tuple[Any, ...])


def replace(value: V, **changes: Any) -> V:
    """`_replace` for the state and its thieves, named tuples: their fields copied at once, the
    changed ones set by position (the engine copies states constantly and this is its hottest
    path). `TypeError` names a field the value does not have."""
    kind = type(value)
    position = _POSITIONS.get(kind) or _positions(kind)
    fields = list(value)
    for name, changed in changes.items():
        at = position.get(name)
        if at is None:
            raise TypeError(f"{kind.__name__} has no field {name!r}")
        fields[at] = changed
    return tuple.__new__(kind, fields)


def _positions(kind: type) -> dict[str, int]:
    names: tuple[str, ...] = kind._fields  # type: ignore[attr-defined]
    found = _POSITIONS[kind] = {name: at for at, name in enumerate(names)}
    return found


_POSITIONS: dict[type, dict[str, int]] = {}
HAND_LIMIT = 5  # general cards (section 5, phase 2)
MOVE, AMBUSH = "B01", "B02"
JEWELS = ("ej", "green", "yellow", "trinket")  # what a thief can lose or have stolen
VALUE = {"ej": 0, "green": 2, "yellow": 1, "trinket": 1}
TOTAL_YELLOW, TOTAL_GREEN, TOTAL_GUARDS, TOTAL_CAPTAINS = 10, 4, 20, 2
TOTAL_GENERAL = 70


class Status(StrEnum):
    CALM = "calm"
    ALARM = "alarm"


class Action(NamedTuple):
    """A decision: a verb and one argument (a card id, a space, a number, `seat:jewel`...).
    Actions sort by verb, then numbers by value before other arguments by text: the stable order
    of legal actions reads `ap 2` before `ap 10`."""

    kind: str
    arg: str = ""

    def __str__(self) -> str:
        return action_text(self)

    # The arena's checker sorts legal actions with `sorted`, so the order lives in the type.
    def __lt__(self, other: tuple[str, ...]) -> bool:
        return order(self) < order(_action(other))

    def __le__(self, other: tuple[str, ...]) -> bool:
        return order(self) <= order(_action(other))

    def __gt__(self, other: tuple[str, ...]) -> bool:
        return order(self) > order(_action(other))

    def __ge__(self, other: tuple[str, ...]) -> bool:
        return order(self) >= order(_action(other))


def order(action: Action) -> tuple[str, int, int, str]:
    """The sort key of an action: a number argument by its value (no leading zeros are
    written), before any other argument, which sorts as text."""
    arg = action.arg
    if arg.isdigit():
        return (action.kind, 0, len(arg), arg)
    return (action.kind, 1, 0, arg)


def _action(value: tuple[str, ...]) -> Action:
    return value if isinstance(value, Action) else Action(*value)


def actions(kind: str, args: Iterable[str]) -> list[Action]:
    """`Action(kind, arg)` for each of `args`, each value made once and shared after: options
    are listed at every decision, and they are a finite set (verbs with cards, spaces, seats)."""
    known = _ACTIONS.get(kind)
    if known is None:
        known = _ACTIONS[kind] = {}
    found = []
    for arg in args:
        action = known.get(arg)
        if action is None:
            action = known[arg] = Action(kind, arg)
        found.append(action)
    return found


_ACTIONS: dict[str, dict[str, Action]] = {}


VERBS = frozenset(
    {
        # planning (section 8)
        "plan", "under", "ap", "done",
        # resolution (section 7, 9): which card and which of its effects
        "sneak", "sprint", "clever", "cunning", "special", "general", "resolve", "decline",
        # movement (section 11)
        "step", "take", "steal", "sewer", "pocket", "stop",
        # effect parameters and other choices
        "target", "to", "fire", "jewel", "discard", "give", "swap", "keep", "tile", "space",
        "close",
    }
)  # fmt: skip


# Every decision (a prompt's name), who takes it and the verbs of its options, for bots, the
# protocol and the docs. "first" is the first player (or, once he has left, the next thief on
# the board); "seat" the thief concerned.
DECISIONS: dict[str, tuple[str, str]] = {
    "start": ("seat", "space <start field>: where his thief begins (4.6, D-15)"),
    "jewel": ("first", "jewel <space>: where this round's yellow jewel goes (5b)"),
    "reinforce": ("first", "space <guardhouse>: C05's guard"),
    "close": ("first", "close <exit>: A06's closed exit"),
    "plan": ("seat", "plan <card>, under <general card>, ap <n>, done: his plan (8)"),
    "turn": ("seat", "sneak|sprint|clever|cunning|special|general|resolve|decline <card> (7, 9)"),
    "move": ("seat", "step <space>, take <jewel|tile>, steal <seat>:<jewel>, sewer <space>, "
             "pocket, stop (11, 13, 14)"),
    "fx": ("seat", "target, to, fire, steal, tile, take, give, swap, keep, stop: a card's "
           "parameters (22.2, 22.4); `give` is asked of the thief who must give a card (S03)"),
    "limit": ("seat", "discard <card>: over the hand limit of 5 (5)"),
    "discard": ("seat", "discard <card>: Cleverness, Alert Citizens, C08, an arrest (17)"),
    "lose_jewel": ("seat", "jewel yellow|trinket: which he loses on arrest (D-9)"),
    "plain_guard": ("first", "space <space>: the plain-clothes guard's tied space (D-8)"),
    "relocate": ("first", "target <space>: the figure moved when the supply is empty (16)"),
    "guard_order": ("first", "target <space>: the next guard (variant, D-6)"),
    "guard_target": ("first", "target <seat>: its thief among equally near ones (variant)"),
}  # fmt: skip


def action_text(action: Action) -> str:
    """`plan G05`, `ap 3`, `step N34`, `steal 2:green`, `done`."""
    return f"{action.kind} {action.arg}" if action.arg else action.kind


def parse_action(text: str) -> Action:
    """The inverse of `action_text`; `InvalidActionError` naming what is malformed."""
    if not isinstance(text, str):
        raise InvalidActionError(f"an action is a text like 'step N34', got {text!r}")
    kind, _, arg = text.strip().partition(" ")
    if kind not in VERBS:
        known = ", ".join(sorted(VERBS))
        raise InvalidActionError(f"unknown action {kind!r} in {text!r}: the verbs are {known}")
    if " " in arg or (arg and not arg.isprintable()):
        raise InvalidActionError(f"an action has one argument without spaces, got {text!r}")
    return Action(kind, arg)


class Task(NamedTuple):
    """A step still to run; `name` picks its handler (engine.py)."""

    name: str
    seat: int = -1
    arg: str = ""
    n: int = 0


class Prompt(NamedTuple):
    """A decision `seat` must take now: one of `options`, answered by the handler `name`,
    which resumes `task`."""

    name: str
    seat: int
    options: tuple[Action, ...]
    task: Task


class Planned(NamedTuple):
    """A declared card: `ap` on it (0 while its AP are still to be put), `under` the general card
    on a special, `status` pending / resolved / declined."""

    card: str
    ap: int = 0
    under: str = ""
    status: str = "pending"


class Thief(NamedTuple):
    """One seat's thief: where he is, his hand and sheet, and this round's plan and status."""

    name: str
    space: str  # "" once he has left the city
    hand: tuple[str, ...] = ()  # general cards, sorted
    yellow: int = 0
    green: int = 0
    ej: bool = False
    best: bool = False  # the best-thief token, 3 VP, never lost
    trinkets: int = 0
    informers: int = 0
    agents: int = 0  # Guild agents, 2 AP each
    pockets: int = 0  # "like the back of my hand": +1 space once per movement
    escaped: tuple[int, int] = (0, 0)  # (round, resolution index) of leaving; (0, 0) on board
    exit: str = ""  # the exit node he left by
    jailed: bool = False  # put in the dungeon by an arrest and not out yet
    # AP for the next planning phase
    blue: int = 10
    red: int = 0
    purple_next: int = 0
    draws_next: int = 0
    bola_next: bool = False
    # this round
    pool: int = 0  # AP markers left to put on cards while planning
    spent: tuple[int, int] = (0, 0)  # Informers and Guild agents put on cards this round
    plan: tuple[Planned, ...] = ()
    planned: bool = False  # finished planning this round
    resolved: int = 0  # cards resolved (not declined) this round (D-4)
    exclusive: bool = False  # Sprint or Cunning Plan chosen: every other card is declined
    arrested: bool = False  # this round: no further actions (section 17, step 4)
    cloak: bool = False
    protected: bool = False  # Rope & Hook: cannot be arrested
    trapped: bool = False
    free_hidden: bool = False  # escaped from the dungeon this round
    marker: bool = False  # a theft marker
    robbed: int = 0  # thefts suffered this round (at most 1, section 13)
    peeks: tuple[tuple[str, str], ...] = ()  # face-down tiles he has seen: (space, tile)

    @property
    def on_board(self) -> bool:
        return bool(self.space)

    @property
    def vp(self) -> int:
        return 3 * self.best + 2 * self.green + self.yellow + self.trinkets

    def jewels(self) -> tuple[str, ...]:
        """The kinds of jewel he could lose, in the order of JEWELS."""
        have = {"ej": self.ej, "green": self.green, "yellow": self.yellow, "trinket": self.trinkets}
        return tuple(kind for kind in JEWELS if have[kind])


class State(NamedTuple):
    """A whole game at one moment, hidden parts included. Never shown to a bot as is."""

    players: int
    thieves: tuple[Thief, ...]
    first: int
    round: int  # 1-based
    status: Status
    guards: tuple[str, ...]  # sorted spaces
    captains: tuple[str, ...]
    guard_supply: int
    captain_supply: int
    jewels: tuple[tuple[str, str], ...]  # (space, "yellow"/"green"/"ej"), sorted
    yellow_supply: int
    green_supply: int
    tiles: tuple[tuple[str, str], ...]  # face-down city tiles (space, tile id), sorted
    open_tiles: tuple[tuple[str, str], ...]  # face-up permanent tiles on spaces
    deck: tuple[str, ...]  # the action deck, top first
    discard: tuple[str, ...]  # public, in order
    calm: tuple[str, ...]  # event decks left, top first
    alarm: tuple[str, ...]
    districts: tuple[str, ...]  # the district deck, top first
    escape: str = ""  # the drawn district ("" before the Emperor's Jewel is first taken)
    alarm_pending: bool = False  # the EJ was first taken this round: alarm next round
    event: str = ""
    events_seen: tuple[str, ...] = ()  # every event revealed so far, in order (public)
    die: int = 0
    fire: tuple[str, ...] = ()
    smoke: tuple[str, ...] = ()
    closed: str = ""  # an exit closed this round (A06)
    bribed: tuple[str, ...] = ()  # spaces of bribed figures this round
    trapped: tuple[str, ...] = ()  # spaces of trapped guards this round
    actions_done: int = 0  # resolution index, for the "left earlier" tie-break (D-11)
    tasks: tuple[Task, ...] = ()
    prompt: Prompt | None = None
    over: bool = False
    winner: int = -1
    reason: str = ""
    orders_guards: bool = False  # variant: the first player orders the guards (D-6 step 4)
    specials: bool = True  # False in a first game: the special cards stay in the box (4.4)
    board: str = ""  # the board version set up, e.g. "hadria-r2" (its starting guards)
    streams: Streams = Streams(0)

    def thief(self, seat: int) -> Thief:
        return self.thieves[seat]

    def with_thief(self, seat: int, **changes: object) -> State:
        fields = list(self.thieves[seat])
        for name, changed in changes.items():
            at = _THIEF_FIELDS.get(name)
            if at is None:
                raise TypeError(f"Thief has no field {name!r}")
            fields[at] = changed
        return put_thief(self, seat, tuple.__new__(Thief, fields))

    def clockwise(self) -> tuple[int, ...]:
        return tuple((self.first + i) % self.players for i in range(self.players))

    def seats_on_board(self) -> tuple[int, ...]:
        return tuple(s for s in self.clockwise() if self.thieves[s].on_board)

    @property
    def referee(self) -> int:
        """Who takes the first player's decisions: the first player, or once he has left the
        city (he can no longer influence the game) the next thief on the board clockwise."""
        on = self.seats_on_board()
        return on[0] if on else self.first


# The fields the engine sets on every step, by position: `_with` skips `replace`'s keywords.
THIEVES_AT, TASKS_AT, PROMPT_AT = (
    State._fields.index(name) for name in ("thieves", "tasks", "prompt")
)


_THIEF_FIELDS = {name: at for at, name in enumerate(Thief._fields)}


def put_thief(state: State, seat: int, thief: Thief) -> State:
    """`state` with `thief` in `seat`."""
    thieves = list(state.thieves)
    thieves[seat] = thief
    return _with(state, THIEVES_AT, tuple(thieves))


def put_thief_asking(state: State, seat: int, thief: Thief, prompt: Prompt | None) -> State:
    """`state` with `thief` in `seat` and the prompt `prompt`, in one copy."""
    thieves = list(state.thieves)
    thieves[seat] = thief
    fields: list[object] = list(state)
    fields[THIEVES_AT] = tuple(thieves)
    fields[PROMPT_AT] = prompt
    return tuple.__new__(State, fields)


def _with(state: State, at: int, value: object) -> State:
    fields: list[object] = list(state)
    fields[at] = value
    return tuple.__new__(State, fields)


def with_tasks(state: State, tasks: tuple[Task, ...]) -> State:
    return _with(state, TASKS_AT, tasks)


def with_prompt(state: State, prompt: Prompt | None) -> State:
    return _with(state, PROMPT_AT, prompt)


def push(state: State, *tasks: Task) -> State:
    """Run `tasks` next, before anything already queued."""
    return _with(state, TASKS_AT, tasks + state.tasks)


def queue(state: State, *tasks: Task) -> State:
    """Run `tasks` after everything already queued."""
    return _with(state, TASKS_AT, state.tasks + tasks)


def add_sorted(items: tuple[str, ...], item: str) -> tuple[str, ...]:
    return tuple(sorted((*items, item)))


def remove_one(items: tuple[str, ...], item: str) -> tuple[str, ...]:
    index = items.index(item)
    return items[:index] + items[index + 1 :]
