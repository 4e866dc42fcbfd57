"""A turn as server-sent events: ``delta`` events as the model writes, then ``done``.

The turn runs on a thread of its own and hands its text to a queue through the runner's
streaming hook (``Agent.turn(on_text=...)``); the response reads the queue. The first
item is awaited before the response starts, so a turn refused at once (a busy session, an
unknown run, a store down) is an ordinary error response with its status; one that fails
after text was sent ends the stream with an ``error`` event carrying the same body.

``done`` carries the whole reply (what the terminal shows): the deltas are the words as
they came, for display while the turn runs, and never the state block a small model may
echo (``StateGate`` holds back any line that could be one, by ``protocol.without_state``'s
rule). A model that streams nothing still gives deltas: the reply in pieces, before
``done``.
"""

from __future__ import annotations

import json
import logging
import queue
import re
import threading
from collections.abc import Callable, Iterator
from typing import Any

from fastapi.responses import StreamingResponse

from giftgenius.errors import GiftGeniusError
from giftgenius.protocol import STATE_BLOCK_PREFIX, without_state
from giftgenius.service.errors import status_of

log = logging.getLogger(__name__)

MARKER = STATE_BLOCK_PREFIX.strip()
CHUNK = re.compile(r"\S+\s*|\s+")
"""Pieces of a reply that arrived whole: a word and the spaces after it."""

Work = Callable[[Callable[[str], None]], dict[str, Any]]
"""A turn: takes the hook its text goes to, returns the ``done`` document."""


def event(name: str, data: Any) -> str:
    """One server-sent event; the data is JSON on one line."""
    return f"event: {name}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"


class StateGate:
    """Streamed text with every line that could echo the state block held back."""

    def __init__(self) -> None:
        self.line = ""  # the current line, as received
        self.sent = 0  # how much of it went out
        self.blocked = False  # it turned out to carry the state marker
        self.passed = ""  # everything let through, for the fallback

    def feed(self, text: str) -> str:
        out = []
        for piece in text.splitlines(keepends=True):
            self.line += piece
            out.append(self._end_line() if piece.endswith(("\n", "\r")) else self._partial())
        said = "".join(out)
        self.passed += said
        return said

    def flush(self) -> str:
        said = self._end_line() if self.line else ""
        self.passed += said
        return said

    def _end_line(self) -> str:
        line, sent, blocked = self.line, self.sent, self.blocked
        self.line, self.sent, self.blocked = "", 0, False
        if blocked or (line.strip() and not without_state(line)):
            return "\n" if sent else ""
        return line[sent:]

    def _partial(self) -> str:
        if self.blocked:
            return ""
        if MARKER in self.line:
            self.blocked = True
            return ""
        head = self.line.lstrip(" \t`")
        if not head or head.startswith("{") or MARKER.startswith(head[: len(MARKER)]):
            return ""  # could still become an echo: wait for more
        safe = len(self.line)
        cut = self.line.rfind("[")
        if cut >= self.sent and MARKER.startswith(self.line[cut:]):
            safe = cut  # the start of a marker, maybe: keep it back
        said, self.sent = self.line[self.sent : safe], max(self.sent, safe)
        return said


def stream_turn(work: Work, busy_retry: float) -> StreamingResponse:
    """Start the turn; raise its error if it fails before any text, else stream it."""
    items: queue.Queue[tuple[str, Any]] = queue.Queue()

    def run() -> None:
        try:
            items.put(("done", work(lambda text: items.put(("delta", text)))))
        except Exception as exc:
            items.put(("error", exc))

    threading.Thread(target=run, name="giftgenius-turn", daemon=True).start()
    first = items.get()
    if first[0] == "error":
        raise first[1]
    return StreamingResponse(
        _events(first, items, busy_retry),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )


def _events(
    first: tuple[str, Any], items: queue.Queue[tuple[str, Any]], busy_retry: float
) -> Iterator[str]:
    gate = StateGate()
    item = first
    while True:
        kind, value = item
        if kind == "delta":
            said = gate.feed(value)
            if said:
                yield event("delta", {"text": said})
        elif kind == "done":
            yield from _finish(gate, value)
            return
        else:
            yield event("error", _error_body(value))
            return
        item = items.get()


def _finish(gate: StateGate, document: dict[str, Any]) -> Iterator[str]:
    said = gate.flush()
    if said:
        yield event("delta", {"text": said})
    if not gate.passed.strip():  # nothing streamed: the reply, in pieces
        for piece in CHUNK.findall(str(document.get("reply", ""))):
            yield event("delta", {"text": piece})
    yield event("done", document)


def _error_body(exc: BaseException) -> dict[str, Any]:
    if isinstance(exc, GiftGeniusError):
        return {"error": {"code": status_of(exc).code, "message": str(exc)}}
    log.error("a streamed turn failed", exc_info=exc)
    from giftgenius import messages

    return {"error": {"code": "internal", "message": messages.text("service", "internal", "en")}}
