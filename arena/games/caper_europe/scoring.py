"""End of game and scoring (section 10): Location fields, card fields, stolen goods, ties.

Everything here also works on an unfinished state ("if the game ended now"), which is what the
greedy and search bots use as their heuristic.
"""

from __future__ import annotations

from dataclasses import dataclass

from arena.games.api import Result
from arena.games.caper_common.counting import best_partition
from arena.games.caper_common.draft import Kind
from arena.games.caper_europe import table
from arena.games.caper_europe.effects import Colour, Icon, Op
from arena.games.caper_europe.state import Goods, State

CATEGORIES = ("locations", "stars", "thieves", "gear", "stolen_goods")
GOODS_SET_VALUES = (2, 5, 9)  # a single token, 2 different types, all 3 types (p.14)
STARS = {3: 1, 4: 2}  # R22: stars beside the final space, by distance from the middle

PerLocation = tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ScoreSheet:
    winners: tuple[int | None, ...]  # who decides each Location; None in the middle (F12)
    location_fields: tuple[PerLocation, PerLocation]  # [seat][location], stars included
    card_fields: tuple[PerLocation, PerLocation]
    breakdown: tuple[dict[str, int], dict[str, int]]

    @property
    def totals(self) -> tuple[int, int]:
        return (sum(self.breakdown[0].values()), sum(self.breakdown[1].values()))


def winner(marker: int) -> int | None:
    """R22: the player the marker is closer to; nobody in the middle."""
    return None if marker == 0 else (0 if marker > 0 else 1)


def goods_points(goods: Goods) -> int:
    """The best partition into sets of different types scoring 2/5/9 (p.14)."""
    return best_partition(tuple(goods), GOODS_SET_VALUES)[0]


def score(state: State) -> ScoreSheet:
    """Score the table as it stands, Location by Location, then the stolen goods."""
    winners = tuple(winner(marker) for marker in state.markers)
    sheets = (dict.fromkeys(CATEGORIES, 0), dict.fromkeys(CATEGORIES, 0))
    fields: tuple[list[int], list[int]] = ([], [])
    cards: tuple[list[int], list[int]] = ([], [])
    for location, won_by in enumerate(winners):
        for seat in (0, 1):
            field = 0
            if won_by == seat:
                field = _location_field(state, seat, location, winners, sheets[seat])
            fields[seat].append(field)
            cards[seat].append(_card_field(state, seat, location, winners, sheets[seat]))
    for seat in (0, 1):
        sheets[seat]["stolen_goods"] = goods_points(state.hq_goods[seat])
    return ScoreSheet(
        winners=winners,
        location_fields=(tuple(fields[0]), tuple(fields[1])),
        card_fields=(tuple(cards[0]), tuple(cards[1])),
        breakdown=sheets,
    )


def _location_field(
    state: State, seat: int, location: int, winners: tuple[int | None, ...], sheet: dict[str, int]
) -> int:
    """Points + end effect for the winner (R24) + star bonus (R22)."""
    assert state.crews[seat][location], "R23: a Location is decided only by a player with a Thief"
    place = state.locations[location]
    points = place.points + sum(
        end_points(state, icon, seat, location, winners) for icon in place.end_effects
    )
    stars = STARS.get(abs(state.markers[location]), 0)
    sheet["locations"] += points
    sheet["stars"] += stars
    return points + stars


def _card_field(
    state: State, seat: int, location: int, winners: tuple[int | None, ...], sheet: dict[str, int]
) -> int:
    """Every end effect of `seat`'s own cards here, covered or not."""
    total = 0
    for card, _ in state.crews[seat][location]:
        if not card.end_effects:  # most cards: nothing to add
            continue
        points = sum(end_points(state, icon, seat, location, winners) for icon in card.end_effects)
        sheet["thieves" if card.kind is Kind.THIEF else "gear"] += points
        total += points
    return total


def end_points(
    state: State, icon: Icon, seat: int, location: int, winners: tuple[int | None, ...]
) -> int:
    """One end-of-game icon evaluated for `seat` at `location` (R24-R26); never negative."""
    if icon.op is Op.WIN:
        return icon.amount if winners[location] == seat else 0
    if icon.eye is not None and not eye_open(state, seat, location, icon.eye):
        return 0
    if icon.per is None:
        return icon.amount
    count = table.count_condition(
        icon.per, seat, location, state.crews, state.discards, state.hq_goods, state.hq_coins
    )
    return icon.amount * count


def eye_open(state: State, seat: int, location: int, colour: Colour) -> bool:
    """R25: some topmost Gear of `seat`'s crew here has `colour`; covered cards do not count."""
    return any(card.colour is colour for card in table.topmost_gear(state.crews[seat][location]))


def result(state: State) -> Result:
    """Most points wins; equal totals: more coins in hand, then more goods tokens, else a draw
    (R27)."""
    sheet = score(state)
    totals = sheet.totals
    goods = tuple(sum(held) for held in state.hq_goods)
    winner_seat: int | None = None
    tiebreak = ""
    for name, values in (("", totals), ("coins", state.coins), ("goods", goods)):
        if values[0] != values[1]:
            winner_seat, tiebreak = (0 if values[0] > values[1] else 1), name
            break
    else:
        tiebreak = "draw"
    details = {
        "locations": [card.id for card in state.locations],
        "markers": list(state.markers),
        "location_winners": list(sheet.winners),
        "location_fields": [list(row) for row in sheet.location_fields],
        "card_fields": [list(row) for row in sheet.card_fields],
        "stolen_goods": [list(held) for held in state.hq_goods],
        "coins": list(state.coins),
        "hq_coins": list(state.hq_coins),
    }
    return Result(totals, winner_seat, sheet.breakdown, tiebreak, details)
