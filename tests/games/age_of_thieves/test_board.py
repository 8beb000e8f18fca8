"""The reference boards Hadria-R1 and Hadria-R2 reproduce every measured property of spec section
22.1, one test per property (for Hadria-R2 re-measured where its starting guards change them),
and their feature totals; the builder is deterministic and 4-fold symmetric; the second board
differs from the first only in where the sword guardhouses stand."""

from __future__ import annotations

from collections import Counter

import pytest

from arena.games.age_of_thieves import (
    OUTER,
    Board,
    DataError,
    District,
    Feature,
    NodeKind,
    clockwise,
    hadria,
)

ATTENTION = 4  # a guard's attention, calm or alarm (spec section 16)


@pytest.fixture(scope="module", params=["hadria-r1", "hadria-r2"])
def board(request: pytest.FixtureRequest) -> Board:
    version: str = request.param
    return hadria(version=version)


def r2(board: Board) -> bool:
    return board.name == "Hadria-R2"


def starts(board: Board) -> tuple[str, ...]:
    return board.with_feature(Feature.START)


def district(board: Board, id: str) -> District:
    return board.node(id).district


def test_nodes_149_of_which_137_spaces_4_dungeons_8_exits(board: Board) -> None:
    assert len(board.nodes) == 149
    kinds = Counter(node.kind for node in board.nodes)
    assert kinds == {NodeKind.SPACE: 137, NodeKind.DUNGEON: 4, NodeKind.EXIT: 8}
    assert len(board.of_kind(NodeKind.SPACE, District.PALACE)) == 17
    assert all(len(board.of_kind(NodeKind.SPACE, d)) == 30 for d in OUTER)


def test_edges_204_of_which_28_palace_internal_and_16_cross_district(board: Board) -> None:
    assert len(board.edges) == 204
    sides = [(district(board, a), district(board, b)) for a, b in board.edges]
    assert sum(a is b is District.PALACE for a, b in sides) == 28
    cross = [(a, b) for a, b in sides if a is not b]
    assert len(cross) == 16
    assert sum(District.PALACE in pair for pair in cross) == 4  # the palace gates


def test_degree_distribution(board: Board) -> None:
    degrees = Counter(len(board.neighbours(node.id)) for node in board.nodes)
    assert degrees == {1: 12, 2: 40, 3: 72, 4: 25}


def test_diameter_over_the_137_spaces_is_15(board: Board) -> None:
    spaces = board.spaces
    assert max(board.distance(a, b) for a in spaces for b in spaces) == 15


def test_start_to_treasury_is_13(board: Board) -> None:
    assert {board.distance(start, "T") for start in starts(board)} == {13}


def test_treasury_to_any_exit_is_14(board: Board) -> None:
    assert {board.distance("T", exit) for exit in board.of_kind(NodeKind.EXIT)} == {14}


def test_start_to_own_exits_is_3(board: Board) -> None:
    for start in starts(board):
        own = board.of_kind(NodeKind.EXIT, district(board, start))
        assert [board.distance(start, exit) for exit in own] == [3, 3]


def test_start_to_neighbour_districts_nearer_exit_is_4(board: Board) -> None:
    for start in starts(board):
        here = district(board, start)
        anticlockwise = OUTER[OUTER.index(here) - 1]
        for neighbour in (clockwise(here), anticlockwise):
            exits = board.of_kind(NodeKind.EXIT, neighbour)
            assert min(board.distance(start, exit) for exit in exits) == 4


def test_start_to_nearest_sword_guard_is_5_so_no_thief_is_detectable_at_setup(
    board: Board,
) -> None:
    guards = board.with_feature(Feature.SWORD_GUARDHOUSE)
    for start in starts(board):
        nearest = min(board.distance(start, guard) for guard in guards)
        assert nearest == 5 and nearest > ATTENTION


def test_start_to_own_sewer_entrance_is_4(board: Board) -> None:
    for start in starts(board):
        own = board.with_feature(Feature.SEWER_ENTRANCE, district(board, start))
        assert [board.distance(start, entrance) for entrance in own] == [4]


def test_sewer_exit_to_treasury_is_7(board: Board) -> None:
    exits = board.with_feature(Feature.SEWER_EXIT)
    assert len(exits) == 4 and {board.distance(exit, "T") for exit in exits} == {7}


def test_imperial_guardhouse_to_treasury_is_5(board: Board) -> None:
    imperial = board.with_feature(Feature.IMPERIAL_GUARDHOUSE)
    assert {board.distance(space, "T") for space in imperial} == {5}


def test_green_space_to_treasury_is_8(board: Board) -> None:
    greens = board.with_feature(Feature.GREEN_JEWEL)
    assert {board.distance(space, "T") for space in greens} == {8}


def test_green_space_to_start_is_5(board: Board) -> None:
    for green in board.with_feature(Feature.GREEN_JEWEL):
        (own,) = board.with_feature(Feature.START, district(board, green))
        assert board.distance(green, own) == 5
        assert min(board.distance(green, start) for start in starts(board)) == 5


def test_guard_coverage_at_attention_4_is_117_of_137_spaces_112_on_r2(board: Board) -> None:
    guards = board.with_feature(Feature.SWORD_GUARDHOUSE)
    covered = [s for s in board.spaces if any(board.distance(s, g) <= ATTENTION for g in guards)]
    assert (len(covered), len(board.spaces)) == (112 if r2(board) else 117, 137)


def test_treasury_is_within_4_of_the_four_palace_gate_guards_on_r1_only(board: Board) -> None:
    """Hadria-R1: T is within 4 of the guards just outside the palace gates. Hadria-R2 moved
    them to the guardhouse (3,4): the nearest starting guard is 6 from T, out of its attention."""
    guards = board.with_feature(Feature.SWORD_GUARDHOUSE)
    near = [g for g in guards if board.distance("T", g) <= ATTENTION]
    if r2(board):
        assert near == [] and min(board.distance("T", g) for g in guards) == 6
        assert {g[1:] for g in guards} == {"34", "50", "54"}
        return
    assert len(near) == 4
    for guard in near:  # each is the sword guardhouse just outside a palace gate
        assert any(board.node(n).id.startswith("PG") for n in board.neighbours(guard))


def test_r2_differs_from_r1_only_in_where_the_sword_guardhouses_stand() -> None:
    """Play reads one board for every version (queries.board): only the setup reads the
    starting guards, so the versions must share the graph and every other feature."""
    one, two = hadria(version="hadria-r1"), hadria(version="hadria-r2")
    assert one.edges == two.edges and [n.id for n in one.nodes] == [n.id for n in two.nodes]
    changed = [a.id for a, b in zip(one.nodes, two.nodes, strict=True) if a != b]
    assert sorted(changed) == sorted(f"{d}{k}" for d in "NESW" for k in ("32", "34"))
    for id in changed:
        assert one.node(id).guardhouse and two.node(id).guardhouse


def test_yellow_jewel_feasibility_12_spaces_per_district_6_away_from_every_thief(
    board: Board,
) -> None:
    """With 4 thieves on the start fields each district has 12 spaces at least 6 from every
    thief, as section 22.1 measures. At setup 4 of them hold material (city tiles under guards,
    on guardhouses; the green jewel), so 8 a district are also empty: placement stays possible.
    """
    for d in OUTER:
        far = [s for s in board.of_kind(NodeKind.SPACE, d) if _far(board, s)]
        assert len(far) == 12
        empty = [s for s in far if not board.node(s).guardhouse]
        empty = [s for s in empty if Feature.GREEN_JEWEL not in board.node(s).features]
        assert len(empty) == 8


def _far(board: Board, space: str) -> bool:
    return all(board.distance(space, start) >= 6 for start in starts(board))


def test_feature_totals(board: Board) -> None:
    def count(feature: Feature, district: District | None = None) -> int:
        return len(board.with_feature(feature, district))

    assert count(Feature.SWORD_GUARDHOUSE) == 12 and count(Feature.IMPERIAL_GUARDHOUSE) == 4
    outer_plain = sum(count(Feature.GUARDHOUSE, d) for d in OUTER)
    assert outer_plain == 20 and count(Feature.GUARDHOUSE, District.PALACE) == 4
    tiled = [n for n in board.nodes if n.guardhouse and n.district is not District.PALACE]
    assert len(tiled) == 36  # 36 of the 51 city tiles are used per game
    assert count(Feature.SEWER_ENTRANCE) == 5 and count(Feature.SEWER_EXIT) == 4
    assert count(Feature.HIDEOUT) == 8
    assert count(Feature.GUARD_ALARM) == 8 and count(Feature.CAPTAIN_ALARM) == 8
    assert count(Feature.START) == 4 and count(Feature.GREEN_JEWEL) == 4
    assert board.with_feature(Feature.TREASURY) == ("T",)
    assert len(board.of_kind(NodeKind.DUNGEON)) == 4 and len(board.of_kind(NodeKind.EXIT)) == 8


def test_each_outer_district_has_its_dungeon_and_two_exits_ships_at_the_docks(board: Board) -> None:
    for d in OUTER:
        (dungeon,) = board.of_kind(NodeKind.DUNGEON, d)
        assert board.neighbours(dungeon) == (f"{d.value}60",)
        kinds = {board.node(x).exit_kind for x in board.of_kind(NodeKind.EXIT, d)}
        assert kinds == ({"ship"} if d is District.SOUTH else {"gate"})


def test_rotating_the_districts_maps_the_board_onto_itself_but_for_the_palace_sewer(
    board: Board,
) -> None:
    def rotate(id: str) -> str:
        return "".join(clockwise(District(c)).value if c in "NESW" else c for c in id)

    edges = set(board.edges)
    assert {tuple(sorted((rotate(a), rotate(b)))) for a, b in edges} == edges
    odd = [n.id for n in board.nodes if n.features != board.node(rotate(n.id)).features]
    assert sorted(odd) == ["P2Na", "P2Wa"]  # the 5th sewer entrance, and the space onto it
    symmetric = hadria(symmetric_sewers=True)
    assert len(symmetric.with_feature(Feature.SEWER_ENTRANCE)) == 4
    assert all(n.features == symmetric.node(rotate(n.id)).features for n in symmetric.nodes)


def test_the_builder_is_deterministic(board: Board) -> None:
    from arena.games.age_of_thieves import load_board

    again = load_board(version="hadria-r2" if r2(board) else "hadria-r1")
    assert again is not board
    assert again.nodes == board.nodes and again.edges == board.edges


def test_an_unknown_space_is_named_by_every_lookup(board: Board) -> None:
    known = board.nodes[0].id
    assert board.distance(known, known) == 0 and board.node(known).id == known
    for ask in (
        lambda: board.node("X99"),
        lambda: board.neighbours("X99"),
        lambda: board.distance("X99", known),
        lambda: board.distance(known, "X99"),
    ):
        with pytest.raises(DataError, match=f"{board.name}: no space 'X99'"):
            ask()


def test_nodes_around_near_and_beyond_a_space_agree_with_its_distances(board: Board) -> None:
    """The kept answers of around / near / beyond are the nodes the distances say, whichever
    is asked first, and stay the same when asked again."""
    ids = [node.id for node in board.nodes]
    for start in ids[::7]:
        for steps in (0, 2, 5):
            within = tuple(n for n in ids if 0 <= board.distance(start, n) <= steps)
            assert board.near(start, steps) == frozenset(within)
            assert board.around(start, steps) == within == board.around(start, steps)
            far = frozenset(n for n in ids if board.distance(start, n) >= steps)
            assert board.beyond(start, steps) == far == board.beyond(start, steps)
    assert board.with_feature(Feature.START) == board.with_feature(Feature.START)
    with pytest.raises(DataError, match="no space"):
        board.around("nowhere", 1)
