"""Strict chat-completions request validation, with OpenAI's own error bodies.

The offline engine must refuse what the real API refuses, or a protocol bug in the agent
(an unanswered tool call, an orphan tool message) would pass every offline test and fail
only in production. Messages follow the API's wording as closely as is known.
"""

from __future__ import annotations

import json
import re
from typing import Any

from giftgenius.chatwire import WireError

VALID_ROLES = ("system", "developer", "user", "assistant", "tool", "function")
TOOL_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
KNOWN_PARAMS = frozenset({
    "model", "messages", "tools", "tool_choice", "parallel_tool_calls", "stream",
    "stream_options", "max_tokens", "max_completion_tokens", "temperature", "top_p", "n", "stop",
    "seed", "user", "metadata", "store", "presence_penalty", "frequency_penalty",
    "response_format",
})  # fmt: skip


def bad_request(message: str, param: str | None = None, code: str | None = None) -> WireError:
    return WireError(400, message, param=param, code=code)


def _wrong_type(param: str, expected: str) -> WireError:
    return bad_request(f"Invalid type for '{param}': expected {expected}.", param, "invalid_type")


def _missing(param: str) -> WireError:
    return bad_request(
        f"Missing required parameter: '{param}'.", param, "missing_required_parameter"
    )


def _invalid(message: str, param: str) -> WireError:
    return bad_request(message, param, code="invalid_value")


def _unsupported(value: Any, supported: str, param: str) -> WireError:
    """A value outside an enumeration, refused with the values there are."""
    return _invalid(f"Invalid value: '{value}'. Supported values are: {supported}.", param)


_ROLES_SUPPORTED = "'system', 'assistant', 'user', 'function', 'tool', and 'developer'"


def _unanswered(open_calls: list[str], opened_at: int) -> WireError:
    return bad_request(
        "An assistant message with 'tool_calls' must be followed by tool messages responding "
        "to each 'tool_call_id'. The following tool_call_ids did not have response "
        f"messages: {', '.join(open_calls)}",
        param=f"messages.[{opened_at}].role",
    )


def validate_request(body: Any) -> None:
    """Raise ``WireError`` for anything the chat-completions endpoint would refuse."""
    if not isinstance(body, dict):
        raise bad_request("Invalid request body: expected a JSON object.", code="invalid_type")
    unknown = sorted(set(body) - KNOWN_PARAMS)
    if unknown:
        raise bad_request(f"Unrecognized request argument supplied: {unknown[0]}", param=unknown[0])
    if not body.get("model"):
        raise bad_request("you must provide a model parameter")
    if "messages" not in body:
        raise _missing("messages")
    _validate_options(body)
    tool_names = _validate_tools(body.get("tools"))
    _validate_tool_choice(body.get("tool_choice"), tool_names, "tools" in body)
    _validate_messages(body["messages"])


def _validate_options(body: dict[str, Any]) -> None:
    stream = body.get("stream")
    if stream is not None and not isinstance(stream, bool):
        raise bad_request(
            f"Invalid type for 'stream': expected a boolean, but got {type(stream).__name__}.",
            param="stream",
            code="invalid_type",
        )
    if body.get("stream_options") is not None and not stream:
        raise bad_request(
            "The 'stream_options' parameter is only allowed when 'stream' is enabled.",
            param="stream_options",
        )
    for name in ("max_tokens", "max_completion_tokens"):
        value = body.get(name)
        if value is None:
            continue
        if not isinstance(value, int) or isinstance(value, bool):
            raise _wrong_type(name, "an integer")
        if value < 1:
            raise bad_request(
                f"Invalid '{name}': integer below minimum value. Expected a value >= 1, "
                f"but got {value} instead.",
                param=name,
                code="integer_below_min_value",
            )
    temperature = body.get("temperature")
    if temperature is not None and (
        not isinstance(temperature, int | float) or not 0 <= temperature <= 2
    ):
        raise bad_request(
            f"Invalid 'temperature': decimal above maximum value. Expected a value <= 2, "
            f"but got {temperature} instead.",
            param="temperature",
            code="decimal_above_max_value",
        )
    n = body.get("n")
    if n is not None and n != 1:
        raise _invalid("The offline model only supports n=1.", "n")


def _require_array(value: Any, param: str) -> list[Any]:
    """A non-empty JSON array, refused in OpenAI's words otherwise ('tools', 'messages')."""
    if not isinstance(value, list):
        raise _wrong_type(param, "an array")
    if not value:
        raise bad_request(
            f"Invalid '{param}': empty array. Expected an array with minimum length 1, "
            "but got an empty array instead.",
            param=param,
            code="empty_array",
        )
    return value


def _validate_tools(tools: Any) -> set[str]:
    if tools is None:
        return set()
    _require_array(tools, "tools")
    names: set[str] = set()
    for i, tool in enumerate(tools):
        where = f"tools[{i}]"
        if not isinstance(tool, dict) or tool.get("type") != "function":
            kind = tool.get("type") if isinstance(tool, dict) else tool
            raise _unsupported(kind, "'function' and 'custom'", f"{where}.type")
        function = tool.get("function")
        if not isinstance(function, dict) or "name" not in function:
            raise _missing(f"{where}.function.name")
        name = function["name"]
        if not isinstance(name, str) or not TOOL_NAME.match(name):
            raise _invalid(
                f"Invalid '{where}.function.name': string does not match pattern. Expected a "
                "string that matches the pattern '^[a-zA-Z0-9_-]+$'.",
                f"{where}.function.name",
            )
        if name in names:
            raise _invalid(
                f"Invalid 'tools': duplicate function name '{name}'. Tool names must be unique.",
                f"{where}.function.name",
            )
        parameters = function.get("parameters")
        if parameters is not None and not isinstance(parameters, dict):
            raise _wrong_type(f"{where}.function.parameters", "an object")
        names.add(name)
    return names


def _validate_tool_choice(choice: Any, tool_names: set[str], has_tools: bool) -> None:
    if choice is None:
        return
    if not has_tools:
        raise bad_request(
            "Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are "
            "specified.",
            param="tool_choice",
        )
    if isinstance(choice, str):
        if choice not in ("none", "auto", "required"):
            raise _unsupported(choice, "'none', 'auto', and 'required'", "tool_choice")
        return
    name = None
    if isinstance(choice, dict) and choice.get("type") == "function":
        function = choice.get("function")
        name = function.get("name") if isinstance(function, dict) else None
    if not isinstance(name, str):
        raise _invalid(
            "Invalid 'tool_choice': expected 'none', 'auto', 'required' or "
            "{'type': 'function', 'function': {'name': ...}}.",
            "tool_choice",
        )
    if name not in tool_names:
        raise bad_request(
            f"Invalid value for 'tool_choice': function '{name}' is not one of the functions "
            "in 'tools'.",
            param="tool_choice",
        )


def _validate_messages(messages: Any) -> None:
    _require_array(messages, "messages")
    open_calls: list[str] = []  # ids the latest assistant message still waits answers for
    answerable: set[str] = set()  # ids of the nearest preceding assistant message
    opened_at = 0
    for i, message in enumerate(messages):
        if not isinstance(message, dict):
            raise _wrong_type(f"messages[{i}]", "an object")
        role = message.get("role")
        if role not in VALID_ROLES:
            raise _unsupported(role, _ROLES_SUPPORTED, f"messages[{i}].role")
        if role != "tool" and open_calls:
            raise _unanswered(open_calls, opened_at)
        _validate_content(message, i, role)
        if role == "assistant":
            answerable = set(_validate_tool_calls(message, i))
            open_calls = [c["id"] for c in message.get("tool_calls") or []]
            opened_at = i
        elif role == "tool":
            _answer_tool_call(message, i, answerable, open_calls)
        else:
            answerable = set()
    if open_calls:
        raise _unanswered(open_calls, opened_at)


def _validate_content(message: dict[str, Any], i: int, role: str) -> None:
    content = message.get("content")
    if content is not None and not isinstance(content, str | list):
        raise bad_request(
            f"Invalid type for 'messages[{i}].content': expected one of a string or array of "
            f"objects, but got {type(content).__name__} instead.",
            param=f"messages[{i}].content",
            code="invalid_type",
        )
    if isinstance(content, list):
        for j, part in enumerate(content):
            if not isinstance(part, dict) or part.get("type") != "text" or "text" not in part:
                raise _invalid(
                    f"Invalid 'messages[{i}].content[{j}]': the offline model accepts only "
                    "text parts ({'type': 'text', 'text': ...}).",
                    f"messages[{i}].content[{j}]",
                )
    if role == "assistant":
        if content in (None, "") and not message.get("tool_calls"):
            raise bad_request(
                f"Invalid 'messages[{i}]': 'content' is required when 'tool_calls' is not "
                "specified.",
                param=f"messages[{i}].content",
            )
    elif content is None and role != "function":
        raise bad_request(
            f"Invalid value for 'content': expected a string, got null (messages[{i}] with "
            f"role '{role}').",
            param=f"messages.[{i}].content",
        )


def _validate_tool_calls(message: dict[str, Any], i: int) -> list[str]:
    calls = message.get("tool_calls")
    if calls is None:
        return []
    if not isinstance(calls, list) or not calls:
        raise _invalid(
            f"Invalid 'messages[{i}].tool_calls': expected a non-empty array.",
            f"messages[{i}].tool_calls",
        )
    ids: list[str] = []
    for j, call in enumerate(calls):
        where = f"messages[{i}].tool_calls[{j}]"
        if not isinstance(call, dict) or not isinstance(call.get("id"), str) or not call["id"]:
            raise _missing(f"{where}.id")
        if call.get("type") != "function":
            raise _unsupported(call.get("type"), "'function'", f"{where}.type")
        function = call.get("function")
        if (
            not isinstance(function, dict)
            or not isinstance(function.get("name"), str)
            or not isinstance(function.get("arguments"), str)
        ):
            raise _invalid(
                f"Invalid '{where}.function': expected an object with string 'name' and "
                "'arguments'.",
                f"{where}.function",
            )
        if call["id"] in ids:
            raise _invalid(
                f"Invalid '{where}.id': duplicate tool call id '{call['id']}'.", f"{where}.id"
            )
        ids.append(call["id"])
    return ids


def _answer_tool_call(
    message: dict[str, Any], i: int, answerable: set[str], open_calls: list[str]
) -> None:
    if not answerable:
        raise bad_request(
            "Invalid parameter: messages with role 'tool' must be a response to a preceeding "
            "message with 'tool_calls'.",
            param=f"messages.[{i}].role",
        )
    call_id = message.get("tool_call_id")
    if not isinstance(call_id, str):
        raise _missing(f"messages[{i}].tool_call_id")
    if call_id not in answerable:
        raise bad_request(
            f"Invalid parameter: 'tool_call_id' of '{call_id}' not found in 'tool_calls' of "
            "previous message.",
            param=f"messages.[{i}].tool_call_id",
        )
    if call_id in open_calls:
        open_calls.remove(call_id)


def message_text(message: dict[str, Any]) -> str:
    """The text of a message whether content is a string or an array of text parts."""
    content = message.get("content")
    if isinstance(content, list):
        return "".join(part.get("text", "") for part in content if isinstance(part, dict))
    return content or ""


def json_object(text: Any) -> dict[str, Any]:
    """The JSON object a message's text or a call's arguments hold; {} for anything else."""
    try:
        value = json.loads(text or "{}")
    except (TypeError, ValueError):
        return {}
    return value if isinstance(value, dict) else {}
