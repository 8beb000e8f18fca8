"""The city guard acting at its initiative (spec section 16, D-6): detection is one snapshot,
then all guards, then all captains move, each towards its nearest detected thief, arresting on
arrival. By default the engine picks the order and breaks ties (D-6); with the variant
`first_player_orders_guards` the first player picks which figure goes next and, among equally
near thieves, which one it goes for (D-6 step 4, 22.6).

The figures still to move are the task's `arg`: `space=seat.seat|...#targeted seats`.
"""

from __future__ import annotations

from arena.games.age_of_thieves.engine import answer, ask, task
from arena.games.age_of_thieves.guards import arrest_at, move_towards
from arena.games.age_of_thieves.queries import (
    arrestable,
    attention,
    board,
    hidden,
    in_dungeon,
    movement,
    thieves_at,
)
from arena.games.age_of_thieves.state import Action, State, Task, push, replace

Todo = dict[str, frozenset[int]]  # a figure's space -> the thieves it detected


@task("guards")
def activate(state: State, _: Task) -> State:
    """The snapshot of detections for every figure (bribed ones see nothing), then guards first."""
    steps = []
    seen = _visible(state)
    city = board()
    for captain, figures in ((False, state.guards), (True, state.captains)):
        # A figure detects the thieves within its attention: it stands within that distance
        # of each of them (distances along paths are symmetric).
        sight = attention(state, captain)
        zones = [(seat, city.near(where, sight)) for seat, where in seen]
        todo = {
            space: frozenset([seat for seat, zone in zones if space in zone])
            for space in figures
            if space not in state.bribed
        }
        steps.append(Task("figures", arg=_encode(todo, set()), n=int(captain)))
    return push(state, *steps)


def _visible(state: State) -> tuple[tuple[int, str], ...]:
    """The thieves a figure could detect, with their spaces: on the board, out of the dungeon
    and not hidden (the same for every figure of the snapshot)."""
    return tuple(
        (seat, thief.space)
        for seat, thief in enumerate(state.thieves)
        if thief.on_board and not in_dungeon(thief) and not hidden(state, seat)
    )


def _encode(todo: Todo, targeted: set[int]) -> str:
    figures = "|".join(f"{s}={'.'.join(map(str, sorted(t)))}" for s, t in sorted(todo.items()))
    return figures + "#" + ".".join(map(str, sorted(targeted)))


def _decode(arg: str) -> tuple[Todo, set[int]]:
    figures, _, targeted = arg.partition("#")
    todo: Todo = {}
    for part in filter(None, figures.split("|")):
        space, _, seats = part.partition("=")
        todo[space] = frozenset(map(int, seats.split("."))) if seats else NOBODY
    return todo, set(map(int, targeted.split("."))) if targeted else set()


NOBODY: frozenset[int] = frozenset()


@task("figures")
def figures(state: State, job: Task) -> State:
    """Move the figures of one type, one after the other, until none has a candidate left."""
    captain = bool(job.n)
    todo, targeted = _decode(job.arg)
    while True:
        ranked = _ranked(state, todo, captain)
        if not ranked:
            return state
        if state.orders_guards and len(ranked) > 1:
            options = [Action("target", space) for space in ranked]
            return ask(state, "guard_order", state.referee, options, job)
        state, todo, targeted = _go(state, todo, targeted, ranked[0], captain)
        if state.prompt is not None:
            return state


@answer("guard_order")
def _order(state: State, job: Task, action: Action) -> State:
    todo, targeted = _decode(job.arg)
    state, todo, targeted = _go(state, todo, targeted, action.arg, bool(job.n))
    return (
        state
        if state.prompt is not None
        else push(state, replace(job, arg=_encode(todo, targeted)))
    )


def _go(
    state: State, todo: Todo, targeted: set[int], space: str, captain: bool
) -> tuple[State, Todo, set[int]]:
    """Send the figure at `space` after its target, or ask the first player for the target."""
    seats = _candidates(state, todo, space)
    near = {s: board().distance(space, state.thief(s).space) for s in seats}
    if state.orders_guards:
        closest = sorted(s for s in seats if near[s] == min(near.values()))
        if len(closest) > 1:
            options = [Action("target", str(s)) for s in closest]
            arg = space + "@" + _encode(todo, targeted)
            resume = Task("figure_target", arg=arg, n=int(captain))
            return ask(state, "guard_target", state.referee, options, resume), todo, targeted
    seat = _target(state, seats, near, targeted)
    return _move(state, space, seat, captain), _without(todo, space), targeted | {seat}


@answer("guard_target")
def _chosen(state: State, job: Task, action: Action) -> State:
    space, _, rest = job.arg.partition("@")
    todo, targeted = _decode(rest)
    seat, captain = int(action.arg), bool(job.n)
    state = _move(state, space, seat, captain)
    after = _encode(_without(todo, space), targeted | {seat})
    return push(state, Task("figures", arg=after, n=job.n))


def _without(todo: Todo, space: str) -> Todo:
    return {s: seen for s, seen in todo.items() if s != space}


def _candidates(state: State, todo: Todo, space: str) -> list[int]:
    return [s for s in todo[space] if not state.thief(s).arrested and state.thief(s).on_board]


def _ranked(state: State, todo: Todo, captain: bool) -> list[str]:
    """Figures with a candidate, in D-6 order: fewest arrestable thieves within reach (at least
    one), then the nearest candidate, then the lowest space id."""
    budget = movement(state, captain)
    keyed = []
    for space, seen in todo.items():
        if not seen:  # detected nobody: no candidate (most figures, most rounds)
            continue
        seats = _candidates(state, todo, space)
        if not seats:
            continue
        near = [board().distance(space, state.thief(s).space) for s in seats]
        reach = sum(
            1 for s, d in zip(seats, near, strict=True) if arrestable(state, s) and d <= budget
        )
        keyed.append(((reach if reach else 99, min(near), space), space))
    return [space for _, space in sorted(keyed)]


def _move(state: State, space: str, seat: int, captain: bool) -> State:
    """The figure goes up to its movement towards `seat` and arrests on arrival; one that stays
    on a thief's space (he began the round there, or it is trapped) arrests him now."""
    if space not in state.trapped:
        budget = movement(state, captain)
        state = move_towards(state, space, state.thief(seat).space, budget, captain)
    if state.thief(seat).space == space:
        state = arrest_at(state, space)
    return state


def _target(state: State, seats: list[int], near: dict[int, int], targeted: set[int]) -> int:
    """The nearest candidate; then the space with more arrestable thieves; then a thief no other
    figure has targeted; then the lowest seat (D-6)."""

    def key(seat: int) -> tuple[int, int, bool, int]:
        space = state.thief(seat).space
        crowd = sum(1 for s in thieves_at(state, space) if arrestable(state, s))
        return (near[seat], -crowd, seat in targeted, seat)

    return min(seats, key=key)


def default_figure(state: State, job: Task) -> str:
    """D-6's choice of the next figure, the default of the `guard_order` decision (22.6)."""
    todo, _ = _decode(job.arg)
    return _ranked(state, todo, bool(job.n))[0]


def default_target(state: State, job: Task) -> int:
    """D-6's target for the figure of a `guard_target` decision (22.6)."""
    space, _, rest = job.arg.partition("@")
    todo, targeted = _decode(rest)
    seats = _candidates(state, todo, space)
    near = {s: board().distance(space, state.thief(s).space) for s in seats}
    return _target(state, seats, near, targeted)
