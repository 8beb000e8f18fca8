"""The Bradley-Terry fit reproduces its pinned results (bt_reference.json) within 1e-9 Elo.

They were computed by the pure-Python fit before it moved to numpy: the fast fit must be the
same fit, estimate by estimate and interval by interval, not merely a close one.
"""

from __future__ import annotations

import json

import pytest

from tests.ratings.bt_reference import CASES, REFERENCE, as_json, fit_case

TOLERANCE = 1e-9  # Elo points


@pytest.mark.parametrize("name", sorted(CASES))
def test_bradley_terry_fit_matches_its_pinned_reference(name: str) -> None:
    pinned = json.loads(REFERENCE.read_text())[name]
    fitted = as_json(fit_case(name))
    assert [e[0] for e in fitted["estimates"]] == [e[0] for e in pinned["estimates"]]
    assert [e[4] for e in fitted["estimates"]] == [e[4] for e in pinned["estimates"]]
    assert (fitted["games"], fitted["confidence"]) == (pinned["games"], pinned["confidence"])
    for mine, theirs in zip(fitted["estimates"], pinned["estimates"], strict=True):
        assert mine[1:4] == pytest.approx(theirs[1:4], rel=0, abs=TOLERANCE), mine[0]
    assert fitted["seat"] == pytest.approx(pinned["seat"], rel=0, abs=TOLERANCE)
