"""The model seam: one narrow call. The agent loop never branches on which model it has."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal, Protocol

from pydantic import BaseModel, Field

from giftgenius.domain import Message


class ChatRequest(BaseModel):
    messages: list[dict[str, Any]]  # OpenAI chat-completions message dicts
    tools: list[dict[str, Any]] = Field(default_factory=list)  # OpenAI tool specs
    max_tokens: int | None = None
    temperature: float | None = None
    purpose: Literal["chat", "summary"] = "chat"


class ChatUsage(BaseModel):
    prompt_tokens: int = 0
    completion_tokens: int = 0


class ChatResponse(BaseModel):
    message: Message  # role="assistant"; content and/or tool_calls
    usage: ChatUsage = Field(default_factory=ChatUsage)
    finish_reason: str | None = None
    model: str = ""


class ChatModel(Protocol):
    """Anything that turns a request into one assistant message.

    ``on_text`` receives streamed text fragments as they arrive (for the terminal).
    Raises ``ModelError`` (``ContextLengthExceeded`` for an oversized request).
    """

    name: str

    def complete(
        self, request: ChatRequest, on_text: Callable[[str], None] | None = None
    ) -> ChatResponse: ...
