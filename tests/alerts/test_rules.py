"""The alerting rules (helm/arena/alerts/arena-rules.yaml) pass `promtool check rules` and their
`promtool test rules` unit tests (arena-rules.test.yaml), which make every alert fire and keep it
quiet; every alert has a severity, a summary, a description and a runbook in docs/operations.md."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]
RULES = REPO / "helm" / "arena" / "alerts" / "arena-rules.yaml"
UNIT_TESTS = Path(__file__).with_name("arena-rules.test.yaml")
RUNBOOKS = REPO / "docs" / "operations.md"


def promtool() -> str:
    found = shutil.which("promtool")
    if found is None:  # a missing tool fails: a skip would hide unchecked rules
        pytest.fail("promtool is missing: `make test` installs Debian's prometheus package")
    return found


def alerts() -> list[dict[str, Any]]:
    loaded = yaml.safe_load(RULES.read_text())
    return [rule for group in loaded["groups"] for rule in group["rules"] if "alert" in rule]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [promtool(), *args], capture_output=True, text=True, timeout=120, check=False
    )


def test_promtool_checks_the_rules() -> None:
    checked = run("check", "rules", str(RULES))
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert f"SUCCESS: {len(alerts())} rules found" in checked.stdout


def test_promtool_unit_tests_pass() -> None:
    tested = run("test", "rules", str(UNIT_TESTS))
    assert tested.returncode == 0, tested.stdout + tested.stderr


def test_the_unit_tests_can_fail(tmp_path: Path) -> None:
    """A rule that never fires fails its unit test: the tests check what they say."""
    rules = tmp_path / "arena-rules.yaml"
    rules.write_text(RULES.read_text().replace("arena_redis_up == 0", "arena_redis_up == 2"))
    tests = yaml.safe_load(UNIT_TESTS.read_text())
    tests["rule_files"] = [str(rules)]
    copy = tmp_path / "arena-rules.test.yaml"
    copy.write_text(yaml.safe_dump(tests))
    tested = run("test", "rules", str(copy))
    assert tested.returncode != 0
    assert "alertname: ArenaRedisUnreachable" in tested.stdout + tested.stderr


def test_every_alert_is_tested_firing_and_quiet() -> None:
    firing: set[str] = set()
    quiet: set[str] = set()
    for case in yaml.safe_load(UNIT_TESTS.read_text())["tests"]:
        for check in case["alert_rule_test"]:
            (firing if check["exp_alerts"] else quiet).add(check["alertname"])
    names = {rule["alert"] for rule in alerts()}
    assert names - firing == set(), "never seen firing"
    assert names - quiet == set(), "never seen quiet"
    assert (firing | quiet) <= names, "a test names no alert"


def anchors(markdown: str) -> set[str]:
    """GitHub's anchors of the headings: lower case, spaces to dashes, punctuation dropped."""
    headings = re.findall(r"^#+ (.+)$", markdown, re.MULTILINE)
    return {re.sub(r"[^a-z0-9 _-]", "", h.lower()).replace(" ", "-") for h in headings}


def test_every_alert_is_labelled_annotated_and_has_a_runbook() -> None:
    runbooks = RUNBOOKS.read_text()
    sections = re.split(r"^## ", runbooks, flags=re.MULTILINE)
    found = anchors(runbooks)
    for rule in alerts():
        name = rule["alert"]
        assert rule["labels"]["severity"] in ("critical", "warning"), name
        annotations = rule["annotations"]
        assert set(annotations) == {"summary", "description", "runbook_url"}, name
        assert annotations["runbook_url"] == f"docs/operations.md#{name.lower()}"
        assert name.lower() in found, f"no runbook heading for {name}"
        (section,) = [s for s in sections if s.startswith(f"{name}\n")]
        for part in ("**What it means.**", "**Confirm.**", "**What to do.**"):
            assert part in section, f"{name}'s runbook lacks {part}"


def test_the_summary_names_the_object_an_alert_is_about() -> None:
    """A firing alert's summary (one line in a notification) names the queue, game, gateway,
    event, ladder or target it is about: checked on the summaries the unit tests expect."""
    checked = 0
    for case in yaml.safe_load(UNIT_TESTS.read_text())["tests"]:
        for check in case["alert_rule_test"]:
            for alert in check["exp_alerts"]:
                summary = alert["exp_annotations"]["summary"]
                labels = alert["exp_labels"]
                for label in set(labels) - {"severity", "job", "rules_version"}:
                    assert labels[label] in summary, (check["alertname"], label, summary)
                    checked += 1
    assert checked >= 10
