"""Naming a gift in words: "the moka pot", "le moulin en bois", "celui qui mesure la température".

People choose by what a thing is — its kind, its material, what it does, words of its title
— in their own language, while product records are written in English. A description is
read once into terms (``read_description``): the vocabulary's tags ("moulin" is a grinder,
"doudou" a plush), materials of both languages ("en bois" is wood, ``materials.py``),
features of both languages ("numérique" is digital, "température" is what a thermometer
measures) and the words left over ("moka"). ``fit`` counts the terms a product meets in its
title, description and tags, with typos and cognates allowed ("harnais"/"harness");
``described_query`` turns the same terms into a ranked catalog lookup, for a thing the
shortlist does not hold. The agent's ``select_gift`` uses both, whichever model calls it.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from giftgenius.catalog.models import Product
from giftgenius.catalog.search import RankQuery, _query_words, _recipient_kind
from giftgenius.language import lexicon
from giftgenius.language.folding import fold
from giftgenius.language.materials import MATERIALS, folded_words, mentions, words_for
from giftgenius.language.vocabulary import analyze, canonical_tags, lemmas

# What a thing does or is like, in both languages (``lexicons/<lang>/features.toml``, one
# kind per feature): features are not tags, and product records name them in English only.
FEATURES = tuple(lexicon.table("features", "en"))
_FEATURE_NAMES = tuple(
    (name, said)
    for name in FEATURES
    for lang in lexicon.LANGUAGES
    for said in lexicon.words("features", name, lang)
)
# Features said in two words or more, in either language (folded): read as set phrases.
_FEATURE_PHRASES = {said: name for name, said in _FEATURE_NAMES if " " in said}

# Words that carry no description in either language: pointing, choosing, asking politely,
# "if you have one" ("si vous en avez un"); read after the query's own stopwords. Every
# English function word, French articles and pronouns, and the choosing words of
# ``lexicons/<lang>/stopwords.toml``. French possessives, demonstratives, conjunctions and
# prepositions are not among them: "mais" would hide May ("mai": a lemma is matched with
# its "s" too).
_FUNCTION_KINDS = {
    "en": tuple(lexicon.table("function_words", "en")),
    "fr": (
        "definite_articles",
        "indefinite_articles",
        "subject_pronouns",
        "object_pronouns",
        "relative_pronouns",
    ),
}
_FILLER = (
    frozenset(
        w
        for lang, kinds in _FUNCTION_KINDS.items()
        for kind in kinds
        for w in lexicon.words("function_words", kind, lang)
    )
    | lexicon.union("stopwords", "choosing")
) - lexicon.union("stopwords", "kept_in_descriptions")


@lru_cache(maxsize=1)
def _feature_index() -> dict[str, str]:
    """Every folded word of a feature → the feature."""
    return {fold(said): name for name, said in _FEATURE_NAMES if " " not in said}


@lru_cache(maxsize=64)
def feature_words(feature: str) -> frozenset[str]:
    return frozenset(w for w, name in _feature_index().items() if name == feature)


@dataclass(frozen=True)
class Described:
    """The terms of a description: each one a product may meet."""

    tags: frozenset[str] = frozenset()
    materials: frozenset[str] = frozenset()
    features: frozenset[str] = frozenset()
    words: frozenset[str] = frozenset()  # folded words nothing above explains

    @property
    def size(self) -> int:
        return len(self.tags) + len(self.materials) + len(self.features) + len(self.words)


def read_description(text: str) -> Described:
    """The terms of a description in either language (typos are the caller's to mend)."""
    features: set[str] = set()
    for phrase, named in _FEATURE_PHRASES.items():
        # found in the folded text, blanked in the text as said ("thé" must stay tea)
        for m in re.finditer(rf"(?<![\w']){phrase}(?![\w'])", fold(text, keep_length=True)):
            features.add(named)
            text = text[: m.start()] + " " * len(m[0]) + text[m.end() :]
    meaning = analyze(text)
    tags = set(meaning.tags)
    # A word the vocabulary reads as a tag may also say what the thing is like ("coussin"
    # is home decor, and something padded: a gardener's kneeler is one).
    features |= {f for w in lemmas(text) if (f := _feature_index().get(w)) is not None}
    materials: set[str] = set()
    words: set[str] = set()
    material_index = {w: m for m in MATERIALS for w in words_for(m)}
    for word in _query_words(meaning.words):
        if word in _FILLER or f"{word}s" in _FILLER:  # lemmas are singular: "vous" is "vou"
            continue
        material = material_index.get(word, material_index.get(word.rstrip("s")))
        feature = _feature_index().get(word)
        parts = compound_parts(word)
        if material is not None:
            materials.add(material)
        elif feature is not None:
            features.add(feature)
        elif parts is not None:  # "guidebook": a guide, and a book
            words.add(parts[0])
            tags |= canonical_tags(parts[1])
        else:
            words.add(word)
    return Described(frozenset(tags), frozenset(materials), frozenset(features), frozenset(words))


@lru_cache(maxsize=4096)
def compound_parts(word: str) -> tuple[str, str] | None:
    """A compound written as one word whose last part is a vocabulary word ("guidebook",
    "songbook"): its first part and that last part, the shortest such, both of four letters
    or more; None for a word the vocabulary knows whole, or that ends in no such word."""
    if len(word) < 8 or canonical_tags(word):
        return None
    for at in range(len(word) - 4, 3, -1):
        if canonical_tags(word[at:]):
            return word[:at], word[at:]
    return None


@lru_cache(maxsize=4096)
def _words(text: str) -> frozenset[str]:
    return folded_words(text) | frozenset(lemmas(text))


def _met(product: Product, described: Described) -> set[str]:
    """The description's terms the product meets: a tag among its own or its text's, a
    material or a feature its text names, a word of its title (typos and cognates allowed:
    "harnais"/"harness") or of its description (close spellings only: a looser match over
    a whole description finds "caffeine" in "cafetière")."""
    from giftgenius.catalog.search import _product_text

    text_tags, _ = _product_text(product)
    title = _words(product.title)
    words = title | _words(product.description)
    met = {f"tag:{t}" for t in described.tags if t in product.tags or t in text_tags}
    met |= {f"material:{m}" for m in described.materials if mentions(m, words)}
    met |= {f"feature:{f}" for f in described.features if feature_words(f) & words}
    met |= {f"word:{w}" for w in described.words if spelled_in(w, title) or _close_in(w, words)}
    return met


def fit(product: Product, described: Described) -> int:
    """How many of the description's terms the product meets (title, description, tags)."""
    return len(_met(product, described))


def of_the_kind_named(product: Product, described: Described) -> bool:
    """Whether the product is of every kind the description names (its tags): "the book
    about fish" is a book *and* about fish, not an atlas of coffee; with no kind named,
    no product is."""
    met = _met(product, described)
    return bool(described.tags) and all(f"tag:{t}" in met for t in described.tags)


def enough(met: int, described: Described) -> bool:
    """Whether a product meets enough of a description to be the thing named: at least half
    of its terms, and one at the least."""
    return met >= max(1, math.ceil(described.size / 2))


def best_fits(products: Sequence[Product], described: Described) -> list[Product]:
    """The products the description names best, in the given order: among those meeting
    enough of its terms, the ones whose terms are rarest among ``products`` ("the stovetop
    espresso maker": every coffee item is about espresso, one is a stovetop pot)."""
    met = [(p, _met(p, described)) for p in products]
    counts = Counter(term for _, terms in met for term in terms)
    scored = [
        (sum(_weight(p, t) / counts[t] for t in terms), p)
        for p, terms in met
        if enough(len(terms), described)
    ]
    if not scored:
        return []
    top = max(score for score, _ in scored)
    return [p for score, p in scored if score == top]


def _weight(product: Product, term: str) -> float:
    """How surely a product meets a term: a tag only a word of its description names counts
    half (a bee hotel "in a cedar frame" is no picture frame, a kneeler is the cushion)."""
    if not term.startswith("tag:"):
        return 1.0
    from giftgenius.catalog.search import _text_index

    tag = term.removeprefix("tag:")
    return 1.0 if tag in product.tags or tag in _text_index(product.title)[0] else 0.5


def described_query(
    described: Described,
    *,
    recipient: str | None = None,
    age: int | None = None,
    ages: tuple[int, int] | None = None,
) -> RankQuery:
    """A catalog lookup for the description: products sharing a tag or a word with it, the
    words of its materials and features given in both languages (records are in English),
    held to the recipient's age or the ages their relation tells, as every search is."""
    extra = [w for m in described.materials for w in words_for(m)]
    extra += [w for f in described.features for w in feature_words(f)]
    words = _query_words([*described.words, *(lemma for w in extra for lemma in lemmas(w))])
    return RankQuery(described.tags, words, _recipient_kind(recipient), age, ages=ages)


def _close_in(word: str, words: frozenset[str]) -> bool:
    from rapidfuzz import fuzz, process

    return word in words or (
        len(word) >= 5
        and process.extractOne(word, words, scorer=fuzz.ratio, score_cutoff=85) is not None
    )


def spelled_in(word: str, words: set[str] | frozenset[str]) -> bool:
    """Whether a word is one of ``words``, typos and cognates allowed: a close spelling, or
    for long words the same start and a looser one ("harnais"/"harness")."""
    from rapidfuzz import fuzz, process

    if word in words:
        return True
    if process.extractOne(word, words, scorer=fuzz.ratio, score_cutoff=82) is not None:
        return True
    return len(word) >= 6 and any(
        len(t) >= 6 and t[:3] == word[:3] and fuzz.ratio(word, t) >= 70 for t in words
    )
