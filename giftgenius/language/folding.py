"""Folding text so that what people type meets what we know: one rule for the whole app.

"Déteste", "deteste" and "DÉTESTE" must vote alike for the language, match the same regular
expressions in the offline model and meet the same catalog words; "sœur" must meet
"soeur", and "l’ami" (typographic apostrophe) must meet "l'ami". Folding lowercases, drops
accents, spells ligatures out and straightens apostrophes.

One thing callers differ on, so it is an option: the offline model cuts the spans it reads
out of the original text, which needs one folded character per original character
(``keep_length=True``); there ligatures such as "œ" stay as they are, lowercased.

What folding cannot decide stays with the caller: the catalog vocabulary keeps "thé" (tea)
apart from "the" itself, because folding makes them the same word.

Folding is on every path that reads text (the offline model folds each message, clause and
word several times over), so it is cheap where it can be: ASCII text, most of what people
type, has no accents, ligatures or curly apostrophes, so folding it is lowercasing; and the
rest is folded once per distinct word or character and remembered, since a conversation
uses few of them.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache

_APOSTROPHES = str.maketrans({"’": "'", "‘": "'", "ʼ": "'"})
_LIGATURES = str.maketrans({"œ": "oe", "Œ": "OE", "æ": "ae", "Æ": "AE"})


def fold(text: str, *, keep_length: bool = False) -> str:
    """Lowercase, accents dropped, ligatures spelled out ("œ" → "oe"), apostrophes straight.

    With ``keep_length`` the result has exactly one character per character of ``text``,
    so a match's span in the folded text is the same span in the original; characters that
    only fold to several ("œ", "ﬁ") are kept, lowercased.
    """
    if text.isascii():
        return text.lower()  # NFKD leaves every ASCII character as it is
    if keep_length:
        return "".join(map(_fold_char, text.translate(_APOSTROPHES)))
    if len(text) <= _REMEMBERED_LENGTH:
        return _fold_word(text)
    return _fold_whole(text)


_REMEMBERED_LENGTH = 64  # words and short phrases; a whole message is not worth keeping


def _fold_whole(text: str) -> str:
    return _strip_marks(spell_ligatures(text.translate(_APOSTROPHES).lower())).lower()


_fold_word = lru_cache(maxsize=4096)(_fold_whole)


def spell_ligatures(text: str) -> str:
    """ "sœur" → "soeur": Unicode does not decompose these, so they are spelled out here."""
    return text.translate(_LIGATURES)


@lru_cache(maxsize=4096)
def _fold_char(ch: str) -> str:
    lower = ch.lower()
    folded = _strip_marks(lower).lower()
    if len(folded) == 1:
        return folded
    return lower if len(lower) == 1 else ch


def _strip_marks(text: str) -> str:
    """Compatibility decomposition (é → e + accent, ﬁ → fi, ² → 2) without the accents."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def alternation(words: Iterable[str], end: Callable[[str], str] = lambda _word: "") -> str:
    """A regular expression matching any of ``words``, longest first, as a prefix tree.

    The flat ``a|ab|abc…`` of a thousand currency names takes Python's ``re`` a quarter of
    a second to compile in every process; the same words as a tree ("dollar(?:s|)…") compile
    in a fraction of that and match the same text: at one position the words that fit are
    prefixes of one another, and the tree tries the longer continuation before the end of
    the shorter word, as longest-first order does. ``end(word)`` is appended where ``word``
    ends (a lookahead, say).
    """
    tree: dict[str, dict] = {}
    for word in words:
        node = tree
        for ch in word:
            node = node.setdefault(ch, {})
        node[""] = {"word": word}

    def render(node: dict[str, dict]) -> str:
        branches = [re.escape(ch) + render(child) for ch, child in sorted(node.items()) if ch]
        if "" in node:
            branches.append(end(node[""]["word"]))
        return branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"

    return render(tree)


# Comparable keys for short phrases. Places, relations, dates and amounts all compare what a
# person typed with names from a table or a library; they meet on one form: folded, any run
# of punctuation or spaces as one space ("États-Unis" → "etats unis", "U.S.A." → "u s a").

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
