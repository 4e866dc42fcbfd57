"""Typos repaired toward the words the reader knows: "elle adorre le jardinnage", "des puzles".

People type fast; a taste, a liking word or a relation with one letter too many or too few
("jardinnage", "adorre", "puzles", "collegue") would otherwise be missed, and the agent would
ask again for what was said. A word is repaired only when all of these hold, so ordinary
words are never bent into catalog words ("coller" is no "collier", "bouger" no "bougie"):

- it is a lowercase word of at least five letters that the reader does not know already;
- the language's dictionary (pyspellchecker, loaded only when a near miss is found) does not
  hold it either, as typed or without accents;
- one known word is close to it (rapidfuzz ratio, same first letter, at most two letters
  longer or shorter).

Known words are the catalog vocabulary, the relation lexicon and the liking words of
``clauses``. Reading free text is the offline model's job: a real model repairs typos itself.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from giftgenius.catalog.relations import lexicon
from giftgenius.catalog.vocabulary import TAGS, synonyms, tokenize
from giftgenius.domain import Locale
from giftgenius.text import fold

_WORD = re.compile(r"(?<![\w'-])[^\W\d_]{5,}(?![\w'-])")
_MIN_RATIO = 85.0
# Liking words typed with a slip ("adorre", "passionnee") — the cues of ``clauses`` in their
# plain forms.
_LIKING = """
adore adores adorent aime aiment aimerait passionne passionnee passionnes kiffe kiffent
raffole collectionne jardine cuisine bricole tricote dessine peint voyage
loves likes enjoys collects obsessed passionate
"""


@lru_cache(maxsize=1)
def known_words() -> frozenset[str]:
    """Folded words the reader knows: the vocabulary's, the relations', the liking words."""
    words: set[str] = set(_LIKING.split())
    for tag in TAGS:
        for phrase in synonyms(tag):
            words.update(fold(w) for w in tokenize(phrase))
    for table in lexicon().values():
        for term in table:
            words.update(term.split())
    return frozenset(w for w in words if len(w) >= 4 and w.isalpha())


@lru_cache(maxsize=2)
def _dictionary(locale: Locale) -> Any:
    from spellchecker import SpellChecker

    return SpellChecker(language=locale, distance=1)


def _near(word: str) -> str | None:
    """The known word ``word`` (folded) is a slip of, if any."""
    from rapidfuzz import fuzz, process

    choices = [w for w in known_words() if w[0] == word[0] and abs(len(w) - len(word)) <= 2]
    best = process.extractOne(word, choices, scorer=fuzz.ratio, score_cutoff=_MIN_RATIO)
    return None if best is None else str(best[0])


def repair(text: str, locale: Locale) -> str:
    """``text`` with each slip of a known word replaced by that word (see the module doc)."""
    known = known_words()

    def fix(m: re.Match[str]) -> str:
        word = m[0]
        if not word.islower():
            return word  # names and acronyms are not slips
        folded = fold(word)
        if folded in known:
            return word
        near = _near(folded)
        if near is None:
            return word
        dictionary = _dictionary(locale)
        if word in dictionary or folded in dictionary:
            return word  # a real word of the language ("coller", "bouger")
        return near

    return _WORD.sub(fix, text)
