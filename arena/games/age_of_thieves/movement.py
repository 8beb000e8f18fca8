"""A thief's movement, step by step (spec section 11): steps, pick-ups of jewels and city tiles
(section 14), theft in passing (section 13, D-18), sewers (D-10), "like the back of my hand",
arrest on entry, leaving the city (D-11) and the first pick-up of the Emperor's Jewel (section 18).

A movement is the task `move` with the points left in `n` and flags in `arg`: `s` Sprint (no
pick-up, no theft), `m` Sewer Map (any sewer space in and out), `x` a pocket tile used, `e` out of
the sewer (no further steps), `z` no steps at all (Rope & Hook's landing).
"""

from __future__ import annotations

from arena.games.age_of_thieves.board import NodeKind
from arena.games.age_of_thieves.engine import answer, ask, task
from arena.games.age_of_thieves.guards import arrest, nearest_open, placing
from arena.games.age_of_thieves.hands import draw
from arena.games.age_of_thieves.queries import (
    board,
    district,
    hidden,
    in_dungeon,
    open_exits,
    sewer_entrances,
    sewer_exits,
)
from arena.games.age_of_thieves.state import Action, State, Task, actions, push, replace

KEEP = {"informer": "informers", "guild_agent": "agents", "back_of_hand": "pockets"}
STAYS = ("dark_alley", "manhole", "ladder")  # permanent tiles that stay on their space
STOP, POCKET = Action("stop"), Action("pocket")


def movement(state: State, seat: int, budget: int, flags: str = "") -> State:
    """Queue a movement of `budget` spaces: Noiron +1 (22.4), Roadblocks -1 (A03)."""
    thief = state.thief(seat)
    if "z" not in flags:
        budget += 1 if thief.name == "noiron" else 0
        budget -= 1 if state.event == "A03" else 0
    if thief.trapped:
        budget = 0
    return push(state, Task("move", seat, flags, max(budget, 0)))


@task("move")
def move(state: State, job: Task) -> State:
    thief = state.thief(job.seat)
    if not thief.on_board or thief.arrested or state.over:
        return state
    options = [STOP, *_steps(state, job), *_sewers(state, job)]
    if "s" not in job.arg and not in_dungeon(thief):
        options += _pickups(state, job.seat)
    if thief.pockets and "x" not in job.arg and "z" not in job.arg and not thief.trapped:
        options.append(POCKET)
    if len(options) == 1:
        return state
    return ask(state, "move", job.seat, options, job)


def _steps(state: State, job: Task) -> list[Action]:
    thief = state.thief(job.seat)
    if job.n <= 0 or "z" in job.arg or thief.trapped:  # G05: trapped until the round ends
        return []
    exits = open_exits(state)
    found = []
    city = board()
    for there in city.neighbours(thief.space):
        kind = city.node(there).kind
        if kind is NodeKind.DUNGEON or (kind is NodeKind.EXIT and there not in exits):
            continue
        if there in state.fire and thief.name != "zain":
            continue
        found.append(there)
    return actions("step", found)


def _sewers(state: State, job: Task) -> list[Action]:
    """D-10, Morius's Sewer King and the Sewer Map: entrances lead to exits; Curfew (C12)."""
    thief = state.thief(job.seat)
    if "e" in job.arg or "z" in job.arg or state.event == "C12" or in_dungeon(thief):
        return []
    ins, outs = sewer_entrances(state), sewer_exits(state)
    if thief.name == "morius" or "m" in job.arg:
        ins = outs = ins | outs
    if thief.space not in ins:
        return []
    fireproof = thief.name == "zain"  # 22.4: fire does not block Zain, reposition included
    spaces = [s for s in sorted(outs) if s != thief.space and (fireproof or s not in state.fire)]
    return actions("sewer", spaces)


def _pickups(state: State, seat: int) -> list[Action]:
    here = state.thief(seat).space
    found = actions("take", [kind for space, kind in state.jewels if space == here])
    if any(space == here for space, _ in state.tiles):
        found += actions("take", ["tile"])
    for victim, other in enumerate(state.thieves):
        marked = other.marker or other.space in state.smoke
        if victim != seat and other.space == here and marked and not other.robbed:
            found += actions("steal", [f"{victim}:{kind}" for kind in other.jewels()])
    return found


@answer("move")
def _move(state: State, job: Task, action: Action) -> State:
    seat = job.seat
    if action.kind == "stop":
        return state
    if action.kind == "pocket":
        pockets = state.thief(seat).pockets - 1
        state = state.with_thief(seat, pockets=pockets)
        return push(state, replace(job, n=job.n + 1, arg=job.arg + "x"))
    if action.kind == "step":
        return _step(state, job, action.arg)
    if action.kind == "sewer":
        state = state.with_thief(seat, space=action.arg)
        state = _entered(state, seat)
        return push(state, replace(job, n=0, arg=job.arg + "e"))
    if action.kind == "steal":
        victim, kind = action.arg.split(":")
        return push(steal(state, seat, int(victim), kind), job)
    if action.arg == "tile":  # the tile's own steps (a guard, discards) come before more moving
        queued = len(state.tasks)
        state = reveal_tile(state, seat)
        new = len(state.tasks) - queued
        return replace(state, tasks=(*state.tasks[:new], job, *state.tasks[new:]))
    return push(take_jewel(state, seat, action.arg, job), job)


def _step(state: State, job: Task, there: str) -> State:
    seat = job.seat
    if board().node(there).kind is NodeKind.EXIT:
        return escape(state, seat, there)
    out = in_dungeon(state.thief(seat))  # D-5: hidden once he has left the dungeon
    state = state.with_thief(seat, space=there, jailed=False)
    if out:
        state = state.with_thief(seat, free_hidden=True)
    state = _entered(state, seat)
    return push(state, replace(job, n=job.n - 1))


def _entered(state: State, seat: int) -> State:
    """Arrest on entry (section 11): a guard or captain there takes a visible, unprotected
    thief; Joanne walks past guards (not captains)."""
    thief = state.thief(seat)
    guard = thief.space in state.guards and thief.name != "joanne"
    caught = (guard or thief.space in state.captains) and not thief.protected
    if caught and not hidden(state, seat):
        return arrest(state, seat)
    return state


def escape(state: State, seat: int, exit: str) -> State:
    """D-11: onto an open exit, off the board. With the EJ he wins at once (section 19); when
    nobody is left on the board the game ends (D-16)."""
    from arena.games.age_of_thieves.rounds import finish

    order = (state.round, state.actions_done)
    state = state.with_thief(seat, space="", escaped=order, exit=exit, marker=False)
    if state.thief(seat).ej:
        return replace(state, over=True, winner=seat, reason="escaped with the Emperor's Jewel")
    if not state.seats_on_board():
        return finish(state, "every thief has left the city")
    return state


def steal(state: State, seat: int, victim: int, kind: str) -> State:
    """One jewel from `victim`'s sheet to `seat`'s (section 13); once per victim and round."""
    other, thief = state.thief(victim), state.thief(seat)
    if other.robbed or kind not in other.jewels():
        return state
    state = state.with_thief(victim, robbed=other.robbed + 1, marker=False, **_less(other, kind))
    return state.with_thief(seat, **_more(thief, kind))


def _less(thief: object, kind: str) -> dict[str, object]:
    field = {"ej": "ej", "green": "green", "yellow": "yellow", "trinket": "trinkets"}[kind]
    value = getattr(thief, field)
    return {field: False if kind == "ej" else value - 1}


def _more(thief: object, kind: str) -> dict[str, object]:
    field = {"ej": "ej", "green": "green", "yellow": "yellow", "trinket": "trinkets"}[kind]
    value = getattr(thief, field)
    return {field: True if kind == "ej" else value + 1}


def take_jewel(state: State, seat: int, kind: str, job: Task | None = None) -> State:
    """A jewel from the board; the first pick-up of the EJ gives the best-thief token and the red
    AP (D-13), and the district card is drawn once this action ends (section 18)."""
    here = state.thief(seat).space
    jewels = list(state.jewels)
    jewels.remove((here, kind))
    state = replace(state, jewels=tuple(jewels)).with_thief(seat, **_more(state.thief(seat), kind))
    if kind == "ej" and not state.escape and not any(t.best for t in state.thieves):
        state = state.with_thief(seat, best=True, red=state.players - 1)
        state = queue_after_action(state, Task("district"))
    return state


def queue_after_action(state: State, job: Task) -> State:
    """Insert `job` after the tasks of the current action: before the next turn or guard move."""
    tasks = list(state.tasks)
    at = next(
        (i for i, t in enumerate(tasks) if t.name in ("turn", "guards", "cleanup")), len(tasks)
    )
    return replace(state, tasks=(*tasks[:at], job, *tasks[at:]))


@task("district")
def district_card(state: State, _: Task) -> State:
    """The first player shuffles the district deck and draws the escape district."""
    deck, streams = state.streams.shuffle("deck.district", state.districts)
    return replace(state, escape=deck[0], districts=deck[1:], streams=streams, alarm_pending=True)


def reveal_tile(state: State, seat: int) -> State:
    """Section 14: a face-down tile is revealed and acts, or is kept on the sheet or the board."""
    here = state.thief(seat).space
    tile = next(t for s, t in state.tiles if s == here)
    tiles = tuple(p for p in state.tiles if p[0] != here)
    thieves = tuple(
        replace(t, peeks=tuple(p for p in t.peeks if p[0] != here)) for t in state.thieves
    )
    state = replace(state, tiles=tiles, thieves=thieves)
    thief = state.thief(seat)
    if tile in KEEP:
        return state.with_thief(seat, **{KEEP[tile]: getattr(thief, KEEP[tile]) + 1})
    if tile == "trinket":
        return state.with_thief(seat, trinkets=thief.trinkets + 1)
    if tile in STAYS:
        return replace(state, open_tiles=tuple(sorted((*state.open_tiles, (here, tile)))))
    if tile == "stash":
        return draw(state, seat)
    if tile == "alert_citizens":
        home = district(here)
        seats = [
            s
            for s in state.seats_on_board()
            if not in_dungeon(state.thief(s)) and district(state.thief(s).space) is home
        ]
        return push(state, *(Task("discard", s) for s in seats))
    return _plain_guard(state, here)


def _plain_guard(state: State, here: str) -> State:
    """The plain-clothes guard goes on this space; if a figure is there, on the nearest space
    without a figure, fire or dungeon (D-8), the first player choosing among equally near ones
    (22.6)."""
    spaces = nearest_open(state, here)
    if len(spaces) == 1:
        return push(state, placing(spaces[0], captain=False, arrests=True))
    options = [Action("space", s) for s in spaces]
    return ask(state, "plain_guard", state.referee, options, Task("plain_guard"))


@answer("plain_guard")
def _plain_guard_space(state: State, _: Task, action: Action) -> State:
    return push(state, placing(action.arg, captain=False, arrests=True))
