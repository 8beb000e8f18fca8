"""Comments and docs that do not rot: nothing points outside the repository (a clone has only
itself), and no source file, test or README cites a tracker's issue number (the reasons belong
in the text; the history is in commit messages)."""

from __future__ import annotations

import re

from tests.docs.tracked import text_lines, tracked_files

# A sibling folder of the checkout, or the reference folders that live there.
OUTSIDE = re.compile(
    r"\.\./shared\b|\bshared/(?:specs|notes|seeds)/|\bshared/ARCHITECTURE|(?<![\w/])specs/[\w-]+\.md"
)
ISSUE_NUMBER = re.compile(r"\bissues?\s+(?:no\.?\s*|#\s*)?\d+", re.IGNORECASE)


def matches(pattern: re.Pattern[str], suffixes: tuple[str, ...] | None = None) -> list[str]:
    return [
        f"{path}:{number}: {line.strip()}"
        for path in tracked_files()
        if suffixes is None or path.suffix in suffixes or path.name == "README.md"
        for number, line in text_lines(path)
        if pattern.search(line)
    ]


def test_no_file_points_outside_the_repository() -> None:
    assert matches(OUTSIDE) == []


def test_no_issue_numbers_in_source_tests_or_readmes() -> None:
    assert matches(ISSUE_NUMBER, (".py", ".js", ".cc", ".html", ".proto", ".md")) == []


def test_the_patterns_catch_what_they_are_for() -> None:
    assert OUTSIDE.search("spec ." + "./sha" + "red/specs/caper-europe.md")
    assert OUTSIDE.search("(" + "shared/" + "notes/algorithms-conventions.md, section 3)")
    assert not OUTSIDE.search("a shared table; shared state")
    assert OUTSIDE.search("Section numbers refer to `spe" + "cs/caper-classic.md`.")
    assert not OUTSIDE.search("docs/rules/caper.md; built-in specs such as search@50")
    for cited in ("before iss" + "ue 13", "Iss" + "ue 5", "iss" + "ues #12", "(iss" + "ue no. 3)"):
        assert ISSUE_NUMBER.search(cited), cited
    assert not ISSUE_NUMBER.search("an issue of the protocol; 13 issues")
