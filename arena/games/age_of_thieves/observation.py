"""What one seat may see (spec 22.7, "Public information") and hidden states consistent with it.

Public: positions, sheets (AP tiles as they were before planning), the discard pile, face-up
tiles, the event, the guard die, the drawn district, revealed cards. Private: hands, plans until
the reveal (and each card until it is resolved), face-down city tiles (but the ones a seat has
peeked at with Rat Spies), and the order of every deck.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from arena.games.age_of_thieves.catalogue import CardKind
from arena.games.age_of_thieves.queries import cards, hidden, in_dungeon
from arena.games.age_of_thieves.state import Planned, State, Thief, replace


@dataclass(frozen=True, slots=True)
class AgeOfThievesObservation:
    seat: int
    data: tuple[tuple[str, Any], ...]  # the JSON fields, as a hashable value

    def __reduce__(self) -> tuple[type[AgeOfThievesObservation], tuple[int, Any]]:
        """Pickle and deepcopy rebuild a view through its constructor: the compiled engine's
        frozen class lacks the __setstate__ a dataclass has in Python."""
        return type(self), (self.seat, self.data)

    def to_json(self) -> dict[str, Any]:
        thawed: dict[str, Any] = _thaw(dict(self.data))
        return thawed


def _freeze(value: Any) -> Any:
    if isinstance(value, dict):
        return tuple((k, _freeze(v)) for k, v in value.items())
    if isinstance(value, list | tuple):
        return ("__list__", tuple(_freeze(v) for v in value))
    return value


def _thaw(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _thaw(v) for k, v in value.items()}
    if isinstance(value, tuple) and len(value) == 2 and value[0] == "__list__":
        return [_thaw(v) for v in value[1]]
    if isinstance(value, tuple):
        return {k: _thaw(v) for k, v in value}
    return value


def planning(state: State) -> bool:
    """Plans are still secret: the reveal has not run yet this round."""
    return any(t.name == "reveal" for t in state.tasks)


def observe(state: State, seat: int) -> AgeOfThievesObservation:
    secret = planning(state)
    prompt = state.prompt
    mine = prompt is not None and prompt.seat == seat
    data: dict[str, Any] = {
        "seat": seat,
        "players": state.players,
        "round": state.round,
        "status": state.status.value,
        "first_player": state.first,
        "event": state.event,
        "guard_initiative": state.die,
        "escape_district": state.escape,
        "alarm_next_round": state.alarm_pending,
        "closed_exit": state.closed,
        "to_move": -1 if prompt is None else prompt.seat,
        "decision": "" if prompt is None else prompt.name,
        "options": [str(a) for a in prompt.options] if mine and prompt else [],
        "hand": list(state.thief(seat).hand),
        "plan": [_card(p, True) for p in state.thief(seat).plan],
        "peeks": [list(p) for p in state.thief(seat).peeks],
        "thieves": [_thief(state, s, s == seat, secret) for s in range(state.players)],
        "guards": list(state.guards),
        "captains": list(state.captains),
        "guard_supply": state.guard_supply,
        "captain_supply": state.captain_supply,
        "jewels": [list(j) for j in state.jewels],
        "yellow_supply": state.yellow_supply,
        "green_supply": state.green_supply,
        "face_down_tiles": [space for space, _ in state.tiles],
        "open_tiles": [list(t) for t in state.open_tiles],
        "fire": list(state.fire),
        "smoke": list(state.smoke),
        "bribed": list(state.bribed),
        "trapped_guards": list(state.trapped),
        "action_deck": len(state.deck),
        "discard": list(state.discard),
        "calm_events_left": len(state.calm),
        "alarm_events_left": len(state.alarm),
        "events_seen": list(state.events_seen),
        "turns_left": [[t.seat, t.n] if t.name == "turn" else ["guards", state.die]
                       for t in state.tasks if t.name in ("turn", "guards")],
        "over": state.over,
        "winner": state.winner,
        "reason": state.reason,
        # the rest of the public state, so that a bot can rebuild one (sampling.py)
        "actions_done": state.actions_done,
        "district_deck": len(state.districts),
        "tasks": [list(t) for t in state.tasks],
        "prompt_task": list(prompt.task) if prompt else [],
        "first_player_orders_guards": state.orders_guards,
        "specials": state.specials,
    }  # fmt: skip
    return AgeOfThievesObservation(seat, _freeze(data))


def _card(p: Planned, shown: bool) -> dict[str, Any]:
    special = cards().card(p.card).kind is CardKind.SPECIAL
    revealed = shown or p.status != "pending"
    return {
        "card": p.card if revealed or special else "?",
        "ap": p.ap,
        "under": p.under if revealed else ("?" if p.under else ""),
        "status": p.status,
    }


def _thief(state: State, seat: int, own: bool, secret: bool) -> dict[str, Any]:
    thief = state.thief(seat)
    informers, agents = thief.informers, thief.agents
    held = len(thief.hand)
    if secret and not own:  # what the screen hides: the tiles and cards put on the plan
        informers, agents = informers + thief.spent[0], agents + thief.spent[1]
        held += sum(general_card(p.card) + general_card(p.under) for p in thief.plan)
    return {
        "thief": thief.name,
        "space": thief.space,
        "in_dungeon": in_dungeon(thief),
        "escaped": list(thief.escaped),
        "exit": thief.exit,
        "sheet": _sheet(thief, informers, agents),
        "hand_size": held,
        "plan": [] if secret and not own else [_card(p, own) for p in thief.plan],
        "resolved": thief.resolved,
        "exclusive": thief.exclusive,
        "arrested": thief.arrested,
        "hidden": hidden(state, seat),
        "protected": thief.protected,
        "trapped": thief.trapped,
        "theft_marker": thief.marker,
        "robbed": thief.robbed,
        "blue_ap": thief.blue,
        "red_ap": thief.red,
        "pool": thief.pool if own else None,
        "spent": list(thief.spent) if own else None,
        "planned": thief.planned,
        "jailed": thief.jailed,
        "cloak": thief.cloak,
        "free_hidden": thief.free_hidden,
        "purple_next": thief.purple_next,
        "draws_next": thief.draws_next,
        "bola_next": thief.bola_next,
    }


def general_card(card: str) -> int:
    return int(bool(card) and cards().card(card).kind is CardKind.GENERAL)


def _sheet(thief: Thief, informers: int, agents: int) -> dict[str, Any]:
    return {
        "emperors_jewel": thief.ej,
        "best_thief": thief.best,
        "green": thief.green,
        "yellow": thief.yellow,
        "trinkets": thief.trinkets,
        "informers": informers,
        "guild_agents": agents,
        "pockets": thief.pockets,
        "vp": thief.vp,
    }


def resample_hidden(state: State, seat: int, rng: random.Random) -> State:
    """A state `seat` cannot tell from `state`: the general cards it has not seen dealt anew
    (other hands, unrevealed plan cards, the deck), the face-down tiles it has not peeked at
    shuffled among their spaces, the event and district decks reordered."""
    secret = planning(state)
    pool: list[str] = list(state.deck)
    for s, thief in enumerate(state.thieves):
        if s != seat:
            pool += thief.hand + _unseen(thief, secret)
    rng.shuffle(pool)
    deck_size = len(state.deck)
    deck, pool = tuple(pool[:deck_size]), pool[deck_size:]
    thieves = list(state.thieves)
    for s, thief in enumerate(thieves):
        if s == seat:
            continue
        hand = tuple(sorted(pool[: len(thief.hand)]))
        pool = pool[len(thief.hand) :]
        plan = []
        for p in thief.plan:
            card, under = p.card, p.under
            if _hidden_card(p, secret) and general_card(card):
                card, pool = pool[0], pool[1:]
            if p.under and (secret or p.status == "pending"):
                under, pool = pool[0], pool[1:]
            plan.append(p._replace(card=card, under=under))
        thieves[s] = replace(thief, hand=hand, plan=tuple(plan))
    peeked = {space for space, _ in state.thief(seat).peeks}
    unseen = [(s, t) for s, t in state.tiles if s not in peeked]
    kinds = [t for _, t in unseen]
    rng.shuffle(kinds)
    tiles = dict(state.tiles) | {s: k for (s, _), k in zip(unseen, kinds, strict=True)}
    calm, alarm = list(state.calm), list(state.alarm)
    rng.shuffle(calm)
    rng.shuffle(alarm)
    return replace(
        state,
        deck=deck,
        thieves=tuple(thieves),
        tiles=tuple(sorted(tiles.items())),
        calm=tuple(calm),
        alarm=tuple(alarm),
    )


def _hidden_card(p: Planned, secret: bool) -> bool:
    return secret or p.status == "pending"


def _unseen(thief: Thief, secret: bool) -> tuple[str, ...]:
    found: list[str] = []
    for p in thief.plan:
        if _hidden_card(p, secret) and general_card(p.card):
            found.append(p.card)
        if p.under and (secret or p.status == "pending"):
            found.append(p.under)
    return tuple(found)
