"""Prometheus metrics: every series GiftGenius exports, defined here and nowhere else.

A bottom utility (``pyproject.toml``'s contracts): the agent, the model seam, the stores and
the HTTP service call the small hook functions below, and none of them names a series. The
series live in the process's default registry, so a test reads one with ``sample``; nothing
is pushed anywhere — the CLI only collects in-process, and the HTTP service exposes
``render()`` (or ``asgi_app()``) at ``/metrics``. The table of series is in
``giftgenius/README.md``, "Metrics".

With ``PROMETHEUS_MULTIPROC_DIR`` set *before this module is first imported* (several
worker processes behind one endpoint), prometheus_client keeps every value in a file of that
folder and ``render`` sums the live files of all processes (``prometheus_client.multiprocess``;
the gauge of active sessions sums the live processes only: ``livesum``). A server that
replaces workers calls ``mark_process_dead(pid)`` when one exits.

Each hook costs a microsecond or two (a dictionary look-up for the labelled child, then a
locked add) and never raises: a metric that cannot be recorded is logged once and the turn
goes on (``_complain``).
"""

from __future__ import annotations

import functools
import logging
import os
from collections.abc import Callable, Iterable
from typing import Any, ParamSpec, TypeVar

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    disable_created_metrics,
    generate_latest,
    make_asgi_app,
    multiprocess,
)

from giftgenius.errors import StorageError, VersionConflict

log = logging.getLogger("giftgenius.metrics")

disable_created_metrics()  # no ``*_created`` series: half the exposition, and of no use here

# Read once, as prometheus_client itself reads it when it is first imported.
MULTIPROC_DIR = os.environ.get("PROMETHEUS_MULTIPROC_DIR") or None

# Seconds: from a bookkeeping step of a fraction of a millisecond to a slow model answer.
_TURN = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
_MODEL = (0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 30.0, 60.0, 120.0)
_HTTP = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)
_WAIT = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
_BYTES = (256, 512, 1024, 2048, 4096, 8192, 16384, 65536)

TURN_PHASE_SECONDS = Histogram(
    "giftgenius_turn_phase_seconds",
    "Time of one turn's phase (agent/timings.py; the model's time is its own phase).",
    ["phase"],
    buckets=_TURN,
)
TURN_SECONDS = Histogram(
    "giftgenius_turn_seconds", "Time of a whole turn (Agent.turn), model included.", buckets=_TURN
)
TURNS = Counter("giftgenius_turns", "Turns, by outcome.", ["outcome"])
MODEL_CALLS = Counter(
    "giftgenius_model_calls", "Model calls, by model and outcome.", ["model", "outcome"]
)
MODEL_SECONDS = Histogram(
    "giftgenius_model_call_seconds", "Time of one model call.", ["model"], buckets=_MODEL
)
MODEL_TOKENS = Counter(
    "giftgenius_model_tokens", "Tokens the model reported, prompt or completion.", ["model", "kind"]
)
TOOL_CALLS = Counter("giftgenius_tool_calls", "Tool calls the model made, by tool.", ["tool"])
TOOL_ERRORS = Counter(
    "giftgenius_tool_errors", "Tool calls answered with ok: false (refused or bad).", ["tool"]
)
CHECKPOINT_WRITES = Counter(
    "giftgenius_checkpoint_writes", "Checkpoints committed, by step.", ["step"]
)
CHECKPOINT_BYTES = Histogram(
    "giftgenius_checkpoint_bytes", "Size of a committed checkpoint's JSON payload.", buckets=_BYTES
)
STORE_OPERATIONS = Counter(
    "giftgenius_session_store_operations",
    "Session-store operations, by backend and operation.",
    ["backend", "operation"],
)
STORE_FAILURES = Counter(
    "giftgenius_session_store_failures",
    "Session-store operations that failed (store unreachable or refusing; a lost "
    "check-and-set is not a failure).",
    ["backend", "operation"],
)
LEASE_WAIT_SECONDS = Histogram(
    "giftgenius_lease_wait_seconds",
    "Time spent waiting for a session lease another window held, by outcome.",
    ["outcome"],
    buckets=_WAIT,
)
ACTIVE_SESSIONS = Gauge(
    "giftgenius_active_sessions",
    "Sessions whose lease this process holds now (a turn under way).",
    multiprocess_mode="livesum",
)
HTTP_REQUESTS = Counter(
    "giftgenius_http_requests",
    "HTTP requests, by route, method and status.",
    ["route", "method", "status"],
)
HTTP_SECONDS = Histogram(
    "giftgenius_http_request_duration_seconds",
    "Time to answer an HTTP request, by route and method.",
    ["route", "method"],
    buckets=_HTTP,
)

P = ParamSpec("P")
R = TypeVar("R")

_complained = False


def _complain() -> None:
    """Log, once per process, that a metric could not be recorded; never raise."""
    global _complained
    if not _complained:
        _complained = True
        log.warning("a metric could not be recorded", exc_info=True)


def _guarded(hook: Callable[P, None]) -> Callable[P, None]:
    """A hook that never raises: metrics are not worth a failed turn. (The hooks called
    several times a turn catch inline instead, one call layer fewer.)"""

    @functools.wraps(hook)
    def guarded(*args: P.args, **kwargs: P.kwargs) -> None:
        try:
            hook(*args, **kwargs)
        except Exception:
            _complain()

    return guarded


@functools.cache
def _child(metric: Any, *values: str) -> Any:
    """The labelled child, kept: ``labels()`` validates and locks on every call."""
    return metric.labels(*values)


# -- turns ---------------------------------------------------------------------------------


def turn_finished(outcome: str, phases: dict[str, float] | None = None, total: float = 0.0) -> None:
    """A turn ended with ``outcome`` (ok, busy, closed, conflict, rejected, error,
    interrupted); a turn that ran gives its phases' seconds (``TurnTimings.phases()``) and
    its total."""
    try:
        _child(TURNS, outcome).inc()
        if phases is None:
            return
        for phase, seconds in phases.items():
            _child(TURN_PHASE_SECONDS, phase).observe(seconds)
        TURN_SECONDS.observe(total)
    except Exception:
        _complain()


@_guarded
def model_called(
    model: str, seconds: float, prompt_tokens: int = 0, completion_tokens: int = 0, ok: bool = True
) -> None:
    """One model call: its time and the tokens it reported."""
    _child(MODEL_CALLS, model, "ok" if ok else "error").inc()
    _child(MODEL_SECONDS, model).observe(seconds)
    if prompt_tokens:
        _child(MODEL_TOKENS, model, "prompt").inc(prompt_tokens)
    if completion_tokens:
        _child(MODEL_TOKENS, model, "completion").inc(completion_tokens)


@_guarded
def tool_called(tool: str, ok: bool) -> None:
    """One tool call; a result with ``ok: false`` is also an error."""
    _child(TOOL_CALLS, tool).inc()
    if not ok:
        _child(TOOL_ERRORS, tool).inc()


def checkpoints_written(written: Iterable[tuple[str, int]]) -> None:
    """Checkpoints just committed: each one's step and payload size in bytes."""
    try:
        for step, size in written:
            _child(CHECKPOINT_WRITES, step).inc()
            CHECKPOINT_BYTES.observe(size)
    except Exception:
        _complain()


# -- session stores and leases ----------------------------------------------------------


def store_operation(operation: str) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Count a session-store method's calls and failures, labelled with the store's
    ``backend`` attribute and ``operation``.

    A failure is a ``StorageError`` other than a lost check-and-set (``VersionConflict``
    and the erased-run refusal under it are answers, not faults).
    """

    def decorate(method: Callable[P, R]) -> Callable[P, R]:
        @functools.wraps(method)
        def counted(*args: P.args, **kwargs: P.kwargs) -> R:
            try:
                return method(*args, **kwargs)
            except StorageError as exc:
                if not isinstance(exc, VersionConflict):
                    _store_failed(getattr(args[0], "backend", "unknown"), operation)
                raise
            finally:
                try:
                    _child(
                        STORE_OPERATIONS, getattr(args[0], "backend", "unknown"), operation
                    ).inc()
                except Exception:
                    _complain()

        return counted

    return decorate


@_guarded
def _store_failed(backend: str, operation: str) -> None:
    _child(STORE_FAILURES, backend, operation).inc()


@_guarded
def lease_waited(seconds: float, outcome: str) -> None:
    """A turn waited ``seconds`` for a lease another window held: ``acquired`` it, gave up
    (``busy``), or the store failed meanwhile (``error``)."""
    _child(LEASE_WAIT_SECONDS, outcome).observe(seconds)


def session_started() -> None:
    """A session became active in this process (its lease was taken)."""
    try:
        ACTIVE_SESSIONS.inc()
    except Exception:
        _complain()


def session_ended() -> None:
    """An active session's lease was given back."""
    try:
        ACTIVE_SESSIONS.dec()
    except Exception:
        _complain()


# -- HTTP ----------------------------------------------------------------------------------


@_guarded
def observe_http(route: str, method: str, status: int, seconds: float) -> None:
    """One HTTP request answered (the service's middleware calls this). ``route`` is the
    route's template (``/sessions/{id}``), never the raw path: labels must stay few."""
    _child(HTTP_REQUESTS, route, method, str(status)).inc()
    _child(HTTP_SECONDS, route, method).observe(seconds)


# -- exposition ----------------------------------------------------------------------------


def registry() -> CollectorRegistry:
    """The registry to expose: this process's, or every process's files in multiprocess
    mode (a fresh collector registry, as prometheus_client asks)."""
    if MULTIPROC_DIR is None:
        return REGISTRY
    collected = CollectorRegistry()
    multiprocess.MultiProcessCollector(collected, path=MULTIPROC_DIR)
    return collected


def render() -> tuple[bytes, str]:
    """The exposition text of every series and its content type, for ``/metrics``."""
    return generate_latest(registry()), CONTENT_TYPE_LATEST


def asgi_app() -> Callable[..., Any]:
    """An ASGI app serving ``render()``'s series (with content negotiation), to mount at
    ``/metrics``."""
    return make_asgi_app(registry=registry())


def mark_process_dead(pid: int) -> None:
    """Drop a dead worker's live gauges (multiprocess mode; nothing otherwise)."""
    if MULTIPROC_DIR is not None:
        multiprocess.mark_process_dead(pid, MULTIPROC_DIR)


def sample(name: str, **labels: str) -> float:
    """One sample's current value in this process (0.0 when never recorded): for tests and
    checks. ``name`` is the sample's full name (``giftgenius_turns_total``)."""
    value = REGISTRY.get_sample_value(name, labels)
    return 0.0 if value is None else value
