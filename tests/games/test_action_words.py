"""Moves as people read them: Caper: Europe and Age of Thieves write card ids in their action
texts; the CLI's replay and the game page name the cards, as the first edition's texts do."""

from __future__ import annotations

from arena.games.action_words import action_words
from arena.games.age_of_thieves.catalogue import catalogue
from arena.games.age_of_thieves.queries import board
from arena.games.caper_europe.catalogue import CATALOGUE


def test_card_ids_become_their_names_and_nothing_else_changes() -> None:
    super_magnet = CATALOGUE["super_magnet"].name
    assert action_words("caper-europe", "gear super_magnet at 2/2") == f"gear {super_magnet} at 2/2"
    assert action_words("caper-europe", "discard skeleton_key").startswith("discard Skeleton")
    assert action_words("caper-europe", "return diamond") == "return diamond"
    assert action_words("age-of-thieves", "plan B02") == f"plan {catalogue().card('B02').name}"
    assert action_words("age-of-thieves", "under G05").endswith(catalogue().card("G05").name)
    for unchanged in ("step N34", "steal 2:green", "done", "ap 3"):
        assert action_words("age-of-thieves", unchanged) == unchanged
    assert action_words("caper", "thief The Dame at 2") == "thief The Dame at 2"


def test_no_space_of_the_board_is_named_like_a_card() -> None:
    """A space id (`step S31`) is never taken for a card id: the two never share a name."""
    spaces = {node.id for node in board().nodes}
    assert not spaces & {card.id for card in catalogue().cards}
