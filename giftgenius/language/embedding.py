"""Lexical embeddings: LEXICAL vectors of a text's words, deterministic, no weights.

The offline model has no learned representation, so its ``/v1/embeddings`` answer
(``offline/transport.py``) is built from the words themselves: each word folded by the
language layer's one rule (``language.folding.fold``: "Café", "cafe" and "CAFÉ" are one
word), and the character
trigrams of each word framed by spaces (so "knitting" and "knits" share "kni", "nit"), are
hashed (BLAKE2b, the same on every machine and in every process — never Python's salted
``hash``) into ``DIMENSIONS`` signed buckets, then the vector is scaled to length 1, so a dot
product is the cosine.

This is lexical, NOT semantic: "tea" and "thé" or "jumper" and "sweater" are no closer
than any two unrelated words; a note is found again by the words it shares with the query
(and by their spellings: a typo or an inflection keeps most trigrams). It is there so the
embedded, offline GiftGenius stores and ranks memories through the same code path a real
embedding model uses, and so tests and benchmarks get stable vectors; a deployment that
wants meaning sets ``GIFTGENIUS_MODEL=openai:…`` and ``GIFTGENIUS_EMBEDDING_MODEL``.
"""

from __future__ import annotations

import hashlib
import math
import re

from giftgenius.language.folding import fold

LEXICAL_MODEL = "giftgenius-lexical-256"
"""The name the offline endpoint answers with: vectors of another space are never mixed."""

DIMENSIONS = 256
WORD_WEIGHT = 1.0
GRAM_WEIGHT = 0.5  # a word's trigrams together outweigh the word: spellings meet
_WORD = re.compile(r"\w+")


def lexical_embedding(text: str, dimensions: int = DIMENSIONS) -> list[float]:
    """The unit vector of ``text``'s folded words and their trigrams (all zeros for text
    holding no word, whose direction means nothing)."""
    vector = [0.0] * dimensions
    for word in _WORD.findall(fold(text)):
        _add(vector, "w:" + word, WORD_WEIGHT)
        framed = f" {word} "
        for i in range(len(framed) - 2):
            _add(vector, "g:" + framed[i : i + 3], GRAM_WEIGHT)
    norm = math.sqrt(sum(x * x for x in vector))
    if norm == 0.0:
        return vector
    return [x / norm for x in vector]


def count_words(text: str) -> int:
    """The "tokens" an embedding request is billed for, offline: its words."""
    return len(_WORD.findall(text))


def _add(vector: list[float], feature: str, weight: float) -> None:
    digest = hashlib.blake2b(feature.encode(), digest_size=8).digest()
    value = int.from_bytes(digest, "little")
    sign = 1.0 if value & 1 else -1.0  # signed hashing: collisions cancel rather than pile up
    vector[(value >> 1) % len(vector)] += sign * weight
