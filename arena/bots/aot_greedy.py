"""A rule-based Age of Thieves player (rules docs/rules/age-of-thieves.md): it plans Move with
all its AP (so it nearly always moves before the guards), grabs jewels it passes, heads for the
Emperor's Jewel, avoids ending a move where a guard would reach it and never steps onto a
figure that would arrest him, and once the alarm is up runs for an exit (`aot_ways`: the only
way to win, section 19), leaving jewels off the way when no round is left to spare for them.
The first player's decisions take the 22.6 defaults; the rest are random.

Cards (section 7: cards resolve in descending AP, the guards at their d8 value, thieves winning
ties in a calm round and losing them in an alarm):
- Move gets every AP but those for extra cards, and at least 8 in a calm round, 9 in an alarm:
  enough to act before the guards. The extra cards take 1 AP each: the movement cards held in
  hand (Speed Potion G13, Sewer Map G17). They resolve after the guards have moved, so the
  thief walks twice a round and the guards only react once. Out of the dungeon he still
  escapes with Move first (D-5), then walks on.
- A shield goes first, with 8 AP (9 in an alarm) so that it works before the guards act, and
  Move after it with what is left: Cloak (G10, hidden), else Rope & Hook (G11, no arrest; its
  hop goes towards the goal). He plays one when he carries the Emperor's Jewel, when a guard or
  captain could reach him after a Sneak, or when figures stand on every way to the exits:
  hidden or protected he walks past them.
- Walled in without a shield, an opener takes its place: Smoke Grenade (G07) over the figure
  nearest an exit (hidden in the smoke he passes it), else Forged Orders (G02) or Distraction
  (G19) sending that figure as far from the exits as the card allows.
- With AP to spare, no movement card but some other card in hand, Ambush at 1 AP
  (Cleverness) swaps one for a fresh draw; every discard (Cleverness, the hand limit, an
  arrest) keeps the movement cards and the shields to the last.
- Sprint only when no extra movement card is planned: Sneak and a Speed Potion cover 9 spaces.
- Other general cards, and the specials, are left alone: aimed at guards or thieves they need a
  target chosen with care that these rules of thumb do not make.

`policy` reads a full state but only its public part and the seat's own hand and plan, so the
bot can run it on a state sampled from its observation, and the search on its rollouts.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from arena.bots.aot_ways import (
    OPENERS,
    PACE,
    aim,
    distance,
    goal,
    hidden_at,
    opens,
    reachable,
    rounds_left,
    slack,
    walled_in,
)
from arena.games.age_of_thieves.board import District, NodeKind
from arena.games.age_of_thieves.defaults import default_action
from arena.games.age_of_thieves.observation import AgeOfThievesObservation
from arena.games.age_of_thieves.planning import totals
from arena.games.age_of_thieves.queries import (
    attention,
    board,
    in_dungeon,
    movement,
    open_exits,
)
from arena.games.age_of_thieves.sampling import sample_state
from arena.games.age_of_thieves.state import AMBUSH, MOVE, Action, State, Status, Thief

# Ways are counted in Sneaks (moves of 4). An arrest sends the thief to a dungeon, costs him a
# round and a jewel, the Emperor's Jewel above all: weighed in moves too.
SNEAK = 4
LOST_ROUND = 1.0
JEWEL_RISK = 0.5
EJ_RISK = 5.0
CAUGHT = 0.5  # a guard in reach may go for a nearer thief, or be drawn elsewhere first
NOTICED = 0.1  # within a guard's attention but out of its reach: it closes in
LATER = 0.3  # guards have already acted this round: risk only matters next round
STALL = 1.0  # staying put wastes a move, and waiting makes no guard go away
DETOUR = 2  # a jewel this many steps off the way is worth the detour
TAKE_FIRST = ("ej", "green", "yellow", "trinket")
WALKS = ("G13", "G17")  # general cards that move the thief: played after his Move
CLOAK = "G10"  # hidden until the end of the round
ROPE = "G11"  # Rope & Hook: a short hop, and no arrest until the end of the round
SHIELDS = (CLOAK, ROPE)  # either lets him walk past the guards for a round, Cloak preferred
KEEP = (*WALKS, *SHIELDS, *OPENERS)  # discarded last, in this order of value


Starts = dict[int, tuple[int, int, str]]  # seat: (round, resolution index, start space)


def choose(
    obs: AgeOfThievesObservation,
    legal: Sequence[Action],
    rng: random.Random,
    starts: Starts | None = None,
) -> Action:
    """The greedy choice for the seat of `obs`, always an element of `legal`. `starts` keeps
    where the seat's current movement began, so a movement follows one plan to its end."""
    if len(legal) == 1:
        return legal[0]
    action = policy(sample_state(obs, rng), rng, starts)
    return action if action in legal else legal[rng.randrange(len(legal))]


def policy(state: State, rng: random.Random, starts: Starts | None = None) -> Action:
    prompt = state.prompt
    assert prompt is not None, "no decision is pending"
    default = default_action(state)
    if default is not None:
        return default
    seat, options = prompt.seat, prompt.options
    if prompt.name == "start":
        return _start(state, options)
    if prompt.name == "plan":
        return _plan(state, seat, options)
    if prompt.name == "turn":
        return _turn(state, seat, options)
    if prompt.name == "move":
        return _move(state, seat, options, prompt.task.n, _start_of_move(state, seat, starts))
    if prompt.name in ("discard", "limit", "lose_card"):
        return _discard(options)
    if prompt.name == "fx" and prompt.task.arg.startswith(ROPE):
        return _hop(state, seat, options)
    if prompt.name == "fx" and prompt.task.arg.partition("|")[0] in OPENERS:
        return aim(state, seat, options)
    return options[rng.randrange(len(options))]


def _start(state: State, options: Sequence[Action]) -> Action:
    target = goal(state, state.prompt.seat if state.prompt else 0)
    if not target:
        return options[0]
    return min(options, key=lambda a: (distance(a.arg, target), a.arg))


def _plan(state: State, seat: int, options: Sequence[Action]) -> Action:
    """Move first, with enough AP to beat the guards' d8; the rest on extra movement cards (or
    Cleverness to draw one), 1 AP each."""
    thief = state.thief(seat)
    aps = sorted(int(a.arg) for a in options if a.kind == "ap")
    if aps:
        return Action("ap", str(_ap(state, thief, aps)))
    shield = _shield(state, seat)
    if shield and Action("plan", shield) in options:
        return Action("plan", shield)
    if Action("plan", MOVE) in options:
        return Action("plan", MOVE)
    for card in _extras(thief, 0, swap=_swaps(state, seat)):
        if Action("plan", card) in options:
            return Action("plan", card)
    return Action("done") if Action("done") in options else options[0]


def _ap(state: State, thief: Thief, aps: list[int]) -> int:
    """Cloak before the guards with 1 AP left for Move; Move with all but the extras' AP (before
    the guards unless cloaked or in the dungeon); an extra card 1."""
    card = thief.plan[-1].card
    if card in SHIELDS or card in OPENERS:
        return max([n for n in aps if n <= min(_move_ap(state), aps[-1] - 1)] or aps[:1])
    if card != MOVE:
        return aps[0]
    cloaked = any(p.card in SHIELDS or p.card in OPENERS for p in thief.plan)
    floor = 1 if in_dungeon(thief) or cloaked else min(_move_ap(state), aps[-1])
    seat = state.prompt.seat if state.prompt else 0
    keep = max(floor, aps[-1] - len(_extras(thief, aps[-1], floor, _swaps(state, seat))))
    return max(n for n in aps if n <= keep)


def _shield(state: State, seat: int) -> str:
    """Cloak (else Rope & Hook) for the round, if the AP allow it before the guards with Move
    after, when he carries the Emperor's Jewel, a guard or captain could reach him after a
    Sneak, or figures stand on every way to the exits; "" if not."""
    thief = state.thief(seat)
    held = [card for card in SHIELDS if card in thief.hand]
    if in_dungeon(thief) or thief.plan or max(totals(thief)) <= _move_ap(state):
        return ""
    walled = walled_in(state, seat)
    if walled and not held:
        return next(
            (card for card in OPENERS if card in thief.hand and opens(state, seat, card)), ""
        )
    if not held:
        return ""
    if thief.ej or walled:
        return held[0]
    for figures, captain in ((state.guards, False), (state.captains, True)):
        far = movement(state, captain) + SNEAK
        if any(distance(figure, thief.space) <= far for figure in figures):
            return held[0]
    return ""


def _move_ap(state: State) -> int:
    """The least AP that resolves Move before the guards whatever their die shows."""
    return 9 if state.status is Status.ALARM else 8


def _swaps(state: State, seat: int) -> bool:
    """Walled in near an exit with neither shield nor opener at hand: Cleverness draws for one
    rather than walk on."""
    thief = state.thief(seat)
    if any(card in thief.hand for card in (*SHIELDS, *OPENERS)) or not walled_in(state, seat):
        return False
    return any(distance(thief.space, x) <= 2 * PACE for x in open_exits(state))


def _extras(thief: Thief, total: int, floor: int = 8, swap: bool = False) -> list[str]:
    """The cards to plan after Move, 1 AP each: the movement cards in hand, else (or when
    `swap`) Cleverness. With `total` the AP the thief can still spend (his Move's included), as
    many as fit beside a Move of at least `floor`; with 0 all of them."""
    walks = sorted(c for c in thief.hand if c in WALKS)
    cards = (
        ([AMBUSH] if thief.hand else []) if swap else (walks or ([AMBUSH] if thief.hand else []))
    )
    return cards[: max(total - floor, 0)] if total else cards


def _discard(options: Sequence[Action]) -> Action:
    """The least useful card: anything before the movement cards and Cloak."""
    return min(
        options, key=lambda a: (len(KEEP) - KEEP.index(a.arg) if a.arg in KEEP else 0, a.arg)
    )


def _turn(state: State, seat: int, options: Sequence[Action]) -> Action:
    """Sneak to pick things up; Sprint when only running for an exit is left and no extra
    movement card is planned; then the movement cards and Cleverness."""
    sprint, sneak = Action("sprint", MOVE), Action("sneak", MOVE)
    target = goal(state, seat)
    running = bool(target) and board().node(target).kind is NodeKind.EXIT
    here = state.thief(seat).space
    walks = any(p.card in WALKS and p.status == "pending" for p in state.thief(seat).plan)
    far = distance(here, target) > 4
    if running and sprint in options and far and not _loose(state) and not walks:
        return sprint
    if sneak in options:
        return sneak
    for action in options:
        useful = action.arg in KEEP or action.arg in OPENERS
        if (action.kind == "resolve" and useful) or action.kind == "clever":
            return action
    return next((a for a in options if a.kind == "decline"), options[0])


def _hop(state: State, seat: int, options: Sequence[Action]) -> Action:
    """Rope & Hook's hop: to the space nearest his goal."""
    target = goal(state, seat)
    if not target:
        return options[0]
    return min(options, key=lambda a: (distance(a.arg, target), a.arg))


def _loose(state: State) -> bool:
    """The thief's own jewel targets are worth collecting (no Sprint)."""
    return any(kind != "ej" for _, kind in state.jewels) and not open_exits(state)


def _start_of_move(state: State, seat: int, starts: Starts | None) -> str:
    """Where this movement began: the resolution index tells one movement from the next."""
    here = state.thief(seat).space
    if starts is None:
        return here
    known = starts.get(seat)
    if known is None or known[:2] != (state.round, state.actions_done):
        known = starts[seat] = (state.round, state.actions_done, here)
    return known[2]


def _move(state: State, seat: int, options: Sequence[Action], points: int, start: str) -> Action:
    """Towards the reachable end space of best score: near the target, out of the guards'
    reach, and not back where the movement began (waiting makes no guard go away)."""
    grab = _grab(options)
    if grab is not None:
        return grab
    target, scored = ends(state, seat, points, start)
    best_score, best = scored[0]
    sewers = [a for a in options if a.kind == "sewer"]
    if sewers:
        drop = min(sewers, key=lambda a: (_score(state, seat, target, a.arg), a.arg))
        if _score(state, seat, target, drop.arg) < best_score:
            return drop
    return towards(state, seat, options, points, best)


def ends(state: State, seat: int, points: int, start: str) -> tuple[str, list[tuple[float, str]]]:
    """The target and the spaces a movement of `points` can end on, best score first."""
    here = state.thief(seat).space
    reach = reachable(state, seat, here, points)
    target = _destination(state, seat, reach)
    before = distance(start, target) if target else 0
    return target, sorted(
        (_score(state, seat, target, s) + _stall(target, s, before), s) for s in reach
    )


def towards(state: State, seat: int, options: Sequence[Action], points: int, best: str) -> Action:
    """The next step of a shortest way to `best` (within `points` steps), or stop there."""
    grab = _grab(options)
    if grab is not None:
        return grab
    here = state.thief(seat).space
    reach = reachable(state, seat, here, points)
    if best == here or best not in reach:
        return Action("stop")
    steps = [a for a in options if a.kind == "step"]
    on_way = [a for a in steps if a.arg in reach and distance(a.arg, best) == reach[best] - 1]
    if on_way:
        target = goal(state, seat)
        return min(on_way, key=lambda a: (_score(state, seat, target, a.arg), a.arg))
    return Action("stop")


def _stall(target: str, space: str, before: int) -> float:
    """Ending no nearer the target than the movement began wastes the move."""
    return STALL if target and distance(space, target) >= before else 0.0


def _grab(options: Sequence[Action]) -> Action | None:
    """Jewels first (the Emperor's Jewel above all), then thefts; tiles are left alone: a
    face-down one may be a plain-clothes guard."""
    for kind in TAKE_FIRST:
        if Action("take", kind) in options:
            return Action("take", kind)
    steals = [a for a in options if a.kind == "steal"]
    if steals:
        return min(steals, key=lambda a: TAKE_FIRST.index(a.arg.partition(":")[2]))
    return None


def _destination(state: State, seat: int, reach: dict[str, int]) -> str:
    """The goal, or a loose jewel near the way to it."""
    target = goal(state, seat)
    here = state.thief(seat).space
    if state.thief(seat).ej:
        return target
    base = distance(here, target) if target else 999
    running = bool(open_exits(state)) and target in open_exits(state)
    loose = [s for s, kind in state.jewels if kind != "ej" and s in reach]
    for space in sorted(loose, key=lambda s: (reach[s], s)):
        way = reach[space] + distance(space, target) if target else 0
        if running and slack(state, here, way) < 2 * PACE:
            continue  # no two rounds to spare for it before the end
        if not target or way <= base + DETOUR:
            return space
    return target


def _score(state: State, seat: int, target: str, space: str) -> float:
    """Expected moves still to go after ending a move on `space`, arrests counted: moves, not
    steps, so that the last space before a sure grab is worth a risk."""
    far = _moves(distance(space, target) if target else 0)
    risk = _risk(state, seat, space)
    if not risk:
        return far
    jailed = _moves(_jail_distance(state, space, target)) + _stake(state.thief(seat))
    return (1 - risk) * far + risk * jailed


def _moves(steps: float) -> float:
    """Sneaks needed to cover `steps`, with the steps left over as a tie-break."""
    return math.ceil(steps / SNEAK) + 0.1 * steps


def _jail_distance(state: State, space: str, target: str) -> float:
    """From the dungeon an arrest there leads to (17.3), to the target."""
    if not target:
        return 0.0
    if state.escape:
        cells = board().of_kind(NodeKind.DUNGEON, District(state.escape))
    elif board().node(space).district is District.PALACE:
        cells = board().of_kind(NodeKind.DUNGEON)
    else:
        cells = board().of_kind(NodeKind.DUNGEON, board().node(space).district)
    return sum(distance(cell, target) for cell in cells) / len(cells)


def _risk(state: State, seat: int, space: str) -> float:
    """The chance of an arrest when ending a move on `space`, from the guards and captains."""
    node = board().node(space)
    if node.kind is NodeKind.EXIT or hidden_at(state, seat, space, node.features):
        return 0.0
    if state.status is Status.ALARM and not rounds_left(state):
        return 0.0  # the last round: on the board at its end he loses anyway
    caught, noticed = False, 0
    for figures, captain in ((state.guards, False), (state.captains, True)):
        reach, sight = movement(state, captain), attention(state, captain)
        for figure in figures:
            far = distance(figure, space)
            caught = caught or far <= reach
            noticed += far <= sight
    risk = CAUGHT if caught else NOTICED * min(noticed, 2)
    pending = any(t.name == "guards" for t in state.tasks)
    return risk if pending else risk * LATER


def _stake(thief: Thief) -> float:
    """What an arrest costs besides the way back from the dungeon, in moves."""
    if thief.ej:
        return EJ_RISK
    return LOST_ROUND + (JEWEL_RISK if thief.vp else 0.0)
