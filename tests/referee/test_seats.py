"""Seats and sides in the referee and local play: the 4-player team game (V11), tables of the
3-player Snitch game played in rotations (V12), and faults in games of three and four seats."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator, Sequence
from typing import Any, ClassVar

import pytest

from arena.bots import BUILTIN_BOTS
from arena.bots.random_bot import RandomBot
from arena.games.api import Config, ConfigError, Game, Observation
from arena.games.caper import CAPER, Action, ActionKind
from arena.play.local import play_rotation
from arena.referee.referee import (
    BuiltinSeat,
    Decision,
    DecisionRequest,
    Fault,
    FaultPolicy,
    GameInfo,
    GameOutcome,
    Seat,
    Termination,
    referee_game,
)
from arena.referee.scoring import score_entrants, score_match
from arena.referee.seats import SeatInfo, deals, layout, lineup, placements

POLICY = FaultPolicy(move_ms=1000, bank_ms=5000, max_strikes=3, grace_ms=1000)
SNITCH: Config = {"city": "rome", "players": 3}
TEAMS: Config = {"city": "paris", "players": 4}


class SpyBot:
    """Plays at random and remembers, per instance, the seat of every view it was given."""

    name = "spy"
    views: ClassVar[dict[int, list[tuple[int, str]]]] = {}  # id(instance) -> [(seat, role)]

    def choose(
        self,
        game: Game[Any, Any],
        observation: Observation,
        legal: Sequence[Any],
        rng: random.Random,
    ) -> Any:
        view = observation.to_json()
        SpyBot.views.setdefault(id(self), []).append((observation.seat, view["role"]))
        return legal[rng.randrange(len(legal))]


@pytest.fixture
def spy(monkeypatch: pytest.MonkeyPatch) -> Iterator[type[SpyBot]]:
    monkeypatch.setitem(BUILTIN_BOTS, "spy", SpyBot)
    SpyBot.views = {}
    yield SpyBot


class Watching(BuiltinSeat):
    """A built-in random bot that keeps what the referee tells it at the start and the end."""

    def __init__(self, name: str, seat: int, seed: int = 1) -> None:
        super().__init__(RandomBot(), CAPER, seed, seat, name)
        self.info: GameInfo | None = None
        self.outcome: GameOutcome | None = None

    def start(self, info: GameInfo) -> None:
        self.info = info

    def finish(self, info: GameInfo, outcome: GameOutcome) -> None:
        self.outcome = outcome


class Faulty:
    """Answers its first decisions at random, then with `fault` (or an illegal `action`)."""

    def __init__(self, name: str, fault: Fault | None = None, action: Action | None = None) -> None:
        self.name, self.fault, self.action = name, fault, action
        self.decisions = 0

    def start(self, info: GameInfo) -> None:
        pass

    def decide(self, request: DecisionRequest) -> Decision:
        self.decisions += 1
        if self.decisions <= 2:
            return Decision(request.legal[0])
        if self.action is not None:
            return Decision(self.action)
        return Decision(fault=self.fault, detail="test")

    def finish(self, info: GameInfo, outcome: GameOutcome) -> None:
        pass


def test_V11_each_seat_of_a_team_gets_its_own_bot_instance_and_only_its_own_view(
    spy: type[SpyBot],
) -> None:
    for rotation, team_seats in ((0, {0, 2}), (1, {1, 3})):
        spy.views = {}
        played = play_rotation(CAPER, TEAMS, 7, ["spy", "random"], rotation)
        assert set(played.record.players) == {"spy", "random"}
        assert {s for s, name in enumerate(played.record.players) if name == "spy"} == team_seats
        assert len(spy.views) == 2, "one bot instance a seat of the team"
        seats_seen = [set(views) for views in spy.views.values()]
        assert all(len(seen) == 1 for seen in seats_seen), "each instance sees one seat only"
        assert {next(iter(seen))[0] for seen in seats_seen} == team_seats
        assert {next(iter(seen))[1] for seen in seats_seen} == {"mastermind", "lookout"}
        assert played.result.details["winners"] in ([0, 2], [1, 3])


def test_V11_game_info_lists_every_seat_with_role_and_team() -> None:
    names = ("cream-team", "mint-team", "cream-team", "mint-team")
    seats = [Watching(name, seat) for seat, name in enumerate(names)]
    outcome = referee_game(CAPER, TEAMS, 3, seats, POLICY, "teams", timer=time.perf_counter)
    assert outcome.termination is Termination.NORMAL
    expected = (
        SeatInfo("cream-team", "mastermind", "cream"),
        SeatInfo("mint-team", "mastermind", "mint"),
        SeatInfo("cream-team", "lookout", "cream"),
        SeatInfo("mint-team", "lookout", "mint"),
    )
    for seat, watching in enumerate(seats):
        assert watching.info is not None and watching.info.seat == seat
        assert watching.info.seats == expected
        assert watching.info.opponent == ("mint-team" if seat % 2 == 0 else "cream-team")
        assert watching.outcome is outcome
    # Both seats of a team score the team's points and win or lose together (V10).
    scores, winners = outcome.result.scores, outcome.result.details["winners"]
    assert scores[0] == scores[2] and scores[1] == scores[3]
    assert placements(outcome.result, layout(CAPER, TEAMS)) == (
        (1.0, 2.0) if winners == [0, 2] else (2.0, 1.0)
    )


def test_game_info_of_a_snitch_table_and_of_a_two_player_game() -> None:
    seats = [Watching(name, seat) for seat, name in enumerate(("ann", "bob", "cyd"))]
    referee_game(CAPER, SNITCH, 4, seats, POLICY, "snitch", timer=time.perf_counter)
    roles = [(s.role, s.team) for s in seats[0].info.seats] if seats[0].info else []
    assert roles == [("mastermind", "cream"), ("mastermind", "mint"), ("snitch", "")]
    assert [s.info.opponent for s in seats if s.info] == ["bob, cyd", "ann, cyd", "ann, bob"]
    pair = [Watching("ann", 0), Watching("bob", 1)]
    referee_game(CAPER, {}, 4, pair, POLICY, "pair", timer=time.perf_counter)
    assert [s.info.opponent for s in pair if s.info] == ["bob", "ann"]
    assert pair[0].info is not None and len(pair[0].info.seats) == 2


def test_V12_a_duplicate_table_gives_each_entrant_every_seat_of_a_deal() -> None:
    entrants = ["greedy", "random", "random/2"]
    assert deals(6, 10, True, sides=3) == [(10, 0), (10, 1), (10, 2), (11, 0), (11, 1), (11, 2)]
    games = [play_rotation(CAPER, SNITCH, 10, entrants, r) for r, _ in enumerate(entrants)]
    seats_of = {e: [g.record.players.index(e) for g in games] for e in entrants}
    assert all(sorted(seats) == [0, 1, 2] for seats in seats_of.values()), seats_of
    assert {g.record.seed for g in games} == {10}
    first_cards = [_cards_given(g.record.actions[0]) for g in games]
    assert first_cards[0] == first_cards[1] == first_cards[2], "the same deal in each rotation"
    lineups = [lineup(entrants, r) for r in range(3)]
    scored = score_entrants([g.result for g in games], lineups, layout(CAPER, SNITCH))
    assert [s.name for s in scored] == entrants and all(s.games == 3 for s in scored)
    assert sum(s.wins for s in scored) == 3
    assert sum(s.placement for s in scored) == pytest.approx(6.0)  # 1 + 2 + 3 a game, averaged
    for s, name in zip(scored, entrants, strict=True):
        seat_scores = [g.result.scores[g.record.players.index(name)] for g in games]
        assert s.score == sum(seat_scores)


def test_a_table_is_not_scored_as_a_match_of_two() -> None:
    names = ("greedy", "random", "random/2")
    seats = [Watching(name, seat, 3) for seat, name in enumerate(names)]
    outcome = referee_game(CAPER, SNITCH, 3, seats, POLICY, "table", timer=time.perf_counter)
    with pytest.raises(ValueError, match="scored between 2 players, not 3"):
        score_match([outcome], names, duplicate=False)


def test_two_sides_that_fault_alike_draw_the_match_rather_than_forfeit_it() -> None:
    """The one who moves first forfeits each game of the duplicate pair: one game each, no
    card points, so no winner, which a forfeit must have."""
    outcomes = [
        referee_game(CAPER, {"city": "paris"}, 9, seats, POLICY, f"g{n}", timer=time.perf_counter)
        for n, seats in enumerate(
            [
                [Faulty("a", Fault.DISCONNECTED), Faulty("b", Fault.DISCONNECTED)],
                [Faulty("b", Fault.DISCONNECTED), Faulty("a", Fault.DISCONNECTED)],
            ]
        )
    ]
    assert [o.termination for o in outcomes] == [Termination.DISCONNECT] * 2
    score = score_match(outcomes, ["a", "b"], duplicate=True)
    assert score.game_points == (0.5, 0.5) and not score.forfeit
    one_sided = score_match(outcomes[:1] * 2, ["a", "b"], duplicate=True)
    assert one_sided.forfeit and one_sided.game_points[0] != one_sided.game_points[1]


def test_two_player_duplicate_deals_are_unchanged() -> None:
    assert deals(4, 5, True) == [(5, 0), (5, 1), (6, 0), (6, 1)]
    assert deals(3, 5, False) == [(5, 0), (6, 1), (7, 0)]
    assert lineup(("a", "b"), 1) == ("b", "a")


@pytest.mark.parametrize(
    ("faulty", "winners", "places"),
    [(2, [0, 1], (1.5, 1.5, 3.0)), (1, [0, 2], (1.5, 3.0, 1.5)), (0, [1, 2], (3.0, 1.5, 1.5))],
)
def test_a_fault_at_a_snitch_table_places_the_seat_at_fault_last(
    faulty: int, winners: list[int], places: tuple[float, ...]
) -> None:
    seats: list[Seat] = [BuiltinSeat(RandomBot(), CAPER, 5, seat) for seat in range(3)]
    seats[faulty] = Faulty("quitter", fault=Fault.RESIGNED)
    outcome = referee_game(CAPER, SNITCH, 5, seats, POLICY, "table", timer=time.perf_counter)
    assert outcome.termination is Termination.RESIGNATION
    assert outcome.result.details["forfeit"] == faulty
    assert outcome.result.details["winners"] == winners
    assert outcome.result.winner is None, "the sides not at fault share the win"
    assert outcome.result.scores == (0, 0, 0)
    assert placements(outcome.result, layout(CAPER, SNITCH)) == places
    assert (
        outcome.record.result is not None and outcome.record.result["details"]["forfeit"] == faulty
    )


@pytest.mark.parametrize(("faulty", "winner"), [(2, 1), (3, 0), (0, 1), (1, 0)])
def test_a_fault_in_the_team_game_loses_it_for_the_whole_team(faulty: int, winner: int) -> None:
    seats: list[Seat] = [BuiltinSeat(RandomBot(), CAPER, 6, seat) for seat in range(4)]
    seats[faulty] = Faulty("cheat", fault=Fault.DISCONNECTED)
    outcome = referee_game(CAPER, TEAMS, 6, seats, POLICY, "teams", timer=time.perf_counter)
    assert outcome.termination is Termination.DISCONNECT
    assert outcome.result.winner == winner
    assert outcome.result.details["winners"] == [winner, winner + 2]
    assert placements(outcome.result, layout(CAPER, TEAMS)) == (
        (1.0, 2.0) if winner == 0 else (2.0, 1.0)
    )


def test_an_illegal_action_of_a_lookout_gives_the_engines_reason() -> None:
    seats: list[Seat] = [BuiltinSeat(RandomBot(), CAPER, 8, seat) for seat in range(4)]
    seats[2] = Faulty("cheat", action=Action(ActionKind.DISCARD, "Skeleton Key"))
    outcome = referee_game(CAPER, TEAMS, 8, seats, POLICY, "teams", timer=time.perf_counter)
    assert outcome.termination is Termination.ILLEGAL_ACTION
    assert outcome.reason.startswith("illegal action: ")
    assert outcome.result.details["winners"] == [1, 3] and outcome.faults[-1][0] == 2


def test_the_referee_refuses_a_wrong_number_of_seats() -> None:
    seats = [BuiltinSeat(RandomBot(), CAPER, 1, seat) for seat in range(2)]
    with pytest.raises(ConfigError, match="has 3 seats, not 2"):
        referee_game(CAPER, SNITCH, 1, seats, POLICY, "short", timer=time.perf_counter)
    with pytest.raises(ConfigError, match="needs 3 players, not 2"):
        play_rotation(CAPER, SNITCH, 1, ["random", "random"], 0)


def _cards_given(action: str) -> list[str]:
    """The cards of a Snitch's "give A to cream, B to mint", whoever got which."""
    return sorted(part.rpartition(" to ")[0] for part in action.removeprefix("give ").split(", "))
