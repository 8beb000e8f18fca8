"""A plain-text picture of a Caper game for people: logs, `arena replay`, debugging."""

from __future__ import annotations

from arena.games.caper.observation import CaperObservation, PublicStack
from arena.games.caper.state import ROLE_NAMES, SEAT_NAMES
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
    for seat in range(2, obs.players):
        lines.append(_passer_line(obs, seat, omniscient_hands))
    if obs.passed:
        lines.append(f"  you passed this round: {'; '.join(_passed(obs, p) for p in obs.passed)}")
    if obs.received:
        lines.append(f"  passed back to you this round: {', '.join(obs.received)}")
    if obs.pending:
        seat, card, location = obs.pending[0]
        lines.append(f"  resolving: {SEAT_NAMES[seat]}'s {card} at [{location}]")
    return "\n".join(lines)


def _header(obs: CaperObservation) -> str:
    ended = obs.round_kind == "end"
    stage = "end of game" if ended else f"round {obs.round} ({obs.round_kind})"
    mover = "game over" if obs.to_move < 0 else f"{ROLE_NAMES[obs.players][obs.to_move]} to play"
    players = "" if obs.players == 2 else f" for {obs.players}"
    return f"Caper{players} in {obs.city.title()}, {stage}, {mover}; supply {obs.supply} coins"


def _stack(stack: PublicStack) -> str:
    return " < ".join(f"({name})" if flipped else name for name, flipped in stack)


def _player_line(
    obs: CaperObservation, seat: int, omniscient_hands: tuple[tuple[str, ...], ...] | None
) -> str:
    hand = _hand(obs, seat, omniscient_hands)
    laundered = f", {obs.laundered[seat]} laundered" if obs.laundered[seat] else ""
    discards = ", ".join(obs.discards[seat]) or "-"
    return (
        f"  {SEAT_NAMES[seat]}: {obs.coins[seat]} coins{laundered}; hand: {hand}; "
        f"discards: {discards}"
    )


def _passer_line(
    obs: CaperObservation, seat: int, omniscient_hands: tuple[tuple[str, ...], ...] | None
) -> str:
    """The Snitch's deck and drawn cards, or a Lookout's hand."""
    hand = _hand(obs, seat, omniscient_hands)
    if obs.players == 3:
        return f"  Snitch: {obs.snitch_deck_size} cards in the Snitch deck; drawn: {hand}"
    return f"  {ROLE_NAMES[4][seat]}: hand: {hand}"


def _hand(
    obs: CaperObservation, seat: int, omniscient_hands: tuple[tuple[str, ...], ...] | None
) -> str:
    if obs.players == 2:
        return hand_text(obs, seat, omniscient_hands)
    if omniscient_hands is not None:
        return ", ".join(omniscient_hands[seat]) or "-"
    if seat == obs.seat:
        return ", ".join(obs.hand) or "-"
    count = obs.hand_sizes[seat]
    return f"{count} unknown card{'s' if count > 1 else ''}" if count else "-"


def _passed(obs: CaperObservation, cards: tuple[str, ...]) -> str:
    if obs.role == "snitch":
        return f"{cards[0]} to Cream, {cards[1]} to Mint"
    return " + ".join(cards)
