"""A plain-text picture of a Caper: Europe game for people: logs, `arena replay`, debugging."""

from __future__ import annotations

from collections.abc import Sequence

from arena.games.caper_common.draft import hand_text
from arena.games.caper_europe.catalogue import CATALOGUE
from arena.games.caper_europe.effects import Good
from arena.games.caper_europe.observation import EuropeObservation, PublicCrew

SEAT_NAMES = ("Seat 0", "Seat 1")


def render(
    obs: EuropeObservation, omniscient_hands: tuple[tuple[str, ...], ...] | None = None
) -> str:
    """Render what `obs.seat` sees; `omniscient_hands` (both hands) shows everything instead."""
    lines = [_header(obs)]
    for location, card in enumerate(obs.locations):
        marker = obs.markers[location]
        lines.append(
            f"  [{location}] {CATALOGUE[card].name}: marker {marker:+d}; "
            f"beside it {_goods(obs.goods[location])}"
        )
        for seat in (0, 1):
            stacks = _stacks(obs.crews[seat][location]) or ["-"]
            lines.append(f"      {SEAT_NAMES[seat]:<8}{stacks[0]}")
            lines += [f"      {'':<8}{stack}" for stack in stacks[1:]]
    for seat in (0, 1):
        lines.append(_player_line(obs, seat, omniscient_hands))
    if obs.returning >= 0:
        lines.append(f"  {SEAT_NAMES[obs.to_move]} returns a stolen good to [{obs.returning}]")
    return "\n".join(lines)


def _header(obs: EuropeObservation) -> str:
    stage = "end of game" if obs.round_kind == "end" else f"round {obs.round} ({obs.round_kind})"
    mover = "game over" if obs.to_move < 0 else f"{SEAT_NAMES[obs.to_move]} to play"
    return f"Caper: Europe in {obs.city.title()}, {stage}, {mover}; supply {obs.supply} coins"


def _stacks(crew: PublicCrew) -> list[str]:
    """One line per Thief, bottom to top: `banker < disguise_kit` (the last card is topmost)."""
    piles: dict[int, list[str]] = {}
    for card, thief in crew:
        piles.setdefault(thief, []).append(card)
    return [" < ".join(piles[thief]) for thief in sorted(piles)]


def _goods(counts: Sequence[int]) -> str:
    held = [f"{n} {Good(good)}" for good, n in enumerate(counts) if n]
    return ", ".join(held) or "no goods"


def _player_line(
    obs: EuropeObservation, seat: int, omniscient_hands: tuple[tuple[str, ...], ...] | None
) -> str:
    hand = hand_text(obs, seat, omniscient_hands)
    discards = ", ".join(obs.discards[seat]) or "-"
    return (
        f"  {SEAT_NAMES[seat]}: {obs.coins[seat]} coins; hideout: {_goods(obs.hq_goods[seat])}, "
        f"{obs.hq_coins[seat]} coins; hand: {hand}; discards: {discards}"
    )
