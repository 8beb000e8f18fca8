"""The 3- and 4-player games (section 12) as the arena handles them: configuration, action
text, records and replays, rendering and clear errors. The rulings are in the other
test_variants_* files."""

from __future__ import annotations

import random

import pytest

from arena.bench.engine import engine_configs, self_play
from arena.games.api import ConfigError, GameError, InvalidActionError
from arena.games.caper import CAPER, Action, ActionKind
from arena.games.caper.state import SNITCH, State
from arena.games.record import GameRecord, replay, replay_states


def play(config: dict[str, str | int], seed: int) -> tuple[State, list[str]]:
    rng = random.Random(seed)
    state = CAPER.create(config, seed)
    texts = []
    while not CAPER.is_terminal(state):
        action = rng.choice(list(CAPER.legal_actions(state)))
        texts.append(CAPER.action_text(action))
        state = CAPER.apply(state, action, CAPER.current_player(state))
    return state, texts


@pytest.mark.parametrize("players", [2, 3, 4, "3"])
def test_players_is_a_setting_of_first_edition_caper(players: int | str) -> None:
    state = CAPER.create({"city": "paris", "players": players}, 1)
    assert CAPER.seat_count(state) == int(players)


def test_two_players_stay_the_default_and_the_same_game() -> None:
    assert CAPER.create({"city": "rome"}, 5) == CAPER.create({"city": "rome", "players": 2}, 5)
    assert CAPER.num_players == 2 and CAPER.rules_version == 1


@pytest.mark.parametrize("players", [1, 5, "three", "", True])
def test_other_player_counts_are_config_errors(players: object) -> None:
    with pytest.raises(ConfigError, match="players must be 2, 3 or 4"):
        CAPER.create({"city": "paris", "players": players}, 1)  # type: ignore[dict-item]


def test_caper_europe_has_no_players_setting() -> None:
    from arena.games.caper_europe import CAPER_EUROPE

    with pytest.raises(ConfigError, match="unknown Caper: Europe setting"):
        CAPER_EUROPE.create({"city": "paris", "players": 3}, 1)


def test_the_new_actions_have_a_stable_text_form() -> None:
    give = Action(ActionKind.GIVE, "The Mime", other="The Dame")
    assert CAPER.action_text(give) == "give The Mime to cream, The Dame to mint"
    assert CAPER.parse_action("give The Dame to mint, The Mime to cream") == give
    send = Action(ActionKind.SEND, "Skeleton Key", other="Smoke Screen")
    assert CAPER.action_text(send) == "send Skeleton Key + Smoke Screen"
    assert CAPER.parse_action("send Smoke Screen + Skeleton Key") == send


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("give The Mime", "expected '<card> to cream'"),
        ("give The Mime to cream", "expected 'give <card> to cream, <card> to mint'"),
        ("give The Mime to cream, The Dame to cream", "to cream, <card> to mint"),
        ("give The Mime to cream, Nobody to mint", "unknown card 'Nobody'"),
        ("send The Mime", "expected 'send <card> \\+ <card>'"),
        ("send The Mime + Nobody", "unknown card 'Nobody'"),
    ],
)
def test_malformed_passes_are_invalid_actions_naming_the_problem(text: str, message: str) -> None:
    with pytest.raises(InvalidActionError, match=message):
        CAPER.parse_action(text)


def test_a_second_card_on_a_play_is_refused() -> None:
    state = CAPER.create({"city": "paris"}, 3)
    play = CAPER.legal_actions(state)[0]
    with pytest.raises(GameError, match="takes no second card"):
        CAPER.apply(state, play._replace(other="The Mime"))
    with pytest.raises(GameError, match="only the Snitch gives"):
        CAPER.apply(state, Action(ActionKind.GIVE, "The Mime", other="The Dame"))


@pytest.mark.parametrize("players", [3, 4])
def test_a_record_replays_to_the_same_game_and_result(players: int) -> None:
    config: dict[str, str | int] = {"city": "london", "players": players}
    final, texts = play(config, 12)
    result = CAPER.result(final)
    record = GameRecord(
        "caper", CAPER.rules_version, config, 12, tuple(texts), result=result.to_json()
    )
    loaded = GameRecord.loads(record.dumps())
    assert loaded.config == config
    state, replayed = replay(loaded)
    assert state == final and replayed == result
    assert len(list(replay_states(loaded))) == len(texts) + 1


@pytest.mark.parametrize("players", [3, 4])
def test_render_shows_every_seat_and_hides_what_a_seat_cannot_see(players: int) -> None:
    state = CAPER.create({"city": "paris", "players": players}, 8)
    state = CAPER.apply(state, CAPER.legal_actions(state)[0])
    everything = CAPER.render(state)
    assert f"Caper for {players} in Paris" in everything
    passer = "Snitch" if players == 3 else "Mint Lookout"
    assert passer in everything and "unknown" not in everything
    hidden_hand = ", ".join(card.name for card in state.hands[1])
    assert hidden_hand in everything
    for seat in range(players):
        view = CAPER.render(state, seat)
        assert "unknown card" in view
        if seat != 1:
            assert hidden_hand not in view.split("Mint:")[1].split(";")[1]
    assert "you passed this round" in CAPER.render(state, SNITCH)


def test_observing_a_seat_the_game_does_not_have_is_an_error() -> None:
    state = CAPER.create({"city": "paris", "players": 3}, 1)
    with pytest.raises(GameError, match="seats 0, 1 and 2, not 3"):
        CAPER.observation(state, 3)


def test_bench_engine_measures_every_number_of_players() -> None:
    assert engine_configs("caper", "rome") == [
        {"city": "rome"},
        {"city": "rome", "players": 3},
        {"city": "rome", "players": 4},
    ]
    assert engine_configs("caper-europe", "rome") == [{"city": "rome"}]
    with pytest.raises(ConfigError, match="unknown city 'berlin'"):
        engine_configs("caper", "berlin")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_self_play_reports_every_seat(players: int) -> None:
    figures = self_play("caper", {"city": "paris", "players": players}, "greedy", games=3)
    assert len(figures.mean_scores) == len(figures.wins) == players
    assert all(score > 0 for score in figures.mean_scores)
    winners_per_game = 2 if players == 4 else 1  # both seats of the winning team
    assert sum(figures.wins) == 3 * winners_per_game
