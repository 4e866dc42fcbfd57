"""The model seam: one narrow call. The agent loop never branches on which model it has.

Beside it, the embedding seam (``Embedder``): text to vectors, for long-term memory.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
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


class Embedder(Protocol):
    """Anything that turns texts into vectors of one space, one vector per text, in order.

    ``name`` names the space (the model that answered): vectors of different names are
    never compared. Raises ``ModelError`` when the endpoint fails.
    """

    name: str

    def embed(self, texts: Sequence[str]) -> list[list[float]]: ...
