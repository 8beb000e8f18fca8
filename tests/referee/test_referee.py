"""The referee's fault policy: strikes, forfeits and how each game's record says it ended; the
timer and the memory of action texts it is handed."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import pytest

from arena.bots import make_bot
from arena.bots.random_bot import RandomBot
from arena.games.caper import CAPER, Action, ActionKind
from arena.games.record import ActionTexts, GameRecord, replay_states
from arena.play.local import play_game
from arena.referee import referee
from arena.referee.referee import (
    BuiltinSeat,
    Decision,
    DecisionRequest,
    Fault,
    FaultPolicy,
    GameInfo,
    GameOutcome,
    Termination,
    referee_game,
)

POLICY = FaultPolicy(move_ms=1000, bank_ms=5000, max_strikes=3, grace_ms=1000)


@dataclass
class ScriptedSeat:
    """Answers with a fault (or a fixed action) from some decision on; random before."""

    name: str = "scripted"
    fault: Fault | None = None
    action: Action | None = None
    from_decision: int = 0
    decisions: int = 0
    started: list[GameInfo] = field(default_factory=list)
    finished: list[GameOutcome] = field(default_factory=list)

    def start(self, info: GameInfo) -> None:
        self.started.append(info)

    def decide(self, request: DecisionRequest) -> Decision:
        self.decisions += 1
        if self.decisions <= self.from_decision:
            return Decision(request.legal[0])
        if self.action is not None:
            return Decision(self.action)
        return Decision(fault=self.fault, detail="test")

    def finish(self, info: GameInfo, outcome: GameOutcome) -> None:
        self.finished.append(outcome)


def builtin(seat: int, seed: int = 1) -> BuiltinSeat:
    return BuiltinSeat(RandomBot(), CAPER, seed, seat)


def test_a_normal_game_ends_normally_and_replays() -> None:
    outcome = referee_game(
        CAPER, {"city": "rome"}, 1, [builtin(0), builtin(1)], POLICY, "g1", timer=time.perf_counter
    )
    assert outcome.termination is Termination.NORMAL
    assert outcome.record.termination == "normal"
    *_, (_, final) = replay_states(GameRecord.loads(outcome.record.dumps()))
    assert CAPER.result(final).scores == outcome.result.scores


def test_three_missed_deadlines_forfeit_and_earlier_ones_play_a_random_move() -> None:
    slow = ScriptedSeat(fault=Fault.TIMEOUT)
    outcome = referee_game(CAPER, {}, 2, [slow, builtin(1)], POLICY, "g2", timer=time.perf_counter)
    assert outcome.termination is Termination.TIMEOUT
    assert outcome.result.winner == 1
    assert outcome.reason == "3 missed deadlines"
    strikes = [what for seat, what in outcome.faults if "strike" in what]
    assert strikes == [f"missed the deadline (strike {n})" for n in (1, 2, 3)]
    # Two random moves were played for the slow seat, each answered by the other seat.
    assert len(outcome.record.actions) == 4
    assert len(list(replay_states(outcome.record))) == 5


def test_an_illegal_action_forfeits_with_the_engines_reason() -> None:
    cheat = ScriptedSeat(action=Action(ActionKind.DISCARD, "Skeleton Key"))
    outcome = referee_game(CAPER, {}, 3, [builtin(0), cheat], POLICY, "g3", timer=time.perf_counter)
    assert outcome.termination is Termination.ILLEGAL_ACTION and outcome.result.winner == 0
    assert outcome.reason.startswith("illegal action: discard Skeleton Key: ")
    assert "Thief round" in outcome.reason
    assert outcome.record.result is not None and outcome.record.result["details"]["forfeit"] == 1


class Relayed:
    """A built-in seat seen through the general path (request and decision), as a remote one."""

    def __init__(self, seat: BuiltinSeat) -> None:
        self.name, self._seat = seat.name, seat

    def start(self, info: GameInfo) -> None:
        pass

    def decide(self, request: DecisionRequest) -> Decision:
        return self._seat.decide(request)

    def finish(self, info: GameInfo, outcome: GameOutcome) -> None:
        pass


@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_built_in_seats_take_a_shorter_path_to_the_same_game(bot: str) -> None:
    for seed in range(5):
        seats = [BuiltinSeat(make_bot(bot), CAPER, seed, n) for n in (0, 1)]
        relayed = [Relayed(BuiltinSeat(make_bot(bot), CAPER, seed, n)) for n in (0, 1)]
        direct = referee_game(CAPER, {}, seed, seats, POLICY, "g", timer=time.perf_counter)
        general = referee_game(CAPER, {}, seed, relayed, POLICY, "g", timer=time.perf_counter)
        assert direct.record.actions == general.record.actions
        assert direct.result == general.result


def test_a_built_in_bot_that_plays_an_illegal_action_forfeits_too() -> None:
    class Broken(RandomBot):
        def choose(self, *args: object) -> Action:
            return Action(ActionKind.DISCARD, "Skeleton Key")

    broken = BuiltinSeat(Broken(), CAPER, 3, 1)
    outcome = referee_game(
        CAPER, {}, 3, [builtin(0), broken], POLICY, "g3", timer=time.perf_counter
    )
    assert outcome.termination is Termination.ILLEGAL_ACTION and outcome.result.winner == 0
    assert outcome.reason.startswith("illegal action: discard Skeleton Key: ")


@pytest.mark.parametrize(
    ("fault", "termination", "reason"),
    [
        (Fault.DISCONNECTED, Termination.DISCONNECT, "disconnected: test"),
        (Fault.RESIGNED, Termination.RESIGNATION, "resigned: test"),
    ],
)
def test_disconnect_and_resignation_forfeit(
    fault: Fault, termination: Termination, reason: str
) -> None:
    seat = ScriptedSeat(fault=fault, from_decision=4)
    outcome = referee_game(CAPER, {}, 4, [seat, builtin(1)], POLICY, "g4", timer=time.perf_counter)
    assert outcome.termination is termination and outcome.record.termination == termination.value
    assert outcome.reason == reason and outcome.result.winner == 1
    assert len(seat.finished) == 1 and seat.finished[0] is outcome
    assert seat.started[0].opponent == "random" and seat.started[0].seat == 0


def test_policy_rejects_nonsense() -> None:
    with pytest.raises(ValueError, match="move_ms must not be negative"):
        FaultPolicy(move_ms=-1)
    with pytest.raises(ValueError, match="max_strikes must be at least 1"):
        FaultPolicy(max_strikes=0)


class _CountingCaper(type(CAPER)):  # type: ignore[misc]
    """First-edition Caper that counts the views it is asked to build."""

    def __init__(self) -> None:
        self.views = 0

    def observation(self, state: object, seat: int) -> object:
        self.views += 1
        return super().observation(state, seat)


def test_views_are_built_only_for_bots_that_look() -> None:
    counting = _CountingCaper()
    blind = play_game(counting, {"city": "paris"}, 5, (make_bot("random"), make_bot("random")))
    assert counting.views == 0 and blind.result is not None
    played = play_game(counting, {"city": "paris"}, 5, (make_bot("greedy"), make_bot("random")))
    looks = sum(1 for _ in played.record.actions)  # greedy looks at each of its decisions
    assert 0 < counting.views < looks
    same = play_game(CAPER, {"city": "paris"}, 5, (make_bot("random"), make_bot("random")))
    assert same.record.actions == blind.record.actions, "not looking changes nothing else"


def test_the_referee_times_decisions_with_the_timer_it_is_handed() -> None:
    ticks = iter(range(0, 10**6, 3))  # every reading 3 s after the last: each decision takes 3 s
    outcome = referee_game(
        CAPER, {}, 5, [builtin(0), builtin(1)], POLICY, "timed", timer=lambda: next(ticks)
    )
    assert outcome.termination is Termination.NORMAL, "over budget: the banks pay, no strike"
    assert {ms for seat in outcome.latencies_ms for ms in seat} == {3000.0}
    assert outcome.record.meta["mean_decision_ms"] == [3000.0, 3000.0]


def test_action_texts_are_remembered_only_in_the_memory_the_caller_hands_over() -> None:
    seats = [builtin(0, seed=6), builtin(1, seed=6)]
    alone = referee_game(CAPER, {}, 6, seats, POLICY, "g", timer=time.perf_counter)
    texts = ActionTexts()
    seats = [builtin(0, seed=6), builtin(1, seed=6)]
    kept = referee_game(CAPER, {}, 6, seats, POLICY, "g", timer=time.perf_counter, texts=texts)
    assert kept.record.actions == alone.record.actions
    assert len(texts) == len(set(kept.record.actions)) > 0
    assert not [name for name, value in vars(referee).items() if isinstance(value, ActionTexts)]
