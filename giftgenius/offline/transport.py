"""The offline engine served in the chat-completions wire format (``chatwire.py``), so the
real ``openai`` client — retries, SSE parsing, error classes — is the code under test, not
a fake of it. It embeds too (``POST …/embeddings``), with the lexical vectors of
``language/embedding.py``, whatever embedding model is asked for: the answer names
``LEXICAL_MODEL``, so the vectors are never taken for another model's.
"""

from __future__ import annotations

from typing import Any

from giftgenius.chatwire import ChatCompletionsTransport, Completion, Embedded, WireError
from giftgenius.language.embedding import LEXICAL_MODEL, count_words, lexical_embedding
from giftgenius.offline.engine import OfflineEngine


class OfflineTransport(ChatCompletionsTransport):
    """Answers ``POST …/chat/completions`` with an ``OfflineEngine``, and ``POST
    …/embeddings`` with lexical vectors."""

    who = "The offline engine"

    def __init__(self, engine: OfflineEngine) -> None:
        self.engine = engine
        self.model = engine.model

    def answer(self, body: Any, purpose: str) -> Completion:
        return self.engine.complete(body, purpose=purpose)

    def embed(self, texts: list[str], model: str) -> Embedded:
        return lexical(texts)


class LexicalTransport(ChatCompletionsTransport):
    """Embeddings only, with no chat engine behind them: what embeds for a model that has
    no wire of its own (scripted, a replay), at no cost of loading the offline engine."""

    who = "The lexical embedder"
    model = LEXICAL_MODEL

    def answer(self, body: Any, purpose: str) -> Completion:
        raise WireError(404, "This endpoint only embeds.", code="unknown_url")

    def embed(self, texts: list[str], model: str) -> Embedded:
        return lexical(texts)


def lexical(texts: list[str]) -> Embedded:
    return Embedded(
        vectors=[lexical_embedding(text) for text in texts],
        model=LEXICAL_MODEL,
        tokens=sum(count_words(text) for text in texts),
    )
