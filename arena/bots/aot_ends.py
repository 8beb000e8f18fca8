"""Where the greedy Age of Thieves thief ends a movement (rules docs/rules/age-of-thieves.md):
every space the movement can reach is scored by the moves still to go after ending there, an
arrest's chance and cost counted, and the best one is walked to by a shortest way. The search
(`aot_search`) takes the spaces ranked next as its alternatives.

The score of a space depends on the state, the seat and the target only through what `_Scorer`
reads once: the target's distances, where he is hidden, the figures' reach and what an arrest
costs him. It is built once per (state, seat, target) and kept in the state's `view`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import cache, lru_cache

from arena.bots.aot_view import FAR, Watch, tables, view
from arena.bots.aot_ways import PACE, distance, goal, hiding, reachable, rounds_left, slack
from arena.games.age_of_thieves.board import District
from arena.games.age_of_thieves.state import Action, State, Status, Thief

# Ways are counted in Sneaks (moves of 4). An arrest sends the thief to a dungeon, costs him a
# round and a jewel, the Emperor's Jewel above all: weighed in moves too.
SNEAK = 4
LOST_ROUND = 1.0
JEWEL_RISK = 0.5
EJ_RISK = 5.0
CAUGHT = 0.5  # a guard in reach may go for a nearer thief, or be drawn elsewhere first
NOTICED = 0.1  # within a guard's attention but out of its reach: it closes in
LATER = 0.3  # guards have already acted this round: risk only matters next round
STALL = 1.0  # staying put wastes a move, and waiting makes no guard go away
DETOUR = 2  # a jewel this many steps off the way is worth the detour
TAKE_FIRST = ("ej", "green", "yellow", "trinket")
KEPT = 1024  # figure layouts whose threats are kept: plenty for a search's rollouts


def ends(state: State, seat: int, points: int, start: str) -> tuple[str, list[tuple[float, str]]]:
    """The target and the spaces a movement of `points` can end on, best score first; ending
    no nearer the target than the movement began wastes the move."""
    here = state.thief(seat).space
    reach = reachable(state, seat, here, points)
    target = _destination(state, seat, reach)
    score = scorer(state, seat, target)
    if not target:
        return target, sorted((score(s), s) for s in reach)
    to_target = tables().distances[target]
    before = to_target[start]
    return target, sorted((score(s) + (STALL if to_target[s] >= before else 0.0), s) for s in reach)


def towards(state: State, seat: int, options: Sequence[Action], points: int, best: str) -> Action:
    """The next step of a shortest way to `best` (within `points` steps), or stop there."""
    taken = grab(options)
    if taken is not None:
        return taken
    here = state.thief(seat).space
    reach = reachable(state, seat, here, points)
    if best == here or best not in reach:
        return Action("stop")
    to_best, left = tables().distances[best], reach[best] - 1
    on_way = [a for a in options if a.kind == "step" and a.arg in reach and to_best[a.arg] == left]
    if on_way:
        score = scorer(state, seat, goal(state, seat))
        return min(on_way, key=lambda a: (score(a.arg), a.arg))
    return Action("stop")


def grab(options: Sequence[Action]) -> Action | None:
    """Jewels first (the Emperor's Jewel above all), then thefts; tiles are left alone: a
    face-down one may be a plain-clothes guard."""
    if not any(a.kind == "take" or a.kind == "steal" for a in options):
        return None  # most decisions: a step, a stop, a card
    for kind in TAKE_FIRST:
        if Action("take", kind) in options:
            return Action("take", kind)
    steals = [a for a in options if a.kind == "steal"]
    if steals:
        return min(steals, key=lambda a: TAKE_FIRST.index(a.arg.partition(":")[2]))
    return None


def _destination(state: State, seat: int, reach: Mapping[str, int]) -> str:
    """The goal, or a loose jewel near the way to it."""
    target = goal(state, seat)
    here = state.thief(seat).space
    if state.thief(seat).ej:
        return target
    base = distance(here, target) if target else FAR
    exits = view(state).exits
    running = bool(exits) and target in exits
    loose = [s for s, kind in state.jewels if kind != "ej" and s in reach]
    for space in sorted(loose, key=lambda s: (reach[s], s)):
        way = reach[space] + distance(space, target) if target else 0
        if running and slack(state, here, way) < 2 * PACE:
            continue  # no two rounds to spare for it before the end
        if not target or way <= base + DETOUR:
            return space
    return target


def scorer(state: State, seat: int, target: str) -> _Scorer:
    """Scores of end spaces for the thief of `seat` heading for `target`, kept for the state."""
    scorers = view(state).scorers
    found = scorers.get((seat, target))
    if not isinstance(found, _Scorer):
        found = scorers[(seat, target)] = _Scorer(state, seat, target)
    return found


class _Scorer:
    """Expected moves still to go after ending a move on a space, arrests counted: moves, not
    steps, so that the last space before a sure grab is worth a risk."""

    __slots__ = (
        "exits",
        "hides",
        "jailed",
        "later",
        "safe",
        "stake",
        "target",
        "threats",
        "to_target",
        "watch",
    )

    def __init__(self, state: State, seat: int, target: str) -> None:
        seen, city = view(state), tables()
        everywhere, self.hides = hiding(state, seat)
        last = state.status is Status.ALARM and not rounds_left(state)
        # In the last round on the board at its end he loses anyway: no arrest to fear.
        self.safe = everywhere or last
        self.exits = city.exits
        self.watch, self.threats = seen.watch, _threats(seen.watch)
        self.later = not seen.pending  # guards have already acted this round
        self.target, self.to_target = target, city.distances[target] if target else None
        self.stake = _stake(state.thief(seat))
        # An arrest's cost: the moves from the dungeon it leads to (17.3) to the target, and
        # the stake. Once the Emperor's Jewel is out, the drawn district's dungeon; else the
        # district's where he is taken (`_jailed`).
        self.jailed: float | None = None
        if not target:
            self.jailed = _moves(0.0) + self.stake
        elif state.escape:
            self.jailed = _jail_moves(District(state.escape), target) + self.stake

    def __call__(self, space: str) -> float:
        far = MOVES[self.to_target[space]] if self.to_target is not None else 0.0
        risk = self.risk(space)
        if not risk:
            return far
        jailed = self.jailed if self.jailed is not None else self._jailed(space)
        return (1 - risk) * far + risk * jailed

    def risk(self, space: str) -> float:
        """The chance of an arrest when ending a move on `space`, from the guards and
        captains."""
        if self.safe or space in self.exits or space in self.hides:
            return 0.0
        risk = self.threats.get(space)
        if risk is None:
            risk = self.threats[space] = _threat(self.watch, space)
        return risk * LATER if self.later else risk

    def _jailed(self, space: str) -> float:
        """From the dungeons of the district of `space`, any of them from the palace."""
        district = tables().districts[space]
        dungeons = None if district is District.PALACE else district
        return _jail_moves(dungeons, self.target) + self.stake


@lru_cache(maxsize=KEPT)
def _threats(watch: Watch) -> dict[str, float]:
    """The threats of figures placed as `watch` says, filled in as spaces are asked about:
    kept across states, as the figures stand still through most of a round."""
    return {}


def _threat(watch: Watch, space: str) -> float:
    """The chance of an arrest on `space` from figures placed as `watch` says, were they to
    act next: caught by one in reach, else noticed by those whose attention reaches it."""
    guards, captains, guard_reach, guard_sight, captain_reach, captain_sight = watch
    rows = tables().distances
    caught, noticed = False, 0
    for figures, reach, sight in (
        (guards, guard_reach, guard_sight),
        (captains, captain_reach, captain_sight),
    ):
        for figure in figures:
            far = rows[figure][space]
            caught = caught or far <= reach
            noticed += far <= sight
    return CAUGHT if caught else NOTICED * min(noticed, 2)


@cache
def _jail_moves(district: District | None, target: str) -> float:
    """The moves to `target` from the dungeons of `district` (None: all four), on average."""
    cells = tables().dungeons[district]
    return _moves(sum(distance(cell, target) for cell in cells) / len(cells))


def _moves(steps: float) -> float:
    """Sneaks needed to cover `steps`, with the steps left over as a tie-break."""
    return math.ceil(steps / SNEAK) + 0.1 * steps


MOVES = tuple(_moves(steps) for steps in range(FAR + 1))  # of every whole number of steps


def _stake(thief: Thief) -> float:
    """What an arrest costs besides the way back from the dungeon, in moves."""
    if thief.ej:
        return EJ_RISK
    return LOST_ROUND + (JEWEL_RISK if thief.vp else 0.0)
