"""The message catalogue: every sentence the person reads, one data file per language.

``<lang>.toml`` holds each sentence under a key, in sections named for who speaks
(``replies``, ``refusals``, ``turn``, ``profile``, ``chat``, ``errors``, and ``tastes``
for what is said about the recipient's tastes, ``history`` for the gifts given before;
``commands``, ``storage``, ``settings``, ``usage``, ``model``, ``catalog_import``,
``eval`` for what the command line, the stores, the settings, the model client, a catalog
import and the evaluator say; ``bench`` for the benchmarks' reports and figure tables,
``replay`` for a recording's replay that holds no answer to a request). A new sentence or
a reworded one is a data change, and a test holds the languages to the same keys and the
same ``{names}``. It sits with the bottom utilities so that every layer that speaks to the
person — a store's busy message, the agent, the replies, the terminal — reads the same
catalogue. Loaded once per process.

Two kinds of speaker pick the language differently. Inside a conversation it is the
person's, read from what they type, and passed as ``locale`` (``say``, ``count``). Outside
one — an error a command ends on, a store that is down, a settings file that is broken,
the evaluator's lines — nobody's words say it, so the environment does, as any Unix tool
does: ``environment_language`` (``speak``, ``speak_count``). It is read at each sentence,
not once per process, so a fork server's child or a test that sets ``LANG`` speaks the
language it was given.
"""

from __future__ import annotations

import functools
import os
import tomllib
from collections.abc import Mapping
from importlib import resources
from typing import Any

LANGUAGES = ("en", "fr")

LANGUAGE_VARIABLES = ("GIFTGENIUS_LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
"""Which variables name the language outside a conversation, strongest first: our own, to
set GiftGenius's language alone, then POSIX's order for messages."""


def language(locale: str) -> str:
    """The catalogue's language for a locale (English for any it does not have)."""
    return locale if locale in LANGUAGES else "en"


def environment_language(environ: Mapping[str, str] | None = None) -> str:
    """The catalogue language for what is said outside a conversation: the language of the
    first of ``LANGUAGE_VARIABLES`` that is set ("fr_FR.UTF-8", "fr_CA", "fr" → "fr"),
    English for any other (``C``, ``POSIX``, ``de_DE``) or none. An empty variable is unset;
    ``LC_CTYPE`` names a character set, not a language, and is not read."""
    env = os.environ if environ is None else environ
    for name in LANGUAGE_VARIABLES:
        value = env.get(name, "").strip()
        if value:
            lang = value.split(".")[0].split("@")[0].split("_")[0].split("-")[0].lower()
            return language(lang)
    return "en"


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


def speak(section: str, key: str, **values: Any) -> str:
    """The sentence ``key`` of ``section`` in the environment's language, filled with
    ``values``: for what is said outside a conversation (an error, a notice, a report)."""
    return say(section, key, environment_language(), **values)


def speak_count(section: str, key: str, n: int, **values: Any) -> str:
    """``count`` in the environment's language."""
    return count(section, key, environment_language(), n, **values)


def keys(section: str) -> frozenset[str]:
    """The keys a section has (the same in every language)."""
    return frozenset(messages("en")[section])


def by_language(section: str, key: str) -> dict[str, str]:
    """One sentence in every language, keyed by language (for a caller that picks later)."""
    return {lang: messages(lang)[section][key] for lang in LANGUAGES}
