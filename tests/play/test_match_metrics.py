"""What refereeing a match costs besides the games, kept out of the records: metrics summed per
batch of games, a decision's view built only if asked for, action texts remembered."""

from __future__ import annotations

import time

import redis

from arena.bots import make_bot
from arena.games import get_game
from arena.games.api import Observation
from arena.games.record import ActionTexts
from arena.metrics.recorder import (
    DECISION_LATENCY,
    DECISION_TIMEOUTS,
    FORFEITS,
    GAME_DURATION,
    GAMES,
    queue_game,
    read_counter,
    read_histogram,
)
from arena.play.match import play_match
from arena.play.metrics import MatchMetrics
from arena.referee.referee import (
    UNTIMED,
    BuiltinSeat,
    DecisionRequest,
    GameOutcome,
    referee_game,
)


def _outcomes(games: int) -> list[GameOutcome]:
    game = get_game("caper")
    return [
        referee_game(
            game,
            {"city": "paris"},
            seed,
            [BuiltinSeat(make_bot(bot), game, seed, seat) for seat, bot in enumerate(bots)],
            UNTIMED,
            f"g{seed}",
            timer=time.perf_counter,
        )
        for seed in range(games)
        for bots in (("random", "greedy"), ("greedy", "random"))
    ]


def _timings(index: int, outcome: GameOutcome) -> tuple[float, list[tuple[str, float]], int]:
    """Made-up but varied timings: a duration, a latency per action, a timeout now and then."""
    decisions = [
        ("builtin" if n % 3 else "remote", 0.0001 * (n % 7) * (index + 1))
        for n in range(len(outcome.record.actions))
    ]
    return 0.01 * (index + 1), decisions, index % 2


def _metrics(client: redis.Redis) -> tuple[object, ...]:
    histograms = [read_histogram(client, spec) for spec in (GAME_DURATION, DECISION_LATENCY)]
    return (
        *(read_counter(client, spec) for spec in (GAMES, DECISION_TIMEOUTS, FORFEITS)),
        [{labels: data.counts for labels, data in h.items()} for h in histograms],
        [{labels: round(data.total, 9) for labels, data in h.items()} for h in histograms],
    )


def test_a_match_tally_writes_what_recording_game_by_game_wrote(redis_client: redis.Redis) -> None:
    outcomes = _outcomes(3)
    one_by_one = redis_client.pipeline(transaction=False)
    for index, outcome in enumerate(outcomes):
        winner, termination = outcome.result.winner, outcome.termination.value
        queue_game(one_by_one, "caper", winner, termination, *_timings(index, outcome))
    commands_one_by_one = len(one_by_one)
    one_by_one.execute()
    expected = _metrics(redis_client)
    redis_client.flushdb()

    tally, batched = MatchMetrics("caper"), redis_client.pipeline(transaction=False)
    for index, outcome in enumerate(outcomes):
        tally.add(outcome, *_timings(index, outcome))
        if index == 2:  # a batch boundary mid-match
            tally.queue(batched)
    tally.queue(batched)
    tally.queue(batched)  # nothing left: adds nothing
    assert len(batched) < commands_one_by_one / 2, "the point: fewer commands to send"
    batched.execute()
    assert _metrics(redis_client) == expected
    assert sum(read_counter(redis_client, GAMES).values()) == len(outcomes) == 6


def test_a_match_of_many_games_writes_its_metrics_in_few_commands(
    redis_client: redis.Redis,
) -> None:
    outcomes = play_match(
        redis_client, get_game("caper"), {"city": "paris"}, ("random", "greedy"), 12, 3,
        UNTIMED, "m12",
    )  # fmt: skip
    assert sum(read_counter(redis_client, GAMES).values()) == 12
    durations = read_histogram(redis_client, GAME_DURATION)[("caper",)]
    assert sum(durations.counts) == 12
    latency = read_histogram(redis_client, DECISION_LATENCY)[("caper", "builtin")]
    assert sum(latency.counts) == sum(len(o.record.actions) for o in outcomes)


def test_a_decision_view_is_built_once_and_only_when_asked_for() -> None:
    built: list[int] = []

    view = get_game("caper").observation(get_game("caper").create({"city": "paris"}, 1), 0)

    def observe() -> Observation:
        built.append(1)
        return view

    request = DecisionRequest("g", 0, [1, 2], 1000, 0, 0, 3, observe)
    assert built == []
    assert request.observation is view and request.observation is view
    assert built == [1]


class _ListActions:
    """A game whose actions are lists (unhashable): their texts are written every time."""

    id, rules_version = "lists", 1

    def action_text(self, action: list[int]) -> str:
        return "+".join(map(str, action))


def test_action_texts_are_the_games_own_hashable_or_not() -> None:
    game, texts = get_game("caper"), ActionTexts()
    state = game.create({"city": "paris"}, 5)
    for action in game.legal_actions(state):
        assert texts.text(game, action) == game.action_text(action)
        assert texts.text(game, action) == game.action_text(action)  # remembered
    assert texts.text(_ListActions(), [1, 2]) == "1+2"  # type: ignore[arg-type]
