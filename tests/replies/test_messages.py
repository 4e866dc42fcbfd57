"""The message catalogue: every language has every key, with the same names to fill in."""

from __future__ import annotations

import ast
import string
from collections.abc import Iterator
from pathlib import Path

import pytest

import giftgenius
from giftgenius import messages as catalogue


def _names(sentence: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(sentence) if name}


def test_every_language_has_the_same_sections_and_keys() -> None:
    english = catalogue.messages("en")
    for lang in catalogue.LANGUAGES:
        found = catalogue.messages(lang)
        assert set(found) == set(english), lang
        for section, sentences in english.items():
            missing = set(sentences) - set(found[section])
            extra = set(found[section]) - set(sentences)
            assert not missing and not extra, (lang, section, missing, extra)


@pytest.mark.parametrize("lang", catalogue.LANGUAGES)
def test_each_sentence_fills_in_the_same_names_as_the_english_one(lang: str) -> None:
    for section, sentences in catalogue.messages("en").items():
        for key, english in sentences.items():
            other = catalogue.messages(lang)[section][key]
            assert _names(other) == _names(english), (lang, section, key)
            assert other.strip(), (lang, section, key)


def test_plural_keys_come_in_pairs() -> None:
    for section, sentences in catalogue.messages("en").items():
        for key in sentences:
            if key.endswith(".one"):
                assert key[: -len(".one")] + ".other" in sentences, (section, key)


def test_an_unknown_locale_reads_english() -> None:
    assert catalogue.text("replies", "noted", "de") == catalogue.text("replies", "noted", "en")


# The helpers that read one section: (module, how it is called) → section.
_HELPERS = {
    ("replies/texts.py", "say"): "replies",
    ("replies/outcomes.py", "r.say"): "replies",
    ("offline/policy.py", "r.say"): "replies",
    ("replies/phrasing.py", "_say"): "profile",
    ("cli/recap.py", "say"): "chat",
    ("replies/answers.py", "_say"): "answers",
    ("cli/main.py", "say"): "commands",
    ("cli/catalog_cmd.py", "say"): "commands",
    ("cli/generate.py", "say"): "commands",
    ("catalog/importing.py", "_speak"): "catalog_import",
    ("catalog/importing.py", "_place_text"): "catalog_import",
    ("cli/main.py", "_h"): "help",
    ("llm/scripted.py", "_say"): "scripted",
}
_READERS = {
    "catalogue.text", "catalogue.say", "catalogue.by_language", "messages.text", "messages.say",
    "speak", "messages.speak", "speak_count", "messages.speak_count",
}  # fmt: skip


def _called(func: ast.expr) -> str:
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        return f"{func.value.id}.{func.attr}"
    return func.id if isinstance(func, ast.Name) else ""


def _keys_named_in_code() -> Iterator[tuple[str, int, str, str]]:
    """(module, line, section, key) of each catalogue lookup written with literal names."""
    package = Path(giftgenius.__file__).parent
    for path in sorted(package.rglob("*.py")):
        module = str(path.relative_to(package))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            called = _called(node.func)
            names = [a.value if isinstance(a, ast.Constant) else None for a in node.args[:2]]
            if called in _READERS and len(names) == 2 and None not in names:
                yield module, node.lineno, str(names[0]), str(names[1])
            section = _HELPERS.get((module, called))
            if section and names and names[0] is not None:
                yield module, node.lineno, section, str(names[0])


@pytest.mark.slow
def test_every_key_the_code_names_is_in_the_catalogue() -> None:
    found = list(_keys_named_in_code())
    assert len(found) > 50  # the scan sees the lookups
    english = catalogue.messages("en")

    def known(section: str, key: str) -> bool:  # a counted sentence is a plural pair
        sentences = english.get(section, {})
        return key in sentences or {f"{key}.one", f"{key}.other"} <= set(sentences)

    unknown = [f for f in found if not known(f[2], f[3])]
    assert not unknown, unknown


def test_the_sections_are_named_for_who_speaks() -> None:
    assert set(catalogue.messages("en")) == {
        "replies", "refusals", "turn", "profile", "chat", "errors", "answers", "tastes", "fit",
        "commands", "storage", "settings", "usage", "model", "service", "catalog_import",
        "history", "eval", "help", "scripted", "bench", "install", "forget", "demo", "context",
        "web", "replay", "memory",
    }  # fmt: skip
