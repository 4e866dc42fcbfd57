"""The offline engine served in the chat-completions wire format (``chatwire.py``), so the
real ``openai`` client — retries, SSE parsing, error classes — is the code under test, not
a fake of it.
"""

from __future__ import annotations

from typing import Any

from giftgenius.chatwire import ChatCompletionsTransport, Completion
from giftgenius.offline.engine import OfflineEngine


class OfflineTransport(ChatCompletionsTransport):
    """Answers ``POST …/chat/completions`` with an ``OfflineEngine``."""

    who = "The offline engine"

    def __init__(self, engine: OfflineEngine) -> None:
        self.engine = engine
        self.model = engine.model

    def answer(self, body: Any, purpose: str) -> Completion:
        return self.engine.complete(body, purpose=purpose)
