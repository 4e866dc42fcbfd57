"""``/healthz`` (the process answers), ``/readyz`` (what it needs answers too) and
``/metrics`` (the Prometheus series of ``giftgenius.metrics``).

Readiness asks each dependency now: the database (a new statement, and its schema at this
code's revision), the session store (Redis, or the embedded file) and the model endpoint
when one is configured (``openai:NAME``; an in-process model has nothing to reach). Any
that fails makes a 503 that names it with the store's or the model client's own sentence.
None needs a key: they say nothing of any user (metric labels are route templates, tools,
models and backends, never ids or text), and a scraper or a load balancer has none.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse, Response

from giftgenius import messages as catalogue
from giftgenius import metrics
from giftgenius.errors import GiftGeniusError
from giftgenius.service.errors import language
from giftgenius.service.state import Service, service

router = APIRouter(tags=["health"])


@router.get("/metrics", include_in_schema=False)
def prometheus() -> Response:
    """Every series, in Prometheus's text format (all workers' with ``--workers N``)."""
    body, content_type = metrics.render()
    return Response(body, media_type=content_type)


@router.get("/healthz")
def healthz() -> dict[str, str]:
    """The process is alive."""
    return {"status": "ok"}


@router.get("/readyz", responses={503: {"description": "A dependency is down; says which"}})
def readyz(request: Request, svc: Annotated[Service, Depends(service)]) -> JSONResponse:
    """The database, its schema, the session store and the model endpoint answer."""
    lang = language(request)
    checks: dict[str, Callable[[], str | None]] = {
        "database": lambda: _database(svc),
        "sessions": lambda: _sessions(svc),
        "model": lambda: _model(svc, lang),
    }
    results: dict[str, dict[str, Any]] = {}
    for name, check in checks.items():
        try:
            detail = check() or catalogue.text("service", "check.ok", lang)
            results[name] = {"ok": True, "detail": detail}
        except GiftGeniusError as exc:
            results[name] = {"ok": False, "detail": str(exc)}
    down = [name for name, result in results.items() if not result["ok"]]
    if down:
        message = catalogue.say("service", "not_ready", lang, down=", ".join(down))
        body = {"status": "unready", "message": message, "checks": results}
        return JSONResponse(body, status_code=503)
    return JSONResponse({"status": "ready", "checks": results})


def _database(svc: Service) -> None:
    svc.agent().db.check()


def _sessions(svc: Service) -> None:
    svc.ping_sessions()


def _model(svc: Service, lang: str) -> str | None:
    from giftgenius.llm.factory import probe_endpoint

    probed = probe_endpoint(svc.settings)
    return None if probed else catalogue.text("service", "check.in_process", lang)
