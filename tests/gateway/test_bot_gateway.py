"""BotGatewayService over a real gRPC server and a real Redis: the protocol, message by message."""

from __future__ import annotations

import logging
import threading

import grpc
import pytest

from arena.gateway.server import GatewaySettings, GatewayThread
from arena.gateway.testing import Arena
from arena.referee.referee import FaultPolicy, Termination
from arena.services import events
from arena.services.ladder_runs import eligible_players
from arena.store.bots import BotRegistryError
from arena.store.ladders import LadderDefinition, LadderRef
from arena.tournament.definition import TimeControl
from arena.v1 import bot_pb2, caper_pb2, game_pb2
from tests.gateway.rawbot import RawBot, first_legal, hello


def connect(arena: Arena, name: str = "raw", **options: object) -> RawBot:
    token = arena.register_bot(name)
    bot = RawBot(arena.target, token, **options).start()  # type: ignore[arg-type]
    assert bot.welcomed.wait(10), bot.error
    return bot


def status_of(bot: RawBot, timeout_s: float = 10) -> grpc.StatusCode:
    assert bot.ended.wait(timeout_s)
    assert bot.error is not None
    return bot.error.code()


def test_a_full_game_against_a_builtin_bot(arena: Arena) -> None:
    bot = connect(arena)
    outcomes = arena.play_match("raw", "greedy", games=2, seed=3)
    assert [o.termination for o in outcomes] == [Termination.NORMAL, Termination.NORMAL]
    welcome = bot.of_kind("welcome")[0].welcome
    assert welcome.bot_name == "raw" and welcome.protocol_version == 1
    started = [m.game_started for m in bot.of_kind("game_started")]
    assert [s.seat for s in started] == [0, 1]
    assert started[0].opponent_name == "greedy" and started[0].config["city"].text == "paris"
    over = [m.game_over for m in bot.wait_for("game_over", count=2)]
    assert [list(o.result.scores) for o in over] == [list(o.result.scores) for o in outcomes]
    assert all(o.result.termination == game_pb2.TERMINATION_NORMAL for o in over)
    bot.close()


@pytest.mark.parametrize(("token", "message"), [("", "missing token"), ("wrong", "unknown token")])
def test_a_missing_or_wrong_token_is_unauthenticated(
    arena: Arena, token: str, message: str
) -> None:
    bot = RawBot(arena.target, token).start()
    assert status_of(bot) is grpc.StatusCode.UNAUTHENTICATED
    assert message in (bot.error.details() or "")  # type: ignore[union-attr]


def test_the_first_message_must_be_hello(arena: Arena) -> None:
    token = arena.register_bot("rude")
    bot = RawBot(
        arena.target, token, first=bot_pb2.ConnectRequest(ping=bot_pb2.Ping(nonce=1))
    ).start()
    assert status_of(bot) is grpc.StatusCode.FAILED_PRECONDITION
    assert "first message must be Hello" in (bot.error.details() or "")  # type: ignore[union-attr]


def test_an_unsupported_protocol_version_is_explained_then_closed(arena: Arena) -> None:
    token = arena.register_bot("future")
    bot = RawBot(arena.target, token, first=hello(version=9)).start()
    assert status_of(bot) is grpc.StatusCode.FAILED_PRECONDITION
    error = bot.of_kind("error")[0].error
    assert error.code == bot_pb2.ERROR_CODE_PROTOCOL_VERSION_UNSUPPORTED
    assert "protocol version 9 is not supported" in error.message


def test_ping_is_answered_and_unknown_requests_are_refused(arena: Arena) -> None:
    bot = connect(arena)
    bot.send(bot_pb2.ConnectRequest(ping=bot_pb2.Ping(nonce=42)))
    bot.send(
        bot_pb2.ConnectRequest(action_reply=bot_pb2.ActionReply(request_id="nope", legal_index=0))
    )
    bot.send(bot_pb2.ConnectRequest(hello=bot_pb2.Hello(protocol_version=1)))
    bot.send(bot_pb2.ConnectRequest(resign=bot_pb2.Resign(game_id="g-unknown")))
    bot.wait_for("error", count=3)
    assert bot.wait_for("pong")[0].pong.nonce == 42
    errors = [m.error for m in bot.of_kind("error")]
    assert [e.code for e in errors] == [
        bot_pb2.ERROR_CODE_UNKNOWN_REQUEST,
        bot_pb2.ERROR_CODE_PROTOCOL_VIOLATION,
        bot_pb2.ERROR_CODE_UNKNOWN_GAME,
    ]
    assert errors[0].request_id == "nope" and "unknown request id 'nope'" in errors[0].message
    assert bot.error is None  # none of this closes the stream
    bot.close()


def test_an_answer_to_another_bots_request_is_refused(arena: Arena) -> None:
    seen: list[str] = []
    ready, released = threading.Event(), threading.Event()

    def remember(request: bot_pb2.DecisionRequest) -> bot_pb2.ActionReply:
        seen.append(request.request_id)
        ready.set()
        released.wait(10)  # the request stays open until the thief has tried to answer it
        return first_legal(request)

    victim = connect(arena, "victim", policy=remember)
    thief = connect(arena, "thief")
    worker = threading.Thread(target=arena.play_match, args=("victim", "random"), daemon=True)
    worker.start()
    assert ready.wait(10)
    thief.send(
        bot_pb2.ConnectRequest(action_reply=bot_pb2.ActionReply(request_id=seen[0], legal_index=0))
    )
    errors = [m.error for m in thief.wait_for("error")]
    released.set()
    worker.join(30)
    assert errors and "was sent to another bot" in errors[0].message
    victim.close()
    thief.close()


def test_an_illegal_action_loses_the_game_with_the_reason(arena: Arena) -> None:
    def out_of_range(request: bot_pb2.DecisionRequest) -> bot_pb2.ActionReply:
        return bot_pb2.ActionReply(request_id=request.request_id, legal_index=999)

    bot = connect(arena, policy=out_of_range)
    outcome = arena.play_match("raw", "random", games=1)[0]
    assert outcome.termination is Termination.ILLEGAL_ACTION
    assert "legal_index 999 is out of range" in outcome.reason
    over = bot.wait_for("game_over")[0].game_over
    assert over.result.termination == game_pb2.TERMINATION_ILLEGAL_ACTION
    assert "out of range" in over.reason
    bot.close()


def test_a_structured_illegal_action_is_explained(arena: Arena) -> None:
    def discard_in_a_thief_round(request: bot_pb2.DecisionRequest) -> bot_pb2.ActionReply:
        action = game_pb2.Action()
        action.caper.kind = caper_pb2.CAPER_ACTION_KIND_DISCARD
        action.caper.card = "Skeleton Key"
        return bot_pb2.ActionReply(request_id=request.request_id, action=action)

    connect(arena, policy=discard_in_a_thief_round)
    outcome = arena.play_match("raw", "random", games=1)[0]
    assert outcome.termination is Termination.ILLEGAL_ACTION
    assert "round 1 is a Thief round" in outcome.reason


def test_missed_deadlines_are_strikes_then_a_loss(arena: Arena) -> None:
    connect(arena, policy=lambda request: None)  # never answers
    policy = FaultPolicy(move_ms=30, bank_ms=0, max_strikes=2, grace_ms=1000)
    outcome = arena.play_match("raw", "random", games=1, policy=policy)[0]
    assert outcome.termination is Termination.TIMEOUT
    assert outcome.reason == "2 missed deadlines"
    assert len(outcome.record.actions) == 2  # one random move for the bot, one reply


def test_a_late_answer_is_told_it_was_late(arena: Arena) -> None:
    slow_ids: list[str] = []

    def late(request: bot_pb2.DecisionRequest) -> None:
        slow_ids.append(request.request_id)

    bot = connect(arena, policy=late)
    policy = FaultPolicy(move_ms=30, bank_ms=0, max_strikes=1, grace_ms=1000)
    arena.play_match("raw", "random", games=1, policy=policy)
    bot.send(
        bot_pb2.ConnectRequest(
            action_reply=bot_pb2.ActionReply(request_id=slow_ids[0], legal_index=0)
        )
    )
    assert bot.wait_for("error")[0].error.code == bot_pb2.ERROR_CODE_DEADLINE_EXCEEDED
    bot.close()


def test_resigning_loses_the_game(arena: Arena) -> None:
    bot: RawBot

    def resign(request: bot_pb2.DecisionRequest) -> None:
        bot.send(bot_pb2.ConnectRequest(resign=bot_pb2.Resign(game_id=request.game_id)))

    bot = connect(arena, policy=resign)
    outcome = arena.play_match("raw", "random", games=1)[0]
    assert outcome.termination is Termination.RESIGNATION and outcome.result.winner == 1
    bot.close()


def test_a_second_connection_replaces_the_first(arena: Arena) -> None:
    token = arena.register_bot("twin")
    first = RawBot(arena.target, token).start()
    assert first.welcomed.wait(10)
    second = RawBot(arena.target, token).start()
    assert second.welcomed.wait(10)
    assert status_of(first) is grpc.StatusCode.ABORTED
    assert "replaced by a newer connection" in (first.error.details() or "")  # type: ignore[union-attr]
    outcome = arena.play_match("twin", "random", games=1)[0]  # the new stream plays
    assert outcome.termination is Termination.NORMAL
    assert second.wait_for("game_over") and not first.of_kind("game_over")
    second.close()


def test_health_and_reflection_are_served(arena: Arena) -> None:
    from grpc_health.v1 import health_pb2, health_pb2_grpc
    from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

    with grpc.insecure_channel(arena.target) as channel:
        health = health_pb2_grpc.HealthStub(channel)
        answer = health.Check(health_pb2.HealthCheckRequest(service="arena.v1.BotGatewayService"))
        assert answer.status == health_pb2.HealthCheckResponse.SERVING
        stub = reflection_pb2_grpc.ServerReflectionStub(channel)
        request = reflection_pb2.ServerReflectionRequest(list_services="")
        admin = (("authorization", f"Bearer {arena.admin_token}"),)
        response = next(stub.ServerReflectionInfo(iter([request]), metadata=admin))
        names = {s.name for s in response.list_services_response.service}
        assert {"arena.v1.BotGatewayService", "arena.v1.ArenaService"} <= names


def test_malformed_and_oversized_messages_end_only_that_stream(
    arena: Arena, caplog: pytest.LogCaptureFixture
) -> None:
    token = arena.register_bot("garbage")
    metadata: tuple[tuple[str, str | bytes], ...] = (("authorization", f"Bearer {token}"),)
    with grpc.insecure_channel(arena.target) as channel:
        raw = channel.stream_stream(
            "/arena.v1.BotGatewayService/Connect",
            request_serializer=lambda b: b,
            response_deserializer=bot_pb2.ConnectResponse.FromString,
        )
        for first in (True, False):  # a malformed Hello, and a malformed message after it
            garbage = [b"\xff\xff\xff\xff not protobuf"] * 3
            sent = garbage if first else [hello().SerializeToString(), *garbage]
            with pytest.raises(grpc.RpcError) as broken:
                list(raw(iter(sent), metadata=metadata, timeout=10))
            assert broken.value.code() is grpc.StatusCode.INVALID_ARGUMENT
            assert "not" in (broken.value.details() or "") and "ConnectRequest" in (
                broken.value.details() or ""
            )
        huge = [hello().SerializeToString(), b"\x0a" + b"\x00" * (2 << 20)]
        with pytest.raises(grpc.RpcError) as too_big:
            list(raw(iter(huge), metadata=metadata, timeout=10))
        assert too_big.value.code() is grpc.StatusCode.RESOURCE_EXHAUSTED
    bot = connect(arena, "after")  # the server is still fine
    assert arena.play_match("after", "random", games=1)[0].termination is Termination.NORMAL
    bot.close()
    lines = [r for r in caplog.records if r.name.startswith("arena") or r.name.startswith("grpc")]
    assert not [r for r in lines if r.levelno >= logging.ERROR or r.exc_info]  # no tracebacks
    assert len([r for r in lines if "malformed" in r.getMessage()]) == 1  # rate-limited


def test_a_bot_is_not_scheduled_for_a_game_its_hello_did_not_name(arena: Arena) -> None:
    bot = connect(arena, "classic")  # hello() names only "caper"
    with pytest.raises(BotRegistryError, match="'classic' does not play caper-europe"):
        arena.play_match("classic", "random", game="caper-europe", config={"city": "rome"})
    with pytest.raises(BotRegistryError, match="does not play caper-europe"):
        events.create(
            arena.client, "euro", "swiss", ["classic", "random"], 1, "caper-europe", "rome", 2,
            True, TimeControl(), 1,
        )  # fmt: skip
    ladder = LadderDefinition(LadderRef("caper-europe", 1, "main"), config={"city": "rome"})
    assert "classic" not in eligible_players(arena.client, ladder)
    classic = LadderDefinition(LadderRef("caper", 1, "main"))
    assert "classic" in eligible_players(arena.client, classic)
    outcome = arena.play_match("classic", "random", games=1)[0]  # its own game still plays
    assert outcome.termination is Termination.NORMAL
    bot.close()


def test_a_connection_to_another_gateway_closes_the_first(arena: Arena) -> None:
    token = arena.register_bot("mover")
    first = RawBot(arena.target, token).start()
    assert first.welcomed.wait(10)
    other = GatewayThread(GatewaySettings(arena.redis_url, port=0)).start()
    try:
        second = RawBot(other.target, token).start()
        assert second.welcomed.wait(10)
        assert status_of(first, timeout_s=30) is grpc.StatusCode.ABORTED
        assert "replaced by a newer connection" in (first.error.details() or "")  # type: ignore[union-attr]
        outcome = arena.play_match("mover", "random", games=1)[0]  # played on the other gateway
        assert outcome.termination is Termination.NORMAL
        assert second.wait_for("game_over") and not first.of_kind("game_over")
        second.close()
    finally:
        other.stop()


def test_errors_quote_only_a_bounded_part_of_what_the_bot_sent(arena: Arena) -> None:
    bot = connect(arena)
    huge = "r" * 500_000  # answered with an error, never amplified into a 1 MB reply
    bot.send(bot_pb2.ConnectRequest(action_reply=bot_pb2.ActionReply(request_id=huge)))
    bot.send(bot_pb2.ConnectRequest(resign=bot_pb2.Resign(game_id=huge)))
    errors = [m.error for m in bot.wait_for("error", count=2)]
    assert [e.code for e in errors] == [
        bot_pb2.ERROR_CODE_UNKNOWN_REQUEST,
        bot_pb2.ERROR_CODE_UNKNOWN_GAME,
    ]
    assert all(len(e.message) < 200 and len(e.request_id) <= 128 for e in errors)
    assert bot.error is None
    bot.close()
