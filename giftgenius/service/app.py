"""``create_app``: the FastAPI application, versioned under ``/v1``.

Put together from parts a caller can add to: ``routers`` are included after the
service's own, and ``hooks`` receive every finished request's ``RequestRecord``
(``observe.py``) after the metrics count it. ``/`` is the web chat page (``web.py``).
``/docs`` serves the OpenAPI documentation.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING

from fastapi import APIRouter, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from giftgenius import __version__, metrics
from giftgenius import messages as catalogue
from giftgenius.errors import GiftGeniusError
from giftgenius.service import health, routes, web
from giftgenius.service.errors import (
    error_response,
    from_http,
    from_validation,
    language,
    status_of,
)
from giftgenius.service.observe import AccessLog, BodyLimit, RequestHook, RequestRecord
from giftgenius.service.state import Service
from giftgenius.settings import Settings

if TYPE_CHECKING:
    from giftgenius.agent.runner import Agent

log = logging.getLogger(__name__)

DESCRIPTION = (
    "A gift-choosing chat agent over HTTP. Every `/v1` request carries an API key "
    "(`Authorization: Bearer KEY`, made with `giftgenius keys create --user NAME`) and "
    'acts for that key\'s user only. Errors are `{"error": {"code", "message"}}`.'
)


def create_app(
    settings: Settings | None = None,
    *,
    agent: Agent | None = None,
    routers: Sequence[APIRouter] = (),
    hooks: Sequence[RequestHook] = (),
    warm: bool = False,
) -> FastAPI:
    """The service for ``settings`` (loaded from the environment when not given).

    ``agent``, when given, is used instead of one built from the settings (and closed
    with the app). ``warm`` builds the agent at start-up rather than on the first request.
    """
    if settings is None:
        from giftgenius.settings import load_settings

        settings = load_settings()
    svc = Service(settings, agent)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if warm:
            svc.warm()
        try:
            yield
        finally:
            svc.close()

    app = FastAPI(
        title="GiftGenius",
        version=__version__,
        description=DESCRIPTION,
        lifespan=lifespan,
    )
    app.state.service = svc
    app.state.max_request_bytes = settings.max_request_bytes
    app.state.request_hooks = [_count, *hooks]
    _install_errors(app, svc)
    app.add_middleware(BodyLimit, limit=settings.max_request_bytes)
    app.add_middleware(AccessLog)  # added last: the outermost, it times everything
    for router in (health.router, routes.router, web.router, *routers):
        app.include_router(router)
    return app


def _count(record: RequestRecord) -> None:
    """Every request in the ``giftgenius_http_*`` series, by route template and status."""
    metrics.observe_http(record.route, record.method, record.status, record.duration)


def _install_errors(app: FastAPI, svc: Service) -> None:
    """Every refusal through ``errors.error_response``: the one table decides."""

    def respond(exc: GiftGeniusError) -> JSONResponse:
        if status_of(exc).status >= 500 and status_of(exc).code == "internal":
            log.error("request failed: %s", exc, exc_info=exc)
        return error_response(exc, busy_retry=svc.busy_retry)

    @app.exception_handler(GiftGeniusError)
    async def on_error(request: Request, exc: GiftGeniusError) -> JSONResponse:
        return respond(exc)

    @app.exception_handler(RequestValidationError)
    async def on_invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        return respond(from_validation(request, exc))

    @app.exception_handler(HTTPException)
    async def on_http(request: Request, exc: HTTPException) -> JSONResponse:
        return respond(from_http(request, exc))

    @app.exception_handler(Exception)
    async def on_bug(request: Request, exc: Exception) -> JSONResponse:
        log.error("request failed unexpectedly", exc_info=exc)
        internal = GiftGeniusError(catalogue.text("service", "internal", language(request)))
        return error_response(internal)


def serving_app() -> FastAPI:
    """The app ``giftgenius serve`` runs in each worker (uvicorn's factory): settings from
    the environment the command exported, logs and the scrubber's phone regions set up as
    every command does, and the agent built before the first request."""
    from giftgenius.logs import configure_logging
    from giftgenius.privacy import configure_phone_regions
    from giftgenius.settings import load_settings

    settings = load_settings()
    configure_phone_regions(settings.phone_regions)
    configure_logging(settings)
    return create_app(settings, warm=True)
