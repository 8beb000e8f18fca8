"""Questions the rules ask of a state: who is hidden, who can be arrested, which spaces are free,
what is in range (spec sections 11, 12, 15, 16 and the metric of 22.1)."""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from arena.games.age_of_thieves.board import Board, District, Feature, NodeKind
from arena.games.age_of_thieves.catalogue import CardKind, Catalogue, catalogue
from arena.games.age_of_thieves.hadria import hadria
from arena.games.age_of_thieves.state import State, Status, Thief


@cache
def board() -> Board:
    return hadria()


@cache
def cards() -> Catalogue:
    return catalogue()


@cache
def general_cards() -> frozenset[str]:
    return frozenset(c.id for c in cards().of_kind(CardKind.GENERAL))


@cache
def special_cards() -> frozenset[str]:
    return frozenset(c.id for c in cards().of_kind(CardKind.SPECIAL))


def district(space: str) -> District:
    return board().node(space).district


@cache
def in_district(code: str) -> tuple[str, ...]:
    """Every node of the district `code` ("N", "P"...), by id; none for another text."""
    return tuple(n.id for n in board().nodes if n.district.value == code)


@cache
def dungeons() -> frozenset[str]:
    return frozenset(board().of_kind(NodeKind.DUNGEON))


def in_dungeon(thief: Thief) -> bool:
    return thief.space in dungeons()


@cache
def _palace() -> frozenset[str]:
    return frozenset(in_district(District.PALACE.value))


def hidden(state: State, seat: int) -> bool:
    """Section 12: hideouts, Dark Alleys, smoke, Cloak, a dungeon escape this round, C02, and
    Nikolai's palace (22.4); Sniffer Dogs (A07) switch off hideouts and Dark Alleys."""
    thief = state.thieves[seat]
    space = thief.space
    if not space:
        return False
    if state.event == "C02" or thief.cloak or thief.free_hidden or space in state.smoke:
        return True
    if thief.name == "nikolai" and space in _palace():
        return True
    if state.event == "A07":
        return False
    return space in _printed(Feature.HIDEOUT) or (space, "dark_alley") in state.open_tiles


def arrestable(state: State, seat: int) -> bool:
    """A guard takes him: on the board outside the dungeon, not hidden, not protected."""
    thief = state.thieves[seat]
    return (
        bool(thief.space)
        and thief.space not in dungeons()
        and not thief.arrested
        and not thief.protected
        and not hidden(state, seat)
    )


def figures_at(state: State, space: str) -> int:
    return state.guards.count(space) + state.captains.count(space)


def thieves_at(state: State, space: str) -> tuple[int, ...]:
    return tuple(s for s, t in enumerate(state.thieves) if t.space == space)


def free(state: State, space: str) -> bool:
    """A "free space" (section 9): no figure on it, not a dungeon or exit; fire blocks too."""
    node = board().node(space)
    return (
        node.kind is NodeKind.SPACE
        and space not in state.fire
        and not figures_at(state, space)
        and not thieves_at(state, space)
    )


def empty_spaces(state: State, spaces: Iterable[str]) -> list[str]:
    """The "empty spaces" among `spaces`, in their order: free, and no jewel, tile or effect
    tile on them (what lies on the board is gathered once for all of them)."""
    taken = {*state.fire, *state.smoke, *state.guards, *state.captains}
    taken.update([thief.space for thief in state.thieves])
    for placed in (state.jewels, state.tiles, state.open_tiles):
        taken.update([space for space, _ in placed])
    plain = _plain_spaces()
    return [s for s in spaces if s not in taken and s in plain]


@cache
def _plain_spaces() -> frozenset[str]:
    """The nodes of kind SPACE (not a dungeon or an exit)."""
    return frozenset(board().of_kind(NodeKind.SPACE))


def reach(state: State, card: str) -> int:
    """A card's printed range, +1 under Guild Support (C01)."""
    printed = cards().card(card).range
    return (printed or 0) + (1 if state.event == "C01" else 0)


def within(state: State, seat: int, space: str, distance: int) -> bool:
    """Range counts steps along paths, fire and figures ignored (22.1)."""
    here = state.thief(seat).space
    return bool(here) and 0 <= board().distance(here, space) <= distance


def targets(state: State, seat: int, distance: int) -> tuple[int, ...]:
    """Other thieves a card of `seat` can choose within `distance`: not in the dungeon
    (section 17) and still in the city."""
    return tuple(
        s
        for s, thief in enumerate(state.thieves)
        if s != seat
        and thief.on_board
        and not in_dungeon(thief)
        and within(state, seat, thief.space, distance)
    )


def attention(state: State, captain: bool) -> int:
    """Section 16 with the events C03, C04, A04."""
    value = 5 if captain else 4
    if state.event == "C03":
        value -= 1
    if state.event == "C04" and not captain:
        value += 1
    if state.event == "A04" and not captain:
        value -= 1
    return value


def movement(state: State, captain: bool) -> int:
    """Section 16 with the events C06 and A01."""
    if captain:
        return 4 + (1 if state.event == "A01" else 0)
    return 3 - (1 if state.event == "C06" else 0)


def open_exits(state: State) -> tuple[str, ...]:
    """The drawn district's exits, less one closed by A06 (section 18)."""
    if not state.escape:
        return ()
    exits = board().of_kind(NodeKind.EXIT, District(state.escape))
    return tuple(x for x in exits if x != state.closed)


def sewer_entrances(state: State) -> frozenset[str]:
    spaces = _printed(Feature.SEWER_ENTRANCE)
    manholes = [s for s, tile in state.open_tiles if tile == "manhole"]
    if manholes:
        spaces = spaces.union(manholes)
    if state.event == "A08":  # Secret Passage: exits count as entrances
        spaces |= sewer_exits(state)
    return spaces


def sewer_exits(state: State) -> frozenset[str]:
    ladders = [s for s, tile in state.open_tiles if tile == "ladder"]
    spaces = _printed(Feature.SEWER_EXIT)
    return spaces.union(ladders) if ladders else spaces


@cache
def _printed(feature: Feature) -> frozenset[str]:
    """The spaces the board prints `feature` on."""
    return frozenset(board().with_feature(feature))


def alarm(state: State) -> bool:
    return state.status is Status.ALARM
