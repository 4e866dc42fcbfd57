"""OpenAIChatModel over httpx2.MockTransport: retries, error mapping, stream reassembly."""

from __future__ import annotations

import json
from collections.abc import Callable

import httpx2
import openai
import pytest

from giftgenius.errors import ConfigError, ContextLengthExceeded, ModelError
from giftgenius.llm.base import ChatRequest
from giftgenius.llm.factory import make_model, model_context_window
from giftgenius.llm.openai_chat import OpenAIChatModel
from giftgenius.settings import load_settings

BASE = "http://mock.giftgenius.invalid/v1"
FAST_RETRY = {"retry-after-ms": "1"}  # keep the client's backoff out of the test's time
REQUEST = ChatRequest(messages=[{"role": "user", "content": "hi"}])


def sse(*events: dict[str, object]) -> bytes:
    body = b"".join(b"data: " + json.dumps(e).encode() + b"\n\n" for e in events)
    return body + b"data: [DONE]\n\n"


def chunk(delta: dict[str, object], finish: str | None = None) -> dict[str, object]:
    return {
        "id": "c1",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "gpt-test",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }


USAGE = {
    "id": "c1",
    "object": "chat.completion.chunk",
    "created": 1,
    "model": "gpt-test",
    "choices": [],
    "usage": {"prompt_tokens": 7, "completion_tokens": 3, "total_tokens": 10},
}
HELLO = sse(chunk({"role": "assistant", "content": "Hel"}), chunk({"content": "lo"}, "stop"), USAGE)


def model(
    handler: Callable[[httpx2.Request], httpx2.Response], retries: int = 2
) -> OpenAIChatModel:
    client = openai.OpenAI(
        api_key="sk-test",
        base_url=BASE,
        http_client=httpx2.Client(transport=httpx2.MockTransport(handler)),
        max_retries=retries,
    )
    return OpenAIChatModel(client, "gpt-test")


def error(status: int, message: str, code: str | None = None) -> httpx2.Response:
    body = {"error": {"message": message, "type": "x", "param": None, "code": code}}
    return httpx2.Response(status, headers=FAST_RETRY, json=body)


def ok() -> httpx2.Response:
    return httpx2.Response(200, headers={"content-type": "text/event-stream"}, content=HELLO)


def test_streams_text_and_usage() -> None:
    seen: list[dict[str, object]] = []

    def handler(request: httpx2.Request) -> httpx2.Response:
        seen.append(json.loads(request.content))
        return ok()

    pieces: list[str] = []
    response = model(handler).complete(REQUEST, on_text=pieces.append)
    assert response.message.content == "Hello"
    assert pieces == ["Hel", "lo"]
    assert (response.usage.prompt_tokens, response.usage.completion_tokens) == (7, 3)
    assert seen[0]["stream"] is True
    assert seen[0]["stream_options"] == {"include_usage": True}
    assert "tools" not in seen[0]  # omitted when empty


def test_tool_call_deltas_are_reassembled() -> None:
    body = sse(
        chunk({"role": "assistant", "content": None}),
        chunk({"tool_calls": [{"index": 0, "id": "call_a", "type": "function",
                               "function": {"name": "select_gift", "arguments": ""}}]}),
        chunk({"tool_calls": [{"index": 0, "function": {"arguments": '{"gift_id"'}}]}),
        chunk({"tool_calls": [{"index": 0, "function": {"arguments": ': "g-1"}'}}]}),
        chunk({}, "tool_calls"),
    )  # fmt: skip

    def handler(request: httpx2.Request) -> httpx2.Response:
        return httpx2.Response(200, headers={"content-type": "text/event-stream"}, content=body)

    response = model(handler).complete(REQUEST)
    [call] = response.message.tool_calls
    assert (call.id, call.name, json.loads(call.arguments)) == (
        "call_a",
        "select_gift",
        {"gift_id": "g-1"},
    )
    assert response.finish_reason == "tool_calls"


def test_rate_limit_then_success_is_retried() -> None:
    answers = [error(429, "Rate limit reached"), ok()]
    calls: list[int] = []

    def handler(request: httpx2.Request) -> httpx2.Response:
        calls.append(1)
        return answers.pop(0)

    assert model(handler).complete(REQUEST).message.content == "Hello"
    assert len(calls) == 2


def test_persistent_server_error_ends_in_model_error() -> None:
    calls: list[int] = []

    def handler(request: httpx2.Request) -> httpx2.Response:
        calls.append(1)
        return error(500, "The server had an error")

    with pytest.raises(ModelError) as info:
        model(handler, retries=2).complete(REQUEST)
    assert "HTTP 500" in str(info.value)
    assert "The server had an error" in str(info.value)
    assert len(calls) == 3  # the first try and max_retries retries


def test_context_length_is_its_own_error() -> None:
    def handler(request: httpx2.Request) -> httpx2.Response:
        return error(
            400, "This model's maximum context length is 10 tokens.", "context_length_exceeded"
        )

    with pytest.raises(ContextLengthExceeded, match="maximum context length is 10"):
        model(handler).complete(REQUEST)


def test_auth_error_names_the_key() -> None:
    with pytest.raises(ModelError, match="OPENAI_API_KEY"):
        model(lambda r: error(401, "Incorrect API key provided")).complete(REQUEST)


def test_connection_error_names_the_base_url() -> None:
    def handler(request: httpx2.Request) -> httpx2.Response:
        raise httpx2.ConnectError("refused", request=request)

    with pytest.raises(ModelError) as info:
        model(handler, retries=0).complete(REQUEST)
    assert "mock.giftgenius.invalid" in str(info.value)
    assert "OPENAI_BASE_URL" in str(info.value)


def test_other_status_keeps_the_api_message() -> None:
    with pytest.raises(ModelError, match=r"HTTP 404: The model `x` does not exist"):
        model(lambda r: error(404, "The model `x` does not exist")).complete(REQUEST)


def test_factory_offline_round_trip() -> None:
    settings = load_settings()
    chat = make_model(settings)
    assert chat.name == "offline"
    assert model_context_window(settings) == 16384
    reply = chat.complete(ChatRequest(messages=[{"role": "user", "content": "hello"}]))
    assert reply.message.content


def test_factory_respects_context_window_setting() -> None:
    assert model_context_window(load_settings(context_window=4096)) == 4096


def test_factory_openai_needs_a_key() -> None:
    with pytest.raises(ConfigError, match="OPENAI_API_KEY"):
        make_model(load_settings(model="openai:gpt-4o-mini"))


def test_factory_openai_with_key_and_base_url(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    chat = make_model(load_settings(model="openai:gpt-4o-mini", model_max_retries=1))
    assert isinstance(chat, OpenAIChatModel)
    assert chat.model == "gpt-4o-mini"
    assert str(chat.client.base_url).startswith("http://127.0.0.1:9/v1")
    assert chat.client.max_retries == 1


@pytest.mark.parametrize("spec", ["gpt-4o", "openai:", "anthropic:claude"])
def test_factory_refuses_unknown_forms(spec: str) -> None:
    with pytest.raises(ConfigError, match="openai:<model>"):
        make_model(load_settings(model=spec))
