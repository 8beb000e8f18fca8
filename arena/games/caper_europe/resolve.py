"""Resolving one play (R14): income, one-shots, combos, burns with their undo, and arrival events.

`Work` holds the parts of a `State` a play can change; the rules module builds one, resolves the
play on it and builds the next state from its `changes`, so the caller's state is never touched.
Crews a play changes become lists; every other part stays an immutable value, replaced when it
changes, since a play changes few of them.

Arrival events (R12) are a FIFO queue of (kind, seat, card): a card entering a discard area, or
a coin entering a hideout. Combos only ever MOVE or gain COINs, so they produce no events; only
one-shot `BURN` and `LAUNDER` icons and discards do.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import Any

from arena.games.caper_common import coins as coin_rule
from arena.games.caper_common.draft import Kind, with_seat
from arena.games.caper_europe import table
from arena.games.caper_europe.cards import Card
from arena.games.caper_europe.catalogue import CATALOGUE
from arena.games.caper_europe.effects import Condition, Icon, Op, Scope
from arena.games.caper_europe.state import NONE, TRACK_END, Action, Goods, Placed, State

DISCARD_EVENT = 0
HQ_COIN_EVENT = 1
Event = tuple[int, int, Card | None]

# Enum members read on every action, as plain names: on Python 3.11 each read through its
# class goes through `EnumType.__getattr__`, several times the cost of reading a global.
_GEAR = Kind.GEAR
_MOVE, _COIN, _BURN, _GRAB, _LAUNDER = Op.MOVE, Op.COIN, Op.BURN, Op.GRAB, Op.LAUNDER
_CREW = Scope.CREW
_EVENT_SCOPES = {
    DISCARD_EVENT: (Scope.DISCARD, Scope.DISCARD_GEAR),
    HQ_COIN_EVENT: (Scope.HQ_COINS,),
}


def _with_combos(scopes: tuple[Scope, ...]) -> frozenset[Card]:
    """The cards with a combo counting in one of `scopes` (cards are hashed by identity)."""
    return frozenset(
        card
        for card in CATALOGUE.values()
        for icon in card.combos
        if icon.per is not None and icon.per.scope in scopes
    )


_CREW_SOURCES = _with_combos((Scope.CREW,))
_EVENT_SOURCES = {kind: _with_combos(scopes) for kind, scopes in _EVENT_SCOPES.items()}


class Work:
    """The changeable parts of a state during one resolution."""

    __slots__ = (
        "coins",
        "crews",
        "discards",
        "events",
        "goods",
        "hq_coins",
        "hq_goods",
        "locations",
        "markers",
        "newest",
        "returning",
        "supply",
    )

    def __init__(self, state: State) -> None:
        self.locations = state.locations
        # Crews stay tuples until a play changes them (`crew`): most plays touch one or two.
        self.crews: list[list[Sequence[Placed]]] = [list(state.crews[0]), list(state.crews[1])]
        self.markers = state.markers
        self.goods = state.goods
        self.hq_goods = state.hq_goods
        self.coins = state.coins
        self.hq_coins = state.hq_coins
        self.supply = state.supply
        self.discards = state.discards
        self.returning = NONE
        self.events: deque[Event] = deque()
        self.newest: tuple[int, int] | None = None  # (seat, location) of the card being played

    def changes(self) -> dict[str, Any]:
        """The resolved parts, by `State` field name, for the next state."""
        crews = self.crews  # `tuple` returns a crew that is still a tuple as it is
        return {
            "crews": (tuple(map(tuple, crews[0])), tuple(map(tuple, crews[1]))),
            "markers": self.markers,
            "goods": self.goods,
            "hq_goods": self.hq_goods,
            "coins": self.coins,
            "hq_coins": self.hq_coins,
            "supply": self.supply,
            "discards": self.discards,
        }

    # --- plays (R14) --------------------------------------------------------------------------

    def play(self, seat: int, card: Card, action: Action) -> None:
        """Steps 1-6 of R14 for `card` played by `seat` as `action` says."""
        location = action.location
        crew = self.crew(seat, location)
        if card.kind is _GEAR:
            self.coins, self.supply = coin_rule.pay(self.coins, self.supply, seat, card.cost)
            crew.append((card, action.thief))
        else:
            crew.append((card, table.thief_count(crew)))
            self.gain(seat, card.income)
        for icon in card.one_shots:
            self.one_shot(seat, location, icon, action)
        for icon in card.combos:  # R11, R12: its own combos count the scope with itself in it
            self.fire(seat, location, icon, self.count(_per(icon), seat, location))
        self.crew_arrival(seat, location, card)
        self.newest = (seat, location)  # its own combos already counted its events (R14)
        self.process_events()
        self.newest = None

    def discard(self, seat: int, card: Card, coin: bool) -> None:
        """A card from hand into the discard area: a discard action (with its coin, R6) or the
        last card of a round (without, R4); then its arrival triggers."""
        self.add_discard(seat, card)
        if coin:
            self.gain(seat, 1)
        self.events.append((DISCARD_EVENT, seat, card))
        self.process_events()

    def one_shot(self, seat: int, location: int, icon: Icon, action: Action) -> None:
        op = icon.op
        if op is _MOVE:
            self.move(seat, location, icon.amount)
        elif op is _COIN:
            self.gain(seat, icon.amount)
        elif op is _BURN and action.target != NONE:  # R17: no target, no burn
            self.burn(seat, location, action.target)
        elif op is _GRAB:
            good = action.good if icon.good is None else icon.good
            if good != NONE and self.goods[location][good]:  # R10: nothing there, nothing taken
                self.goods = _bump(self.goods, location, good, -1)
                self.hq_goods = _bump(self.hq_goods, seat, good, +1)
        elif op is _LAUNDER:
            before = self.hq_coins
            self.coins, self.supply, self.hq_coins = coin_rule.launder(
                self.coins, self.supply, self.hq_coins, seat
            )
            if self.hq_coins != before:  # R21: only a successful launder is an arrival
                self.events.append((HQ_COIN_EVENT, seat, None))

    # --- burning (section 7) ------------------------------------------------------------------

    def burn(self, burner: int, location: int, target: int) -> None:
        victim = 1 - burner
        crew = self.crew(victim, location)
        index = max(i for i, (_, thief) in enumerate(crew) if thief == target)
        card = crew.pop(index)[0]
        self.add_discard(victim, card)
        for icon in card.one_shots:  # R18, R19: printed one-shots only, never combos
            self.undo(victim, burner, location, icon)
        self.events.append((DISCARD_EVENT, victim, card))

    def undo(self, victim: int, burner: int, location: int, icon: Icon) -> None:
        op = icon.op
        if op is _MOVE:
            self.move(burner, location, icon.amount)
        elif op is _COIN:
            amount = min(icon.amount, self.coins[victim])
            self.coins, self.supply = coin_rule.pay(self.coins, self.supply, victim, amount)
        elif op is _GRAB:
            held = [good for good, n in enumerate(self.hq_goods[victim]) if n]
            if icon.good is not None:
                held = [icon.good] if icon.good in held else []
            if len(held) == 1:
                self.goods = _bump(self.goods, location, held[0], +1)
                self.hq_goods = _bump(self.hq_goods, victim, held[0], -1)
            elif held:
                # `GRAB ?` undone: the victim chooses the token once this play has resolved. Nothing
                # after the burn in a resolution reads or moves goods, so the order is unseen.
                self.returning = location
        elif op is _LAUNDER and self.hq_coins[victim]:
            self.hq_coins = with_seat(self.hq_coins, victim, self.hq_coins[victim] - 1)
            self.supply += 1

    def crew(self, seat: int, location: int) -> list[Placed]:
        """The crew as a list this play may change."""
        crew = self.crews[seat][location]
        if not isinstance(crew, list):
            crew = self.crews[seat][location] = list(crew)
        return crew

    def return_good(self, seat: int, good: int) -> None:
        self.hq_goods = _bump(self.hq_goods, seat, good, -1)
        self.goods = _bump(self.goods, self.returning, good, +1)
        self.returning = NONE

    def add_discard(self, seat: int, card: Card) -> None:
        self.discards = with_seat(self.discards, seat, (*self.discards[seat], card))

    # --- combos (R12, R13) --------------------------------------------------------------------

    def crew_arrival(self, seat: int, location: int, card: Card) -> None:
        """R14 step 5: `card` (the newest in the crew) triggers the crew combos of the owner's
        older cards here, oldest first, then the Location's ongoing crew combo for the owner."""
        after = table.cards_of(self.crews[seat][location])
        before = after[:-1]
        sources = [*before, self.locations[location]]
        if _CREW_SOURCES.isdisjoint(sources):  # most often nothing here has a crew combo
            return
        for source in sources:
            for icon in source.combos:
                cond = _per(icon)
                if cond.scope is not _CREW:
                    continue
                if cond.is_set:
                    times = table.count_cards(cond, after) - table.count_cards(cond, before)
                else:  # a single-card condition counts each card on its own
                    times = table.count_cards(cond, (card,))
                self.fire(seat, location, icon, times)

    def process_events(self) -> None:
        """R14 step 6: each event fires the affected player's combos Location by Location, crew
        cards oldest first, then the Location's ongoing effect (which needs a Thief there, R13)."""
        while self.events:
            kind, seat, card = self.events.popleft()
            scopes, reacting = _EVENT_SCOPES[kind], _EVENT_SOURCES[kind]
            for location in range(3):
                crew = self.crews[seat][location]
                sources = table.cards_of(crew)
                if self.newest == (seat, location):
                    sources.pop()
                if crew:
                    sources.append(self.locations[location])
                if reacting.isdisjoint(sources):  # most often nothing here reacts to it
                    continue
                for source in sources:
                    for icon in source.combos:
                        cond = _per(icon)
                        if cond.scope in scopes:
                            self.fire(seat, location, icon, self.growth(cond, seat, card))

    def growth(self, cond: Condition, seat: int, card: Card | None) -> int:
        """How much the arrival of `card` (None: one HQ coin) added to `cond`'s count."""
        if card is None:
            return 1  # `coin@HQ` counts coins one by one
        after = self.discards[seat]
        return table.count_cards(cond, after) - table.count_cards(
            cond, table.without_one(after, card)
        )

    def count(self, cond: Condition, seat: int, location: int) -> int:
        """`cond` counted for `seat` at `location` now (an in-play combo's scope, R12)."""
        return table.count_condition(
            cond, seat, location, self.crews, self.discards, self.hq_goods, self.hq_coins
        )

    def fire(self, seat: int, location: int, icon: Icon, times: int) -> None:
        if times <= 0:  # R12: decreases never undo anything
            return
        if icon.op is _MOVE:
            self.move(seat, location, icon.amount * times)
        else:
            self.gain(seat, icon.amount * times)

    # --- markers and coins --------------------------------------------------------------------

    def move(self, seat: int, location: int, steps: int) -> None:
        """Move the marker `steps` toward `seat`; steps beyond the end space lapse (R22)."""
        assert self.crews[seat][location], "R23: only a player with a Thief here pulls its marker"
        marker = self.markers[location]
        marker = min(TRACK_END, marker + steps) if seat == 0 else max(-TRACK_END, marker - steps)
        self.markers = (*self.markers[:location], marker, *self.markers[location + 1 :])

    def gain(self, seat: int, amount: int) -> None:
        if amount:
            self.coins, self.supply = coin_rule.gain(self.coins, self.supply, seat, amount)


def _per(icon: Icon) -> Condition:
    assert icon.per is not None, "a combo always has a condition"
    return icon.per


def _bump(counts: tuple[Goods, ...], row: int, good: int, delta: int) -> tuple[Goods, ...]:
    """`counts` with `delta` added to `counts[row][good]`."""
    changed = list(counts[row])
    changed[good] += delta
    return (*counts[:row], tuple(changed), *counts[row + 1 :])
