"""Typos mended before a message is read: "plnats and gardning", "my freind", "fourty dolars".

People type fast on phones. A word is mended only when it is one slip (see ``_slip``) from a
word the reader has a use for — a vocabulary or relation word, a number or
money word, or a grammar word (so "thme" becomes "them", never a taste) — and when neither
the English nor the French dictionary knows it as it is: "plans" is a word, so it never
becomes "plants". Names are left alone (a capitalised word inside a sentence). The
dictionaries (pyspellchecker's word lists) are loaded only when a near miss needs checking.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from giftgenius.language.currency import CURRENCY_WORDS
from giftgenius.language.folding import alternation, fold
from giftgenius.language.lexicon import mapping, union
from giftgenius.language.patterns import any_word
from giftgenius.language.relations import lexicon
from giftgenius.offline.interests import GRAMMAR_WORDS, NUMBER_WORDS, vocabulary_words

_MONEY = union("offline_spelling", "money")
# Answers ("yess thats grand"), so a mended yes still confirms.
_ANSWERS = union("offline_spelling", "answers")
_WORD = re.compile(r"(?<![\w'’])[^\W\d_]{4,}(?![\w'’])")  # not part of "doesn't"
# Text-speak "4" for "for" before whom it is for: "a gift 4 my sister".
_FOUR = re.compile(rf"(?<![\w.,$€£])4(?=\s+{any_word('offline_spelling', 'four_before').pattern})")


@lru_cache(maxsize=1)
def _targets() -> tuple[str, ...]:
    """The words a typo may be mended into."""
    relation_words = {k for table in lexicon().values() for k in table if " " not in k}
    currency = {fold(w) for w in CURRENCY_WORDS if w.isalpha() and len(w) >= 4}
    words = {*vocabulary_words(), *relation_words, *NUMBER_WORDS, *_MONEY, *_ANSWERS, *currency}
    words |= GRAMMAR_WORDS
    return tuple(sorted(w for w in words if w.isalpha() and len(w) >= 3))


def is_word(word: str) -> bool:
    """Whether the English or French word list knows ``word`` (accents dropped)."""
    return fold(word) in _dictionary()


@lru_cache(maxsize=1)
def longest_word() -> int:
    """The length of the longest word ``is_word`` knows (folded): nothing longer is a word."""
    return max(map(len, _dictionary()))


@lru_cache(maxsize=1)
def _dictionary() -> frozenset[str]:
    """The words of pyspellchecker's English and French lists, accents dropped (people type
    "ecoute" for "écoute"). Decoding the two lists costs 0.3–0.4 s in every process that
    checks a word, so the set is kept on disk (``diskcache``)."""
    from giftgenius.diskcache import cached, fingerprint

    return cached("dictionary", fingerprint(["pyspellchecker"], [Path(__file__)]), _read_lists)


def _read_lists() -> frozenset[str]:
    import gzip
    import json
    import unicodedata
    from importlib.resources import files

    words: set[str] = set()
    for language in ("en", "fr"):
        data = files("spellchecker").joinpath(f"resources/{language}.json.gz").read_bytes()
        for word in json.loads(gzip.decompress(data)):
            words.add(unicodedata.normalize("NFKD", word).encode("ascii", "ignore").decode())
    return frozenset(words)


def _slip(typed: str, meant: str) -> bool:
    """One slip of the fingers: two letters swapped, a letter doubled or undoubled
    ("plnats", "cofee"), in a word of five letters a letter missing ("wisky", "glofs"), or —
    in a word of six letters or more — one letter wrong, missing or extra ("gardning"). A
    short word with a letter changed or added is more often another word or slang ("allo",
    "beauf") than a typo."""
    from rapidfuzz.distance import OSA, Levenshtein

    if OSA.distance(typed, meant) != 1:
        return False
    if len(typed) >= 6 or (len(typed) == 5 and len(meant) == 6):
        return True
    if len(typed) == len(meant):
        return Levenshtein.distance(typed, meant) == 2  # a swap, not a changed letter
    short, long_ = sorted((typed, meant), key=len)
    return any(
        long_[i] == long_[i - 1] and long_[:i] + long_[i + 1 :] == short
        for i in range(1, len(long_))
    )


@lru_cache(maxsize=4096)
def _mended(word: str) -> str | None:
    """The word ``word`` is a slip of, or None. A near-miss search over every target word
    is the dearest step of reading a message, and people reuse their words: remembered."""
    from rapidfuzz import process
    from rapidfuzz.distance import OSA

    folded = fold(word)
    targets = _targets()
    if folded in targets:
        return None  # known (accents are folded: "randonée" is one slip from "randonnée")
    near = process.extract(folded, targets, scorer=OSA.distance, score_cutoff=1, limit=8)
    fits = [m[0] for m in near if m[0][0] == folded[0] and _slip(folded, m[0])]
    if not fits:
        return None
    return None if is_word(word) else str(fits[0])


# Text-speak written out so the reader meets the words it knows ("he luvs coffee", "un cado
# pr mon pere"): offline_spelling's short_forms, "short -> written out", whole words only.
_SHORT_FORMS = mapping("offline_spelling", "short_forms")
_SHORT_FORM = re.compile(
    r"(?<![\w'’/])(" + alternation(_SHORT_FORMS) + r")(?![\w'’/])", re.IGNORECASE
)


def _written_out(text: str) -> str:
    def expand(m: re.Match[str]) -> str:
        full = _SHORT_FORMS[m[1].lower()]
        return full.capitalize() if m[1][:1].isupper() and m[1][1:].islower() else full

    return _SHORT_FORM.sub(expand, text)


def mend(text: str) -> str:
    """``text`` with its typos mended and its text-speak written out (see the module
    docstring and ``_SHORT_FORMS``)."""
    text = _written_out(_FOUR.sub("for", text))

    def fix(m: re.Match[str]) -> str:
        word = m[0]
        before = text[: m.start()].rstrip()
        inside = bool(before) and before[-1] not in ".!?"
        if word[:1].isupper() and (inside or not word[1:].islower()):
            return word  # a name ("Aoife"), or an acronym
        mended = _mended(word)
        if mended is None:
            return word
        return mended.capitalize() if word[:1].isupper() else mended

    return _WORD.sub(fix, text)
