"""Model endpoint faults: a real OpenAI-compatible server on loopback.

A small ``http.server`` in a thread of the test answers each request with the next fault
of its script (429 with Retry-After, 500, 503, a timeout, malformed JSON, a stream cut in
the middle, a tool call whose arguments are not JSON), then healthily. The whole chat runs
against it (``GIFTGENIUS_MODEL=openai:…``, ``OPENAI_BASE_URL``): retries are the openai
client's own, bounded by ``GIFTGENIUS_MODEL_MAX_RETRIES`` — the server counts the requests —
and what is left is told to the user in one plain line. After each fault the run's
committed version, transcript, checkpoints and usage are checked against what the server
actually answered: nothing half-committed, nothing counted twice.
"""

from __future__ import annotations

import contextlib
import io
import json
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from giftgenius.app import build_agent
from giftgenius.cli.main import main
from giftgenius.settings import load_settings

MAX_RETRIES = 2  # GIFTGENIUS_MODEL_MAX_RETRIES: at most 3 requests per model call
TIMEOUT = 0.5  # GIFTGENIUS_MODEL_TIMEOUT, seconds
REPLY = "A board game café voucher would suit him."
USAGE = {"prompt_tokens": 11, "completion_tokens": 5, "total_tokens": 16}
FAST_RETRY = {"retry-after-ms": "10"}  # the openai client's own header: keeps backoff short

Fault = Callable[[BaseHTTPRequestHandler], None]


def _chunk(delta: dict[str, object], finish: str | None = None) -> dict[str, object]:
    return {
        "id": "c1",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "gpt-fault",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }


def _usage_chunk() -> dict[str, object]:
    return {**_chunk({}), "choices": [], "usage": USAGE}


def _sse(*events: dict[str, object], done: bool = True) -> bytes:
    body = b"".join(b"data: " + json.dumps(e).encode() + b"\n\n" for e in events)
    return body + (b"data: [DONE]\n\n" if done else b"")


def _send(
    handler: BaseHTTPRequestHandler,
    status: int,
    body: bytes,
    *,
    content_type: str = "text/event-stream",
    headers: dict[str, str] | None = None,
    length: int | None = None,
) -> None:
    handler.send_response(status)
    handler.send_header("Content-Type", content_type)
    handler.send_header("Content-Length", str(len(body) if length is None else length))
    for name, value in (headers or {}).items():
        handler.send_header(name, value)
    handler.end_headers()
    handler.wfile.write(body)
    handler.wfile.flush()


def answer(handler: BaseHTTPRequestHandler) -> None:
    """A healthy streamed answer in words, with its usage."""
    words = REPLY.split(" ")
    first = _chunk({"role": "assistant", "content": words[0]})
    rest = [_chunk({"content": " " + w}) for w in words[1:]]
    _send(handler, 200, _sse(first, *rest, _chunk({}, "stop"), _usage_chunk()))


def status(code: int, headers: dict[str, str] | None = None) -> Fault:
    def fault(handler: BaseHTTPRequestHandler) -> None:
        body = {"error": {"message": f"fault {code}", "type": "x", "param": None, "code": None}}
        _send(
            handler,
            code,
            json.dumps(body).encode(),
            content_type="application/json",
            headers=headers if headers is not None else FAST_RETRY,
        )

    return fault


def hang(handler: BaseHTTPRequestHandler) -> None:
    """Say nothing for longer than the client waits."""
    time.sleep(TIMEOUT * 4)


def malformed(handler: BaseHTTPRequestHandler) -> None:
    _send(handler, 200, b'data: {"id": "c1", "choices": [\n\n')


def malformed_body(handler: BaseHTTPRequestHandler) -> None:
    """Not even a stream: a JSON document that does not parse."""
    _send(handler, 200, b'{"choices": [', content_type="application/json")


def cut(handler: BaseHTTPRequestHandler) -> None:
    """Two chunks of a longer answer, then the connection drops."""
    part = _sse(_chunk({"role": "assistant", "content": "A board"}), done=False)
    _send(handler, 200, part, length=len(part) + 4096)
    handler.close_connection = True


def cut_between_events(handler: BaseHTTPRequestHandler) -> None:
    """The body ends cleanly after a few events: no finish, no usage, no [DONE]."""
    _send(handler, 200, _sse(_chunk({"role": "assistant", "content": "A board"}), done=False))


def bad_tool_arguments(handler: BaseHTTPRequestHandler) -> None:
    call = {
        "index": 0,
        "id": "call_1",
        "type": "function",
        "function": {"name": "update_profile", "arguments": '{"recipient": "colleague",'},
    }
    events = (_chunk({"role": "assistant", "tool_calls": [call]}), _chunk({}, "tool_calls"))
    _send(handler, 200, _sse(*events, _usage_chunk()))


@dataclass
class FaultServer:
    """Answers request n with ``script[n]`` (then healthily); counts every request."""

    script: list[Fault] = field(default_factory=list)
    requests: list[dict[str, object]] = field(default_factory=list)
    answered: int = 0  # complete answers that carried usage
    lock: threading.Lock = field(default_factory=threading.Lock)

    def handle(self, handler: BaseHTTPRequestHandler) -> None:
        length = int(handler.headers.get("Content-Length", "0"))
        body = json.loads(handler.rfile.read(length) or b"{}")
        with self.lock:
            self.requests.append(body)
            fault = self.script.pop(0) if self.script else answer
        if fault in (answer, bad_tool_arguments):
            with self.lock:
                self.answered += 1
        fault(handler)


@pytest.fixture
def server() -> Iterator[tuple[FaultServer, str]]:
    state = FaultServer()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:
            # The client may give up first (a timeout): then there is nobody to answer.
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                state.handle(self)

        def log_message(self, format: str, *args: object) -> None:
            pass  # the test's output stays the test's

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    # a short poll so that shutdown() returns at once, not after the default half second
    thread = threading.Thread(target=httpd.serve_forever, args=(0.02,), daemon=True)
    thread.start()
    try:
        yield state, f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    finally:
        httpd.shutdown()
        httpd.server_close()


@pytest.fixture
def endpoint(server: tuple[FaultServer, str], monkeypatch: pytest.MonkeyPatch) -> FaultServer:
    state, base_url = server
    monkeypatch.setenv("GIFTGENIUS_MODEL", "openai:gpt-fault")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-fault")
    monkeypatch.setenv("OPENAI_BASE_URL", base_url)
    monkeypatch.setenv("GIFTGENIUS_MODEL_MAX_RETRIES", str(MAX_RETRIES))
    monkeypatch.setenv("GIFTGENIUS_MODEL_TIMEOUT", str(TIMEOUT))
    monkeypatch.setenv("GIFTGENIUS_CONTEXT_WINDOW", "16000")
    return state


@dataclass
class Chat:
    code: int
    out: str
    err: str


def chat(user: str, *lines: str) -> Chat:
    out, err = io.StringIO(), io.StringIO()
    stdin = io.StringIO("".join(line + "\n" for line in lines))
    code = main(["chat", "--user", user], stdin=stdin, stdout=out, stderr=err)
    return Chat(code, out.getvalue(), err.getvalue())


@dataclass
class Stored:
    version: int
    roles: list[str]
    said: list[str]
    checkpoints: int
    requests: int  # usage.requests as stored
    prompt_tokens: int


def stored(user: str) -> Stored:
    agent = build_agent(load_settings())
    try:
        opened = agent.inspect(user)
        assert opened is not None
        with agent.db.read() as repos:
            entries = repos.transcript.for_run(opened.run.id)
            checkpoints = repos.checkpoints.list(user, opened.run.id)
        usage = opened.loaded.session.usage
        return Stored(
            version=opened.run.session_version,
            roles=[e.role for e in entries],
            said=[e.content or "" for e in entries if e.role == "user"],
            checkpoints=len(checkpoints),
            requests=usage.requests,
            prompt_tokens=usage.prompt_tokens,
        )
    finally:
        agent.close()


FIRST = "Gift for my colleague, he loves board games"
AGAIN = "any idea?"


def _consistent_after_failure(user: str, endpoint: FaultServer) -> None:
    """The failed turn committed nothing; the next one commits it all, counted once."""
    after = stored(user)
    assert after.version == 0 and after.checkpoints == 0
    assert after.roles == ["user"] and after.said == [FIRST]  # accepted, kept once
    assert after.requests == 0  # nothing billed was counted for a turn that did not commit
    healthy = chat(user, AGAIN)
    assert healthy.code == 0 and REPLY in healthy.out, healthy.err
    final = stored(user)
    assert final.version == 1
    assert final.said == [FIRST, AGAIN] and final.roles[-1] == "assistant"
    assert final.requests == 1 and final.prompt_tokens == USAGE["prompt_tokens"]


@pytest.mark.slow
@pytest.mark.parametrize("code", [500, 503])
def test_a_server_error_is_retried_within_bounds_then_told(code: int, endpoint) -> None:
    endpoint.script = [status(code)] * (MAX_RETRIES + 1)
    failed = chat("srv", FIRST)
    assert failed.code == 0  # the chat goes on after telling
    assert f"The model endpoint returned HTTP {code}" in failed.err
    assert "Traceback" not in failed.err
    assert len(endpoint.requests) == MAX_RETRIES + 1  # the client's retries, no second layer
    _consistent_after_failure("srv", endpoint)


@pytest.mark.slow
def test_a_429_with_retry_after_is_waited_for_then_answered(endpoint) -> None:
    endpoint.script = [status(429, headers={"Retry-After": "1"})]
    started = time.monotonic()
    done = chat("rate", FIRST)
    assert done.code == 0 and REPLY in done.out, done.err
    assert time.monotonic() - started >= 1.0  # Retry-After was honoured
    assert len(endpoint.requests) == 2
    after = stored("rate")
    assert after.version == 1 and after.roles == ["user", "assistant"]
    assert after.requests == 1 and after.prompt_tokens == USAGE["prompt_tokens"]  # once


@pytest.mark.slow
def test_429s_beyond_the_retries_are_told(endpoint) -> None:
    endpoint.script = [status(429)] * (MAX_RETRIES + 1)
    failed = chat("rate-out", FIRST)
    assert "The model endpoint returned HTTP 429" in failed.err
    assert len(endpoint.requests) == MAX_RETRIES + 1
    _consistent_after_failure("rate-out", endpoint)


@pytest.mark.slow
def test_a_timeout_is_retried_then_told(endpoint) -> None:
    endpoint.script = [hang] * (MAX_RETRIES + 1)
    failed = chat("slow", FIRST)
    assert "did not answer in time" in failed.err and "GIFTGENIUS_MODEL_TIMEOUT" in failed.err
    assert len(endpoint.requests) == MAX_RETRIES + 1
    _consistent_after_failure("slow", endpoint)


@pytest.mark.slow
def test_one_timeout_then_an_answer_is_answered(endpoint) -> None:
    endpoint.script = [hang]
    done = chat("slow-once", FIRST)
    assert done.code == 0 and REPLY in done.out, done.err
    assert stored("slow-once").requests == 1


@pytest.mark.slow
@pytest.mark.parametrize("fault", [malformed, malformed_body], ids=["stream", "body"])
def test_malformed_json_is_told(fault: Fault, endpoint) -> None:
    endpoint.script = [fault]
    failed = chat("garbled", FIRST)
    assert failed.code == 0 and "Traceback" not in failed.err
    # A stream with a malformed event cannot be read; a body with no events at all ends
    # before any answer began.
    assert "could not be read" in failed.err or "stopped in the middle" in failed.err
    _consistent_after_failure("garbled", endpoint)


@pytest.mark.slow
@pytest.mark.parametrize("fault", [cut, cut_between_events], ids=["connection", "events"])
def test_a_stream_cut_in_the_middle_is_told(fault: Fault, endpoint) -> None:
    endpoint.script = [fault]
    failed = chat("cut", FIRST)
    assert failed.code == 0 and "Traceback" not in failed.err
    assert "broke while it answered" in failed.err or "stopped in the middle" in failed.err
    assert "A board" not in failed.out  # a partial answer is not shown as the reply
    _consistent_after_failure("cut", endpoint)


@pytest.mark.slow
def test_tool_call_arguments_that_are_not_json_go_back_to_the_model(endpoint) -> None:
    endpoint.script = [bad_tool_arguments]
    done = chat("badargs", FIRST)
    assert done.code == 0 and REPLY in done.out, done.err
    second = endpoint.requests[1]["messages"]
    assert isinstance(second, list)
    tool_result = json.loads(second[-1]["content"])
    assert tool_result["ok"] is False and "not valid JSON" in tool_result["error"]
    after = stored("badargs")
    assert after.version == 1 and after.roles == ["user", "assistant", "tool", "assistant"]
    assert after.requests == 2 == endpoint.answered  # each answer counted once
    assert after.prompt_tokens == 2 * USAGE["prompt_tokens"]
