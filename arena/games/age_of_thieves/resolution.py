"""Phase 4, one thief's turn in the order of section 7: which of his cards with this AP he takes
(D-3), resolved with which effect or declined (sections 9.1, 9.2; D-4 exclusive effects; D-5 the
dungeon), and the effect started."""

from __future__ import annotations

from functools import cache

from arena.games.age_of_thieves.catalogue import CardKind
from arena.games.age_of_thieves.effects import start
from arena.games.age_of_thieves.engine import answer, ask, task
from arena.games.age_of_thieves.hands import draw
from arena.games.age_of_thieves.movement import movement
from arena.games.age_of_thieves.queries import cards, in_dungeon
from arena.games.age_of_thieves.state import (
    AMBUSH,
    MOVE,
    Action,
    Planned,
    State,
    Task,
    push,
    replace,
)

EXCLUSIVE = ("sprint", "cunning")


@task("turn")
def turn(state: State, job: Task) -> State:
    thief = state.thief(job.seat)
    if not thief.on_board or thief.arrested:
        return state
    mine = {p.card for p in thief.plan if p.status == "pending" and p.ap == job.n}
    jailed, alone = in_dungeon(thief), thief.resolved == 0
    return ask(state, "turn", job.seat, [a for c in mine for a in _choices(c, jailed, alone)], job)


@cache  # a card, and two flags: the same few answers again and again
def _choices(card: str, jailed: bool, alone: bool) -> tuple[Action, ...]:
    """`alone`: D-4, the lower effect only as the round's only card."""
    found = [Action("decline", card)]
    if jailed and card != MOVE:  # D-5: out by Move first, or nothing
        return tuple(found)
    if card == MOVE:
        found += [Action("sneak", card)] + ([Action("sprint", card)] if alone else [])
    elif card == AMBUSH:
        found += [Action("clever", card)] + ([Action("cunning", card)] if alone else [])
    elif cards().card(card).kind is CardKind.SPECIAL:
        found += [Action("special", card), Action("general", card)]
    else:
        found.append(Action("resolve", card))
    return tuple(found)


@answer("turn")
def _turn(state: State, job: Task, action: Action) -> State:
    seat, thief = job.seat, state.thief(job.seat)
    index = next(
        i
        for i, p in enumerate(thief.plan)
        if p.card == action.arg and p.status == "pending" and p.ap == job.n
    )
    card = thief.plan[index]
    declined = action.kind == "decline"
    plan = list(thief.plan)
    plan[index] = replace(card, status="declined" if declined else "resolved")
    if action.kind in EXCLUSIVE:  # D-4: every other card of his is declined
        plan = [p if p.status != "pending" else replace(p, status="declined") for p in plan]
    thieves = list(state.thieves)
    thieves[seat] = replace(
        thief,
        plan=tuple(plan),
        resolved=thief.resolved + (0 if declined else 1),
        exclusive=thief.exclusive or action.kind in EXCLUSIVE,
    )
    state = replace(state, actions_done=state.actions_done + 1, thieves=tuple(thieves))
    return state if declined else _effect(state, seat, action, card)


def _effect(state: State, seat: int, action: Action, card: Planned) -> State:
    thief = state.thief(seat)
    if action.kind == "sneak":
        return movement(state, seat, 4)
    if action.kind == "sprint":
        return movement(state, seat, 6, "s")
    if action.kind == "clever":  # draw 1, then discard 1 of his choice
        return push(draw(state, seat), Task("discard", seat))
    if action.kind == "cunning":
        return state.with_thief(
            seat, draws_next=thief.draws_next + 2, purple_next=thief.purple_next + 2
        )
    if action.kind == "general":
        return start(state, seat, card.under)
    return start(state, seat, card.card)
