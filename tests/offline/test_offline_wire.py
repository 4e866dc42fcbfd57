"""Strict validation: every refused request reaches the real client as OpenAI's 400."""

from __future__ import annotations

from typing import Any

import httpx2
import openai
import pytest

from giftgenius.offline.engine import OfflineEngine
from giftgenius.offline.transport import OfflineTransport

TOOL = {"type": "function", "function": {"name": "update_profile", "parameters": {}}}
CALL = {
    "id": "call_1",
    "type": "function",
    "function": {"name": "update_profile", "arguments": "{}"},
}
USER = {"role": "user", "content": "hello"}


def client(window: int = 16384) -> openai.OpenAI:
    engine = OfflineEngine(context_window=window)
    return openai.OpenAI(
        api_key="offline",
        base_url="http://offline.giftgenius.invalid/v1",
        http_client=httpx2.Client(transport=OfflineTransport(engine)),
        max_retries=0,
    )


def refused(**request: Any) -> openai.BadRequestError:
    request.setdefault("model", "offline")
    with pytest.raises(openai.BadRequestError) as info:
        client().chat.completions.create(**request)
    err = info.value
    assert isinstance(err.body, dict)
    assert err.body["type"] == "invalid_request_error"
    assert set(err.body) == {"message", "type", "param", "code"}
    return err


def test_model_is_required() -> None:
    err = refused(model="", messages=[USER])
    assert "model" in err.body["message"]  # type: ignore[index]


def test_messages_are_required() -> None:
    err = refused(messages=openai.omit)
    assert err.code == "missing_required_parameter"
    assert err.param == "messages"


def test_messages_must_not_be_empty() -> None:
    assert refused(messages=[]).code == "empty_array"


def test_invalid_role() -> None:
    err = refused(messages=[{"role": "robot", "content": "hi"}])
    assert err.code == "invalid_value"
    assert err.param == "messages[0].role"


def test_tool_message_must_answer_a_call_of_the_previous_assistant() -> None:
    err = refused(
        messages=[
            USER,
            {"role": "assistant", "content": None, "tool_calls": [CALL]},
            {"role": "tool", "tool_call_id": "call_other", "content": "{}"},
        ]
    )
    assert "'call_other' not found" in err.body["message"]  # type: ignore[index]
    assert err.param == "messages.[2].tool_call_id"


def test_tool_message_without_a_preceding_call() -> None:
    err = refused(messages=[USER, {"role": "tool", "tool_call_id": "call_1", "content": "{}"}])
    assert "must be a response to a preceeding message with 'tool_calls'" in str(err.body)


def test_tool_message_after_a_user_message_is_an_orphan() -> None:
    err = refused(
        messages=[
            USER,
            {"role": "assistant", "content": None, "tool_calls": [CALL]},
            {"role": "tool", "tool_call_id": "call_1", "content": "{}"},
            USER,
            {"role": "tool", "tool_call_id": "call_1", "content": "{}"},
        ]
    )
    assert err.param == "messages.[4].role"


def test_every_tool_call_is_answered_before_the_next_message() -> None:
    second = {**CALL, "id": "call_2"}
    err = refused(
        messages=[
            USER,
            {"role": "assistant", "content": None, "tool_calls": [CALL, second]},
            {"role": "tool", "tool_call_id": "call_1", "content": "{}"},
            USER,
        ]
    )
    assert "did not have response messages: call_2" in err.body["message"]  # type: ignore[index]


def test_a_trailing_unanswered_call_is_refused() -> None:
    err = refused(messages=[USER, {"role": "assistant", "content": None, "tool_calls": [CALL]}])
    assert "call_1" in err.body["message"]  # type: ignore[index]


def test_assistant_needs_content_or_tool_calls() -> None:
    err = refused(messages=[USER, {"role": "assistant", "content": None}, USER])
    assert err.param == "messages[1].content"


@pytest.mark.parametrize("name", ["has space", "x" * 65, "dots.not.allowed", ""])
def test_tool_names_follow_the_pattern(name: str) -> None:
    tool = {"type": "function", "function": {"name": name}}
    err = refused(messages=[USER], tools=[tool])
    assert err.param == "tools[0].function.name"


def test_tool_names_are_unique() -> None:
    err = refused(messages=[USER], tools=[TOOL, TOOL])
    assert "duplicate" in err.body["message"]  # type: ignore[index]


def test_tool_type_must_be_function() -> None:
    err = refused(messages=[USER], tools=[{"type": "retrieval"}])
    assert err.param == "tools[0].type"


def test_tool_choice_needs_tools() -> None:
    assert refused(messages=[USER], tool_choice="auto").param == "tool_choice"


def test_tool_choice_names_an_offered_tool() -> None:
    choice = {"type": "function", "function": {"name": "nope"}}
    assert refused(messages=[USER], tools=[TOOL], tool_choice=choice).param == "tool_choice"


def test_tool_choice_string_values() -> None:
    err = refused(messages=[USER], tools=[TOOL], tool_choice="always")  # type: ignore[arg-type]
    assert err.code == "invalid_value"


def test_stream_options_need_stream() -> None:
    err = refused(messages=[USER], stream_options={"include_usage": True})
    assert err.param == "stream_options"


def test_unknown_parameter() -> None:
    err = refused(messages=[USER], extra_body={"frobnicate": 1})
    assert "Unrecognized request argument supplied: frobnicate" in str(err.body)


def test_context_length_exceeded_in_openai_wording() -> None:
    big = {"role": "user", "content": "gift " * 800}
    with pytest.raises(openai.BadRequestError) as info:
        client(window=512).chat.completions.create(model="offline", messages=[big])
    err = info.value
    assert err.code == "context_length_exceeded"
    message = err.body["message"]  # type: ignore[index]
    assert message.startswith("This model's maximum context length is 512 tokens. However, ")
    assert "your messages resulted in" in message


def test_max_tokens_count_against_the_window() -> None:
    small = [{"role": "user", "content": "hello there"}]
    ok = client(window=512).chat.completions.create(model="offline", messages=small, max_tokens=100)
    assert ok.choices[0].message.content
    with pytest.raises(openai.BadRequestError) as info:
        client(window=512).chat.completions.create(model="offline", messages=small, max_tokens=510)
    assert info.value.code == "context_length_exceeded"
    assert "in the completion" in info.value.body["message"]  # type: ignore[index]


def test_unknown_model_is_not_found() -> None:
    with pytest.raises(openai.NotFoundError) as info:
        client().chat.completions.create(model="gpt-9", messages=[USER])
    assert info.value.code == "model_not_found"


def test_a_valid_tool_round_is_accepted() -> None:
    reply = client().chat.completions.create(
        model="offline",
        messages=[
            USER,
            {"role": "assistant", "content": None, "tool_calls": [CALL]},
            {"role": "tool", "tool_call_id": "call_1", "content": '{"ok": true}'},
        ],
        tools=[TOOL],
    )
    assert reply.choices[0].message.content
    assert reply.usage is not None and reply.usage.prompt_tokens > 0
