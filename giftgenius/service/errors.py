"""The error tree over HTTP: ONE table from error class to status and code.

Every refusal, whoever raises it — the agent, a store, the request's validation, the key
check, the rate limit, Starlette itself (no route, wrong method, a body too large) — ends
as an error of ``giftgenius.errors`` and leaves through ``error_response``: the status and
code of the nearest class in ``STATUSES``, and a body ``{"error": {"code", "message"}}``
whose message is the catalogue's sentence, the one the terminal shows.
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from giftgenius import messages as catalogue
from giftgenius.errors import (
    ConfigError,
    GiftGeniusError,
    InvalidCatalogFile,
    ModelError,
    NotFound,
    NothingToResume,
    RunClosed,
    SchemaOutdated,
    SessionBusy,
    StorageError,
    ToolError,
    UsageError,
    VersionConflict,
)
from giftgenius.privacy import strip_controls

log = logging.getLogger(__name__)


class Unauthorized(GiftGeniusError):
    """No API key, or one that is unknown or revoked."""


class RateLimited(GiftGeniusError):
    """The user made more requests than ``GIFTGENIUS_RATE_LIMIT`` allows."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class TooLarge(UsageError):
    """The request body is over ``GIFTGENIUS_MAX_REQUEST_BYTES``."""


class InvalidRequest(UsageError):
    """The request does not have the shape the API takes (pydantic said why)."""


class MethodNotAllowed(GiftGeniusError):
    """A method the route does not take."""


@dataclass(frozen=True)
class Status:
    status: int
    code: str
    retry: bool = False  # answered with Retry-After


STATUSES: dict[type[GiftGeniusError], Status] = {
    Unauthorized: Status(401, "unauthorized"),
    RateLimited: Status(429, "rate_limited", retry=True),
    TooLarge: Status(413, "too_large"),
    InvalidRequest: Status(422, "invalid_request"),
    UsageError: Status(422, "invalid_input"),
    InvalidCatalogFile: Status(422, "invalid_input"),
    ToolError: Status(422, "invalid_input"),
    NotFound: Status(404, "not_found"),
    NothingToResume: Status(404, "not_found"),
    MethodNotAllowed: Status(405, "method_not_allowed"),
    SessionBusy: Status(409, "session_busy", retry=True),
    RunClosed: Status(409, "run_closed"),
    VersionConflict: Status(409, "conflict"),
    SchemaOutdated: Status(503, "schema_outdated"),
    StorageError: Status(503, "store_down"),
    ModelError: Status(502, "model_failed"),
    ConfigError: Status(500, "misconfigured"),
    GiftGeniusError: Status(500, "internal"),
}
"""Looked up along the error's class hierarchy: the nearest class listed decides."""


def status_of(exc: GiftGeniusError) -> Status:
    for cls in type(exc).__mro__:
        if cls in STATUSES:
            return STATUSES[cls]
    return STATUSES[GiftGeniusError]


def error_response(
    exc: GiftGeniusError, *, busy_retry: float = 1.0, headers: dict[str, str] | None = None
) -> JSONResponse:
    """The response for ``exc``: its status, code and plain message (and Retry-After)."""
    found = status_of(exc)
    sent = dict(headers or {})
    if found.retry:
        seconds = exc.retry_after if isinstance(exc, RateLimited) else busy_retry
        sent["Retry-After"] = str(max(1, math.ceil(seconds)))
    if isinstance(exc, Unauthorized):
        sent["WWW-Authenticate"] = 'Bearer realm="giftgenius"'
    body = {"error": {"code": found.code, "message": strip_controls(str(exc))}}
    return JSONResponse(body, status_code=found.status, headers=sent)


def language(request: Request) -> str:
    """The language of the service's own sentences: the first of ``Accept-Language`` the
    catalogue has (``fr-FR`` → French), else English."""
    for part in request.headers.get("accept-language", "").split(","):
        tag = part.split(";")[0].strip().split("-")[0].lower()
        if tag in catalogue.LANGUAGES:
            return tag
    return "en"


def from_http(request: Request, exc: HTTPException) -> GiftGeniusError:
    """What Starlette refuses by itself, as an error of the tree, in the catalogue's words."""
    lang = language(request)
    if exc.status_code == 404:
        return NotFound(catalogue.say("service", "no_route", lang, path=request.url.path))
    if exc.status_code == 405:
        return MethodNotAllowed(
            catalogue.say(
                "service", "wrong_method", lang, method=request.method, path=request.url.path
            )
        )
    if exc.status_code == 413:
        limit = getattr(request.app.state, "max_request_bytes", 0)
        return TooLarge(catalogue.say("service", "too_large", lang, limit=limit))
    if 400 <= exc.status_code < 500:  # a body that cannot be parsed, say
        return InvalidRequest(
            catalogue.say("service", "invalid_request", lang, problems=exc.detail)
        )
    return GiftGeniusError(catalogue.text("service", "internal", lang))


def from_validation(request: Request, exc: RequestValidationError) -> InvalidRequest:
    """pydantic's findings, one per field, in the catalogue's sentence."""
    problems = "; ".join(
        ".".join(str(p) for p in err.get("loc", ())) + ": " + str(err.get("msg", ""))
        for err in exc.errors()
    )
    lang = language(request)
    return InvalidRequest(catalogue.say("service", "invalid_request", lang, problems=problems))
