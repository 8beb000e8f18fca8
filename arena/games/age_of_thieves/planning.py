"""Phase 3, planning (spec section 8), as sequential hidden decisions: each seat in turn builds its
plan step by step (`plan` a card, `under` a general card on a special, `ap` on it, `done`), and no
observation shows another seat's plan before the reveal."""

from __future__ import annotations

from functools import cache

from arena.games.age_of_thieves.engine import answer, ask, prompt_for, task
from arena.games.age_of_thieves.queries import cards, general_cards, in_dungeon, special_cards
from arena.games.age_of_thieves.state import (
    AMBUSH,
    MOVE,
    Action,
    Planned,
    State,
    Task,
    Thief,
    actions,
    put_thief_asking,
    remove_one,
    replace,
)


@task("plan")
def plan(state: State, job: Task) -> State:
    thief = state.thief(job.seat)
    if not thief.on_board or thief.planned:
        return state
    return ask(state, "plan", job.seat, options(thief, state.specials), job)


def options(thief: Thief, specials: bool = True) -> list[Action]:
    """The next step of a plan: the general card to put on a special, the AP for the last card,
    or another card (or `done`)."""
    last = thief.plan[-1] if thief.plan else None
    if last is not None and not last.under and _special(last.card):
        return actions("under", thief.hand)
    jailed = in_dungeon(thief)
    cap = _dungeon_cap(thief) if jailed else NO_CAP
    if last is not None and last.ap == 0:
        return list(_ap_options(thief.pool, thief.informers, thief.agents, cap))
    found = [DONE]
    payable = totals(thief)
    if not payable or min(payable) > cap:  # no AP left for a card
        return found
    if jailed and not thief.plan:  # D-5: Move first, with the most AP
        return [*found, *actions("plan", [MOVE])]
    declared = {p.card for p in thief.plan}
    cards_ = [c for c in (MOVE, AMBUSH) if c not in declared]
    special = _special_of(thief.name)
    if special not in declared and thief.hand and specials:
        cards_.append(special)
    return found + actions("plan", [*cards_, *thief.hand])


DONE = Action("done")


@cache  # a handful of small numbers, asked at every planning step
def _ap_options(pool: int, informers: int, agents: int, cap: int) -> tuple[Action, ...]:
    listed = [str(n) for n in sorted(_totals(pool, informers, agents)) if n <= cap]
    return tuple(actions("ap", listed))


def _special(card: str) -> bool:
    return card in special_cards()


@cache
def _special_of(name: str) -> str:
    return next(t.special for t in cards().thieves if t.id == name)


def _dungeon_cap(thief: Thief) -> int:
    """D-5: in the dungeon no card may carry more AP than his Move."""
    if not in_dungeon(thief):
        return NO_CAP
    move = [p.ap for p in thief.plan if p.card == MOVE and p.ap]
    return move[0] if move else NO_CAP


NO_CAP = 1 << 30


def totals(thief: Thief) -> frozenset[int]:
    """Every AP total one card can take from markers, Informers (1) and Guild agents (2, whole)."""
    return _totals(thief.pool, thief.informers, thief.agents)


@cache  # a handful of small numbers, asked at every planning step
def _totals(pool: int, informers: int, agents: int) -> frozenset[int]:
    return frozenset(
        m + b + 2 * a
        for m in range(pool + 1)
        for b in range(informers + 1)
        for a in range(agents + 1)
        if m + b + 2 * a > 0
    )


def spend(thief: Thief, total: int) -> tuple[int, int, int]:
    """Markers, Informers and agents paying `total`: markers first (they come back each round),
    then agents, then Informers."""
    for m in range(min(total, thief.pool), -1, -1):
        rest = total - m
        a = min(thief.agents, rest // 2)
        b = rest - 2 * a
        if b <= thief.informers:
            return m, b, a
    raise ValueError(f"{total} AP cannot be paid")  # unreachable: `totals` lists payable ones


@answer("plan")
def _answer(state: State, job: Task, action: Action) -> State:
    seat, thief = job.seat, state.thief(job.seat)
    if action.kind == "done":
        return state.with_thief(seat, planned=True)
    if action.kind == "plan":
        hand = thief.hand
        if action.arg in general_cards():
            hand = remove_one(hand, action.arg)
        thief = replace(thief, hand=hand, plan=(*thief.plan, Planned(action.arg)))
    elif action.kind == "under":
        last = replace(thief.plan[-1], under=action.arg)
        hand = remove_one(thief.hand, action.arg)
        thief = replace(thief, hand=hand, plan=(*thief.plan[:-1], last))
    else:
        total = int(action.arg)
        m, b, a = spend(thief, total)
        last = replace(thief.plan[-1], ap=total)
        thief = replace(
            thief,
            pool=thief.pool - m,
            informers=thief.informers - b,
            agents=thief.agents - a,
            spent=(thief.spent[0] + b, thief.spent[1] + a),
            plan=(*thief.plan[:-1], last),
        )
    # The seat's next step is asked at once, as the task `plan` would ask it were `job` queued
    # again and run next (one copy of the state instead of three).
    prompt = prompt_for("plan", seat, options(thief, state.specials), job)
    return put_thief_asking(state, seat, thief, prompt)
