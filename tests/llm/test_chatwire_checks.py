"""The endpoint side of the wire refuses what the strictest common server refuses, so a
request the offline model answers is one every OpenAI-compatible server takes."""

from __future__ import annotations

import json
from typing import Any

import httpx2

from giftgenius.agent.tools import tool_specs
from giftgenius.chatwire import ChatCompletionsTransport, Completion

USER = {"role": "user", "content": "hello"}


class Echo(ChatCompletionsTransport):
    model = "echo"
    who = "The echo"

    def answer(self, body: Any, purpose: str) -> Completion:
        return Completion(content="hi")


def post(body: dict[str, Any]) -> httpx2.Response:
    request = httpx2.Request(
        "POST",
        "http://local/v1/chat/completions",
        headers={"authorization": "Bearer k"},
        content=json.dumps(body).encode(),
    )
    return Echo().handle_request(request)


def test_the_agents_own_tools_and_one_system_message_pass() -> None:
    system = {"role": "system", "content": "You help."}
    done = post({"model": "echo", "messages": [system, USER], "tools": tool_specs()})
    assert done.status_code == 200


def test_a_system_message_after_the_first_is_refused() -> None:
    later = {"role": "system", "content": "[state]"}
    done = post({"model": "echo", "messages": [USER, later, USER]})
    assert done.status_code == 400
    assert "messages[1]: a system message after the first one" in done.json()["error"]["message"]


def test_a_strict_function_with_a_loose_schema_is_refused() -> None:
    loose = {
        "type": "function",
        "function": {
            "name": "pick",
            "strict": True,
            "parameters": {
                "type": "object",
                "properties": {"n": {"type": "integer", "title": "N", "default": 1}},
            },
        },
    }
    done = post({"model": "echo", "messages": [USER], "tools": [loose]})
    assert done.status_code == 400
    error = done.json()["error"]
    assert error["code"] == "invalid_function_parameters"
    assert "Invalid schema for function 'pick'" in error["message"]
    loose["function"]["strict"] = False  # not claimed strict: taken as it is
    assert post({"model": "echo", "messages": [USER], "tools": [loose]}).status_code == 200
