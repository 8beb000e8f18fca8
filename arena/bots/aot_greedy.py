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

import random
from collections.abc import Sequence

from arena.bots.aot_ends import SNEAK, grab, scorer
from arena.bots.aot_ends import ends as ends  # the search ranks its alternatives by it
from arena.bots.aot_ends import towards as towards  # and walks its macros by it
from arena.bots.aot_ways import (
    OPENERS,
    PACE,
    aim,
    distance,
    goal,
    opens,
    walled_in,
)
from arena.games.age_of_thieves.board import NodeKind
from arena.games.age_of_thieves.defaults import default_action
from arena.games.age_of_thieves.observation import AgeOfThievesObservation
from arena.games.age_of_thieves.planning import totals
from arena.games.age_of_thieves.queries import (
    board,
    in_dungeon,
    movement,
    open_exits,
)
from arena.games.age_of_thieves.sampling import sample_state
from arena.games.age_of_thieves.state import AMBUSH, MOVE, Action, State, Status, Thief

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
    taken = grab(options)
    if taken is not None:
        return taken
    target, scored = ends(state, seat, points, start)
    best_score, best = scored[0]
    sewers = [a for a in options if a.kind == "sewer"]
    if sewers:
        score = scorer(state, seat, target)
        drop = min(sewers, key=lambda a: (score(a.arg), a.arg))
        if score(drop.arg) < best_score:
            return drop
    return towards(state, seat, options, points, best)
