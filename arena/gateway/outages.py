"""Redis out of reach in a unary call: the caller gets UNAVAILABLE, which gRPC clients know to
retry, with one log line, instead of UNKNOWN and a traceback. (Bot streams handle it themselves,
in the hub.)"""

from __future__ import annotations

import logging
from typing import Any

import grpc

from arena.gateway.auth import Continuation, Handler, Interceptor
from arena.gateway.hub import REDIS_DOWN, UNREACHABLE

log = logging.getLogger("arena.gateway")


class StoreOutageIsUnavailable(Interceptor):
    async def intercept_service(
        self, continuation: Continuation, details: grpc.HandlerCallDetails
    ) -> Handler:
        handler = await continuation(details)
        if handler is None or handler.unary_unary is None:
            return handler
        call = handler.unary_unary
        method = details.method

        async def guarded(request: Any, context: Any) -> Any:  # an aio ServicerContext
            try:
                return await call(request, context)
            except REDIS_DOWN as error:
                log.warning("%s: Redis is unreachable (%s)", method, error)
                await context.abort(grpc.StatusCode.UNAVAILABLE, UNREACHABLE)

        return grpc.unary_unary_rpc_method_handler(
            guarded,
            request_deserializer=handler.request_deserializer,
            response_serializer=handler.response_serializer,
        )
