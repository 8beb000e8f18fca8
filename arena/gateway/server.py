"""Starting the gRPC server: both services, health checking, reflection, keepalive, size limits."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import threading
from dataclasses import dataclass

import grpc
import redis
import redis.asyncio as aioredis
from grpc_health.v1 import _async as health_aio  # the asyncio servicer (health.aio)
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff

from arena.gateway import bot_gateway
from arena.gateway.arena_service import ArenaService
from arena.gateway.auth import ReflectionNeedsToken
from arena.gateway.hub import Hub
from arena.gateway.outages import StoreOutageIsUnavailable
from arena.listening import GATEWAY_PORT, LOOPBACK
from arena.store.relay import GatewayRelay
from arena.v1 import arena_pb2, arena_pb2_grpc, bot_pb2

log = logging.getLogger("arena.gateway")

RELAY_CONNECTIONS = 16  # the gateway's Redis connections, however many bots it holds
NOT_SERVING = health_pb2.HealthCheckResponse.NOT_SERVING
MAX_MESSAGE_BYTES = 1 << 20  # a Caper decision request is a few KiB; anything near this is abuse

SERVER_OPTIONS = [
    ("grpc.max_receive_message_length", MAX_MESSAGE_BYTES),
    ("grpc.max_send_message_length", 4 * MAX_MESSAGE_BYTES),
    # Keepalive: ping idle bots every 20 s, drop them if a ping is not answered in 10 s, and
    # let bots ping us as often as every 10 s even with no call in flight (bots behind NAT).
    ("grpc.keepalive_time_ms", 20_000),
    ("grpc.keepalive_timeout_ms", 10_000),
    ("grpc.keepalive_permit_without_calls", 1),
    ("grpc.http2.min_ping_interval_without_data_ms", 10_000),
    ("grpc.http2.max_ping_strikes", 2),
    # gRPC sets SO_REUSEPORT by default: a second gateway on a taken port would start and share
    # (steal) its connections instead of failing.
    ("grpc.so_reuseport", 0),
]

SERVICE_NAMES = (
    bot_pb2.DESCRIPTOR.services_by_name["BotGatewayService"].full_name,
    arena_pb2.DESCRIPTOR.services_by_name["ArenaService"].full_name,
)


@dataclass(frozen=True, slots=True)
class GatewaySettings:
    redis_url: str
    host: str = LOOPBACK
    port: int = GATEWAY_PORT  # 0 picks a free port
    admin_token: str | None = None
    outage_limit_s: float = 10.0  # Redis down this long: bot streams end UNAVAILABLE


def relay_client(url: str, gateway_id: str) -> aioredis.Redis:
    """The gateway's asynchronous Redis client: a fixed pool shared by all its bots (calls wait
    for a free connection), and no retries of its own: the hub retries with backoff."""
    pool = aioredis.BlockingConnectionPool.from_url(
        url,
        max_connections=RELAY_CONNECTIONS,
        timeout=None,
        socket_timeout=10,
        socket_connect_timeout=5,
        client_name=f"arena-gateway-{gateway_id}",
    )
    return aioredis.Redis(connection_pool=pool, retry=Retry(NoBackoff(), 0))


@dataclass(frozen=True)
class Gateway:
    server: grpc.aio.Server
    port: int
    hub: Hub
    client: aioredis.Redis
    id: str

    async def stop(self, grace_s: float | None) -> None:
        await self.server.stop(grace_s)
        await self.hub.stop()
        with contextlib.suppress(redis.RedisError):  # Redis gone: the set forgets it in time
            await self.hub.relay.leave()
        await self.client.aclose()


async def start_gateway(settings: GatewaySettings) -> Gateway:
    """A started gateway: its server, the port it listens on, and its hub."""
    gateway_id = secrets.token_hex(8)
    async_client = relay_client(settings.redis_url, gateway_id)
    reflection_gate = ReflectionNeedsToken(async_client, settings.admin_token)
    interceptors = [StoreOutageIsUnavailable(), reflection_gate]
    server = grpc.aio.server(options=SERVER_OPTIONS, interceptors=interceptors)
    sync_client = redis.Redis.from_url(settings.redis_url)
    health_servicer = health_aio.HealthServicer()

    async def set_health(serving: bool) -> None:
        status = health_pb2.HealthCheckResponse.SERVING if serving else NOT_SERVING
        for name in (*SERVICE_NAMES, ""):
            await health_servicer.set(name, status)

    hub = Hub(GatewayRelay(async_client, gateway_id), set_health, settings.outage_limit_s)
    with contextlib.suppress(redis.RedisError):  # Redis not up yet: the next start forgets them
        await hub.relay.forget_silent()
    bot_gateway.add_to_server(bot_gateway.BotGateway(async_client, hub), server)
    arena_pb2_grpc.add_ArenaServiceServicer_to_server(
        ArenaService(sync_client, settings.admin_token), server
    )
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    await set_health(True)
    reflection.enable_server_reflection(
        (*SERVICE_NAMES, health.SERVICE_NAME, reflection.SERVICE_NAME), server
    )
    port = server.add_insecure_port(f"{settings.host}:{settings.port}")
    if port == 0:
        raise OSError(f"cannot listen on {settings.host}:{settings.port}")
    await server.start()
    hub.start()
    log.info("gateway listening on %s:%d", settings.host, port)
    return Gateway(server, port, hub, async_client, gateway_id)


async def serve(settings: GatewaySettings) -> None:
    """Run until cancelled (the `arena serve` command)."""
    gateway = await start_gateway(settings)
    try:
        await gateway.server.wait_for_termination()
    finally:
        await gateway.stop(2)


class GatewayThread:
    """A gateway on its own event loop in a background thread: for the demo and the tests."""

    def __init__(self, settings: GatewaySettings) -> None:
        self._settings = settings
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True, name="gateway")
        self._gateway: Gateway | None = None
        self.port = 0

    def start(self) -> GatewayThread:
        self._thread.start()
        future = asyncio.run_coroutine_threadsafe(start_gateway(self._settings), self._loop)
        self._gateway = future.result(timeout=30)
        self.port = self._gateway.port
        return self

    @property
    def target(self) -> str:
        return f"{self._settings.host}:{self.port}"

    @property
    def id(self) -> str:
        """The gateway's id: its Redis connections are named `arena-gateway-ID`."""
        assert self._gateway is not None, "not started"
        return self._gateway.id

    def stop(self, grace_s: float = 0.5) -> None:
        if self._gateway is not None:
            asyncio.run_coroutine_threadsafe(self._gateway.stop(grace_s), self._loop).result(30)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=30)
