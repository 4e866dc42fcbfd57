"""Comparable keys for short phrases: the one folding rule the normalizers share.

Places, relations, dates and amounts all compare what a person typed with names from a
table or a library. They meet on one form: lowercase, no accents, any run of punctuation
or spaces as one space ("États-Unis" → "etats unis", "U.S.A." → "u s a", "belle-mère" →
"belle mere"), so a table needs one entry per name, not one per spelling.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# The normalizers take the folding rule from here only; the rule itself is the app's one.
from giftgenius.text import fold

__all__ = ["Token", "fold", "key", "tokens"]

_NON_WORD = re.compile(r"[\W_]+")
_WORD = re.compile(r"[^\W_]+")


def key(text: str) -> str:
    """The comparable form of a phrase: folded, punctuation and spaces collapsed to one space."""
    folded = text.lower() if text.isascii() else fold(text)  # most place names are ASCII
    return _NON_WORD.sub(" ", folded).strip()


@dataclass(frozen=True)
class Token:
    """One word of the original text: its folded form and where it sits."""

    text: str
    folded: str
    start: int
    end: int

    @property
    def capitalized(self) -> bool:
        return self.text[:1].isupper()


def tokens(text: str) -> list[Token]:
    """The words of ``text`` (apostrophes and hyphens split words), each with its span."""
    return [Token(m[0], fold(m[0]), m.start(), m.end()) for m in _WORD.finditer(text)]
