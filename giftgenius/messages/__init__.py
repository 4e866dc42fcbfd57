"""The message catalogue: every sentence the person reads, one data file per language.

``<lang>.toml`` holds each sentence under a key, in sections named for who speaks
(``replies``, ``refusals``, ``turn``, ``profile``, ``chat``, ``errors``, and ``tastes``
for what is said about the recipient's tastes). A new sentence or a
reworded one is a data change, and a test holds the languages to the same keys and the same
``{names}``. It sits with the bottom utilities so that every layer that speaks to the person
— a store's busy message, the agent, the replies, the terminal — reads the same catalogue.
Loaded once per process.
"""

from __future__ import annotations

import functools
import tomllib
from importlib import resources
from typing import Any

LANGUAGES = ("en", "fr")


def language(locale: str) -> str:
    """The catalogue's language for a locale (English for any it does not have)."""
    return locale if locale in LANGUAGES else "en"


@functools.cache
def messages(lang: str) -> dict[str, dict[str, str]]:
    """Every section of one language's file: section → key → sentence."""
    data = resources.files("giftgenius.messages").joinpath(f"{lang}.toml")
    return tomllib.loads(data.read_text(encoding="utf-8"))


def text(section: str, key: str, locale: str) -> str:
    """The sentence ``key`` of ``section`` in the locale's language (unfilled)."""
    return messages(language(locale))[section][key]


def say(section: str, key: str, locale: str, **values: Any) -> str:
    """The sentence ``key`` of ``section`` in the locale's language, filled with ``values``."""
    return text(section, key, locale).format(**values)


def count(section: str, key: str, locale: str, n: int, **values: Any) -> str:
    """The sentence ``key.one`` or ``key.other`` of ``section`` for ``n``, as the language's
    plural rule says (French counts 0 as one), ``{n}`` written as the language writes numbers
    and the rest filled with ``values``. babel is imported on the first count."""
    from giftgenius import formats

    lang = language(locale)
    form = formats.plural(n, lang, "one", "other")  # the rule's choice, nothing to fill
    return text(section, f"{key}.{form}", lang).format(n=formats.number(n, lang), **values)


def keys(section: str) -> frozenset[str]:
    """The keys a section has (the same in every language)."""
    return frozenset(messages("en")[section])


def by_language(section: str, key: str) -> dict[str, str]:
    """One sentence in every language, keyed by language (for a caller that picks later)."""
    return {lang: messages(lang)[section][key] for lang in LANGUAGES}
