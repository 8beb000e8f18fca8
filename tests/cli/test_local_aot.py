"""`arena cards --game age-of-thieves`: every action card, event and thief with its provenance
(spec sections 22.2-22.4: proposals are flagged wherever cards are listed)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner, Result

from arena.cli import main
from arena.cli.common import console
from arena.games.age_of_thieves import catalogue


def arena(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_cards_list_every_card_event_and_thief_with_provenance(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(console, "width", 300)  # one line a source: phrases are not wrapped
    out = arena("cards", "--game", "age-of-thieves")
    assert out.exit_code == 0, out.output
    data = catalogue()
    for id, german in [
        *((c.id, c.german) for c in data.cards),
        *((e.id, e.german) for e in data.events),
    ]:
        assert f"│ {id} " in out.output and german in out.output
    for thief in data.thieves:
        assert thief.name in out.output and thief.passive in out.output
    # rich would swallow an unescaped "[R]" as markup: the tags must show as written
    assert "[R] §9.3 text" in out.output and "[R-ex] §9.3 range 5" in out.output
    assert "[PUB] §10 passive" in out.output and "[PROPOSAL] §22.3 invented" in out.output
    assert "aot-r1/1" in out.output  # the data's version in the title
    flags = {line.split("│")[1].strip(): line for line in out.output.splitlines() if "│ " in line}
    assert "│ proposal" in flags["G15"] and "│ partly proposal" in flags["G01"]
    assert "│ sourced" in flags["B01"]  # Move is the rulebook's, word for word


def test_cards_of_age_of_thieves_refuse_a_city() -> None:
    out = arena("cards", "--game", "age-of-thieves", "--city", "rome")
    assert out.exit_code == 1
    assert "Age of Thieves has no cities: --city 'rome' does not apply" in out.output
