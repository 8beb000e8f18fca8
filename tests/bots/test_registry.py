"""The registry of built-in bots and the names `make_bot` understands."""

from __future__ import annotations

import pytest

from arena.bots import BUILTIN_BOTS, BotSpecError, UnknownBotError, builtin_name, make_bot
from arena.bots.greedy import GreedyBot
from arena.bots.random_bot import RandomBot
from arena.bots.search import SearchBot


def test_every_registered_bot_is_built_under_its_own_name() -> None:
    assert set(BUILTIN_BOTS) == {"random", "greedy", "search"}
    for name in BUILTIN_BOTS:
        assert make_bot(name).name == name


def test_plain_names_give_the_default_bots() -> None:
    assert isinstance(make_bot("random"), RandomBot)
    assert isinstance(make_bot("greedy"), GreedyBot)
    search = make_bot("search")
    assert isinstance(search, SearchBot)
    assert search.budget_ms == 100


def test_a_budget_suffix_sets_the_search_budget_and_shows_in_the_name() -> None:
    bot = make_bot("search@50")
    assert isinstance(bot, SearchBot)
    assert bot.budget_ms == 50
    assert bot.name == "search@50"
    assert isinstance(make_bot(" search@2.5 "), SearchBot)


def test_an_unknown_name_lists_the_known_ones() -> None:
    with pytest.raises(UnknownBotError, match="greedy, random, search"):
        make_bot("alphazero")
    assert issubclass(UnknownBotError, ValueError)


@pytest.mark.parametrize("spec", ["search@", "search@fast", "search@0", "search@-5", "search@nan"])
def test_a_bad_budget_is_refused(spec: str) -> None:
    with pytest.raises(BotSpecError, match="budget"):
        make_bot(spec)


def test_bots_that_do_not_search_take_no_budget() -> None:
    with pytest.raises(BotSpecError, match="takes no"):
        make_bot("greedy@50")


def test_an_iteration_suffix_makes_a_search_bot_that_never_reads_the_clock() -> None:
    bot = make_bot("search#40")
    assert isinstance(bot, SearchBot)
    assert bot.iterations == 40 and bot.name == "search#40"
    assert builtin_name("search#40") == builtin_name("search@5") == "search"


@pytest.mark.parametrize("spec", ["search#", "search#x", "search#0", "search#-1", "search#1.5"])
def test_a_bad_iteration_count_is_refused(spec: str) -> None:
    with pytest.raises(BotSpecError, match="iteration count"):
        make_bot(spec)


def test_bots_that_do_not_search_take_no_iterations() -> None:
    with pytest.raises(BotSpecError, match="takes no"):
        make_bot("greedy#5")
    with pytest.raises(UnknownBotError):
        make_bot("alphazero#5")


def test_a_label_enters_the_same_bot_under_another_name() -> None:
    assert isinstance(make_bot("random/2"), RandomBot)
    bot = make_bot("search#8/b")
    assert isinstance(bot, SearchBot) and bot.iterations == 8
    assert builtin_name("greedy/x") == "greedy"
