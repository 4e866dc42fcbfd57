"""The chat-completions endpoint's side of the wire, served in-process.

An ``httpx2`` transport that answers ``POST …/chat/completions`` the way the API does —
JSON or server-sent events, OpenAI's error bodies — ``GET …/models`` (the one model it
serves) and ``POST …/embeddings`` (for a transport that embeds: ``embed``), so the real
``openai`` client (request building, retries, SSE parsing, error classes) is the code that
runs, not a fake of it.
Two things stand behind it: the offline model (``offline/transport.py``) and any
``ChatModel`` served over the wire (``llm/served.py``, the turn benchmark's model). They
differ only in ``ChatCompletionsTransport.answer``; the wire format is written once, here.
``llm/server.py`` puts the same transport behind a real socket (``giftgenius model serve``).
"""

from __future__ import annotations

import base64
import hashlib
import json
import logging
import secrets
import struct
import time
from abc import ABC, abstractmethod
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx2

from giftgenius.protocol import PURPOSE_HEADER

log = logging.getLogger(__name__)

CHAT_PATH = "/chat/completions"
MODELS_PATH = "/models"
EMBEDDINGS_PATH = "/embeddings"
MAX_EMBEDDING_INPUTS = 2048  # the API's own cap on inputs per request
_TEXT_PIECE_WORDS = 3  # words per streamed content delta
_ARGS_PIECE_CHARS = 24  # characters per streamed arguments delta


@dataclass
class Completion:
    """One assistant message and its accounting, before it is put on the wire."""

    content: str | None
    tool_calls: list[dict[str, Any]] = field(default_factory=list)  # wire dicts
    finish_reason: str = "stop"
    prompt_tokens: int = 0
    completion_tokens: int = 0


@dataclass
class WireError(Exception):
    """An API error as the wire carries it: HTTP status plus OpenAI's error object."""

    status: int
    message: str
    type: str = "invalid_request_error"
    param: str | None = None
    code: str | None = None
    headers: dict[str, str] = field(default_factory=dict)

    def __str__(self) -> str:
        return f"{self.status} {self.message}"

    def body(self) -> dict[str, Any]:
        return {
            "error": {
                "message": self.message,
                "type": self.type,
                "param": self.param,
                "code": self.code,
            }
        }


class ChatCompletionsTransport(httpx2.BaseTransport, ABC):
    """Routes ``POST …/chat/completions`` to ``answer`` and ``GET …/models`` to the model's
    name; anything else is a 404.

    ``answer`` raises ``WireError`` for what the API would refuse; any other exception is a
    bug behind the endpoint, reported once as a 500 the client does not retry.
    """

    model: str  # the model name the answers carry
    who: str  # what answers, for the 500's message ("The offline engine")

    def handle_request(self, request: httpx2.Request) -> httpx2.Response:
        request.read()
        try:
            return self._handle(request)
        except WireError as err:
            return error_response(err)
        except Exception as exc:
            log.exception("%s failed", self.who)
            return error_response(
                WireError(
                    500,
                    f"{self.who} failed: {type(exc).__name__}: {exc}. This is a bug in "
                    "GiftGenius; please report it with the log.",
                    type="server_error",
                    headers={"x-should-retry": "false"},
                )
            )

    @abstractmethod
    def answer(self, body: Any, purpose: str) -> Completion:
        """The completion for a parsed request body (``purpose``: the purpose header)."""

    def embed(self, texts: list[str], model: str) -> Embedded:
        """The vectors of ``texts`` (``model``: the name asked for). A transport that does
        not embed answers as the API does for a path it does not serve."""
        raise WireError(404, f"Invalid URL (POST {EMBEDDINGS_PATH})", code="unknown_url")

    def _handle(self, request: httpx2.Request) -> httpx2.Response:
        path = request.url.path.rstrip("/")
        folder, _, last = path.rpartition("/")
        if request.method == "GET" and path.endswith(MODELS_PATH):
            _check_auth(request)
            return httpx2.Response(200, json={"object": "list", "data": [self._model_json()]})
        if request.method == "GET" and folder.endswith(MODELS_PATH):
            _check_auth(request)
            if last != self.model:
                raise WireError(
                    404,
                    f"The model `{last}` does not exist or you do not have access to it.",
                    code="model_not_found",
                )
            return httpx2.Response(200, json=self._model_json())
        if request.method == "POST" and path.endswith(EMBEDDINGS_PATH):
            _check_auth(request)
            return self._embeddings(request)
        if request.method != "POST" or not path.endswith(CHAT_PATH):
            raise WireError(
                404, f"Invalid URL ({request.method} {request.url.path})", code="unknown_url"
            )
        _check_auth(request)
        return self._complete(request)

    def _model_json(self) -> dict[str, Any]:
        return {"id": self.model, "object": "model", "created": 0, "owned_by": "giftgenius"}

    def _embeddings(self, request: httpx2.Request) -> httpx2.Response:
        body = _json_body(request)
        texts, model, encoding = check_embedding_request(body)
        embedded = self.embed(texts, model)
        data = [
            {"object": "embedding", "index": i, "embedding": _encoded(vector, encoding)}
            for i, vector in enumerate(embedded.vectors)
        ]
        usage = {"prompt_tokens": embedded.tokens, "total_tokens": embedded.tokens}
        payload = {"object": "list", "data": data, "model": embedded.model, "usage": usage}
        headers = {"x-request-id": "req_" + secrets.token_hex(16)}
        return httpx2.Response(200, headers=headers, json=payload)

    def _complete(self, request: httpx2.Request) -> httpx2.Response:
        body = _json_body(request)
        check_request(body)
        completion = self.answer(body, request.headers.get(PURPOSE_HEADER, "chat"))
        ident = "chatcmpl-" + hashlib.sha256(request.content).hexdigest()[:29]
        created = int(time.time())
        headers = {"x-request-id": "req_" + secrets.token_hex(16)}
        if isinstance(body, dict) and body.get("stream"):
            include_usage = bool((body.get("stream_options") or {}).get("include_usage"))
            events = _stream_events(completion, ident, created, self.model, include_usage)
            headers["content-type"] = "text/event-stream; charset=utf-8"
            return httpx2.Response(200, headers=headers, stream=_Chunks(events))
        payload = _completion_json(completion, ident, created, self.model)
        return httpx2.Response(200, headers=headers, json=payload)


@dataclass
class Embedded:
    """What an embeddings answer carries: one vector per input, in order."""

    vectors: list[list[float]]
    model: str
    tokens: int = 0


def _json_body(request: httpx2.Request) -> Any:
    try:
        return json.loads(request.content or b"null")
    except ValueError as exc:
        raise WireError(
            400,
            "We could not parse the JSON body of your request. (HINT: This likely means "
            "you aren't using your HTTP library correctly.)",
        ) from exc


def check_embedding_request(body: Any) -> tuple[list[str], str, str]:
    """The texts, the model and the encoding of an embeddings request, refused as the API
    refuses it (a 400 naming the field): ``input`` a string or a list of 1 to 2048
    non-empty strings, ``model`` a string, ``encoding_format`` "float" or "base64"."""
    if not isinstance(body, dict):
        raise WireError(400, "The request body must be a JSON object.")
    model = body.get("model")
    if not isinstance(model, str) or not model:
        raise WireError(400, "you must provide a model parameter", param="model")
    raw = body.get("input")
    texts = [raw] if isinstance(raw, str) else raw
    if (
        not isinstance(texts, list)
        or not 0 < len(texts) <= MAX_EMBEDDING_INPUTS
        or not all(isinstance(t, str) and t for t in texts)
    ):
        raise WireError(
            400,
            "'$.input' is invalid: give a non-empty string or a list of 1 to "
            f"{MAX_EMBEDDING_INPUTS} non-empty strings.",
            param="input",
        )
    encoding = body.get("encoding_format") or "float"
    if encoding not in ("float", "base64"):
        said = f"Invalid encoding_format {encoding!r}: use float or base64."
        raise WireError(400, said, param="encoding_format")
    return texts, model, encoding


def _encoded(vector: list[float], encoding: str) -> list[float] | str:
    """A vector as the API sends it: a list of floats, or base64 of little-endian float32."""
    if encoding == "float":
        return vector
    return base64.b64encode(struct.pack(f"<{len(vector)}f", *vector)).decode("ascii")


# What strict mode takes in a function's parameters schema (OpenAI's rules, which vLLM,
# Ollama and llama.cpp's constrained decoders read too).
STRICT_KEYWORDS = frozenset(
    {
        "type", "description", "enum", "const", "anyOf",  # any node
        "pattern", "format",  # strings
        "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",  # numbers
        "items", "minItems", "maxItems",  # arrays
        "properties", "required", "additionalProperties",  # objects
    }
)  # fmt: skip


def strict_problems(parameters: dict[str, Any]) -> list[str]:
    """What keeps a parameters schema from being strict-mode valid (empty when it is)."""
    problems: list[str] = []
    if parameters.get("type") != "object":
        problems.append("#: the root is not an object")
    if "anyOf" in parameters:
        problems.append("#: the root is an anyOf")
    for path, node in _nodes(parameters, "#"):
        unknown = sorted(set(node) - STRICT_KEYWORDS)
        if unknown:
            problems.append(f"{path}: keywords strict mode does not take: {unknown}")
        if "type" not in node and "anyOf" not in node:
            problems.append(f"{path}: neither a type nor an anyOf")
        kinds = node.get("type")
        if kinds == "object" or (isinstance(kinds, list) and "object" in kinds):
            if node.get("additionalProperties") is not False:
                problems.append(f"{path}: additionalProperties is not false")
            if list(node.get("required", ())) != list(node.get("properties", {})):
                problems.append(f"{path}: not every property is required")
        nullable = isinstance(kinds, list) and "null" in kinds
        if nullable and None not in node.get("enum", [None]):
            problems.append(f"{path}: nullable but its enum has no null")
    return problems


def _nodes(schema: dict[str, Any], path: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every schema node under ``schema`` (itself first), with its path."""
    yield path, schema
    for name, prop in (schema.get("properties") or {}).items():
        yield from _nodes(prop, f"{path}/properties/{name}")
    if isinstance(schema.get("items"), dict):
        yield from _nodes(schema["items"], f"{path}/items")
    for i, branch in enumerate(schema.get("anyOf") or ()):
        yield from _nodes(branch, f"{path}/anyOf/{i}")


def check_request(body: Any) -> None:
    """Refuse, as a 400, a request some OpenAI-compatible server would refuse.

    As strict as the strictest common server, so what passes here passes everywhere: a
    function marked ``strict`` must have a strict-mode schema (OpenAI's rule), and a system
    message may only come first (the chat templates of Gemma, Llama and Mistral, which
    llama.cpp and vLLM apply). The offline model checks the tool-call protocol itself
    (``offline/wire.py``), with OpenAI's own messages.
    """
    if not isinstance(body, dict):
        return
    for tool in body.get("tools") or []:
        function = tool.get("function") if isinstance(tool, dict) else None
        if not isinstance(function, dict) or not function.get("strict"):
            continue
        problems = strict_problems(function.get("parameters") or {})
        if problems:
            raise WireError(
                400,
                f"Invalid schema for function '{function.get('name')}': {problems[0]}.",
                param="tools",
                code="invalid_function_parameters",
            )
    for index, message in enumerate(body.get("messages") or []):
        role = message.get("role") if isinstance(message, dict) else None
        where = f"messages[{index}]"
        if role == "system" and index:
            raise WireError(
                400,
                f"{where}: a system message after the first one; chat templates such as "
                "Gemma's refuse it.",
                param="messages",
            )


class _Chunks(httpx2.SyncByteStream):
    """The SSE body: one ``data:`` event per chunk, then ``data: [DONE]``."""

    def __init__(self, events: list[dict[str, Any]]) -> None:
        self._events = events

    def __iter__(self) -> Iterator[bytes]:
        for event in self._events:
            yield b"data: " + json.dumps(event, ensure_ascii=False).encode() + b"\n\n"
        yield b"data: [DONE]\n\n"


def _check_auth(request: httpx2.Request) -> None:
    """Any key will do, as long as there is one: the API's 401 otherwise."""
    auth = request.headers.get("authorization", "")
    if not auth.startswith("Bearer ") or not auth[7:].strip():
        raise WireError(
            401,
            "You didn't provide an API key. You need to provide your API key in an "
            "Authorization header using Bearer auth.",
            code="invalid_api_key",
        )


def error_response(err: WireError) -> httpx2.Response:
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
