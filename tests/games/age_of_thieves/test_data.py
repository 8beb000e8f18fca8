"""The game's data files: counts as the spec states them (sections 2, 14, 15, 22.2-22.4), every
entry with its provenance, versions, and precise errors naming the entry for a broken file."""

from __future__ import annotations

import json
import re
from collections import Counter
from contextlib import AbstractContextManager
from importlib import resources
from typing import Any

import pytest

from arena.games.age_of_thieves import (
    CardKind,
    DataError,
    Deck,
    District,
    Tag,
    Timing,
    catalogue,
    components,
    districts,
    hadria,
    load_board,
    load_catalogue,
    load_components,
)
from arena.games.age_of_thieves.hadria import explicit_json
from arena.games.api import ConfigError

DATA = resources.files("arena.games.age_of_thieves").joinpath("data")


def refused(message: str) -> AbstractContextManager[object]:
    """Expect a `DataError` whose message contains `message` word for word."""
    return pytest.raises(DataError, match=re.escape(message))


def raw(name: str) -> Any:
    return json.loads(DATA.joinpath(name).read_text(encoding="utf-8"))


def test_action_cards_84_of_which_8_basic_6_special_70_general() -> None:
    cards = catalogue()
    copies = {kind: sum(c.copies for c in cards.of_kind(kind)) for kind in CardKind}
    assert copies == {CardKind.BASIC: 8, CardKind.SPECIAL: 6, CardKind.GENERAL: 70}
    assert [c.name for c in cards.of_kind(CardKind.BASIC)] == ["Move", "Ambush"]
    assert len(cards.of_kind(CardKind.GENERAL)) == 19  # 14 named by the rulebook, 5 invented


def test_the_14_general_cards_the_rulebook_names_rest_on_it_and_5_are_invented() -> None:
    general = catalogue().of_kind(CardKind.GENERAL)
    invented = [c.id for c in general if {s.tag for s in c.provenance.sources} == {Tag.PROPOSAL}]
    assert invented == ["G15", "G16", "G17", "G18", "G19"]
    # the deck's mix is unknown, so every general card's number of copies is a proposal
    assert all(c.provenance.proposal for c in general)
    beacon = catalogue().card("G01")
    assert (beacon.range, beacon.theft) == (5, False)  # range 5 from the rulebook's example
    assert [c.id for c in general if c.theft] == ["G07", "G08", "G09", "G16"]


def test_events_12_calm_with_3_per_compass_direction_and_11_alarm() -> None:
    calm, alarm = catalogue().deck(Deck.CALM), catalogue().deck(Deck.ALARM)
    assert (len(calm), len(alarm)) == (12, 11)
    assert Counter(e.compass for e in calm) == dict.fromkeys("NESW", 3)
    assert {e.compass for e in alarm} == {None}
    no_star = next(e for e in calm if e.german == "Kein Stern am Himmel")
    assert no_star.text == "All thieves are hidden this round."
    assert Tag.RULEBOOK in {s.tag for s in no_star.provenance.sources}


def test_six_thieves_each_with_his_own_special_card() -> None:
    thieves = catalogue().thieves
    names = [t.name for t in thieves]
    assert names == ["Morius", "Jasmine", "Noiron", "Zain", "Nikolai", "Joanne"]
    for thief in thieves:
        special = catalogue().card(thief.special)
        assert special.kind is CardKind.SPECIAL and special.owner == thief.id
    assert catalogue().card("S01").name == "Rat Spies"  # Morius's, from the publisher


def test_city_tiles_51_as_16_instant_21_one_use_14_permanent() -> None:
    tiles = components().city_tiles
    assert sum(t.count for t in tiles) == 51 and len(tiles) == 10
    by_timing = {m: sum(t.count for t in tiles if t.timing is m) for m in Timing}
    assert by_timing == {Timing.INSTANT: 16, Timing.ONE_USE: 21, Timing.PERMANENT: 14}
    assert {t.id: t.ap for t in tiles if t.ap} == {"informer": 1, "guild_agent": 2}


def test_effect_tiles_jewels_and_figures() -> None:
    pieces = {p.id: p for p in components().pieces}
    effects = {k: pieces[k].count for k in ("smoke", "fire", "theft_marker")}
    assert effects == {"smoke": 15, "fire": 5, "theft_marker": 4}
    jewels = {k: (pieces[k].count, pieces[k].vp) for k in ("yellow_jewel", "green_jewel")}
    assert jewels == {"yellow_jewel": (10, 1), "green_jewel": (4, 2)}
    assert pieces["emperors_jewel"].count == 1 and pieces["best_thief"].vp == 3
    assert (pieces["guard"].count, pieces["captain"].count) == (20, 2)
    limited = {p.id for p in pieces.values() if p.limited}  # spec section 2 [R]
    assert limited == {"yellow_jewel", "green_jewel", "emperors_jewel", "guard", "captain"}


def test_every_entry_of_every_file_carries_provenance() -> None:
    files = {
        "action_cards.json": "cards",
        "events.json": "events",
        "thieves.json": "thieves",
        "components.json": "city_tiles",
        "board_hadria_r1.json": "features",
        "board_hadria_r2.json": "features",
    }
    for name, key in files.items():
        for entry in raw(name)[key]:
            assert entry["provenance"], (name, entry)
    for entry in [*raw("components.json")["pieces"], *raw("board_hadria_r2.json")["districts"]]:
        assert entry["provenance"]
    loaded: list[Any] = [*catalogue().cards, *catalogue().events, *catalogue().thieves]
    loaded += [*components().city_tiles, *components().pieces, *districts()]
    assert all(item.provenance.sources for item in loaded)
    assert hadria().provenance.proposal  # the whole reference board is a proposal (G-1)
    assert hadria(version="hadria-r1").provenance.proposal


def test_r2s_moved_guardhouses_are_proposals_that_give_their_reason() -> None:
    """Hadria-R2's change is flagged [PROPOSAL] with why it was made, in the file itself."""
    changed = [f for f in raw("board_hadria_r2.json")["features"] if f["at"] in ("3,2", "3,4")]
    assert {f["feature"] for f in changed} == {"guardhouse", "sword_guardhouse"}
    for feature in changed:
        (proposal,) = [p for p in feature["provenance"] if p["tag"] == "PROPOSAL"]
        assert proposal["covers"].startswith("Hadria-R2: ") and "treasury" in proposal["covers"]


def test_every_file_carries_its_rules_and_data_versions() -> None:
    versions = [v for _, v in catalogue().versions]
    versions += [components().versions, hadria().versions]
    assert {v.rules for v in versions} == {2}
    assert hadria().versions.data == "hadria-r2/1"
    old = hadria(version="hadria-r1").versions  # kept so that its records replay
    assert (old.rules, old.data) == (1, "hadria-r1/1")


def test_an_unknown_board_version_is_refused_naming_the_known_ones() -> None:
    message = "unknown board 'hadria-r9': the boards are hadria-r1, hadria-r2"
    with pytest.raises(ConfigError, match=re.escape(message)):
        load_board(version="hadria-r9")


def test_files_on_different_rules_versions_are_refused() -> None:
    events = raw("events.json") | {"rules_version": 3}
    with pytest.raises(DataError, match=r"different rules versions: .*events.json 3"):
        load_catalogue(events=json.dumps(events))


def edited(name: str, key: str, index: int, **changes: Any) -> str:
    data = raw(name)
    data[key][index] |= changes
    for field, value in changes.items():
        if value is None and field != "range" and field != "compass":
            del data[key][index][field]
    return json.dumps(data)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"copies": 0}, "action_cards.json: G01: 'copies' must be an integer >= 1, got 0"),
        ({"range": "far"}, "action_cards.json: G01: 'range' must be a number of spaces"),
        ({"kind": "magic"}, "action_cards.json: G01: 'kind' must be one of 'basic'"),
        ({"provenance": []}, "action_cards.json: G01: 'provenance' is empty"),
        ({"provenance": None}, "action_cards.json: G01: missing field 'provenance'"),
        ({"colour": "red"}, "action_cards.json: G01: unknown field 'colour'"),
        (
            {"provenance": [{"tag": "RUMOUR", "section": "9", "covers": "x"}]},
            "action_cards.json: G01: provenance[0]: 'tag' must be one of 'R'",
        ),
        (
            {"provenance": [{"tag": "R", "section": "p. 12", "covers": "x"}]},
            "G01: provenance[0]: 'section' must be a spec section like '22.2'",
        ),
    ],
)
def test_a_broken_card_names_the_card_and_the_field(changes: dict[str, Any], message: str) -> None:
    index = [c["id"] for c in raw("action_cards.json")["cards"]].index("G01")
    with refused(message):
        load_catalogue(cards=edited("action_cards.json", "cards", index, **changes))


def test_broken_events_thieves_and_components_name_the_entry() -> None:
    with refused("events.json: C03: a calm event shows a compass"):
        load_catalogue(events=edited("events.json", "events", 2, compass="X"))
    with refused("events.json: A01: an alarm event shows no compass"):
        load_catalogue(events=edited("events.json", "events", 12, compass="N"))
    with refused("thieves.json: zain: special 'S05' is not a special"):
        load_catalogue(thieves=edited("thieves.json", "thieves", 3, special="S05"))
    with refused("no action card 'S99'"):
        load_catalogue(thieves=edited("thieves.json", "thieves", 3, special="S99"))
    with refused("components.json: trinket: only a one-use tile is worth"):
        load_components(edited("components.json", "city_tiles", 6, ap=1))
    with refused("components.json: not JSON"):
        load_components("{")
    with refused("duplicate id 'C01' in 'events'"):
        load_catalogue(events=edited("events.json", "events", 1, id="C01"))


def test_a_broken_board_file_names_the_entry() -> None:
    board = "board_hadria_r1.json"
    index = [f["at"] for f in raw(board)["features"]].index("5,0")
    with refused(f"{board}: 5,0: 'feature' must be one of"):
        load_board(edited(board, "features", index, feature="fountain"), version="hadria-r1")
    with refused(f"{board}: 9,0: (9, 0) is off the grid"):
        load_board(edited(board, "features", index, at="9,0"), version="hadria-r1")
    with refused(f"{board}: 5,0: 'provenance' is empty"):
        load_board(edited(board, "features", index, provenance=[]), version="hadria-r1")
    # one more sword guardhouse a district breaks the rulebook's count of 12 (spec section 3)
    plain = [f["at"] for f in raw(board)["features"]].index("7,1")
    with refused("Hadria-R1: 12 spaces must be sword_guardhouse, found 16"):
        load_board(
            edited(board, "features", plain, feature="sword_guardhouse"), version="hadria-r1"
        )
    with refused(f"{board}: S: 'exit_kind' 'boat': outer districts have gates"):
        load_board(edited(board, "districts", 3, exit_kind="boat"), version="hadria-r1")


def test_the_board_as_an_explicit_file_loads_back_to_the_same_board() -> None:
    """The way in for the real board: write the spaces and paths out, edit them, load them."""
    text = json.dumps(explicit_json(hadria(), districts()))
    again = load_board(text)
    assert again.nodes == hadria().nodes and again.edges == hadria().edges
    data = json.loads(text)
    data["edges"].append(["T", "N82"])  # a shortcut: still a legal board, distances change
    assert load_board(json.dumps(data)).distance("T", "N82") == 1
    data["edges"][-1] = ["T", "Q99"]
    with refused("Hadria-R2: path T-Q99 names no space 'Q99'"):
        load_board(json.dumps(data))
    data["edges"].pop()
    data["edges"] = [e for e in data["edges"] if "VN" not in e]
    with refused("space 'VN' cannot be reached"):
        load_board(json.dumps(data))


def test_district_names_from_the_rulebook() -> None:
    names = {d.id: d.german for d in districts()}
    assert names[District.NORTH] == "Goldene Kuppeln" and names[District.SOUTH] == "Salzige Docks"


def test_the_data_files_ship_in_the_wheel() -> None:
    """The Docker image installs the wheel: a data file setuptools does not list is missing."""
    import tomllib
    from fnmatch import fnmatch
    from pathlib import Path

    pyproject = Path(__file__).parents[3] / "pyproject.toml"
    globs = tomllib.loads(pyproject.read_text())["tool"]["setuptools"]["package-data"]
    shipped = globs["arena.games.age_of_thieves"]
    for file in DATA.iterdir():
        if file.name.endswith(".json"):
            assert any(fnmatch(f"data/{file.name}", glob) for glob in shipped), file.name
