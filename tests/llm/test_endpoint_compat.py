"""What the client sends and accepts so that servers other than OpenAI's work: a cap on the
reply they read, the tool choice said, whole answers for servers that cannot stream a tool
call, and an empty answer taken as an answer."""

from __future__ import annotations

import json
from typing import Any

import pytest

from giftgenius.chatwire import ChatCompletionsTransport, Completion
from giftgenius.llm.base import ChatRequest
from giftgenius.llm.openai_chat import OpenAIChatModel

TOOL = {
    "type": "function",
    "function": {"name": "pick", "parameters": {"type": "object", "properties": {}}},
}
CALL = {"id": "call_1", "type": "function", "function": {"name": "pick", "arguments": "{}"}}


class Capture(ChatCompletionsTransport):
    model = "local"
    who = "The capture"

    def __init__(self, completion: Completion) -> None:
        self.completion = completion
        self.bodies: list[dict[str, Any]] = []

    def answer(self, body: Any, purpose: str) -> Completion:
        self.bodies.append(body)
        return self.completion


def model(transport: Capture, base_url: str, *, stream: bool = True) -> OpenAIChatModel:
    return OpenAIChatModel.connect(
        "local",
        api_key="k",
        base_url=base_url,
        max_retries=0,
        timeout=10,
        transport=transport,
        stream=stream,
    )


def request() -> ChatRequest:
    return ChatRequest(messages=[{"role": "user", "content": "hi"}], tools=[TOOL], max_tokens=99)


@pytest.mark.parametrize(
    ("base_url", "cap"),
    [
        ("http://127.0.0.1:8089/v1", "max_tokens"),  # llama.cpp reads only this one
        ("https://api.openai.com/v1", "max_completion_tokens"),
    ],
)
def test_the_reply_cap_and_the_tool_choice_are_sent(base_url: str, cap: str) -> None:
    capture = Capture(Completion(content="hello"))
    model(capture, base_url).complete(request())
    body = capture.bodies[-1]
    assert body[cap] == 99
    [other] = {"max_tokens", "max_completion_tokens"} - {cap}
    assert other not in body  # never both: OpenAI refuses that
    assert body["tool_choice"] == "auto" and body["tools"] == [TOOL]


def test_whole_answers_for_servers_that_cannot_stream_a_tool_call() -> None:
    capture = Capture(Completion(content=None, tool_calls=[CALL], finish_reason="tool_calls"))
    shown: list[str] = []
    response = model(capture, "http://local/v1", stream=False).complete(request(), shown.append)
    assert "stream" not in capture.bodies[-1] or capture.bodies[-1]["stream"] is False
    [got] = response.message.tool_calls
    assert (got.id, got.name, json.loads(got.arguments)) == ("call_1", "pick", {})
    assert response.finish_reason == "tool_calls" and shown == []
    capture.completion = Completion(content="Here you are.")
    text = model(capture, "http://local/v1", stream=False).complete(request(), shown.append)
    assert text.message.content == "Here you are." and shown == ["Here you are."]
    assert text.usage.prompt_tokens == 0  # what the server said, nothing made up


@pytest.mark.parametrize("stream", [True, False])
def test_an_empty_answer_is_an_answer_not_an_error(stream: bool) -> None:
    capture = Capture(Completion(content=None))
    response = model(capture, "http://local/v1", stream=stream).complete(request())
    assert response.message.content is None and response.message.tool_calls == []
