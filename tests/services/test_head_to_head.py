"""Head to head: two bots' matches against each other across events and ladders, from the first
one's side, with the Elo difference of its share of the points and that share's interval."""

from __future__ import annotations

import math

import pytest
import redis

from arena.ratings import elo_difference
from arena.services.head_to_head import LADDER, TOURNAMENT, head_to_head
from arena.stats import proportion_ci
from arena.store.bots import BotRegistry
from arena.store.ladders import LadderDefinition, LadderStore, ladder_ref
from arena.store.ratings import RatedResult, RatingStore
from arena.store.results import StoredMatch, match_id
from arena.store.tournaments import TournamentStore
from arena.tournament import MatchResult, Pairing, Round
from arena.tournament.definition import Format, TournamentDefinition


def _event(
    client: redis.Redis, name: str, entrants: tuple[str, ...], matches: list[MatchResult]
) -> None:
    """The event's rounds, one board a match, then its results (as the workers store them)."""
    store = TournamentStore(client)
    store.create(TournamentDefinition(name, Format.ROUND_ROBIN, entrants))
    for result in matches:
        store.save_round(name, Round(result.round, (Pairing(result.seat0, result.seat1),)))
        the_id = match_id(name, result.round, 0)
        games = () if result.forfeit else (f"{the_id}.g0", f"{the_id}.g1")
        store.record(name, StoredMatch(the_id, result, games, ("normal",) * len(games), 0))


def _ladder(client: redis.Redis, results: list[tuple[str, str, float, int]]) -> str:
    for name in sorted({name for a, b, _, _ in results for name in (a, b)}):
        BotRegistry(client).register(name)
    definition = LadderDefinition(ladder_ref("main"))
    LadderStore(client).create(definition)
    for n, (a, b, share, games) in enumerate(results, start=1):
        the_id = f"{definition.ref.slug}.m{n}"
        RatingStore(client).apply(definition, RatedResult(the_id, a, b, share, 1e9 + n, games))
    return definition.ref.slug


def test_matches_in_events_and_on_ladders_are_seen_from_the_first_bot_s_side(
    redis_client: redis.Redis,
) -> None:
    _event(redis_client, "cup", ("alpha", "beta", "gamma"), [
        MatchResult(1, "alpha", "beta", 1.5, 0.5),
        MatchResult(2, "gamma", "alpha", 2.0, 0.0),  # not against beta: left out
        MatchResult(3, "beta", "alpha", 2.0, 0.0),
    ])  # fmt: skip
    unplayed = Round(4, (Pairing("alpha", "beta"),))  # paired, not played yet: not a meeting
    TournamentStore(redis_client).save_round("cup", unplayed)
    _event(redis_client, "other", ("gamma", "beta"), [MatchResult(1, "gamma", "beta", 1.0, 1.0)])
    slug = _ladder(redis_client, [
        ("beta", "alpha", 0.25, 4),  # alpha takes 1.5 of the 2 deals
        ("alpha", "gamma", 1.0, 2),
        ("alpha", "beta", 0.5, 2),
    ])  # fmt: skip

    found = head_to_head(redis_client, "alpha", "beta")

    shown = [(m.kind, m.where, m.label, m.points, m.against, m.games) for m in found.meetings]
    assert shown == [
        (TOURNAMENT, "cup", "round 1", 1.5, 0.5, 2),
        (TOURNAMENT, "cup", "round 3", 0.0, 2.0, 2),
        (LADDER, slug, "match 1", 1.5, 0.5, 4),
        (LADDER, slug, "match 3", 0.5, 0.5, 2),
    ]
    assert [m.game_id for m in found.meetings] == [
        "cup.r1.b0.g0", "cup.r3.b0.g0", f"{slug}.m1.g0", f"{slug}.m3.g0",
    ]  # fmt: skip
    assert (found.points, found.at_stake, found.games) == (3.5, 7.0, 10)
    reverse = head_to_head(redis_client, "beta", "alpha")
    assert (reverse.points, reverse.at_stake) == (3.5, 7.0)
    assert [m.points for m in reverse.meetings] == [0.5, 2.0, 0.5, 0.5]


def test_the_elo_difference_is_the_share_s_with_its_wilson_interval(
    redis_client: redis.Redis,
) -> None:
    _event(redis_client, "cup", ("alpha", "beta"), [
        MatchResult(1, "alpha", "beta", 2.0, 0.0),
        MatchResult(2, "beta", "alpha", 0.5, 1.5),
        MatchResult(3, "alpha", "beta", 0.0, 2.0),
        MatchResult(4, "alpha", "beta", 1.0, 0.0, forfeit=True),  # listed, not counted
    ])  # fmt: skip

    found = head_to_head(redis_client, "alpha", "beta")
    elo = found.elo()

    assert len(found.meetings) == 4 and found.meetings[-1].forfeit
    assert (found.points, found.at_stake) == (3.5, 6.0)
    share = proportion_ci(3.5, 6)
    assert elo is not None and elo.samples == 6
    assert elo.elo == pytest.approx(400 * math.log10(3.5 / 2.5))
    assert (elo.low, elo.high) == (elo_difference(share.low), elo_difference(share.high))
    assert elo.low < 0 < elo.elo < elo.high
    flipped = head_to_head(redis_client, "beta", "alpha").elo()
    assert flipped is not None and flipped.elo == pytest.approx(-elo.elo)
    assert flipped.low == pytest.approx(-elo.high) and flipped.high == pytest.approx(-elo.low)


def test_a_clean_sweep_has_an_infinite_estimate_and_a_finite_lower_bound(
    redis_client: redis.Redis,
) -> None:
    sweep = [MatchResult(n, "alpha", "beta", 2.0, 0.0) for n in range(1, 5)]
    _event(redis_client, "cup", ("alpha", "beta"), sweep)
    elo = head_to_head(redis_client, "alpha", "beta").elo()
    assert elo is not None and elo.elo == math.inf == elo.high
    assert elo.low == elo_difference(proportion_ci(8, 8).low)
    assert 0 < elo.low < math.inf  # 8 points of 8 show alpha stronger, not how much


def test_bots_that_never_met_have_no_meeting_and_no_estimate(redis_client: redis.Redis) -> None:
    _event(redis_client, "cup", ("alpha", "beta"), [MatchResult(1, "alpha", "beta", 2.0, 0.0)])
    found = head_to_head(redis_client, "alpha", "nobody")
    assert found.meetings == () and found.elo() is None


@pytest.mark.parametrize(
    ("first", "second", "message"),
    [("alpha", "alpha", "never plays itself"), ("alpha", " ", "name two bots")],
)
def test_a_bot_against_itself_or_no_bot_is_refused(
    redis_client: redis.Redis, first: str, second: str, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        head_to_head(redis_client, first, second)
