"""`arena bench protocol`: the decision round trip runner -> Redis -> gateway -> bot -> gateway ->
Redis -> runner, with every part real and in its own process: a gateway (`arena serve`), a host
process running N SDK bots over gRPC, and referee threads in this process playing remote-vs-remote
games. `python -m arena.bench.protocol TARGET TOKEN_FILE` is the bot host it starts (one per
HOST_BOTS bots).

`arena bench no-read-attack` measures the gateway's memory while a bot sends replies with
oversized request ids and never reads what comes back."""

from __future__ import annotations

import dataclasses
import os
import random
import resource
import secrets
import socket
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.games import get_game
from arena.play.remote import RemoteSeat
from arena.play.texts import ACTION_TEXTS
from arena.referee.referee import (
    Decision,
    DecisionRequest,
    FaultPolicy,
    GameInfo,
    GameOutcome,
    referee_game,
)
from arena.store.bots import BotRegistry
from arena.store.relay import RunnerRelay
from arena.store.server import connect
from workers.processes import spawn_python, stop_all

POLICY = FaultPolicy(move_ms=5000, bank_ms=10_000, max_strikes=3, grace_ms=5000)
READY_TIMEOUT_S = 60  # and 0.1 s more per bot: a thousand bots take a while to start
HOST_BOTS = 100  # SDK bots per host process (each bot has a thread and a channel)


@dataclass(frozen=True, slots=True)
class RoundTrips:
    bots: int
    decisions: int
    seconds: float
    latencies_ms: tuple[float, ...]
    gateway_rss_bytes: int = 0  # resident memory of the gateway process after the run
    # CPU time a decision of the gateway, the bot hosts and the runners (this process), in
    # microseconds: steadier than the rate on a machine shared with other work.
    cpu_us: tuple[float, float, float] = (0.0, 0.0, 0.0)

    @property
    def per_second(self) -> float:
        return self.decisions / self.seconds

    def percentile(self, p: float) -> float:
        ordered = sorted(self.latencies_ms)
        return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]

    @property
    def mean_ms(self) -> float:
        return statistics.fmean(self.latencies_ms)


class _TimedSeat:
    """Times each remote decision exactly where the referee waits for it."""

    def __init__(self, seat: RemoteSeat, latencies: list[float]) -> None:
        self.name, self._seat, self._latencies = seat.name, seat, latencies

    def start(self, info: GameInfo) -> None:
        self._seat.start(info)

    def decide(self, request: DecisionRequest) -> Decision:
        started = time.perf_counter()
        decision = self._seat.decide(request)
        self._latencies.append((time.perf_counter() - started) * 1000)
        return decision

    def finish(self, info: GameInfo, outcome: GameOutcome) -> None:
        self._seat.finish(info, outcome)


def round_trips(
    url: str, bots: int, seconds: float, parallel: Sequence[int]
) -> list[tuple[int, RoundTrips]]:
    """`bots` remote bots (an even number), all connected, playing each other in pairs for about
    `seconds` at each level of `parallel` games at a time (runners take their pairs in turn)."""
    client = connect(url)
    registry = BotRegistry(client)
    suffix = secrets.token_hex(3)
    named = [registry.register(f"bench-{suffix}-{n}") for n in range(bots)]
    port = _free_port()
    with tempfile.TemporaryDirectory(prefix="arena-bench-") as logs:
        serve = ["-m", "arena", "serve", "--redis-url", url, "--port", str(port)]
        gateway = spawn_python([*serve, "--metrics-port", "0"], Path(logs) / "gateway.log")
        hosts = []
        for n in range(0, bots, HOST_BOTS):
            tokens = Path(logs) / f"tokens-{n}"  # a file, not the command line: tokens are secrets
            tokens.write_text("\n".join(token for _, token in named[n : n + HOST_BOTS]))
            hosts.append(
                spawn_python(
                    ["-m", "arena.bench.protocol", f"127.0.0.1:{port}", str(tokens)],
                    Path(logs) / f"bots-{n}.log",
                )
            )
        try:
            _wait_online(registry, [info.bot_id for info, _ in named])
            infos = [info for info, _ in named]
            sweep = []
            for level in parallel:
                before = _cpu_seconds(gateway.pid, [host.pid for host in hosts])
                trips = _play_pairs(url, infos, seconds, level)
                used = _cpu_seconds(gateway.pid, [host.pid for host in hosts])
                per = max(trips.decisions, 1) / 1e6
                gw, bots_us, own = ((b - a) / per for a, b in zip(before, used, strict=True))
                rss = rss_bytes(gateway.pid)
                figures = dataclasses.replace(
                    trips, gateway_rss_bytes=rss, cpu_us=(gw, bots_us, own)
                )
                sweep.append((level, figures))
            return sweep
        finally:
            stop_all([*hosts, gateway])


def rss_bytes(pid: int) -> int:
    """Resident memory of process `pid` (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def _cpu_seconds(gateway: int, hosts: Sequence[int]) -> tuple[float, float, float]:
    """CPU time so far of the gateway, of all bot hosts, and of this process (Linux)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    return _process_cpu(gateway), sum(map(_process_cpu, hosts)), own.ru_utime + own.ru_stime


def _process_cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _wait_online(registry: BotRegistry, bot_ids: Sequence[str]) -> None:
    deadline = time.monotonic() + READY_TIMEOUT_S + 0.1 * len(bot_ids)
    while not all(registry.is_online(bot_id) for bot_id in bot_ids):
        if time.monotonic() > deadline:
            raise RuntimeError(f"the {len(bot_ids)} benchmark bots did not all connect in time")
        time.sleep(0.05)


def _play_pairs(url: str, bots: Sequence[Any], seconds: float, parallel: int) -> RoundTrips:
    latencies: list[float] = []
    end = time.monotonic() + seconds
    pairs = [(bots[i], bots[i + 1]) for i in range(0, len(bots) - 1, 2)]
    runners = max(1, min(parallel, len(pairs)))
    threads = [
        threading.Thread(target=_runner, args=(url, pairs[n::runners], end, latencies))
        for n in range(runners)
    ]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - started
    return RoundTrips(len(bots), len(latencies), elapsed, tuple(latencies))


def _runner(url: str, pairs: Sequence[tuple[Any, Any]], end: float, latencies: list[float]) -> None:
    game, relay = get_game("caper"), RunnerRelay(connect(url))
    mine: list[float] = []
    seed = random.randrange(1_000_000)
    while time.monotonic() < end:
        first, second = pairs[seed % len(pairs)]
        seats = [
            _TimedSeat(RemoteSeat(relay, bot.bot_id, bot.name, game), mine)
            for bot in (first, second)
        ]
        game_id = f"bench-{secrets.token_hex(4)}"
        referee_game(
            game,
            {"city": "paris"},
            seed,
            seats,
            POLICY,
            game_id,
            timer=time.perf_counter,
            texts=ACTION_TEXTS,
        )
        seed += 1
    latencies.extend(mine)  # list.extend is atomic under the GIL


@dataclass(frozen=True, slots=True)
class AttackFigures:
    replies_sent: int
    rss_before: int  # the gateway's resident memory with the bot connected
    rss_peak: int  # the most it reached during the attack
    ended: str  # the status the gateway ended the bot's stream with


def no_read_attack(url: str, rid_bytes: int = 500_000, limit_s: float = 120) -> AttackFigures:
    """A bot sends replies with `rid_bytes`-long request ids (each earns an Error) and never
    reads; the gateway's memory is sampled until it ends the stream (or `limit_s` passes)."""
    import grpc

    from arena.v1 import bot_pb2, bot_pb2_grpc

    client = connect(url)
    info, token = BotRegistry(client).register(f"deaf-{secrets.token_hex(3)}")
    port, sent = _free_port(), [0]

    def replies() -> Any:
        yield bot_pb2.ConnectRequest(hello=bot_pb2.Hello(protocol_version=1, games=["caper"]))
        for n in range(1_000_000):
            sent[0] = n + 1
            reply = bot_pb2.ActionReply(request_id=f"{n}-" + "x" * rid_bytes)
            yield bot_pb2.ConnectRequest(action_reply=reply)

    with tempfile.TemporaryDirectory(prefix="arena-attack-") as logs:
        serve = ["-m", "arena", "serve", "--redis-url", url, "--port", str(port)]
        gateway = spawn_python([*serve, "--metrics-port", "0"], Path(logs) / "gateway.log")
        try:
            _wait_listening(port)
            with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
                call = bot_pb2_grpc.BotGatewayServiceStub(channel).Connect(
                    replies(), metadata=(("authorization", f"Bearer {token}"),)
                )
                _wait_online(BotRegistry(client), [info.bot_id])
                before = peak = rss_bytes(gateway.pid)
                end = time.monotonic() + limit_s
                while BotRegistry(client).is_online(info.bot_id) and time.monotonic() < end:
                    peak = max(peak, rss_bytes(gateway.pid))
                    time.sleep(0.1)
                if time.monotonic() >= end:
                    call.cancel()  # type: ignore[no-untyped-call]  # grpc-stubs leave it untyped
                ended = "still connected"
                try:
                    for _ in call:  # what was on its way, then the status
                        pass
                except grpc.RpcError as error:
                    ended = f"{error.code().name}: {error.details()}"
        finally:
            stop_all([gateway])
    return AttackFigures(sent[0], before, peak, ended)


def _wait_listening(port: int) -> None:
    deadline = time.monotonic() + READY_TIMEOUT_S
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def _host(target: str, token_file: str) -> None:
    """Run one SDK bot per token, each on its own thread and connection, until SIGTERM."""
    import signal

    from bots_sdk import Bot
    from bots_sdk.client import Client

    class FirstListed(Bot):
        """As cheap as a bot can be: the benchmark measures the path, not the player."""

        name, version = "bench", "1"

        def act(self, observation: Any, legal: Sequence[Any]) -> Any:
            return legal[0]

    stop_all = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop_all.set())
    clients = [
        Client(FirstListed(), target, token, stop=stop_all)
        for token in Path(token_file).read_text().split()
    ]
    threads = [threading.Thread(target=c.run, daemon=True) for c in clients]
    for thread in threads:
        thread.start()
    stop_all.wait()
    for thread in threads:
        thread.join(timeout=5)


def no_read_attacks(url: str | None, report: Callable[[str], object]) -> None:
    """`arena bench no-read-attack`: the attack with huge then ordinary request ids, on the Redis
    at `url` (or one found or started)."""
    from arena.store.server import given_or_found

    with given_or_found(url) as location:
        for rid_bytes in (500_000, 1000):
            figures = no_read_attack(location, rid_bytes)
            report(
                f"no-read attack, {rid_bytes:,}-byte request ids: {figures.replies_sent:,} replies "
                f"sent; gateway RSS {figures.rss_before / 2**20:.0f} MiB before, peak "
                f"{figures.rss_peak / 2**20:.0f} MiB; stream ended {figures.ended}"
            )


if __name__ == "__main__":
    _host(sys.argv[1], sys.argv[2])
