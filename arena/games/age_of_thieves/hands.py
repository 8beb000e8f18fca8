"""Action cards in hand: drawing with the reshuffle of the discard pile, the hand limit of 5
general cards (section 5, phase 2; section 20), and the discards a seat chooses."""

from __future__ import annotations

from arena.games.age_of_thieves.engine import answer, ask, task
from arena.games.age_of_thieves.state import (
    HAND_LIMIT,
    Action,
    State,
    Task,
    actions,
    add_sorted,
    push,
    remove_one,
    replace,
)


def draw(state: State, seat: int, count: int = 1) -> State:
    """`seat` draws `count` general cards, then the hand limit is checked (a queued step).
    D-32: the draw that takes the deck's last card shuffles the discard pile into a new deck
    at once; a draw that finds the deck empty (the pile was empty then) first shuffles in
    what was discarded since, and gets no card if nothing was."""
    return push(_drawn(state, seat, count), Task("limit", seat))


def _drawn(state: State, seat: int, count: int) -> State:
    for _ in range(count):
        if not state.deck:
            state = _reshuffle(state)
            if not state.deck:
                break
        card, deck = state.deck[0], state.deck[1:]
        thieves = list(state.thieves)
        thieves[seat] = replace(thieves[seat], hand=add_sorted(thieves[seat].hand, card))
        state = replace(state, deck=deck, thieves=tuple(thieves))
        if not state.deck:
            state = _reshuffle(state)
    return state


def _reshuffle(state: State) -> State:
    """The discard pile shuffled into the (empty) action deck (deck.action); later discards
    start a new pile."""
    if not state.discard:
        return state
    deck, streams = state.streams.shuffle("deck.action", state.discard)
    return replace(state, deck=deck, discard=(), streams=streams)


def discard_card(state: State, seat: int, card: str) -> State:
    hand = remove_one(state.thief(seat).hand, card)
    return replace(state, discard=(*state.discard, card)).with_thief(seat, hand=hand)


@task("limit")
def hand_limit(state: State, job: Task) -> State:
    """Excess general cards are discarded at once, face up: the owner picks them one by one."""
    if len(state.thief(job.seat).hand) <= HAND_LIMIT:
        return state
    return ask(state, "limit", job.seat, _discards(state, job.seat), job)


@answer("limit")
def _limit(state: State, job: Task, action: Action) -> State:
    return push(discard_card(state, job.seat, action.arg), job)


@task("discard")
def discard_one(state: State, job: Task) -> State:
    """Discard 1 general card of his choice, if he has any (Cleverness, Alert Citizens, C08)."""
    return ask(state, "discard", job.seat, _discards(state, job.seat), job)


@answer("discard")
def _discard(state: State, job: Task, action: Action) -> State:
    return discard_card(state, job.seat, action.arg)


@task("lose_card")
def lose_card(state: State, job: Task) -> State:
    """An arrested thief discards 1 general card (section 17, step 2)."""
    return discard_one(state, job)


def _discards(state: State, seat: int) -> list[Action]:
    return actions("discard", state.thief(seat).hand)


@task("draw")
def draw_task(state: State, job: Task) -> State:
    """A draw as a step of the round: the limit step would run next, so a hand within the
    limit needs none (nothing can be decided or seen in between)."""
    state = _drawn(state, job.seat, max(job.n, 1))
    if len(state.thief(job.seat).hand) <= HAND_LIMIT:
        return state
    return push(state, Task("limit", job.seat))
