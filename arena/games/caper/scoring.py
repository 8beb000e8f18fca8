"""End-of-game scoring (section 9): capers and Location winners, points by category, stolen goods.

Everything here also works on an unfinished state ("if the game ended now"), which is what the
greedy and search bots use as their heuristic.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from arena.games.api import Result
from arena.games.caper.cards import Card, Colour, Crew, Good, Kind, Owner
from arena.games.caper.state import Side, State
from arena.games.caper.table import face_up
from arena.games.caper_common.counting import best_partition

CATEGORIES = ("locations", "thieves", "gear", "stolen_goods")
DISCARD_POINTS = 3  # V10: a team scores 3 points per card in its Mastermind's discard area
_COLOUR_FIELDS: dict[Colour, str] = {c: c.name.lower() for c in Colour if c is not Colour.CREAM}
_SET_VALUES = (1, 3, 7)  # a set of 1, 2 or 3 different types
_TYPES = (Good.JEWEL, Good.ANTIQUE, Good.PAINTING)
_THIEF = Kind.THIEF  # read per card: on Python 3.11 `Kind.THIEF` goes through EnumType.__getattr__


@dataclass(frozen=True, slots=True)
class ScoreSheet:
    capers: tuple[tuple[int, int, int], tuple[int, int, int]]  # [seat][location]
    winners: tuple[int | None, int | None, int | None]  # per Location; None on a tie
    goods: tuple[tuple[Good, ...], tuple[Good, ...]]
    breakdown: tuple[dict[str, int], dict[str, int]]

    @property
    def totals(self) -> tuple[int, int]:
        return (sum(self.breakdown[0].values()), sum(self.breakdown[1].values()))


def summarise(side: Side, location: int) -> Crew:
    """The `Crew` counts of one side at one Location (flipped Gear count, but have no colour)."""
    stacks = side[location]
    gear = 0
    full = 0
    colours: dict[str, int] = {}  # a plain dict: `Counter` costs a Python call per new key
    for stack in stacks:
        gear += len(stack) - 1
        full += len(stack) == 4
        for card, flipped in stack[1:]:
            if not flipped:
                name = _COLOUR_FIELDS[card.colour]
                colours[name] = colours.get(name, 0) + 1
    return Crew(thieves=len(stacks), gear=gear, full_thieves=full, **colours)


FaceUp = list[list[tuple[Card, ...]]]  # [seat][location]: the cards that keep their abilities


def capers(state: State, crews: list[list[Crew]], up: FaceUp, seat: int, location: int) -> int:
    mine, theirs = crews[seat][location], crews[1 - seat][location]
    total = mine.full_thieves + state.locations[location].capers_for_each(mine, theirs)
    for card in up[seat][location]:
        total += card.capers(mine, theirs)
    return total


def score(state: State) -> ScoreSheet:
    """Score the table as it stands, in the order of section 9."""
    crews = [[summarise(state.board[seat], loc) for loc in range(3)] for seat in (0, 1)]
    up = [[tuple(face_up(crew)) for crew in side] for side in state.board]  # read 3 times
    caper_counts = tuple(
        tuple(capers(state, crews, up, s, loc) for loc in range(3)) for s in (0, 1)
    )
    winners = tuple(_winner(caper_counts[0][loc], caper_counts[1][loc]) for loc in range(3))
    goods = tuple(_goods(state, up, winners, seat) for seat in (0, 1))
    sheets = tuple(_points(state, crews, up, winners, goods[seat], seat) for seat in (0, 1))
    return ScoreSheet(
        capers=(caper_counts[0], caper_counts[1]),  # type: ignore[arg-type]
        winners=winners,  # type: ignore[arg-type]
        goods=(goods[0], goods[1]),
        breakdown=(sheets[0], sheets[1]),
    )


def _winner(cream: int, mint: int) -> int | None:
    if cream == mint:
        return None
    return 0 if cream > mint else 1


def _goods(
    state: State, up: FaceUp, winners: tuple[int | None, ...], seat: int
) -> tuple[Good, ...]:
    goods: list[Good] = []
    for location, winner in enumerate(winners):
        if winner == seat:
            goods += state.locations[location].goods
        for card in up[seat][location]:
            goods += card.goods
    return tuple(goods)


def _points(
    state: State,
    crews: list[list[Crew]],
    up: FaceUp,
    winners: tuple[int | None, ...],
    goods: tuple[Good, ...],
    seat: int,
) -> dict[str, int]:
    owner = Owner(goods=len(goods), laundered=state.laundered[seat])
    sheet = dict.fromkeys(CATEGORIES, 0)
    for location in range(3):
        mine, theirs = crews[seat][location], crews[1 - seat][location]
        if winners[location] == seat:
            sheet["locations"] += state.locations[location].reward(mine, theirs, owner)
        for card in up[seat][location]:
            category = "thieves" if card.kind is _THIEF else "gear"
            sheet[category] += card.points(mine, theirs, owner)
    sheet["stolen_goods"] = best_goods_partition(goods)[0]
    return sheet


def best_goods_partition(goods: tuple[Good, ...]) -> tuple[int, tuple[tuple[Good, ...], ...]]:
    """The best score for `goods` and the sets that reach it (sets of 1-3 different types;
    each Wild takes whichever type helps most)."""
    counts = Counter(goods)
    best: tuple[int, tuple[tuple[Good, ...], ...]] = (0, ())
    for assignment in _wild_assignments(counts[Good.WILD]):
        typed = tuple(counts[kind] + assignment[i] for i, kind in enumerate(_TYPES))
        value, sets = _partition(typed)
        if value > best[0]:
            best = (value, sets)
    return best


def _wild_assignments(wilds: int) -> list[tuple[int, int, int]]:
    return [(a, b, wilds - a - b) for a in range(wilds + 1) for b in range(wilds + 1 - a)]


@lru_cache(maxsize=4096)
def _partition(counts: tuple[int, ...]) -> tuple[int, tuple[tuple[Good, ...], ...]]:
    value, sets = best_partition(counts, _SET_VALUES)
    return value, tuple(tuple(_TYPES[i] for i in chosen) for chosen in sets)


def team_totals(state: State, sheet: ScoreSheet) -> tuple[int, int]:
    """The two sides' points: the Masterminds', plus V10's discard points with 4 players."""
    totals = sheet.totals
    if state.players != 4:
        return totals
    return (
        totals[0] + DISCARD_POINTS * len(state.discards[0]),
        totals[1] + DISCARD_POINTS * len(state.discards[1]),
    )


def snitch_score(totals: tuple[int, int]) -> int:
    """V5: the lower Mastermind score plus a sixth of the higher, rounded down."""
    return min(totals) + max(totals) // 6


def result(state: State) -> Result:
    """The final result: most points; a tie goes to most coins, then to Cream (section 9.4).
    With 3 players the Snitch wins at the higher Mastermind's score or more (V5); with 4, each
    team scores its Mastermind's points plus its discards (V10) and both its seats share it."""
    sheet = score(state)
    totals = team_totals(state, sheet)
    winner, tiebreak = _better_side(state, totals)
    scores: tuple[int, ...] = totals
    breakdown: tuple[dict[str, int], ...] = sheet.breakdown
    extra: dict[str, object] = {}
    if state.players == 3:
        snitch = snitch_score(totals)
        scores = (*totals, snitch)
        parts = {"lower_mastermind": min(totals), "sixth_of_higher": max(totals) // 6}
        breakdown = (*breakdown, parts)
        if snitch >= max(totals):
            winner, tiebreak = 2, ""
        extra = {"winners": [winner]}
    elif state.players == 4:
        discards = [{"discards": DISCARD_POINTS * len(cards)} for cards in state.discards]
        teams = tuple(dict(sheet.breakdown[side]) | discards[side] for side in (0, 1))
        scores, breakdown = (*totals, *totals), (*teams, *teams)
        extra = {"teams": [[0, 2], [1, 3]], "winners": [winner, winner + 2]}
    details = {
        "capers": [list(row) for row in sheet.capers],
        "location_winners": list(sheet.winners),
        "locations": [card.name for card in state.locations],
        "stolen_goods": [[good.value for good in goods] for goods in sheet.goods],
        "coins": list(state.coins),
        **extra,
    }
    return Result(scores, winner, breakdown, tiebreak, details)


def _better_side(state: State, totals: tuple[int, int]) -> tuple[int, str]:
    if totals[0] != totals[1]:
        return (0 if totals[0] > totals[1] else 1), ""
    if state.coins[0] != state.coins[1]:
        return (0 if state.coins[0] > state.coins[1] else 1), "coins"
    return 0, "cream"
