"""Which language to answer in: English or French, from the user's own words.

A cheap word-vote is enough here: the two languages share few function words, and a tie
(``"ok"``, ``"42"``) falls back to what the conversation already used.
"""

from __future__ import annotations

import re

from giftgenius.domain import Locale
from giftgenius.language import lexicon
from giftgenius.language.folding import fold


def _votes(lang: str) -> frozenset[str]:
    """The words that vote for a language: its function words but the silent ones, and its
    own voting words (``lexicons/<lang>/language_votes.toml``)."""
    function_words = {w for words in lexicon.table("function_words", lang).values() for w in words}
    silent = set(lexicon.words("language_votes", "silent", lang))
    return frozenset(function_words - silent) | frozenset(
        lexicon.words("language_votes", "votes", lang)
    )


_FRENCH = _votes("fr")
_ENGLISH = _votes("en")
_ELIDED = lexicon.union("language_votes", "elided")

_WORD = re.compile(r"[a-z']+")


def detect_locale(text: str | None, default: Locale = "en", *, settled: bool = False) -> Locale:
    """'fr' or 'en' by a vote of function words and accents; ``default`` on a tie.

    ``settled``: the conversation already speaks ``default``. A line then needs a lead of
    two votes to change it, so a short line ("30€ max", "max 60 livres", "on reste a
    Montreal") never flips a French conversation to English on one shared word.
    """
    if not text:
        return default
    accents = sum(1 for ch in text.lower() if ch in "éèêàâçùûôîœëïü")
    words = _WORD.findall(fold(text))  # 'déteste' and 'deteste' vote alike
    fr = accents
    en = 0
    for word in words:
        bare = word.strip("'")
        if bare in _FRENCH or word in _FRENCH:
            fr += 1
        if bare in _ENGLISH or word in _ENGLISH:
            en += 1
        if "'" in word and word.split("'", 1)[0] in _ELIDED:
            fr += 1
    lead = 2 if settled else 1
    if fr - en >= lead:
        return "fr"
    if en - fr >= lead:
        return "en"
    return default
