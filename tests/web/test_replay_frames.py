"""The replay viewer's view model (arena.web.replay_frames): frames of real games, checked
against the engine's own replay, observations and text."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from arena.games import get_game
from arena.games.action_words import action_words
from arena.games.age_of_thieves.observation import resample_hidden as aot_resample
from arena.games.caper.observation import resample_hidden as caper_resample
from arena.games.caper_europe.observation import resample_hidden as europe_resample
from arena.games.record import GameRecord, RecordError, replay, replay_states
from arena.play.local import play_rotation
from arena.web.replay_frames import (
    ALL,
    ViewerError,
    build_replay,
    parse_viewer,
    seat_count,
    view_of,
)

GAMES: list[tuple[str, dict[str, str | int], int]] = [
    ("caper", {"city": "paris"}, 2),
    ("caper", {"city": "rome", "players": 3}, 3),
    ("caper-europe", {"city": "barcelona"}, 2),
    ("age-of-thieves", {"players": 3}, 3),
]
RESAMPLE: dict[str, Callable[[Any, int, random.Random], Any]] = {
    "caper": caper_resample,
    "caper-europe": europe_resample,
    "age-of-thieves": aot_resample,
}


def _record(game_id: str, config: dict[str, str | int], sides: int, seed: int = 3) -> GameRecord:
    return play_rotation(get_game(game_id), config, seed, ["random"] * sides, 0).record


@pytest.mark.parametrize(("game_id", "config", "sides"), GAMES)
def test_one_frame_per_move_plus_the_deal_and_the_stored_scores_at_the_end(
    game_id: str, config: dict[str, str | int], sides: int
) -> None:
    record = _record(game_id, config, sides)
    _, result = replay(record)
    assert result is not None and record.result is not None
    for viewer in (ALL, *range(seat_count(record))):
        built = build_replay(record, viewer)
        assert len(built.frames) == len(record.actions) + 1 == built.moves + 1
        assert [f.step for f in built.frames] == list(range(len(record.actions) + 1))
        assert built.frames[-1].scores == result.scores == tuple(record.result["scores"])
        assert all(f.scores is None for f in built.frames[:-1])
        assert built.frames[0].action is None and built.frames[-1].to_move is None


@pytest.mark.parametrize(("game_id", "config", "sides"), GAMES[2:])
def test_moves_name_their_cards_where_the_engine_writes_ids(
    game_id: str, config: dict[str, str | int], sides: int
) -> None:
    record = _record(game_id, config, sides)
    frames = build_replay(record, ALL).frames[1:]
    assert [f.action for f in frames] == list(record.actions)  # the engine's text, as stored
    assert [f.words for f in frames] == [action_words(game_id, a) for a in record.actions]
    named = [f for f in frames if f.words != f.action]
    assert named, "some moves of a game play a card"
    assert all(f.to_json()["words"] == f.words for f in named)


@pytest.mark.parametrize(("game_id", "config", "sides"), GAMES)
def test_the_all_view_shows_every_move_and_the_engines_text_of_every_state(
    game_id: str, config: dict[str, str | int], sides: int
) -> None:
    record = _record(game_id, config, sides)
    game = get_game(game_id)
    built = build_replay(record, ALL)
    states = list(replay_states(record))
    for frame, (text, state) in zip(built.frames, states, strict=True):
        assert frame.action == text
        assert frame.text == game.render(state)
        assert frame.to_move == game.current_player(state)
        own = [game.observation(state, seat).to_json()["hand"] for seat in range(sides)]
        assert frame.view["hands"] == own
        if "coins" in frame.view:  # the Caper family: the money on the table
            assert frame.view["coins"] == list(state.coins)
    movers = [f.mover for f in built.frames[1:]]
    assert movers == [game.current_player(state) for _, state in states[:-1]]


@pytest.mark.parametrize(("game_id", "config", "sides"), GAMES)
def test_a_seat_view_is_the_engines_observation_and_never_holds_hidden_cards(
    game_id: str, config: dict[str, str | int], sides: int
) -> None:
    """Resampling everything a seat cannot see (other hands, deck order, secret plans) leaves
    its frames unchanged: no hidden card reaches them."""
    record = _record(game_id, config, sides)
    game = get_game(game_id)
    rng = random.Random(11)
    states = [state for _, state in replay_states(record)]
    for seat in range(seat_count(record)):
        built = build_replay(record, seat)
        assert "hands" not in built.frames[0].view
        for frame, state in zip(built.frames, states, strict=True):
            assert frame.view["hand"] == game.observation(state, seat).to_json()["hand"]
            assert frame.text == game.render(state, seat)
            other = RESAMPLE[game_id](state, seat, rng)
            assert view_of(game, other, seat, sides) == frame.view
            assert game.render(other, seat) == frame.text


def test_a_hidden_pass_stays_hidden_from_the_other_seats() -> None:
    """V4: only the Snitch sees which cards it gave to whom."""
    record = _record("caper", {"city": "rome", "players": 3}, 3)
    gives = [i for i, a in enumerate(record.actions, start=1) if a.startswith("give ")]
    assert gives, "a 3-player game has the Snitch's gifts"
    snitch, cream = build_replay(record, 2), build_replay(record, 0)
    assert snitch.roles == ("cream mastermind", "mint mastermind", "snitch")
    everyone = build_replay(record, ALL)
    for step in gives:
        assert (
            snitch.frames[step].action == everyone.frames[step].action == record.actions[step - 1]
        )
        assert cream.frames[step].action == "give two cards"


def test_a_forfeited_game_replays_up_to_its_last_move_with_the_referees_result() -> None:
    record = _record("caper", {"city": "paris"}, 2)
    forfeit = {"scores": [0, 1], "winner": 1, "breakdown": [{}, {}], "tiebreak": "", "details": {}}
    cut = GameRecord.from_json(
        record.to_json()
        | {"actions": list(record.actions[:9]), "termination": "forfeit", "result": forfeit}
    )
    built = build_replay(cut, ALL)
    assert len(built.frames) == 10 and built.frames[-1].to_move is not None
    assert all(frame.scores is None for frame in built.frames)
    assert built.to_json()["termination"] == "forfeit" and built.result == forfeit


def test_bad_viewers_and_records_give_clear_errors() -> None:
    record = _record("caper", {"city": "paris"}, 2)
    assert parse_viewer(None, 2) is ALL and parse_viewer("all", 2) is ALL
    assert parse_viewer("1", 2) == 1
    for text in ("2", "-1", "x", "1.0", ""):
        with pytest.raises(ViewerError, match="seat must be 'all' or a number from 0 to 1"):
            parse_viewer(text, 2)
    with pytest.raises(ViewerError, match="seats 0 to 1, not 5"):
        build_replay(record, 5)
    broken: dict[str, Any] = record.to_json() | {
        "actions": [*record.actions[:3], "thief Nobody at 9"]
    }
    with pytest.raises(RecordError, match="action 4"):
        build_replay(GameRecord.from_json(broken), ALL)
    with pytest.raises(RecordError, match="unknown game"):
        build_replay(GameRecord.from_json(record.to_json() | {"game": "chess"}), ALL)
