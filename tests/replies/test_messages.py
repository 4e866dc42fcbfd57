"""The message catalogue: every language has every key, with the same names to fill in."""

from __future__ import annotations

import string

import pytest

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
