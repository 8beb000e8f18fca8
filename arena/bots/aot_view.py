"""What the Age of Thieves bots ask of the board and of one state, each answer computed once.

The board never changes, so the shortest distances, the steps a thief may take out of each
space and the dungeons an arrest leads to are tables built once per board. A decision asks the
same questions of its state many times (the open exits, where the seat would be hidden, the
spaces he can reach, his goal): `view(state)` keeps the answers for the state asked about last,
which is the one a decision or a rollout step works on.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache

from arena.games.age_of_thieves.board import Board, District, Feature, NodeKind
from arena.games.age_of_thieves.queries import attention, board, movement, open_exits
from arena.games.age_of_thieves.state import State

FAR = 999  # the distance to a space no way leads to
# The guards, the captains, and the guards' and captains' movement and attention.
Watch = tuple[tuple[str, ...], tuple[str, ...], int, int, int, int]


@dataclass(frozen=True, slots=True)
class Tables:
    """One board's figures for the bots, by space id."""

    distances: Mapping[str, Mapping[str, int]]  # FAR where no way leads
    steps: Mapping[str, tuple[str, ...]]  # neighbours but dungeons; none out of an exit
    exits: frozenset[str]  # every exit node, open or not
    hideouts: frozenset[str]
    palace: frozenset[str]
    districts: Mapping[str, District]
    dungeons: Mapping[District | None, tuple[str, ...]]  # of a district; None: all of them


@cache
def tables_of(city: Board) -> Tables:
    ids = [node.id for node in city.nodes]
    kinds = {node.id: node.kind for node in city.nodes}

    def far(a: str, b: str) -> int:
        found = city.distance(a, b)
        return found if found >= 0 else FAR

    def steps(space: str) -> tuple[str, ...]:
        if kinds[space] is NodeKind.EXIT:
            return ()  # stepping onto an exit leaves the city
        return tuple(n for n in city.neighbours(space) if kinds[n] is not NodeKind.DUNGEON)

    return Tables(
        distances={a: {b: far(a, b) for b in ids} for a in ids},
        steps={space: steps(space) for space in ids},
        exits=frozenset(city.of_kind(NodeKind.EXIT)),
        hideouts=frozenset(city.with_feature(Feature.HIDEOUT)),
        palace=frozenset(n.id for n in city.nodes if n.district is District.PALACE),
        districts={node.id: node.district for node in city.nodes},
        dungeons={
            None: city.of_kind(NodeKind.DUNGEON),
            **{d: city.of_kind(NodeKind.DUNGEON, d) for d in District},
        },
    )


def tables() -> Tables:
    return tables_of(board())


class View:
    """One state's answers: computed on first use, kept while the state is the one asked
    about. The caches are filled by the functions that own each question
    (`aot_ways`, `aot_ends`)."""

    __slots__ = (
        "arresting",
        "exits",
        "figures",
        "goals",
        "hiding",
        "pending",
        "scorers",
        "state",
        "watch",
        "ways",
    )

    def __init__(self, state: State) -> None:
        self.state = state
        self.exits = open_exits(state)
        self.figures = (*state.guards, *state.captains)
        # Where the figures stand, how far they move and how far they notice (section 16).
        self.watch: Watch = (
            state.guards,
            state.captains,
            movement(state, False),
            attention(state, False),
            movement(state, True),
            attention(state, True),
        )
        self.pending = any(task.name == "guards" for task in state.tasks)
        self.arresting: dict[int, tuple[str, ...]] = {}
        self.hiding: dict[int, tuple[bool, frozenset[str]]] = {}
        self.goals: dict[int, str] = {}
        self.ways: dict[tuple[int, str, int], dict[str, int]] = {}
        self.scorers: dict[tuple[int, str], object] = {}  # `aot_ends`' scores for a target


_last: list[View] = []


def view(state: State) -> View:
    """The answers kept for `state`, begun afresh for another state than the last one."""
    last = _last[0] if _last else None
    if last is not None and last.state is state:
        return last
    made = View(state)
    _last[:] = [made]
    return made
