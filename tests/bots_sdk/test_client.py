"""The client against a scripted in-process gateway: handshake, replies, pings, reconnects,
refusals and shutdown."""

from __future__ import annotations

import _thread
import os
import signal
import threading
from collections.abc import Iterator

import grpc
import pytest

from arena import codec
from arena.games.caper import CAPER
from arena.games.caper_europe import CAPER_EUROPE
from arena.v1 import bot_pb2
from bots_sdk import AuthenticationError, Backoff, ProtocolError
from bots_sdk.client import Client, _stop_on_signals
from tests.bots_sdk import messages
from tests.bots_sdk.bots import BothEditionsFirstBot, FirstBot, LastBot, RaisingBot
from tests.bots_sdk.fake_gateway import TOKEN, FakeGateway, Script, Session, idle, welcomed

pytestmark = pytest.mark.timeout(60)
FAST = Backoff(initial_s=0.05, maximum_s=0.2)
WAIT_S = 10.0


class Background:
    """`client.run()` on a thread, keeping its result or what it raised."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self.result: int | None = None
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            self.result = self.client.run()
        except BaseException as error:
            self.error = error

    def join(self) -> None:
        self.thread.join(WAIT_S)
        assert not self.thread.is_alive(), "run() did not return"


@pytest.fixture
def gateways() -> Iterator[list[FakeGateway]]:
    started: list[FakeGateway] = []
    yield started
    for gateway in started:
        gateway.stop()


def _gateway(gateways: list[FakeGateway], *scripts: Script, port: int = 0) -> FakeGateway:
    gateway = FakeGateway(list(scripts)).start(port)
    gateways.append(gateway)
    return gateway


def one_game(session: Session) -> Iterator[bot_pb2.ConnectResponse]:
    """Welcome, one decision checked against the rules, game over."""
    yield from welcomed(session)
    yield messages.game_started("g1")
    state = messages.midgame_state()
    yield messages.decision(state, request_id="g1.1")
    reply = session.receive().action_reply
    assert reply.request_id == "g1.1"
    assert codec.action_from_reply(CAPER, reply, CAPER.legal_actions(state)) is not None
    yield messages.game_over("g1")
    session.closed.wait(timeout=WAIT_S)


def test_plays_a_game_and_returns_after_max_games(gateways: list[FakeGateway]) -> None:
    gateway = _gateway(gateways, one_game)
    bot = LastBot()
    assert Client(bot, gateway.target, TOKEN, max_games=1).run() == 1
    (session,) = gateway.sessions
    assert session.hello is not None
    assert session.hello.protocol_version == codec.PROTOCOL_VERSION
    assert (list(session.hello.games), session.hello.bot_version) == (["caper"], "1.2.3")
    legal = CAPER.legal_actions(messages.midgame_state())
    assert session.received[1].action_reply.legal_index == len(legal) - 1
    assert [g.game_id for g in bot.started] == [g.game_id for g in bot.ended] == ["g1"]


def test_a_wrong_token_raises_without_retrying(gateways: list[FakeGateway]) -> None:
    gateway = _gateway(gateways, idle)
    client = Client(FirstBot(), gateway.target, "wrong", backoff=FAST)
    with pytest.raises(AuthenticationError, match="refused the token"):
        client.run()
    assert gateway.calls == 1


def _abort(code: grpc.StatusCode, details: str) -> Script:
    def script(session: Session) -> Iterator[bot_pb2.ConnectResponse]:
        yield from welcomed(session)
        session.abort(code, details)

    return script


def test_a_replaced_connection_stops_cleanly(gateways: list[FakeGateway]) -> None:
    gateway = _gateway(gateways, _abort(grpc.StatusCode.ABORTED, "replaced by a newer connection"))
    client = Client(FirstBot(), gateway.target, TOKEN, backoff=FAST)
    assert client.run() == 0
    assert client.replaced and gateway.calls == 1


def test_reconnects_after_the_stream_breaks(gateways: list[FakeGateway]) -> None:
    broken = _abort(grpc.StatusCode.UNAVAILABLE, "gateway draining")
    gateway = _gateway(gateways, broken, broken, one_game)
    client = Client(FirstBot(), gateway.target, TOKEN, backoff=FAST, max_games=1)
    assert client.run() == 1
    assert client.sessions == 3


def test_reconnects_after_the_server_restarts(gateways: list[FakeGateway]) -> None:
    first = _gateway(gateways, idle)
    client = Client(FirstBot(), first.target, TOKEN, backoff=FAST, max_games=1)
    running = Background(client)
    assert client.connected.wait(WAIT_S)
    first.stop()
    _gateway(gateways, one_game, port=first.port)  # the game is played on the new server
    running.join()
    assert running.error is None and running.result == 1
    assert client.sessions == 2


def test_stop_closes_the_stream_and_returns(gateways: list[FakeGateway]) -> None:
    gateway = _gateway(gateways, idle)
    stop = threading.Event()
    client = Client(FirstBot(), gateway.target, TOKEN, stop=stop)
    running = Background(client)
    assert gateway.connected.acquire(timeout=WAIT_S)
    stop.set()
    running.join()
    assert running.error is None and running.result == 0
    assert gateway.sessions[0].closed.wait(WAIT_S)


def test_pings_keep_a_quiet_stream_alive(gateways: list[FakeGateway]) -> None:
    def pinged(session: Session) -> Iterator[bot_pb2.ConnectResponse]:
        yield from welcomed(session)
        session.wait_pings(1)
        yield bot_pb2.ConnectResponse(pong=bot_pb2.Pong(nonce=session.pings[0]))
        session.closed.wait(timeout=WAIT_S)

    gateway = _gateway(gateways, pinged)
    client = Client(FirstBot(), gateway.target, TOKEN, ping_interval_s=0.05)
    running = Background(client)
    assert gateway.connected.acquire(timeout=WAIT_S)
    assert gateway.sessions[0].wait_pings(2)
    client.stop()
    running.join()
    assert gateway.sessions[0].pings[:2] == [1, 2]


def test_a_refused_protocol_version_raises(gateways: list[FakeGateway]) -> None:
    def refuse(session: Session) -> Iterator[bot_pb2.ConnectResponse]:
        session.receive()
        error = bot_pb2.Error(
            code=bot_pb2.ERROR_CODE_PROTOCOL_VERSION_UNSUPPORTED, message="speak 2"
        )
        yield bot_pb2.ConnectResponse(error=error)

    gateway = _gateway(gateways, refuse)
    with pytest.raises(ProtocolError, match="speak 2"):
        Client(FirstBot(), gateway.target, TOKEN, backoff=FAST).run()
    assert gateway.calls == 1


def test_a_bot_bug_costs_the_move_not_the_connection(gateways: list[FakeGateway]) -> None:
    def crash(session: Session) -> Iterator[bot_pb2.ConnectResponse]:
        yield from welcomed(session)
        yield messages.decision(messages.midgame_state())
        yield messages.game_over("g1")
        session.closed.wait(timeout=WAIT_S)

    gateway = _gateway(gateways, crash)
    assert Client(RaisingBot(), gateway.target, TOKEN, max_games=1).run() == 1
    assert gateway.sessions[0].closed.wait(WAIT_S)
    assert gateway.sessions[0].received[1:] == []  # Hello, and no reply


def test_an_unreachable_arena_is_retried_until_stopped() -> None:
    stop = threading.Event()
    client = Client(FirstBot(), "127.0.0.1:1", TOKEN, stop=stop, backoff=FAST)
    running = Background(client)
    stop.wait(0.5)  # a few attempts' worth of time
    stop.set()
    running.join()
    assert running.error is None and client.sessions == 0


def test_ctrl_c_closes_the_stream_and_returns(gateways: list[FakeGateway]) -> None:
    gateway = _gateway(gateways, idle)

    def interrupt() -> None:
        if gateway.connected.acquire(timeout=WAIT_S):
            _thread.interrupt_main()

    threading.Thread(target=interrupt, daemon=True).start()
    assert Client(FirstBot(), gateway.target, TOKEN).run() == 0
    assert gateway.sessions[0].closed.wait(WAIT_S)


def test_ctrl_c_asks_the_client_to_stop_and_a_second_one_interrupts() -> None:
    """Ctrl-C sets the stop event (the client closes the stream from its own code, never from
    inside gRPC's locks); a second Ctrl-C, for a bot stuck in its own code, interrupts."""
    stop = threading.Event()
    before = signal.getsignal(signal.SIGINT)
    with _stop_on_signals(stop):
        os.kill(os.getpid(), signal.SIGINT)
        assert stop.wait(WAIT_S)
        with pytest.raises(KeyboardInterrupt):
            os.kill(os.getpid(), signal.SIGINT)
            threading.Event().wait(WAIT_S)  # the handler runs here, between bytecodes
    assert signal.getsignal(signal.SIGINT) == before


def test_sigterm_closes_the_stream_and_returns(gateways: list[FakeGateway]) -> None:
    gateway = _gateway(gateways, idle)
    before = signal.getsignal(signal.SIGTERM)

    def terminate() -> None:
        # Only once run() has put its handler in place: the default one would end pytest.
        if gateway.connected.acquire(timeout=WAIT_S) and signal.getsignal(signal.SIGTERM) != before:
            os.kill(os.getpid(), signal.SIGTERM)

    threading.Thread(target=terminate, daemon=True).start()
    assert Client(FirstBot(), gateway.target, TOKEN).run() == 0
    assert gateway.sessions[0].closed.wait(WAIT_S)
    assert signal.getsignal(signal.SIGTERM) == before


def test_games_the_sdk_cannot_play_are_refused_up_front() -> None:
    with pytest.raises(ValueError, match="cannot play chess: only caper, caper-europe"):
        Client(FirstBot(), "127.0.0.1:1", TOKEN, games=("caper", "chess"))
    bot = BothEditionsFirstBot()
    bot.games = ("caper-europe", "go")
    with pytest.raises(ValueError, match="cannot play go"):
        Client(bot, "127.0.0.1:1", TOKEN)


def test_the_hello_lists_the_bots_games_unless_told_otherwise() -> None:
    assert Client(FirstBot(), "127.0.0.1:1", TOKEN).games == ("caper",)
    both = Client(BothEditionsFirstBot(), "127.0.0.1:1", TOKEN)
    assert both._hello().hello.games == ["caper", "caper-europe"]
    only = Client(BothEditionsFirstBot(), "127.0.0.1:1", TOKEN, games=["caper-europe"])
    assert only._hello().hello.games == ["caper-europe"]


def europe_game(session: Session) -> Iterator[bot_pb2.ConnectResponse]:
    """Welcome, one Caper: Europe decision checked against the rules, game over."""
    yield from welcomed(session)
    state = messages.midgame_state(moves=12, city="london", game=CAPER_EUROPE)
    seat = CAPER_EUROPE.current_player(state) or 0  # the seat the request is for
    yield messages.game_started("e1", seat=seat, game=CAPER_EUROPE)
    yield messages.decision(state, request_id="e1.1", game_id="e1", game=CAPER_EUROPE)
    reply = session.receive().action_reply
    assert reply.request_id == "e1.1"
    assert codec.action_from_reply(CAPER_EUROPE, reply, CAPER_EUROPE.legal_actions(state))
    yield messages.game_over("e1", seat=seat)
    session.closed.wait(timeout=WAIT_S)


def test_a_europe_game_over_the_network(gateways: list[FakeGateway]) -> None:
    gateway = _gateway(gateways, europe_game)
    bot = BothEditionsFirstBot()
    assert Client(bot, gateway.target, TOKEN, max_games=1).run() == 1
    (session,) = gateway.sessions
    assert session.hello is not None and list(session.hello.games) == ["caper", "caper-europe"]
    assert session.received[1].action_reply.legal_index == 0
    assert bot.calls == 1 and [g.game for g in bot.started] == ["caper-europe"]
