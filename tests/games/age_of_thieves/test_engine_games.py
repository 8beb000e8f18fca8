"""Whole games of the Age of Thieves engine: every game ends, every state keeps the invariants
of spec 22.8, records replay to the same state, and the arena's conformance checker passes
(hidden information included)."""

from __future__ import annotations

import random

import pytest

from arena.games import GAMES
from arena.games.age_of_thieves.invariants import check, violations
from arena.games.age_of_thieves.observation import resample_hidden
from arena.games.age_of_thieves.state import Action, replace
from arena.games.conformance import check_game
from arena.games.record import GameRecord, replay
from tests.games.age_of_thieves.helpers import GAME, eager, play

PLAYERS = (2, 3, 4)


@pytest.mark.parametrize("players", PLAYERS)
def test_random_games_end_within_fifteen_rounds(players: int) -> None:
    """Section 19: the event decks bound a game; random play ends every game (40 seeds)."""
    for seed in range(40):
        state, actions = play(players, seed)
        assert state.over and state.round <= 15 and actions
        result = GAME.result(state)
        assert len(result.scores) == players
        assert result.details["everyone_loses"] == (result.winner is None)


@pytest.mark.parametrize("players", PLAYERS)
def test_eager_games_reach_the_alarm_and_the_exits(players: int) -> None:
    """Sections 18, 19: a player going for the Emperor's Jewel raises the alarm; some thieves
    leave the city; every state on the way keeps the invariants of 22.8."""
    alarms = escapes = 0
    for seed in range(30):
        state = GAME.create({"players": players}, seed)
        rng = random.Random(seed)
        while not GAME.is_terminal(state):
            check(state)
            state = GAME.apply(state, eager(state, rng), GAME.current_player(state))
        check(state)
        alarms += state.status.value == "alarm"
        escapes += any(not t.on_board for t in state.thieves)
    assert alarms > 0 and escapes > 0


def test_an_invariant_breach_is_reported() -> None:
    """22.8: the checker can fail: two guards on one space, a jewel gone."""
    state = GAME.create({"players": 2}, 3)

    broken = replace(state, guards=(state.guards[0], *state.guards), yellow_supply=9)
    found = violations(broken)
    assert any("more than 1 guard" in v for v in found)
    assert any("jewels not conserved" in v for v in found)


@pytest.mark.parametrize("players", PLAYERS)
def test_records_replay_to_the_same_state(players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(GAMES, GAME.id, GAME)
    for seed in range(5):
        state, actions = play(players, seed, eager_player=seed % 2 == 0)
        record = GameRecord(GAME.id, GAME.rules_version, {"players": players}, seed, tuple(actions))
        replayed, result = replay(GameRecord.loads(record.dumps()))
        assert replayed == state
        assert result == GAME.result(state)


@pytest.mark.parametrize("players", PLAYERS)
def test_conformance(players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The arena's checker: sorted unique legal actions, apply pure, illegal actions refused,
    observations blind to other hands, unrevealed plans and face-down tiles, replay exact."""
    monkeypatch.setitem(GAMES, GAME.id, GAME)
    probes = [Action("done"), Action("step", "T"), Action("stop"), Action("ap", "1")]
    report = check_game(GAME, {"players": players}, range(4), resample_hidden, probes)
    assert report.games == 4 and report.decisions > 100


@pytest.mark.parametrize("players", PLAYERS)
def test_observations_hide_what_eager_games_keep_secret(players: int) -> None:
    """22.7: in games that reach the alarm, no seat's view changes when what it cannot see is
    dealt anew."""
    for seed in range(3):
        state = GAME.create({"players": players}, seed)
        rng = random.Random(seed)
        while not GAME.is_terminal(state):
            for seat in range(players):
                seen = GAME.observation(state, seat).to_json()
                other = resample_hidden(state, seat, rng)
                assert GAME.observation(other, seat).to_json() == seen
            state = GAME.apply(state, eager(state, rng), GAME.current_player(state))


def test_bad_input_is_refused_with_a_clear_error() -> None:
    from arena.games.api import ConfigError, InvalidActionError, WrongSeatError

    with pytest.raises(ConfigError, match="2, 3 or 4 players"):
        GAME.create({"players": 5}, 1)
    with pytest.raises(InvalidActionError, match="unknown action"):
        GAME.parse_action("fly N34")
    state = GAME.create({"players": 2}, 1)
    seat = GAME.current_player(state)
    assert seat is not None
    with pytest.raises(WrongSeatError):
        GAME.apply(state, GAME.legal_actions(state)[0], 1 - seat)


def test_games_with_the_first_player_ordering_the_guards_end() -> None:
    """D-6 step 4: the variant asks the first player to order guards; games still end and keep
    the invariants of 22.8."""
    asked = 0
    for players in PLAYERS:
        for seed in range(6):
            state = GAME.create({"players": players, "first_player_orders_guards": 1}, seed)
            rng = random.Random(seed)
            while not GAME.is_terminal(state):
                check(state)
                assert state.prompt is not None
                asked += state.prompt.name in ("guard_order", "guard_target")
                state = GAME.apply(state, eager(state, rng), GAME.current_player(state))
    assert asked > 0


def test_settings_thieves_and_first_game() -> None:
    """Section 4 steps 3-4: thieves chosen by setting; a first game leaves the specials out."""
    from arena.games.api import ConfigError

    state = GAME.create({"players": 3, "thieves": "zain,morius,joanne", "first_game": 1}, 7)
    assert [t.name for t in state.thieves] == ["zain", "morius", "joanne"]
    assert not state.specials
    rng = random.Random(7)
    while not GAME.is_terminal(state):
        assert not any(
            a.kind == "plan" and a.arg.startswith("S") for a in GAME.legal_actions(state)
        )
        state = GAME.apply(state, rng.choice(list(GAME.legal_actions(state))))
    with pytest.raises(ConfigError, match="unknown thief"):
        GAME.create({"players": 2, "thieves": "zain,robin"}, 1)
    with pytest.raises(ConfigError, match="settings are"):
        GAME.create({"players": 2, "colour": "red"}, 1)
    assert [r.role for r in GAME.seat_roles({"players": 4})] == ["player"] * 4


def test_every_decision_is_documented() -> None:
    """Every prompt met in play is listed in DECISIONS with who takes it."""
    from arena.games.age_of_thieves.state import DECISIONS

    met: set[str] = set()
    for players in PLAYERS:
        for seed in range(6):
            config = {"players": players, "first_player_orders_guards": seed % 2}
            state, rng = GAME.create(config, seed), random.Random(seed)
            while not GAME.is_terminal(state):
                assert state.prompt is not None
                met.add(state.prompt.name)
                action = (
                    eager(state, rng) if seed % 3 else rng.choice(list(GAME.legal_actions(state)))
                )
                state = GAME.apply(state, action)
    assert met <= set(DECISIONS) and len(met) > 8


def test_a_record_on_the_earlier_board_replays_on_it_and_its_result_names_it() -> None:
    """The config's "board" sets up that board's starting guards (Hadria-R1: beside the palace
    gates; the current Hadria-R2: at (3,4)); the result says which board, and a record made on
    the earlier board replays there."""
    rng = random.Random(4)
    config: dict[str, str | int] = {"players": 2, "board": "hadria-r1"}
    state = GAME.create(config, 4)
    assert {g[1:] for g in state.guards} == {"32", "50", "54"}
    assert {g[1:] for g in GAME.create({"players": 2}, 4).guards} == {"34", "50", "54"}
    actions: list[str] = []
    while not GAME.is_terminal(state):
        action = rng.choice(list(GAME.legal_actions(state)))
        actions.append(GAME.action_text(action))
        state = GAME.apply(state, action, GAME.current_player(state))
    assert GAME.result(state).details["board"] == "hadria-r1"
    record = GameRecord(GAME.id, GAME.rules_version, config, 4, tuple(actions))
    replayed, _ = replay(GameRecord.loads(record.dumps()))
    assert replayed == state and replayed.board == "hadria-r1"


def test_replace_copies_a_state_with_the_named_fields_changed_and_refuses_unknown_ones() -> None:
    state = GAME.create({"players": 3}, 5)
    thief = state.thief(1)
    moved = replace(thief, space="E44", informers=thief.informers + 3)
    assert (moved.space, moved.informers, moved.hand) == ("E44", thief.informers + 3, thief.hand)
    assert thief.space != "E44" and moved != thief
    copied = replace(state, round=state.round + 1)
    assert copied.round == state.round + 1 and copied.thieves is state.thieves
    assert replace(state) == state
    with pytest.raises(TypeError, match="State has no field 'nope'"):
        replace(state, nope=1)
