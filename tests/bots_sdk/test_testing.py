"""The conformance kit passes good bots and catches each kind of broken one."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from arena.games.caper import Action, ActionKind, CaperObservation
from bots_sdk import GameAction, Observation
from bots_sdk.examples.random_bot import RandomBot
from bots_sdk.testing import check_bot, load_bot, main
from tests.bots_sdk.bots import (
    BothEditionsFirstBot,
    FakeClock,
    FirstBot,
    HookRaisingBot,
    IllegalBot,
    NoisyBot,
    RaisingBot,
    SlowBot,
    WrongTypeBot,
)


def test_a_good_deterministic_bot_passes() -> None:
    report = check_bot(FirstBot, games=6)
    assert report.ok, str(report)
    assert any("deterministic" in line for line in report.passed)
    assert any("decisions in 6 games" in line for line in report.passed)


def test_the_bot_gets_every_hook_with_games_interleaved() -> None:
    bot = FirstBot()
    bot.deterministic = False  # no replay: each hook runs once per seat
    check_bot(bot, games=5, in_flight=3)
    started = sorted((g.game_id, g.seat) for g in bot.started)
    assert started == sorted((g.game_id, g.seat) for g in bot.ended)
    # kit-0..4: 2, 3, 4, 2, 3 players; a team (4 players) is two seats, so two hooks
    assert len({g.game_id for g in bot.ended}) == 5 and len(bot.ended) == 6
    assert {g.seat for g in bot.started if g.game_id in ("kit-0", "kit-3")} == {0, 1}
    # Interleaved: a second game started before the first one ended.
    assert bot.started[1].game_id != bot.ended[0].game_id


def test_an_illegal_action_is_caught_and_named() -> None:
    report = check_bot(IllegalBot, games=2)
    assert not report.ok
    assert any("illegal action discard The Dame" in line for line in report.failures)


@pytest.mark.parametrize(
    ("bot", "says"),
    [
        (RaisingBot, "the bot raised while deciding"),
        (WrongTypeBot, "act must return one of the legal actions"),
        (HookRaisingBot, "the bot raised in on_game_over"),
    ],
)
def test_a_crashing_bot_is_caught(bot: type[FirstBot], says: str) -> None:
    report = check_bot(bot, games=2)
    assert any(says in line for line in report.failures), str(report)


def test_a_slow_bot_is_caught_without_waiting() -> None:
    clock = FakeClock()
    report = check_bot(SlowBot(clock, think_s=1.5), games=1, budget_ms=1000, clock=clock)
    assert any("took 1500 ms, budget 1000 ms" in line for line in report.failures)


def test_a_bot_within_budget_on_the_same_clock_passes() -> None:
    clock = FakeClock()
    report = check_bot(SlowBot(clock, think_s=0.9), games=1, budget_ms=1000, clock=clock)
    assert report.ok, str(report)


def test_a_false_claim_of_determinism_is_caught() -> None:
    report = check_bot(NoisyBot, games=3)
    assert any("deterministic" in line for line in report.failures)


def test_failures_are_capped() -> None:
    report = check_bot(RaisingBot, games=50, max_failures=5)
    assert len(report.failures) == 5 and "stopped after 5 failures" in str(report)


def test_load_bot_reads_a_module_or_a_file(tmp_path: Path) -> None:
    assert isinstance(load_bot("tests.bots_sdk.bots:FirstBot")(), FirstBot)
    source = tmp_path / "mine.py"
    source.write_text(
        "from bots_sdk import Bot\n"
        "class Mine(Bot):\n"
        "    def act(self, observation, legal):\n"
        "        return legal[0]\n"
    )
    assert type(load_bot(f"{source}:Mine")()).__name__ == "Mine"
    with pytest.raises(ValueError, match="module:BotClass"):
        load_bot("no_colon")


def test_the_cli_exit_code_says_pass_or_fail(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tests.bots_sdk.bots:FirstBot", "--games", "2"]) == 0
    assert "conformance of FirstBot: OK" in capsys.readouterr().out
    assert main(["tests.bots_sdk.bots:IllegalBot", "--games", "2"]) == 1
    assert "FAILED" in capsys.readouterr().out


def test_a_bot_of_both_editions_is_checked_on_both() -> None:
    bot = BothEditionsFirstBot()
    bot.deterministic = False
    report = check_bot(bot, games=4)
    assert report.ok, str(report)
    # the 2-player games of both editions, then Caper's 3- and 4-player games (a team: 2 seats)
    assert [(g.game, g.config.get("players", 2)) for g in bot.started] == [
        ("caper", 2),
        ("caper-europe", 2),
        ("caper", 3),
        ("caper", 4),
        ("caper", 4),
    ]
    assert len(bot.ended) == 5


@pytest.mark.parametrize("seed", [0, 1])
def test_the_example_bot_passes_on_both_editions(seed: int) -> None:
    bot = RandomBot(seed=seed)
    report = check_bot(bot, games=8, seed=seed)
    assert report.ok, str(report)
    assert "decisions in 8 games" in report.passed[0]


def test_a_first_edition_bot_fails_on_europe_by_type_not_by_crash() -> None:
    """A bot that builds first-edition actions itself is told so in Europe games."""
    bot = IllegalBot()
    bot.games = ("caper-europe",)
    report = check_bot(bot, games=1)
    assert any("act must return one of the legal actions" in line for line in report.failures)


def test_a_bot_naming_an_unknown_game_is_refused() -> None:
    bot = FirstBot()
    bot.games = ("chess",)
    with pytest.raises(ValueError, match=r"Bot\.games must name games of caper, caper-europe"):
        check_bot(bot, games=1)


# --- 3 and 4 players (section 12) ----------------------------------------------------------------


def test_the_kit_plays_every_seat_of_the_snitch_and_team_games() -> None:
    """V11/V12: the bot takes Cream, Mint and the Snitch in 3-player games and both seats of
    either team in 4-player games, making the Snitch's GIVE and the Lookouts' SEND decisions."""
    kinds: list[ActionKind] = []

    class Recording(FirstBot):
        deterministic = False

        def act(self, observation: Observation, legal: Sequence[GameAction]) -> GameAction:
            assert isinstance(observation, CaperObservation)
            if observation.role != "mastermind":
                kinds.append(legal[-1].kind)  # type: ignore[arg-type]
            return legal[-1]

    bot = Recording()
    report = check_bot(bot, games=18)
    assert report.ok, str(report)
    seats = {(g.config.get("players", 2), g.seat) for g in bot.started}
    assert seats == {(2, 0), (2, 1), (3, 0), (3, 1), (3, 2), (4, 0), (4, 1), (4, 2), (4, 3)}
    teams = {
        (g.game_id, g.team) for g in bot.started if g.config.get("players") == 4
    }  # both seats of a team, never of two teams
    assert len(teams) == 6 and len([g for g in bot.started if g.config.get("players") == 4]) == 12
    assert {ActionKind.GIVE, ActionKind.SEND} <= set(kinds)
    assert any("snitch" in note and "lookout" in note for note in report.notes), str(report)
    roles = {(g.seat, g.role) for g in bot.started if g.config.get("players") == 3}
    assert roles == {(0, "mastermind"), (1, "mastermind"), (2, "snitch")}


def test_an_illegal_give_is_caught_at_the_snitch_seat() -> None:
    class BadSnitch(FirstBot):
        deterministic = False

        def act(self, observation: Observation, legal: Sequence[GameAction]) -> GameAction:
            assert isinstance(observation, CaperObservation)
            if observation.role == "snitch":
                card = legal[0]
                assert isinstance(card, Action)
                return Action(ActionKind.GIVE, card.other, other=card.other)  # same card twice
            return legal[0]

    report = check_bot(BadSnitch, games=9)  # kit-7 is the first with the bot as the Snitch
    assert any("seat 2" in line and "illegal action" in line for line in report.failures), str(
        report
    )


def test_a_deterministic_team_player_passes_the_replay() -> None:
    report = check_bot(FirstBot, games=6)
    assert report.ok and any("deterministic" in line for line in report.passed), str(report)
