"""McpEndpoint: MCP over streamable HTTP at /mcp inside the service, built on its first request (importing the SDK takes seconds)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

import anyio
from starlette.types import Receive, Scope, Send

if TYPE_CHECKING:
    from ..service.context import ServiceContext

PATH = "/mcp"


class McpEndpoint:
    """An ASGI app for the service's /mcp route; the host app's lifespan must hold `running()` (it owns the session manager)."""

    def __init__(self, context: Callable[[], ServiceContext], max_body: int) -> None:
        self._context = context
        self._max_body = max_body
        self._app: Any = None
        self._server: Any = None
        self._ops: Any = None
        self._lock: anyio.Lock | None = None
        self._stop: anyio.Event | None = None
        self._group: anyio.abc.TaskGroup | None = None

    @asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        """For the host app's lifespan: the task group MCP sessions run in; on exit they end and the warm linters stop."""
        self._lock, self._stop = anyio.Lock(), anyio.Event()
        try:
            async with anyio.create_task_group() as group:
                self._group = group
                try:
                    yield
                finally:
                    self._group = None
                    self._stop.set()
        finally:
            if self._ops is not None:
                await anyio.to_thread.run_sync(self._ops.close)

    def _build(self) -> Any:
        from mcp.server.transport_security import TransportSecuritySettings

        from .operations import Operations
        from .server import build_server

        self._ops = Operations(self._context)
        self._server = build_server(self._ops)
        # The service's own access control (token, Host allow-list) guards every route, /mcp included; the SDK's
        # localhost-only Host check would refuse the names the service is deliberately served under.
        security = TransportSecuritySettings(enable_dns_rebinding_protection=False)
        return self._server.streamable_http_app(
            streamable_http_path=PATH, max_request_body_size=self._max_body, transport_security=security
        )

    async def _serve_sessions(self, *, task_status: anyio.abc.TaskStatus[None] = anyio.TASK_STATUS_IGNORED) -> None:
        assert self._stop is not None
        async with self._server.session_manager.run():
            task_status.started()
            await self._stop.wait()

    async def _start(self) -> None:
        assert self._lock is not None
        async with self._lock:
            if self._app is not None:
                return
            if self._group is None:
                raise RuntimeError("the /mcp endpoint was called outside the app's lifespan (McpEndpoint.running)")
            app = await anyio.to_thread.run_sync(self._build)  # the SDK's import must not stall the event loop
            await self._group.start(self._serve_sessions)
            self._app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self._app is None:
            await self._start()
        await self._app(scope, receive, send)
