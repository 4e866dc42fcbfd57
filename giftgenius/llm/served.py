"""Any ``ChatModel`` behind the real ``openai`` client: served over the chat-completions wire.

``served(model)`` is an ``OpenAIChatModel`` whose client talks to an in-process transport
(``chatwire.py``) that answers with ``model``. What the agent calls is then exactly what it
calls in production — the client builds the request, streams and parses the answer —
while the answers stay a test model's. The turn benchmark uses it so that the ``model``
phase holds the client's own work; tests can use it to run a ``FunctionModel`` or a
``ScriptedModel`` through the client.

A ``ModelError`` of the served model goes back as an API error (a context overflow as
``context_length_exceeded``, anything else as a 500 the client does not retry), so it
reaches the agent as the ``ModelError`` the client wrapper maps it to.
"""

from __future__ import annotations

from typing import Any

from giftgenius.chatwire import ChatCompletionsTransport, Completion, WireError
from giftgenius.errors import ContextLengthExceeded, ModelError
from giftgenius.llm.base import ChatModel, ChatRequest
from giftgenius.llm.openai_chat import OpenAIChatModel

BASE_URL = "http://served.invalid/v1"  # never resolved: the transport answers in-process
API_KEY = "served"  # the client insists on one


class ServedTransport(ChatCompletionsTransport):
    """Answers ``POST …/chat/completions`` with ``model.complete``."""

    def __init__(self, model: ChatModel) -> None:
        self.chat_model = model
        self.model = model.name
        self.who = f"The {model.name} model"

    def answer(self, body: Any, purpose: str) -> Completion:
        try:
            request = ChatRequest(
                messages=body["messages"],
                tools=body.get("tools") or [],
                max_tokens=body.get("max_completion_tokens", body.get("max_tokens")),
                temperature=body.get("temperature"),
                purpose="summary" if purpose == "summary" else "chat",
            )
        except (TypeError, KeyError, ValueError) as exc:
            raise WireError(400, f"Invalid chat-completions request: {exc}") from exc
        try:
            response = self.chat_model.complete(request)
        except ContextLengthExceeded as exc:
            raise WireError(400, str(exc), code="context_length_exceeded") from exc
        except ModelError as exc:
            raise WireError(
                500, str(exc), type="server_error", headers={"x-should-retry": "false"}
            ) from exc
        message = response.message
        return Completion(
            content=message.content,
            tool_calls=[call.to_openai() for call in message.tool_calls],
            finish_reason=response.finish_reason
            or ("tool_calls" if message.tool_calls else "stop"),
            prompt_tokens=response.usage.prompt_tokens,
            completion_tokens=response.usage.completion_tokens,
        )


def served(model: ChatModel, *, context_window: int | None = None) -> OpenAIChatModel:
    """``model`` behind the official client; no retries, so a served error surfaces once."""
    return OpenAIChatModel.connect(
        model.name,
        api_key=API_KEY,
        base_url=BASE_URL,
        max_retries=0,
        timeout=30.0,
        transport=ServedTransport(model),
        name=model.name,
        context_window=context_window,
    )
