"""Each HTTP request, measured once: the access log line, and the hooks (metrics) after it.

``AccessLog`` is plain ASGI middleware, so a streamed answer is timed to its last byte.
What it keeps of a request is a ``RequestRecord``: the method, the route's *template*
(``/v1/runs/{run_id}``, never the path that was asked, which holds ids and search words),
the status, the duration and at most a hash of the user id — never the text, the query or
the key. ``record_request`` writes the line and hands the record to every hook in
``app.state.request_hooks`` (``create_app(hooks=...)``): a metrics module counts there.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

log = logging.getLogger("giftgenius.service.access")

UNMATCHED = "unmatched"
"""The route of a request no route took (a 404): its path is not kept."""


@dataclass(frozen=True)
class RequestRecord:
    method: str
    route: str
    status: int
    duration: float  # seconds, to the last byte sent
    user: str | None = None  # ``rate_limits.user_key`` of the user, once authenticated


RequestHook = Callable[[RequestRecord], None]


def record_request(record: RequestRecord, hooks: list[RequestHook]) -> None:
    """The one place a finished request is reported: a log line, then each hook."""
    log.info(
        "%s %s %d %.1fms",
        record.method,
        record.route,
        record.status,
        record.duration * 1000,
        extra={
            "event": "http_request",
            "method": record.method,
            "route": record.route,
            "status": record.status,
            "duration_ms": round(record.duration * 1000, 2),
            "user": record.user,
        },
    )
    for hook in hooks:
        try:
            hook(record)
        except Exception:  # a broken hook never breaks a request
            log.exception("request hook %r failed", hook)


def route_template(scope: Scope) -> str:
    route = scope.get("route")
    path = getattr(route, "path", None)
    return path if isinstance(path, str) else UNMATCHED


class AccessLog:
    """Times each HTTP request and reports it with ``record_request``."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        status = 500

        async def sending(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            state: dict[str, Any] = scope.get("state") or {}
            hooks: list[RequestHook] = getattr(scope["app"].state, "request_hooks", [])
            record = RequestRecord(
                method=scope["method"],
                route=route_template(scope),
                status=status,
                duration=time.perf_counter() - start,
                user=state.get("user_key"),
            )
            record_request(record, hooks)


class BodyLimit:
    """Refuses a request body over ``limit`` bytes, declared (``Content-Length``) or sent.

    The refusal is raised where the route reads the body, as Starlette's 413, so it leaves
    through the error table like any other (Starlette's own limiter answers in plain text).
    """

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length", b"0")
        over = declared.isdigit() and int(declared) > self.limit
        sent = 0

        async def limited() -> Message:
            nonlocal sent
            if over:
                raise HTTPException(status_code=413)
            message = await receive()
            if message["type"] == "http.request":
                sent += len(message.get("body", b""))
                if sent > self.limit:
                    raise HTTPException(status_code=413)
            return message

        await self.app(scope, limited, send)
