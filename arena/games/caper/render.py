"""A plain-text picture of a Caper game for people: logs, `arena replay`, debugging."""

from __future__ import annotations

from arena.games.caper.observation import CaperObservation, PublicStack
from arena.games.caper.state import SEAT_NAMES
from arena.games.caper_common.draft import hand_text


def render(
    obs: CaperObservation, omniscient_hands: tuple[tuple[str, ...], ...] | None = None
) -> str:
    """Render what `obs.seat` sees; `omniscient_hands` (both hands) shows everything instead."""
    lines = [_header(obs)]
    for location, name in enumerate(obs.locations):
        lines.append(f"  [{location}] {name}")
        for seat in (0, 1):
            stacks = [_stack(stack) for stack in obs.board[seat][location]] or ["-"]
            lines.append(f"      {SEAT_NAMES[seat]:<6}{stacks[0]}")
            lines += [f"      {'':<6}{stack}" for stack in stacks[1:]]
    for seat in (0, 1):
        lines.append(_player_line(obs, seat, omniscient_hands))
    if obs.pending:
        seat, card, location = obs.pending[0]
        lines.append(f"  resolving: {SEAT_NAMES[seat]}'s {card} at [{location}]")
    return "\n".join(lines)


def _header(obs: CaperObservation) -> str:
    ended = obs.round_kind == "end"
    stage = "end of game" if ended else f"round {obs.round} ({obs.round_kind})"
    mover = "game over" if obs.to_move < 0 else f"{SEAT_NAMES[obs.to_move]} to play"
    return f"Caper in {obs.city.title()}, {stage}, {mover}; supply {obs.supply} coins"


def _stack(stack: PublicStack) -> str:
    return " < ".join(f"({name})" if flipped else name for name, flipped in stack)


def _player_line(
    obs: CaperObservation, seat: int, omniscient_hands: tuple[tuple[str, ...], ...] | None
) -> str:
    hand = hand_text(obs, seat, omniscient_hands)
    laundered = f", {obs.laundered[seat]} laundered" if obs.laundered[seat] else ""
    discards = ", ".join(obs.discards[seat]) or "-"
    return (
        f"  {SEAT_NAMES[seat]}: {obs.coins[seat]} coins{laundered}; hand: {hand}; "
        f"discards: {discards}"
    )
