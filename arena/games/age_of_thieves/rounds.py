"""A game from its setup to its end: the five phases of a round (spec section 5), the alarm
(section 18), the events (22.3), the clean-up and the end of the game (section 19, D-12, D-16)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from arena.games.age_of_thieves.board import District, Feature, NodeKind
from arena.games.age_of_thieves.components import components
from arena.games.age_of_thieves.engine import answer, ask, run, task
from arena.games.age_of_thieves.guards import move_towards, placing
from arena.games.age_of_thieves.hadria import CURRENT_BOARD, hadria
from arena.games.age_of_thieves.hands import draw
from arena.games.age_of_thieves.initiative import Status as Initiative
from arena.games.age_of_thieves.initiative import resolution_steps
from arena.games.age_of_thieves.queries import (
    arrestable,
    attention,
    board,
    cards,
    empty_spaces,
    free,
    general_cards,
    in_district,
    in_dungeon,
)
from arena.games.age_of_thieves.setup import setup
from arena.games.age_of_thieves.state import (
    TOTAL_CAPTAINS,
    TOTAL_GREEN,
    TOTAL_GUARDS,
    TOTAL_YELLOW,
    Action,
    State,
    Status,
    Task,
    Thief,
    actions,
    push,
    queue,
    replace,
)
from arena.games.api import ConfigError

YELLOW_DISTANCE = 6  # a new yellow jewel lies at least this far from every thief (5b)


def create(
    players: int,
    seed: int,
    thieves: Sequence[str] | None = None,
    first_game: bool = False,
    orders_guards: bool = False,
    board_version: str = CURRENT_BOARD,
) -> State:
    """Section 4 through `setup` on board `board_version`; each seat from the first player
    clockwise picks its start field (4.6, D-15), then the first round runs up to its first
    decision. The board versions differ only in where the starting guards stand (a test checks
    it), so play reads the shared graph of `board()` and only the setup reads the version."""
    if type(players) is not int or not 2 <= players <= 4:
        raise ConfigError(f"Age of Thieves is for 2 to 4 players, not {players!r}")
    start = setup(
        hadria(version=board_version),
        cards(),
        components(),
        players,
        seed,
        thieves,
        first_game=first_game,
    )
    general = general_cards()
    sheets = tuple(
        Thief(name, space, tuple(sorted(c for c in hand if c in general)))
        for name, space, hand in zip(start.thieves, start.starts, start.hands, strict=True)
    )
    kinds = {"emperors_jewel": "ej", "green_jewel": "green"}
    jewels = tuple(sorted((space, kinds[piece]) for space, piece in start.jewels))
    state = State(
        players=players,
        thieves=sheets,
        first=start.first_player,
        round=1,
        status=Status.CALM,
        guards=tuple(sorted(start.guards)),
        captains=(),
        guard_supply=TOTAL_GUARDS - len(start.guards),
        captain_supply=TOTAL_CAPTAINS,
        jewels=jewels,
        yellow_supply=TOTAL_YELLOW,
        green_supply=TOTAL_GREEN - sum(1 for _, kind in jewels if kind == "green"),
        tiles=tuple(sorted(start.city_tiles)),
        open_tiles=(),
        deck=start.action_deck,
        discard=(),
        calm=start.calm_events,
        alarm=start.alarm_events,
        districts=tuple(d.value for d in start.district_deck),
        streams=start.streams,
        specials=not first_game,
        orders_guards=orders_guards,
        board=board_version,
    )
    order = state.clockwise()
    return run(replace(state, tasks=(*(Task("start", s) for s in order), Task("round"))))


@task("start")
def start_field(state: State, job: Task) -> State:
    """4.6: a free start field each, from the first player clockwise; the seeded field the
    setup drew is where he stands until he picks (one per field)."""
    earlier = state.clockwise()[: state.clockwise().index(job.seat)]
    taken = {state.thief(s).space for s in earlier}
    fields = [f for f in board().with_feature(Feature.START) if f not in taken]
    return ask(state, "start", job.seat, actions("space", fields), job)


@answer("start")
def _start(state: State, job: Task, action: Action) -> State:
    return state.with_thief(job.seat, space=action.arg)


@task("round")
def new_round(state: State, _: Task) -> State:
    """Phases 1 to 4 queued in order; each seat's steps from the first player clockwise."""
    return queue(state, *_round_steps(state.seats_on_board()))


@cache  # the same few seat orders every round
def _round_steps(seats: tuple[int, ...]) -> tuple[Task, ...]:
    return (
        Task("event"),
        Task("jewel"),
        Task("die"),
        *(Task("draw", s, n=1) for s in seats),
        *(Task("plan_start", s) for s in seats),
        *(Task("plan", s) for s in seats),
        Task("reveal"),
    )


@task("event")
def event_phase(state: State, _: Task) -> State:
    """Phase 1: the alarm first if the EJ was taken last round, then the top event."""
    if state.alarm_pending:
        return push(_raise_alarm(state), *_alarm_figures(state), Task("event"))
    deck = state.alarm if state.status is Status.ALARM else state.calm
    if not deck:  # cannot happen after a clean-up's end check; kept as the rule of section 19
        return finish(state, "the event deck is used up")
    event, rest = deck[0], deck[1:]
    seen = (*state.events_seen, event)
    if state.status is Status.ALARM:
        state = replace(state, event=event, events_seen=seen, alarm=rest)
    else:
        state = replace(state, event=event, events_seen=seen, calm=rest)
    return _immediate(state, event)


def _raise_alarm(state: State) -> State:
    """Section 18: alarm side up, 2 captains and 2 guards on the drawn district's alarm spaces
    (no arrest: they stand there as the round begins, D-8), the alarm deck in play."""
    return replace(state, status=Status.ALARM, alarm_pending=False)


def _alarm_figures(state: State) -> list[Task]:
    home = District(state.escape)
    captains = board().with_feature(Feature.CAPTAIN_ALARM, home)
    guards = board().with_feature(Feature.GUARD_ALARM, home)
    return [placing(s, captain=True, arrests=False) for s in captains] + [
        placing(s, captain=False, arrests=False) for s in guards
    ]


def _immediate(state: State, event: str) -> State:
    """The "Sofort" events of 22.3."""
    seats = state.seats_on_board()
    first = state.referee
    if event == "C05":
        compass = cards_event(event)
        spaces = [
            s
            for s in board().nodes
            if s.guardhouse and s.district.value == compass and free(state, s.id)
        ]
        return ask(state, "reinforce", first, [Action("space", s.id) for s in spaces], Task(""))
    if event in ("C07", "A11"):
        takers = [s for s in seats if event == "C07" or not state.thief(s).ej]
        return push(state, *(Task("draw", s, n=1) for s in takers))
    if event == "C08":
        return push(state, *(Task("discard", s) for s in seats))
    if event == "A02":
        posts = board().with_feature(Feature.GUARD_ALARM, District(state.escape))
        free_ = [s for s in posts if free(state, s)]
        return push(state, *(placing(s, captain=False, arrests=False) for s in free_))
    if event == "A05":
        for seat in seats:
            if state.thief(seat).ej and not state.thief(seat).robbed:
                state = state.with_thief(seat, marker=True)
        return state
    if event == "A06":
        exits = board().of_kind(NodeKind.EXIT, District(state.escape))
        return ask(state, "close", first, [Action("close", x) for x in exits], Task(""))
    if event == "A10":
        return _riot(state)
    return state


def cards_event(event: str) -> str:
    compass = next(e.compass for e in cards().events if e.id == event)
    return "" if compass is None else compass.value


@answer("reinforce")
def _reinforce(state: State, _: Task, action: Action) -> State:
    return push(state, placing(action.arg, captain=False, arrests=True))


@answer("close")
def _close(state: State, _: Task, action: Action) -> State:
    return replace(state, closed=action.arg)


def _riot(state: State) -> State:
    """A10: each guard with no thief within its attention moves up to 2 spaces towards the
    escape district's nearer exit."""
    exits = board().of_kind(NodeKind.EXIT, District(state.escape))
    sight = attention(state, captain=False)
    for space in state.guards:
        seen = any(
            arrestable(state, s) and board().distance(space, t.space) <= sight
            for s, t in enumerate(state.thieves)
        )
        if not seen and space in state.guards:
            target = min(exits, key=lambda x: (board().distance(space, x), x))
            state = move_towards(state, space, target, 2, captain=False)
    return state


@task("jewel")
def yellow_jewel(state: State, job: Task) -> State:
    """5(b): calm rounds only, the first player picks an empty space of the compass district at
    least 6 from every thief (C11: two jewels); none if no space or no jewel is left."""
    wanted = 2 if state.event == "C11" else 1
    if state.status is Status.ALARM or job.n >= wanted or not state.yellow_supply:
        return state
    compass = cards_event(state.event)
    city = board()
    spaces = empty_spaces(state, in_district(compass))
    for thief in state.thieves:
        if thief.on_board:
            far = city.beyond(thief.space, YELLOW_DISTANCE)
            spaces = [space for space in spaces if space in far]
    return ask(state, "jewel", state.referee, actions("jewel", spaces), job)


@answer("jewel")
def _jewel(state: State, job: Task, action: Action) -> State:
    jewels = tuple(sorted((*state.jewels, (action.arg, "yellow"))))
    state = replace(state, jewels=jewels, yellow_supply=state.yellow_supply - 1)
    return replace(state, tasks=(replace(job, n=job.n + 1), *state.tasks))


@task("die")
def guard_die(state: State, job: Task) -> State:
    """5(c): 1 d8 calm, the higher of 2 d8 under alarm; C09, C10 and A09 change it."""
    dice = 2 if state.status is Status.ALARM or state.event in ("C09", "C10") else 1
    if state.event == "A09":
        dice = 1
    rolls = []
    streams = state.streams
    for _ in range(dice):
        value, streams = streams.roll("dice.guard")
        rolls.append(value)
    value = min(rolls) if state.event == "C10" else max(rolls)
    return replace(state, die=value, streams=streams)


@task("plan_start")
def plan_start(state: State, job: Task) -> State:
    """D-14: temporary AP and draws first, the hand limit, then the Bola's set-aside."""
    thief = state.thief(job.seat)
    pool = thief.blue + thief.purple_next + thief.red
    if thief.bola_next:
        total = pool + thief.informers + 2 * thief.agents
        pool -= min(4, max(0, total - 2), pool)
    state = state.with_thief(
        job.seat,
        pool=pool,
        purple_next=0,
        draws_next=0,
        plan=(),
        planned=False,
        spent=(0, 0),
        bola_next=False,
    )
    return draw(state, job.seat, thief.draws_next) if thief.draws_next else state


@task("reveal")
def reveal(state: State, _: Task) -> State:
    """Every plan is revealed together; the order of section 7 is queued, then the clean-up."""
    plans = [[p.ap for p in t.plan] for t in state.thieves]
    status = Initiative.ALARM if state.status is Status.ALARM else Initiative.CALM
    order = resolution_steps(plans, state.first, state.die, status)
    turns = [GUARDS if seat is None else Task("turn", seat, "", ap) for seat, ap in order]
    return queue(state, *turns, CLEANUP)


GUARDS, CLEANUP = Task("guards"), Task("cleanup")


@task("cleanup")
def cleanup(state: State, _: Task) -> State:
    """Phase 5 (a)-(e), then the end checks of section 19 (D-12) or the next round."""
    discard = list(state.discard)
    general = general_cards()
    thieves = []
    for thief in state.thieves:
        for p in thief.plan:
            discard += [c for c in (p.card, p.under) if c in general]
        jailed = in_dungeon(thief)
        blue = (4 if thief.name == "jasmine" else 2) if jailed else 10
        red = state.players - 1 if thief.ej else 0
        thief = replace(
            thief,
            plan=(),
            planned=False,
            pool=0,
            resolved=0,
            exclusive=False,
            arrested=False,
            cloak=False,
            protected=False,
            trapped=False,
            free_hidden=False,
            marker=False,
            robbed=0,
            blue=blue,
            red=red,
        )
        thieves.append(thief)
    state = replace(
        state,
        thieves=tuple(thieves),
        discard=tuple(discard),
        fire=(),
        smoke=(),
        closed="",
        bribed=(),
        trapped=(),
        event="",
    )
    if state.status is Status.CALM and not state.calm and not state.alarm_pending:
        return finish(state, "the calm deck is used up and nobody took the Emperor's Jewel")
    if state.status is Status.ALARM and not state.alarm:
        return finish(state, "the alarm deck is used up")
    after = ((state.first + i) % state.players for i in range(1, state.players + 1))
    first = next(s for s in after if state.thief(s).on_board)
    return queue(replace(state, first=first, round=state.round + 1), Task("round"))


def finish(state: State, reason: str) -> State:
    """Section 19: among the thieves who left the city, most VP, then more green jewels, then
    who left earlier; nobody left: everybody loses."""
    gone = [s for s, t in enumerate(state.thieves) if not t.on_board]
    if not gone:
        return replace(state, over=True, winner=-1, reason=reason + ": nobody escaped")

    def key(seat: int) -> tuple[int, int, tuple[int, int]]:
        thief = state.thief(seat)
        return (-thief.vp, -thief.green, thief.escaped)

    return replace(state, over=True, winner=min(gone, key=key), reason=reason)
