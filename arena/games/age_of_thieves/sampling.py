"""Full states a seat cannot tell apart from the real one, rebuilt from its observation (for
determinized search bots, like Caper's `sample_state`).

The public part of the state is read back from the observation; the hidden part is dealt anew:
the general cards the seat has not seen (other hands, unrevealed plan cards, the deck), the
face-down city tiles it has not peeked at (from the tiles not known to be elsewhere), the event
decks (from the events of each deck not revealed yet) and the district deck, and the future
randomness. Another seat's
plan that is still behind its screen is sampled as no plan (its cards stay in its hand); with
`open_plans` that seat is sampled as before it planned and its planning step is queued again,
so whatever plays the sample on (a search's rollout policy) plans it anew from the sampled hand.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from arena.games.age_of_thieves.catalogue import CardKind, Deck
from arena.games.age_of_thieves.components import components
from arena.games.age_of_thieves.observation import AgeOfThievesObservation
from arena.games.age_of_thieves.queries import cards
from arena.games.age_of_thieves.state import (
    AMBUSH,
    MOVE,
    Planned,
    Prompt,
    State,
    Status,
    Task,
    Thief,
    parse_action,
    replace,
)
from arena.games.age_of_thieves.streams import Streams

SHEET_TILES = {"informers": "informer", "guild_agents": "guild_agent", "pockets": "back_of_hand"}


def sample_state(
    obs: AgeOfThievesObservation, rng: random.Random, open_plans: bool = False
) -> State:
    """A full state the seat of `obs` cannot tell from the real one; with `open_plans` the other
    seats that planned behind the screen are to plan again (the seat can then tell the sample
    apart: they show as not planned yet)."""
    data = obs.to_json()
    seat = obs.seat
    deck_size = data["action_deck"]
    pool = _unseen_cards(data, seat)
    rng.shuffle(pool)
    others = [view for s, view in enumerate(data["thieves"]) if s != seat]
    faces = sum(p["card"] == "?" for view in others for p in view["plan"])
    unders = sum(p["under"] == "?" for view in others for p in view["plan"])
    held = sum(view["hand_size"] for view in others)
    basics = faces - (len(pool) - held - deck_size - unders)  # face-down Moves and Ambushes
    thieves = []
    for s, view in enumerate(data["thieves"]):
        if s == seat:
            thieves.append(_own(data, view))
            continue
        thief, pool, basics = _other(view, pool, basics)
        thieves.append(thief)
    deck, pool = tuple(pool[:deck_size]), pool[deck_size:]
    prompt = None
    if data["prompt_task"]:
        options = tuple(parse_action(o) for o in data["options"])
        prompt = Prompt(data["decision"], data["to_move"], options, Task(*data["prompt_task"]))
    tasks = tuple(Task(*t) for t in data["tasks"])
    if open_plans:
        thieves, tasks = _reopened(thieves, tasks, seat)
    return State(
        players=data["players"],
        thieves=tuple(thieves),
        first=data["first_player"],
        round=data["round"],
        status=Status(data["status"]),
        guards=tuple(data["guards"]),
        captains=tuple(data["captains"]),
        guard_supply=data["guard_supply"],
        captain_supply=data["captain_supply"],
        jewels=tuple(tuple(j) for j in data["jewels"]),
        yellow_supply=data["yellow_supply"],
        green_supply=data["green_supply"],
        tiles=_tiles(data, seat, rng),
        open_tiles=tuple(tuple(t) for t in data["open_tiles"]),
        deck=deck,
        discard=tuple(data["discard"]),
        calm=_events(data, Deck.CALM, data["calm_events_left"], rng),
        alarm=_events(data, Deck.ALARM, data["alarm_events_left"], rng),
        districts=_districts(data, rng),
        escape=data["escape_district"],
        alarm_pending=data["alarm_next_round"],
        event=data["event"],
        events_seen=tuple(data["events_seen"]),
        die=data["guard_initiative"],
        fire=tuple(data["fire"]),
        smoke=tuple(data["smoke"]),
        closed=data["closed_exit"],
        bribed=tuple(data["bribed"]),
        trapped=tuple(data["trapped_guards"]),
        actions_done=data["actions_done"],
        tasks=tasks,
        prompt=prompt,
        over=data["over"],
        winner=data["winner"],
        reason=data["reason"],
        orders_guards=data["first_player_orders_guards"],
        specials=data["specials"],
        streams=Streams(rng.getrandbits(62)),
    )


def _reopened(
    thieves: list[Thief], tasks: tuple[Task, ...], seat: int
) -> tuple[list[Thief], tuple[Task, ...]]:
    """The other seats whose plans are behind the screen (they planned, the reveal is still to
    come), back to before they planned: no plan, not planned, the planned cards in the hand
    (sampled with it), the AP markers of the round back; their planning steps queued again
    before the reveal. The AP a Purple tile added this round is not seen, nor the Bola's cut."""
    names = [t.name for t in tasks]
    if "reveal" not in names:
        return thieves, tasks
    again = [s for s, t in enumerate(thieves) if s != seat and t.planned and t.on_board]
    for s in again:
        thief = thieves[s]
        thieves[s] = replace(thief, planned=False, plan=(), pool=thief.blue + thief.red)
    at = names.index("reveal")
    return thieves, (*tasks[:at], *(Task("plan", s) for s in again), *tasks[at:])


def _unseen_cards(data: dict[str, Any], seat: int) -> list[str]:
    """The 70 general cards less those the seat sees: its hand and plan, the discard pile and
    every revealed card."""
    left = Counter({c.id: c.copies for c in cards().of_kind(CardKind.GENERAL)})
    seen = [*data["hand"], *data["discard"]]
    for s, view in enumerate(data["thieves"]):
        plan = data["plan"] if s == seat else view["plan"]
        seen += [name for p in plan for name in (p["card"], p["under"]) if name not in ("", "?")]
    left.subtract(c for c in seen if c in left)
    return sorted(left.elements())


def _thief(view: dict[str, Any], hand: tuple[str, ...], plan: tuple[Planned, ...]) -> Thief:
    sheet = view["sheet"]
    return Thief(
        name=view["thief"],
        space=view["space"],
        hand=hand,
        yellow=sheet["yellow"],
        green=sheet["green"],
        ej=sheet["emperors_jewel"],
        best=sheet["best_thief"],
        trinkets=sheet["trinkets"],
        informers=sheet["informers"],
        agents=sheet["guild_agents"],
        pockets=sheet["pockets"],
        escaped=tuple(view["escaped"]),
        exit=view["exit"],
        jailed=view["jailed"],
        blue=view["blue_ap"],
        red=view["red_ap"],
        purple_next=view["purple_next"],
        draws_next=view["draws_next"],
        bola_next=view["bola_next"],
        pool=view["pool"] if view["pool"] is not None else view["blue_ap"] + view["red_ap"],
        spent=tuple(view["spent"]) if view["spent"] is not None else (0, 0),
        plan=plan,
        planned=view["planned"],
        resolved=view["resolved"],
        exclusive=view["exclusive"],
        arrested=view["arrested"],
        cloak=view["cloak"],
        protected=view["protected"],
        trapped=view["trapped"],
        free_hidden=view["free_hidden"],
        marker=view["theft_marker"],
        robbed=view["robbed"],
    )


def _own(data: dict[str, Any], view: dict[str, Any]) -> Thief:
    plan = tuple(Planned(p["card"], p["ap"], p["under"], p["status"]) for p in data["plan"])
    thief = _thief(view, tuple(data["hand"]), plan)
    return replace(thief, peeks=tuple(tuple(p) for p in data["peeks"]))


def _other(view: dict[str, Any], pool: list[str], basics: int) -> tuple[Thief, list[str], int]:
    """Another seat: its hand from the unseen cards, its face-down plan cards too: `basics` of
    them in all are his Move or Ambush (as many as the card count leaves), the rest general."""
    shown = {p["card"] for p in view["plan"]}
    free = [c for c in (MOVE, AMBUSH) if c not in shown]
    plan = []
    for p in view["plan"]:
        card, under = p["card"], p["under"]
        if card == "?":
            if free and basics > 0:
                card, basics = free.pop(0), basics - 1
            else:
                card, pool = pool[0], pool[1:]
        if under == "?":
            under, pool = pool[0], pool[1:]
        plan.append(Planned(card, p["ap"], under, p["status"]))
    size = view["hand_size"]
    hand, pool = tuple(sorted(pool[:size])), pool[size:]
    return _thief(view, hand, tuple(plan)), pool, basics


def _tiles(data: dict[str, Any], seat: int, rng: random.Random) -> tuple[tuple[str, str], ...]:
    """Face-down tiles: the peeked ones where the seat saw them, the others drawn from the 51
    less the tiles known to be out (face up on the board or on a sheet)."""
    left = Counter({t.id: t.count for t in components().city_tiles})
    left.subtract(tile for _, tile in data["open_tiles"])
    for view in data["thieves"]:
        for key, tile in SHEET_TILES.items():
            left[tile] -= view["sheet"][key]
        left["trinket"] -= view["sheet"]["trinkets"]
    peeks = dict(tuple(p) for p in data["peeks"])
    left.subtract(peeks[s] for s in data["face_down_tiles"] if s in peeks)
    pool = sorted(+left)
    bag = [tile for tile in pool for _ in range(left[tile])]
    rng.shuffle(bag)
    found = []
    for space in data["face_down_tiles"]:
        found.append((space, peeks[space] if space in peeks else bag.pop()))
    return tuple(found)


def _events(data: dict[str, Any], deck: Deck, size: int, rng: random.Random) -> tuple[str, ...]:
    """`size` events of `deck` not revealed yet (section 5: each is read out, then boxed)."""
    seen = set(data["events_seen"])
    events = [e.id for e in cards().deck(deck) if e.id not in seen]
    rng.shuffle(events)
    return tuple(events[:size])


def _districts(data: dict[str, Any], rng: random.Random) -> tuple[str, ...]:
    left = [d for d in ("N", "E", "S", "W") if d != data["escape_district"]]
    rng.shuffle(left)
    return tuple(left[: data["district_deck"]])
