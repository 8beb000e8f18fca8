"""Where an Age of Thieves thief goes and by which ways (rules docs/rules/age-of-thieves.md), for
the greedy bot and the search's evaluation.

- Section 19: once the Emperor's Jewel is taken only thieves who leave the city can win, so once
  the exits are open the goal is an exit: the nearest, a figure standing within its reach
  counting as a detour. A dropped Emperor's Jewel is fetched on the way out only if it lies
  near and there is a round to spare to carry it out before the alarm deck ends.
- Ways never lead onto a guard's or captain's space unless he would be hidden or protected
  there (section 11: the figure arrests him on entry).
- Figures on every way to the exits (the alarm puts them beside the exits) wall him in: smoke
  over one, or the figure sent away, opens a way.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache, lru_cache

from arena.bots.aot_view import tables, view
from arena.games.age_of_thieves.queries import board, reach
from arena.games.age_of_thieves.state import Action, State, Status

CHASE = 6  # once the exits are open, a dropped Emperor's Jewel farther than this is let go
PACE = 5  # steps a round a thief running for an exit can count on (Sneak 4, Sprint 6, cards)
ALARM_ROUNDS = 5  # the alarm deck's rounds (section 18)
WIDE = 40  # steps enough to cross the city
WATCHED = 3  # an exit with a figure beside it is worth this many steps farther away
# Cards that open a way past a figure standing by an exit: smoke over it (he is hidden in the
# smoke), or the figure sent to a guardhouse (Forged Orders) or 2 spaces off (Distraction).
OPENERS = {"G07": 1, "G02": 0, "G19": 0}  # card: reach beyond its printed range
KEPT = 2048  # ways and nearest exits kept across states


def goal(state: State, seat: int) -> str:
    """Where the thief heads. Section 19: once the alarm is up, only thieves who leave can win,
    so then an exit (the nearest by distance and guard danger), unless he may still fetch a
    dropped Emperor's Jewel nearby and run it out in the alarm rounds left; in a calm round the
    Emperor's Jewel; "" if nowhere."""
    goals = view(state).goals
    found = goals.get(seat)
    if found is None:
        found = goals[seat] = _goal(state, seat)
    return found


def _goal(state: State, seat: int) -> str:
    thief = state.thief(seat)
    ej = [space for space, kind in state.jewels if kind == "ej"]
    exit = _exit(state, seat)
    if exit and (thief.ej or not ej or not _fetch(state, thief.space, ej[0], exit)):
        return exit
    return ej[0] if ej else ""


def rounds_left(state: State) -> int:
    """Rounds still to play after this one before the game ends (section 19), the alarm's five
    counted once the Emperor's Jewel has been taken."""
    if state.status is Status.ALARM:
        return len(state.alarm)
    return len(state.calm) + (ALARM_ROUNDS if state.alarm_pending else 0)


def slack(state: State, space: str, steps: int) -> int:
    """Steps to spare, at a cautious pace, for a thief `steps` from leaving from `space` before
    the last round ends (this round's movement counted if it has not moved yet)."""
    return PACE * (rounds_left(state) + 1) - steps


def _exit(state: State, seat: int) -> str:
    """The open exit to head for: fewest steps, a figure watching it counting as a detour
    unless the thief is hidden or protected from it."""
    exits = view(state).exits
    if not exits:
        return ""
    return _nearest_exit(state.thief(seat).space, exits, arresting(state, seat))


@lru_cache(maxsize=KEPT)
def _nearest_exit(here: str, exits: tuple[str, ...], arresting: tuple[str, ...]) -> str:
    """Fewest steps from `here`, a figure that would arrest him within its reach of the exit
    costing `WATCHED` steps more. Kept across states: the figures stand still most of a
    round."""
    rows = tables().distances

    def watched(exit: str) -> int:
        return WATCHED * sum(rows[exit][f] <= 3 for f in arresting)

    return min(exits, key=lambda x: (rows[here][x] + watched(x), x))


def _fetch(state: State, here: str, ej: str, exit: str) -> bool:
    """A dropped Emperor's Jewel is worth fetching on the way out: near, and with time to carry
    it to an exit afterwards."""
    to_jewel = distance(here, ej)
    return to_jewel <= CHASE and slack(state, here, to_jewel + distance(ej, exit)) >= PACE


def distance(a: str, b: str) -> int:
    """Steps along paths, figures and fire ignored (22.1); `FAR` where no way leads."""
    return tables().distances[a][b]


def opens(state: State, seat: int, card: str) -> bool:
    """A figure by an exit is within the card's reach."""
    far = reach(state, card) + OPENERS[card]
    return any(distance(state.thief(seat).space, f) <= far for f in blockers(state))


def blockers(state: State) -> list[str]:
    """Figures on the spaces next to the open exits."""
    gates = {n for x in view(state).exits for n in board().neighbours(x)}
    return [f for f in view(state).figures if f in gates]


def aim(state: State, seat: int, options: Sequence[Action]) -> Action:
    """An opener's choice: the figure (or smoke space) nearest an exit, then the space farthest
    from the exits to send the figure to; any other choice (a theft's victim), the first."""
    exits = view(state).exits or tuple(s for s in (state.thief(seat).space,) if s)
    spaces = [a for a in options if a.kind in ("target", "to") and a.arg in _places()]
    if not exits or not spaces:
        return options[0]

    def near(space: str) -> int:
        return min(distance(space, x) for x in exits)

    if spaces[0].kind == "to":
        return max(spaces, key=lambda a: (near(a.arg), a.arg))
    return min(spaces, key=lambda a: (near(a.arg), a.arg))


@cache
def _places() -> frozenset[str]:
    return frozenset(node.id for node in board().nodes)


def walled_in(state: State, seat: int) -> bool:
    """The exits are open but figures stand on every way to them, or on all but a detour of
    more than a round."""
    exits = view(state).exits
    here = state.thief(seat).space
    if not exits or not here:
        return False
    found = reachable(state, seat, here, WIDE)
    ways = [found[x] for x in exits if x in found]
    return not ways or min(ways) > min(distance(here, x) for x in exits) + PACE


def reachable(state: State, seat: int, here: str, points: int) -> Mapping[str, int]:
    """Spaces within `points` steps, by breadth-first search around fire, dungeons, exits that
    are not open, and figures that would arrest him on entry (section 11). Shared: the caller
    must not change it."""
    ways = view(state).ways
    key = (seat, here, points)
    found = ways.get(key)
    if found is None:
        found = ways[key] = _ways(here, points, _blocking(state, seat))
    return found


# What bounds a thief's ways: the open exits, fire, the figures that would arrest him.
Blocking = tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]


def _blocking(state: State, seat: int) -> Blocking:
    """What bounds his ways: the open exits (the others are closed), fire, and the figures that
    would arrest him, none out of the dungeon, where he is hidden for the round (D-5)."""
    seen, thief = view(state), state.thief(seat)
    if thief.free_hidden or thief.space in tables().dungeons[None]:
        return seen.exits, state.fire, ()
    return seen.exits, state.fire, arresting(state, seat)


def arresting(state: State, seat: int) -> tuple[str, ...]:
    """The spaces of the figures that would take him as he steps onto them: he is visible and
    unprotected there (Joanne walks past guards, not captains). Kept for the state."""
    kept = view(state).arresting
    found = kept.get(seat)
    if found is None:
        found = kept[seat] = _arresting(state, seat)
    return found


def _arresting(state: State, seat: int) -> tuple[str, ...]:
    thief = state.thief(seat)
    everywhere, spaces = hiding(state, seat)
    if thief.protected or everywhere:
        return ()
    figures = state.captains if thief.name == "joanne" else view(state).figures
    return tuple(f for f in figures if f not in spaces)


@lru_cache(maxsize=KEPT)
def _ways(here: str, points: int, blocking: Blocking) -> dict[str, int]:
    """The ways, kept across states: a search's rollouts walk the same streets again."""
    city = tables()
    exits, fire, figures = blocking
    blocked = city.exits.difference(exits).union(fire, figures)
    steps = city.steps
    found = {here: 0}
    frontier = [here]
    for depth in range(1, points + 1):
        nxt = []
        for space in frontier:
            for there in steps[space]:
                if there in found or there in blocked:
                    continue
                found[there] = depth
                nxt.append(there)
        if not nxt:
            break
        frontier = nxt
    return found


def hiding(state: State, seat: int) -> tuple[bool, frozenset[str]]:
    """Where the thief of `seat` would be hidden (section 12, `queries.hidden` for him moved
    there): everywhere under Cloak, C02 or out of the dungeon; else the spaces given, smoke,
    Nikolai's palace, and unless Sniffer Dogs (A07) are out the hideouts and Dark Alleys. Kept
    for the state."""
    kept = view(state).hiding
    found = kept.get(seat)
    if found is None:
        found = kept[seat] = _hiding(state, seat)
    return found


def _hiding(state: State, seat: int) -> tuple[bool, frozenset[str]]:
    thief, city = state.thief(seat), tables()
    everywhere = state.event == "C02" or thief.cloak or thief.free_hidden
    spaces = set(state.smoke)
    if thief.name == "nikolai":
        spaces |= city.palace
    if state.event != "A07":
        spaces |= city.hideouts
        spaces.update(space for space, tile in state.open_tiles if tile == "dark_alley")
    return everywhere, frozenset(spaces)
