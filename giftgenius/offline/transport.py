"""An in-process HTTP transport that serves the offline engine in the chat-completions wire
format, so the real ``openai`` client — retries, SSE parsing, error classes — is the code
under test, not a fake of it.
"""

from __future__ import annotations

import hashlib
import json
import logging
import secrets
import time
from collections.abc import Iterator
from typing import Any

import httpx2

from giftgenius.offline.engine import Completion, OfflineEngine
from giftgenius.offline.wire import WireError
from giftgenius.protocol import PURPOSE_HEADER

log = logging.getLogger(__name__)

CHAT_PATH = "/chat/completions"
_TEXT_PIECE_WORDS = 3  # words per streamed content delta
_ARGS_PIECE_CHARS = 24  # characters per streamed arguments delta


class _Chunks(httpx2.SyncByteStream):
    """The SSE body: one ``data:`` event per chunk, then ``data: [DONE]``."""

    def __init__(self, events: list[dict[str, Any]]) -> None:
        self._events = events

    def __iter__(self) -> Iterator[bytes]:
        for event in self._events:
            yield b"data: " + json.dumps(event, ensure_ascii=False).encode() + b"\n\n"
        yield b"data: [DONE]\n\n"


class OfflineTransport(httpx2.BaseTransport):
    """Routes ``POST …/chat/completions`` to an ``OfflineEngine``; anything else is a 404."""

    def __init__(self, engine: OfflineEngine) -> None:
        self.engine = engine

    def handle_request(self, request: httpx2.Request) -> httpx2.Response:
        request.read()
        try:
            return self._handle(request)
        except WireError as err:
            return _error(err)
        except Exception as exc:  # a bug in the engine: report it as the API would, once
            log.exception("offline engine failed")
            return _error(
                WireError(
                    500,
                    f"The offline engine failed: {type(exc).__name__}: {exc}. This is a bug "
                    "in GiftGenius; please report it with the log.",
                    type="server_error",
                    headers={"x-should-retry": "false"},
                )
            )

    def _handle(self, request: httpx2.Request) -> httpx2.Response:
        if request.method != "POST" or not request.url.path.endswith(CHAT_PATH):
            raise WireError(
                404, f"Invalid URL ({request.method} {request.url.path})", code="unknown_url"
            )
        auth = request.headers.get("authorization", "")
        if not auth.startswith("Bearer ") or not auth[7:].strip():
            raise WireError(
                401,
                "You didn't provide an API key. You need to provide your API key in an "
                "Authorization header using Bearer auth.",
                code="invalid_api_key",
            )
        try:
            body = json.loads(request.content or b"null")
        except ValueError as exc:
            raise WireError(
                400,
                "We could not parse the JSON body of your request. (HINT: This likely means "
                "you aren't using your HTTP library correctly.)",
            ) from exc
        purpose = request.headers.get(PURPOSE_HEADER, "chat")
        completion = self.engine.complete(body, purpose=purpose)
        ident = "chatcmpl-" + hashlib.sha256(request.content).hexdigest()[:29]
        created = int(time.time())
        headers = {"x-request-id": "req_" + secrets.token_hex(16)}
        if body.get("stream"):
            include_usage = bool((body.get("stream_options") or {}).get("include_usage"))
            events = _stream_events(completion, ident, created, self.engine.model, include_usage)
            headers["content-type"] = "text/event-stream; charset=utf-8"
            return httpx2.Response(200, headers=headers, stream=_Chunks(events))
        payload = _completion_json(completion, ident, created, self.engine.model)
        return httpx2.Response(200, headers=headers, json=payload)


def _error(err: WireError) -> httpx2.Response:
    return httpx2.Response(err.status, headers=err.headers, json=err.body())


def _usage(c: Completion) -> dict[str, int]:
    return {
        "prompt_tokens": c.prompt_tokens,
        "completion_tokens": c.completion_tokens,
        "total_tokens": c.prompt_tokens + c.completion_tokens,
    }


def _completion_json(c: Completion, ident: str, created: int, model: str) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": c.content, "refusal": None}
    if c.tool_calls:
        message["tool_calls"] = c.tool_calls
    return {
        "id": ident,
        "object": "chat.completion",
        "created": created,
        "model": model,
        "choices": [
            {"index": 0, "message": message, "logprobs": None, "finish_reason": c.finish_reason}
        ],
        "usage": _usage(c),
        "system_fingerprint": "fp_offline",
    }


def _pieces(text: str, words: int) -> list[str]:
    """Split text into deltas of a few words each, keeping every character."""
    parts = text.split(" ")
    return [
        " ".join(parts[i : i + words]) + (" " if i + words < len(parts) else "")
        for i in range(0, len(parts), words)
    ]


def _stream_events(
    c: Completion, ident: str, created: int, model: str, include_usage: bool
) -> list[dict[str, Any]]:
    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        event: dict[str, Any] = {
            "id": ident,
            "object": "chat.completion.chunk",
            "created": created,
            "model": model,
            "system_fingerprint": "fp_offline",
            "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}],
        }
        if include_usage:
            event["usage"] = None
        return event

    events = [chunk({"role": "assistant", "content": "" if c.content is not None else None})]
    if c.content:
        events += [chunk({"content": piece}) for piece in _pieces(c.content, _TEXT_PIECE_WORDS)]
    for index, call in enumerate(c.tool_calls):
        function = call["function"]
        events.append(
            chunk(
                {
                    "tool_calls": [
                        {
                            "index": index,
                            "id": call["id"],
                            "type": "function",
                            "function": {"name": function["name"], "arguments": ""},
                        }
                    ]
                }
            )
        )
        args = function["arguments"]
        for start in range(0, len(args), _ARGS_PIECE_CHARS):
            piece = args[start : start + _ARGS_PIECE_CHARS]
            events.append(
                chunk({"tool_calls": [{"index": index, "function": {"arguments": piece}}]})
            )
    events.append(chunk({}, c.finish_reason))
    if include_usage:
        events.append(
            {
                "id": ident,
                "object": "chat.completion.chunk",
                "created": created,
                "model": model,
                "system_fingerprint": "fp_offline",
                "choices": [],
                "usage": _usage(c),
            }
        )
    return events
