"""Every ruling and rules section that a test, a source file or a data file cites is defined in
docs/rules, so a name like `test_r7_...` or a comment like "(D-6, section 16)" can be looked up.

A ruling is defined where the rules write its id in bold (`**R7**`, `**V11 (...)**`, `**D-6**`);
a section where a heading starts with its number (`## 16.`, `### 22.1`). Which game's rules a
citation means follows from the citing file's path; where the path names no game, any game's
rules will do. Age of Thieves' data files name the section behind each provenance entry. The
card tables are the engines' catalogues and data files, row for row.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.docs import rule_tables
from tests.docs.tracked import ROOT, text_lines, tracked_files

RULES = ROOT / "docs" / "rules"
DOCS = {
    "caper": "caper.md",
    "caper-europe": "caper-europe.md",
    "age-of-thieves": "age-of-thieves.md",
}
AOT_DATA = Path("arena/games/age_of_thieves/data")

# R7, V11, D-6; not the R1 of the board "Hadria-R1" nor the V1 of a package "CaperArena.V1".
RULING = re.compile(r"(?<![A-Za-z]-)(?<![\w.:\\])(R\d{1,2}|V\d{1,2}|D-\d{1,2})\b")
DEFINED_RULING = re.compile(r"\*\*(R\d{1,2}|V\d{1,2}|D-\d{1,2})\b")
NUMBER = r"\d{1,2}(?:\.\d{1,2})?"
SECTIONS = re.compile(
    rf"(?:§\s?|\bsections?\s+)({NUMBER}(?:\s*(?:,|and|-|–)\s*{NUMBER}(?![\d.]?\d))*)",
    re.IGNORECASE,
)
HEADING = re.compile(rf"^#+\s+({NUMBER})[.\s]")


def game_of(path: Path) -> str | None:
    """The game whose rules a file cites, by its path; None for a file of no one game."""
    text = str(path)
    if "age_of_thieves" in text or "aot" in path.name:
        return "age-of-thieves"
    if "europe" in text:
        return "caper-europe"
    if "/caper/" in text or "variants" in path.name or path.stem == "caper":
        return "caper"
    return None


def defined(game: str) -> tuple[set[str], set[str]]:
    """The rulings and the section numbers the rules of `game` define."""
    rulings: set[str] = set()
    sections: set[str] = set()
    for _, line in text_lines(Path("docs/rules") / DOCS[game]):
        rulings.update(DEFINED_RULING.findall(line))
        heading = HEADING.match(line)
        if heading:
            sections.add(heading.group(1))
    return rulings, sections


def cited_sections(line: str) -> list[str]:
    return [number for found in SECTIONS.findall(line) for number in re.findall(NUMBER, found)]


def citing_files() -> list[Path]:
    return [
        path
        for path in tracked_files()
        if (path.suffix == ".py" and path.parts[0] in {"arena", "tests", "workers", "bots_sdk"})
        or path.suffix == ".proto"
        or path.name == "README.md"
    ]


def undefined_citations() -> list[str]:
    definitions = {game: defined(game) for game in DOCS}
    missing = []
    for path in citing_files():
        game = game_of(path)
        for number, line in text_lines(path):
            for ruling in RULING.findall(line):
                owner = (
                    "caper" if ruling[0] == "V" else "age-of-thieves" if ruling[0] == "D" else game
                )
                owners = [owner] if owner else list(DOCS)
                if not any(ruling in definitions[g][0] for g in owners):
                    missing.append(f"{path}:{number}: {ruling} ({' or '.join(owners)})")
            for section in cited_sections(line):
                owners = [game] if game else list(DOCS)
                if not any(section in definitions[g][1] for g in owners):
                    missing.append(f"{path}:{number}: section {section} ({' or '.join(owners)})")
    return missing


def test_the_rules_of_every_game_are_there_with_an_index() -> None:
    assert sorted(p.name for p in RULES.glob("*.md")) == sorted([*DOCS.values(), "README.md"])
    index = (RULES / "README.md").read_text()
    for name in DOCS.values():
        assert f"({name})" in index, name


def test_every_cited_ruling_and_section_is_defined_in_docs_rules() -> None:
    assert undefined_citations() == []


@pytest.mark.parametrize("name", sorted(p.name for p in (ROOT / AOT_DATA).glob("*.json")))
def test_every_section_an_age_of_thieves_data_file_cites_is_in_its_rules(name: str) -> None:
    _, sections = defined("age-of-thieves")
    text = (ROOT / AOT_DATA / name).read_text()
    cited = {entry["section"] for entry in _provenance(json.loads(text))}
    assert cited, name
    assert sorted(cited - sections) == []


def _provenance(node: object) -> list[dict[str, str]]:
    """Every provenance entry anywhere in a data file."""
    if isinstance(node, dict):
        own = [e for e in node.get("provenance", []) if isinstance(e, dict)]
        return own + [e for value in node.values() for e in _provenance(value)]
    if isinstance(node, list):
        return [e for value in node for e in _provenance(value)]
    return []


def test_the_extraction_reads_citations_as_written() -> None:
    assert RULING.findall("R7 (Driver), R15-R32, V1–V12, D-6; Hadria-R1, Caper.V1, RGB") == [
        "R7",
        "R15",
        "R32",
        "V1",
        "V12",
        "D-6",
    ]
    assert cited_sections("(spec sections 9, 10, 22.2-22.4) and §22.1") == [
        "9",
        "10",
        "22.2",
        "22.4",
        "22.1",
    ]
    assert cited_sections("Section 4, steps 3-4; section 5, phase 2") == ["4", "5"]
    assert game_of(Path("tests/games/caper_europe/test_cards.py")) == "caper-europe"
    assert game_of(Path("arena/bench/aot.py")) == "age-of-thieves"
    assert game_of(Path("arena/games/caper/rules.py")) == "caper"
    assert game_of(Path("proto/arena/v1/caper.proto")) == "caper"
    assert game_of(Path("arena/ratings/glicko2.py")) is None


@pytest.mark.parametrize(
    ("page", "rows"),
    [
        ("caper.md", rule_tables.classic_rows),
        ("caper-europe.md", rule_tables.europe_rows),
        ("age-of-thieves.md", rule_tables.age_of_thieves_rows),
    ],
)
def test_the_card_tables_are_the_engines_cards(
    page: str, rows: Callable[[], Iterator[str]]
) -> None:
    lines = set((RULES / page).read_text().splitlines())
    expected = list(rows())
    assert len(expected) > 20
    assert [r for r in expected if r not in lines] == []
