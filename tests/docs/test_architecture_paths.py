"""docs/architecture.md cannot rot silently: every repository path it names in backticks exists,
so moving or renaming a module without updating the page fails here."""

from __future__ import annotations

import re
from pathlib import Path

from tests.docs.tracked import ROOT

PAGE = ROOT / "docs" / "architecture.md"
TOP_FOLDERS = ("arena", "workers", "bots_sdk", "proto", "docs", "helm", "tests")
# A backticked span that starts with one of the project's top folders and names a path in it.
REPO_PATH = re.compile(r"`((?:" + "|".join(TOP_FOLDERS) + r")/[^`\s]*)`")


def named_paths(text: str) -> list[str]:
    return REPO_PATH.findall(text)


def missing_paths(text: str, root: Path) -> list[str]:
    return [path for path in named_paths(text) if not (root / path).exists()]


def test_every_path_the_architecture_page_names_exists() -> None:
    text = PAGE.read_text(encoding="utf-8")
    assert len(named_paths(text)) > 50  # the page names the modules it describes
    assert missing_paths(text, ROOT) == []


def test_a_path_that_is_gone_is_reported() -> None:
    text = "the referee is in `arena/referee/referee.py`, the pawns in `arena/pawns/board.py`"
    assert missing_paths(text, ROOT) == ["arena/pawns/board.py"]
