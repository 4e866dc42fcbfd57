"""A ``ChatModel`` served over the chat-completions wire to the real openai client.

The turn benchmark's model phase must be the client's work as production runs it; these
tests show the served model answers exactly what the function answered — text, tool calls,
usage — and that its failures arrive as our error tree, not as the client's exceptions.
"""

from __future__ import annotations

import json

import pytest

from giftgenius.errors import ContextLengthExceeded, ModelError
from giftgenius.llm.base import ChatRequest
from giftgenius.llm.openai_chat import OpenAIChatModel
from giftgenius.llm.scripted import FunctionModel, call, reply
from giftgenius.llm.served import served

TOOL = {
    "type": "function",
    "function": {
        "name": "search_candidates",
        "description": "Search the catalog.",
        "parameters": {"type": "object", "properties": {"limit": {"type": "integer"}}},
    },
}


def _request(text: str, **extra: object) -> ChatRequest:
    return ChatRequest(
        messages=[{"role": "system", "content": "Help."}, {"role": "user", "content": text}],
        tools=[TOOL],
        **extra,  # type: ignore[arg-type]
    )


def test_a_reply_comes_back_whole_streamed_and_counted() -> None:
    text = "Here are three ideas, each under your budget, with a word or two on why."
    function = FunctionModel(lambda request: reply(text), name="fn")
    model = served(function)
    pieces: list[str] = []
    response = model.complete(_request("hello", temperature=0.2), on_text=pieces.append)
    assert isinstance(model, OpenAIChatModel)
    assert response.message.content == text
    assert len(pieces) > 1 and "".join(pieces) == text  # streamed in deltas by the client
    assert response.finish_reason == "stop"
    assert response.usage.prompt_tokens > 0 and response.usage.completion_tokens > 0
    assert response.model == "fn"
    seen = function.requests[-1]
    assert seen.messages[-1] == {"role": "user", "content": "hello"}
    assert seen.tools == [TOOL] and seen.temperature == 0.2


def test_tool_calls_keep_their_ids_and_arguments() -> None:
    made = call("search_candidates", limit=5)
    model = served(FunctionModel(lambda request: made))
    response = model.complete(_request("find something"))
    assert response.finish_reason == "tool_calls"
    [got] = response.message.tool_calls
    assert (got.id, got.name) == (made.tool_calls[0].id, "search_candidates")
    assert json.loads(got.arguments) == {"limit": 5}


def test_the_purpose_travels_in_its_header() -> None:
    function = FunctionModel(lambda request: reply(f"for {request.purpose}"))
    response = served(function).complete(
        ChatRequest(messages=[{"role": "user", "content": "fold"}], purpose="summary")
    )
    assert response.message.content == "for summary"
    assert function.requests[-1].purpose == "summary"


def test_a_failing_model_is_a_model_error_once() -> None:
    def broken(request: ChatRequest) -> str:
        raise ModelError("the script ran out at turn 3")

    function = FunctionModel(broken, name="fn")
    with pytest.raises(ModelError, match="the script ran out at turn 3") as caught:
        served(function).complete(_request("hello"))
    assert not isinstance(caught.value, ContextLengthExceeded)
    assert len(function.requests) == 1  # a 500 the client was told not to retry


def test_an_oversized_request_is_context_length_exceeded() -> None:
    function = FunctionModel(lambda request: reply("never"), context_window=10)
    with pytest.raises(ContextLengthExceeded, match="maximum context length is 10"):
        served(function).complete(_request("a message longer than ten tokens, surely " * 3))


def test_an_unknown_tool_from_the_function_is_refused_as_the_model_error_it_is() -> None:
    model = served(FunctionModel(lambda request: call("delete_everything"), name="fn"))
    with pytest.raises(ModelError, match=r"delete_everything.*did not offer"):
        model.complete(_request("hello"))
