"""Word lists as data: one versioned file per topic and language, loaded once, validated.

``lexicons/<lang>/<topic>.toml`` holds a topic's word lists for one language under
``[words]`` (kind → words), with ``version = 1``. A new word is a data change, never code:
the readers ask for a kind (``words("function_words", "articles", "fr")``, or ``union`` of
both languages when a rule reads either) and build their sets and patterns from it. A test
holds every topic to the same kinds in every language, so a kind missing in one language is
caught, not silently empty.
"""

from __future__ import annotations

import functools
import tomllib
from importlib import resources
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

LANGUAGES = ("en", "fr")
VERSION = 1


class _Lexicon(BaseModel):
    """One topic in one language: each kind is a list of distinct, folded, non-empty words."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    version: Literal[1]
    words: dict[str, tuple[str, ...]] = Field(default_factory=dict)
    # Phrases in the notation of ``language/patterns.py``, kind → phrases.
    patterns: dict[str, tuple[str, ...]] = Field(default_factory=dict)


class LexiconError(ValueError):
    """A lexicon file is missing or malformed: the message names the file and the fix."""


def topics() -> tuple[str, ...]:
    """Every topic shipped (the names of the English files)."""
    folder = resources.files("giftgenius.language").joinpath("lexicons", "en")
    return tuple(
        sorted(p.name.removesuffix(".toml") for p in folder.iterdir() if p.name.endswith(".toml"))
    )


@functools.cache
def _lexicon(topic: str, lang: str) -> _Lexicon:
    """One file, read and validated once per process."""
    if lang not in LANGUAGES:
        raise LexiconError(f"No lexicons for language {lang!r}: use one of {', '.join(LANGUAGES)}.")
    path = resources.files("giftgenius.language").joinpath("lexicons", lang, f"{topic}.toml")
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
        lexicon = _Lexicon.model_validate(raw)
    except FileNotFoundError:
        raise LexiconError(f"lexicons/{lang}/{topic}.toml is missing: add it.") from None
    except (tomllib.TOMLDecodeError, ValidationError) as exc:
        raise LexiconError(f"lexicons/{lang}/{topic}.toml is not a valid lexicon: {exc}") from None
    for kind, listed in (*lexicon.words.items(), *lexicon.patterns.items()):
        if any(not w or w != w.strip() for w in listed) or len(set(listed)) != len(listed):
            raise LexiconError(
                f"lexicons/{lang}/{topic}.toml, kind {kind!r}: empty, padded or repeated words."
            )
    return lexicon


def table(topic: str, lang: str) -> dict[str, tuple[str, ...]]:
    """Every kind of words of one topic in one language: kind → words."""
    return dict(_lexicon(topic, lang).words)


def pattern_kinds(topic: str, lang: str) -> dict[str, tuple[str, ...]]:
    """Every kind of phrases of one topic in one language: kind → phrases."""
    return dict(_lexicon(topic, lang).patterns)


def phrases(topic: str, kind: str, lang: str) -> tuple[str, ...]:
    """One kind of phrases of one language (``language/patterns.py`` compiles them)."""
    try:
        return _lexicon(topic, lang).patterns[kind]
    except KeyError:
        raise LexiconError(
            f"lexicons/{lang}/{topic}.toml has no pattern kind {kind!r}: add it under [patterns]."
        ) from None


def words(topic: str, kind: str, lang: str) -> tuple[str, ...]:
    """One kind of words of one language, in the file's order."""
    try:
        return _lexicon(topic, lang).words[kind]
    except KeyError:
        raise LexiconError(f"lexicons/{lang}/{topic}.toml has no kind {kind!r}: add it.") from None


def union(topic: str, *kinds: str) -> frozenset[str]:
    """The words of these kinds in every language (for rules that read either language)."""
    return frozenset(w for lang in LANGUAGES for kind in kinds for w in words(topic, kind, lang))


def mapping(topic: str, kind: str) -> dict[str, str]:
    """A kind written as ``"said -> meant"`` entries, in every language and in the files'
    order: said → meant."""
    pairs = [entry.split(" -> ") for lang in LANGUAGES for entry in words(topic, kind, lang)]
    if any(len(pair) != 2 for pair in pairs):
        raise LexiconError(f"lexicons/*/{topic}.toml, kind {kind!r}: write 'said -> meant'.")
    return {said: meant for said, meant in pairs}
