"""A readable text picture of an Age of Thieves state: the round and the city guard, each thief
with his sheet, and the board as a summary per district (for `arena replay` and debugging).
From a seat's view it shows only what that seat may see (22.7); omniscient, every hand."""

from __future__ import annotations

from collections import defaultdict
from functools import cache

from arena.games.age_of_thieves.board import District
from arena.games.age_of_thieves.hadria import districts
from arena.games.age_of_thieves.observation import general_card, planning
from arena.games.age_of_thieves.queries import cards, district, in_dungeon
from arena.games.age_of_thieves.setup import ALARM_ROUNDS, CALM_ROUNDS
from arena.games.age_of_thieves.state import State, Thief


@cache
def _names() -> dict[District, str]:
    return {d.id: d.name for d in districts()}


def _event(event: str) -> str:
    found = [e for e in cards().events if e.id == event]
    return f"{event} {found[0].name}" if found else "-"


def render(state: State, seat: int | None = None) -> str:
    lines = [_header(state)]
    lines += [_thief(state, s, seat) for s in range(state.players)]
    lines += _districts(state, seat)
    lines.append(
        f"  action deck {len(state.deck)}, discard pile {len(state.discard)}, events left: "
        f"calm {len(state.calm)}, alarm {len(state.alarm)}; supply: {state.guard_supply} "
        f"guards, {state.captain_supply} captains, {state.yellow_supply} yellow, "
        f"{state.green_supply} green"
    )
    if state.over:
        who = "everyone lost" if state.winner < 0 else f"seat {state.winner} wins"
        lines.append(f"  game over: {who}, {state.reason}")
    elif state.prompt is not None:
        lines.append(f"  to decide: seat {state.prompt.seat} ({state.prompt.name})")
    return "\n".join(lines)


def _header(state: State) -> str:
    last = CALM_ROUNDS + ALARM_ROUNDS
    text = (
        f"Age of Thieves, round {state.round} (at most {last}), {state.status.value}, "
        f"first player seat {state.first}, event {_event(state.event)}, "
        f"guard initiative {state.die or '-'}"
    )
    if state.escape:
        text += f", escape district {state.escape} ({_names()[District(state.escape)]})"
        if state.closed:
            text += f", {state.closed} closed"
    return text


def _thief(state: State, seat: int, viewer: int | None) -> str:
    thief = state.thief(seat)
    if not thief.on_board:
        where = f"left by {thief.exit} in round {thief.escaped[0]}"
    else:
        where = f"{thief.space} ({district(thief.space).value})"
        where += " in the dungeon" if in_dungeon(thief) else ""
    text = f"  seat {seat} {thief.name:8} {where}; {_sheet(thief)}"
    if viewer is None or viewer == seat:
        names = ", ".join(cards().card(c).name for c in thief.hand) or "no general card"
        text += f"\n      hand: {names}"
    else:  # cards put on a plan still count as held until the reveal (section 8)
        held = len(thief.hand)
        if planning(state):
            held += sum(general_card(p.card) + general_card(p.under) for p in thief.plan)
        text += f"; {held} cards in hand"
    return text


def _sheet(thief: Thief) -> str:
    parts = [f"VP {thief.vp}"]
    if thief.ej:
        parts.append("the EMPEROR'S JEWEL")
    if thief.best:
        parts.append("best thief")
    for count, name in (
        (thief.green, "green"),
        (thief.yellow, "yellow"),
        (thief.trinkets, "trinket"),
        (thief.informers, "informer"),
        (thief.agents, "guild agent"),
        (thief.pockets, "back-of-hand"),
    ):
        if count:
            parts.append(f"{count} {name}")
    return ", ".join(parts)


def _districts(state: State, viewer: int | None) -> list[str]:
    """One line per district: thieves, guards, captains, jewels, tiles, fire and smoke."""
    found: dict[District, list[str]] = defaultdict(list)

    def add(space: str, text: str) -> None:
        found[district(space)].append(text)

    for seat, thief in enumerate(state.thieves):
        if thief.on_board:
            add(thief.space, f"seat {seat}@{thief.space}")
    for space in state.guards:
        add(space, f"guard@{space}")
    for space in state.captains:
        add(space, f"CAPTAIN@{space}")
    for space, kind in state.jewels:
        add(space, f"{kind}@{space}")
    peeks = dict(state.thief(viewer).peeks) if viewer is not None else dict(state.tiles)
    for space, _ in state.tiles:
        add(space, f"tile({peeks.get(space, '?')})@{space}")
    for space, tile in state.open_tiles:
        add(space, f"{tile}@{space}")
    for space in state.fire:
        add(space, f"FIRE@{space}")
    for space in state.smoke:
        add(space, f"smoke@{space}")
    return [
        f"  {d.value} {_names()[d]}: " + (" ".join(found[d]) if found[d] else "-") for d in District
    ]
