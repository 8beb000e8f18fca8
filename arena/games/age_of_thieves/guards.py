"""The city guard: activation at its initiative (spec section 16, D-6, D-7), figures moved or
placed by cards and events (D-8), and the arrest with its dungeon (section 17)."""

from __future__ import annotations

from arena.games.age_of_thieves.board import District, Feature, NodeKind
from arena.games.age_of_thieves.engine import answer, ask, task
from arena.games.age_of_thieves.paths import guard_route
from arena.games.age_of_thieves.queries import (
    alarm,
    arrestable,
    board,
    district,
    figures_at,
    thieves_at,
)
from arena.games.age_of_thieves.state import (
    Action,
    State,
    Task,
    add_sorted,
    push,
    remove_one,
    replace,
)


def arrest(state: State, seat: int) -> State:
    """Section 17: lose a jewel, discard a card (a decision, queued next), go to the dungeon,
    no further action this round: every pending card is revealed and declined."""
    thief = state.thief(seat)
    where = thief.space
    choose = not thief.ej and thief.yellow and thief.trinkets  # D-9: equal values, his choice
    state = state if choose else _lose_jewel(state, seat, where)
    state, dungeon = _dungeon(state, where)
    plan = tuple(p if p.status != "pending" else replace(p, status="declined") for p in thief.plan)
    state = state.with_thief(
        seat, space=dungeon, jailed=True, arrested=True, marker=False, plan=plan, free_hidden=False
    )
    if choose:
        return push(state, Task("lose_jewel", seat), Task("lose_card", seat))
    return push(state, Task("lose_card", seat))


@task("lose_jewel")
def lose_jewel(state: State, job: Task) -> State:
    """D-9: a yellow jewel or a Trinket (both 1 VP): the arrested thief picks which he loses."""
    options = [Action("jewel", "yellow"), Action("jewel", "trinket")]
    return ask(state, "lose_jewel", job.seat, options, job)


@answer("lose_jewel")
def _lose_chosen(state: State, job: Task, action: Action) -> State:
    thief = state.thief(job.seat)
    if action.arg == "trinket":
        return state.with_thief(job.seat, trinkets=thief.trinkets - 1)
    state = replace(state, yellow_supply=state.yellow_supply + 1)
    return state.with_thief(job.seat, yellow=thief.yellow - 1)


def _lose_jewel(state: State, seat: int, where: str) -> State:
    """The EJ drops on the imperial guardhouse of the district (in the palace: where he stands);
    otherwise his lowest-value jewel goes back, a yellow before a Trinket (D-9 default)."""
    thief = state.thief(seat)
    if thief.ej:
        home = district(where)
        space = (
            where
            if home is District.PALACE
            else board().with_feature(Feature.IMPERIAL_GUARDHOUSE, home)[0]
        )
        state = replace(state, jewels=tuple(sorted((*state.jewels, (space, "ej")))))
        return state.with_thief(seat, ej=False)
    if thief.yellow:
        return replace(state, yellow_supply=state.yellow_supply + 1).with_thief(
            seat, yellow=thief.yellow - 1
        )
    if thief.trinkets:
        return state.with_thief(seat, trinkets=thief.trinkets - 1)  # the tile goes to the box
    if thief.green:
        return replace(state, green_supply=state.green_supply + 1).with_thief(
            seat, green=thief.green - 1
        )
    return state


def _dungeon(state: State, where: str) -> tuple[State, str]:
    """After the alarm the escape district's; from the palace a drawn district's (D-17: of the
    cards left once the escape district is drawn); else his own district's."""
    if alarm(state) and state.escape:
        home = District(state.escape)
    elif district(where) is District.PALACE:
        deck, streams = state.streams.shuffle("deck.district", state.districts)
        home = District(deck[0])
        state = replace(state, districts=deck, streams=streams)
    else:
        home = district(where)
    return state, board().of_kind(NodeKind.DUNGEON, home)[0]


def arrest_at(state: State, space: str) -> State:
    """A figure entering or placed on `space` arrests every arrestable thief there."""
    for seat in thieves_at(state, space):
        if arrestable(state, seat):
            state = arrest(state, seat)
    return state


def _arrestable_spaces(state: State) -> frozenset[str]:
    return frozenset(t.space for s, t in enumerate(state.thieves) if arrestable(state, s))


def walk(state: State, start: str, route: tuple[str, ...], captain: bool) -> State:
    """Move the figure at `start` along `route`: it stops on the first space with an arrestable
    thief and arrests them all; it may pass other figures but not end on one (D-7)."""
    spaces = _arrestable_spaces(state)
    stop = next((i for i, s in enumerate(route) if s in spaces), len(route) - 1)
    route = route[: stop + 1]
    while route and figures_at(state, route[-1]):
        route = route[:-1]
    if not route:
        return state
    end = route[-1]
    state = relocate(state, start, end, captain)
    return arrest_at(state, end) if end in spaces else state


def relocate(state: State, start: str, end: str, captain: bool) -> State:
    """Move one figure's marker from `start` to `end`, with its round status (bribe, trap)."""
    bribed, trapped = _moved(state.bribed, start, end), _moved(state.trapped, start, end)
    if captain:
        captains = add_sorted(remove_one(state.captains, start), end)
        return replace(state, captains=captains, bribed=bribed, trapped=trapped)
    guards = add_sorted(remove_one(state.guards, start), end)
    return replace(state, guards=guards, bribed=bribed, trapped=trapped)


def _moved(spaces: tuple[str, ...], start: str, end: str) -> tuple[str, ...]:
    """Sorted `spaces` with the figure at `start` now at `end`."""
    return tuple(sorted(end if s == start else s for s in spaces)) if spaces else spaces


def move_towards(state: State, start: str, target: str, budget: int, captain: bool) -> State:
    """A figure moved by a card or an event up to `budget` towards `target` (D-7 route)."""
    if start in state.trapped or budget <= 0:
        return state
    route = guard_route(board(), start, target, budget, state.fire)
    return walk(state, start, route, captain)


def place(state: State, space: str, captain: bool, arrests: bool) -> State:
    """Put a guard or captain on `space` (D-8); with none left in the supply, the one on the
    board farthest from every thief moves there (22.6 default; lowest id on ties)."""
    if figures_at(state, space):
        return state
    supply = state.captain_supply if captain else state.guard_supply
    if supply:
        if captain:
            state = replace(
                state, captains=add_sorted(state.captains, space), captain_supply=supply - 1
            )
        else:
            state = replace(state, guards=add_sorted(state.guards, space), guard_supply=supply - 1)
    else:
        figures = state.captains if captain else state.guards
        if not figures:
            return state
        state = relocate(state, farthest(state, figures), space, captain)
    return arrest_at(state, space) if arrests else state


CAPTAIN, ARRESTS = 1, 2  # the flags of a `place` task


def placing(space: str, captain: bool, arrests: bool) -> Task:
    """A placement as a step: the first player picks the figure to move if none is left."""
    return Task("place", arg=space, n=(CAPTAIN if captain else 0) | (ARRESTS if arrests else 0))


@task("place")
def _place(state: State, job: Task) -> State:
    """Section 16, 20: with the supply empty, the first player relocates a figure of that type
    of his choice from the board (22.6; `place` alone takes the default, `farthest`)."""
    captain, arrests = bool(job.n & CAPTAIN), bool(job.n & ARRESTS)
    supply = state.captain_supply if captain else state.guard_supply
    figures = state.captains if captain else state.guards
    if figures_at(state, job.arg) or supply or len(figures) < 2:
        return place(state, job.arg, captain, arrests)
    return ask(state, "relocate", state.referee, [Action("target", f) for f in figures], job)


@answer("relocate")
def _relocate(state: State, job: Task, action: Action) -> State:
    captain, arrests = bool(job.n & CAPTAIN), bool(job.n & ARRESTS)
    state = relocate(state, action.arg, job.arg, captain)
    return arrest_at(state, job.arg) if arrests else state


def farthest(state: State, figures: tuple[str, ...]) -> str:
    spots = [t.space for t in state.thieves if t.on_board]

    def nearest_thief(space: str) -> int:
        return min((board().distance(space, s) for s in spots), default=0)

    return min(figures, key=lambda space: (-nearest_thief(space), space))


def nearest_open(state: State, space: str) -> tuple[str, ...]:
    """D-8: the nearest spaces without a figure, fire or dungeon (all of them on a tie)."""
    options = [
        n.id
        for n in board().nodes
        if n.kind is NodeKind.SPACE and n.id not in state.fire and not figures_at(state, n.id)
    ]
    near = min(board().distance(space, s) for s in options)
    return tuple(s for s in options if board().distance(space, s) == near)
