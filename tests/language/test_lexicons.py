"""Every lexicon loads, and every language has the same kinds of words for each topic."""

from __future__ import annotations

import pytest

from giftgenius.language import lexicon


@pytest.mark.parametrize("topic", lexicon.topics())
def test_every_language_has_the_same_kinds(topic: str) -> None:
    kinds = {lang: set(lexicon.table(topic, lang)) for lang in lexicon.LANGUAGES}
    assert kinds["en"], f"{topic} has no kinds"
    for lang, found in kinds.items():
        assert found == kinds["en"], f"{topic}: {lang} differs by {found ^ kinds['en']}"


def test_a_missing_kind_names_the_file_and_the_fix() -> None:
    with pytest.raises(lexicon.LexiconError, match=r"lexicons/en/function_words.toml has no kind"):
        lexicon.words("function_words", "no-such-kind", "en")


def test_union_reads_both_languages() -> None:
    assert {"the", "le", "la", "les", "l"} <= lexicon.union("function_words", "definite_articles")


# Narrower kinds of function words: every reader that takes all function words of a language
# (the catalog's stopwords, language votes, sentence openers) must read the same words.
NARROWER = ("first_person_possessives", "third_person_possessives")


@pytest.mark.parametrize("lang", lexicon.LANGUAGES)
def test_the_narrower_function_words_add_no_word(lang: str) -> None:
    table = lexicon.table("function_words", lang)
    classes = {w for kind, ws in table.items() if kind not in NARROWER for w in ws}
    for kind in NARROWER:
        assert set(table[kind]) <= classes, f"{lang} {kind}: {set(table[kind]) - classes}"


@pytest.mark.parametrize(
    ("topic", "kind"), [("offline_spelling", "short_forms"), ("offline_tastes", "french_only")]
)
def test_a_mapping_kind_reads_said_then_meant(topic: str, kind: str) -> None:
    table = lexicon.mapping(topic, kind)
    entries = [w for lang in lexicon.LANGUAGES for w in lexicon.words(topic, kind, lang)]
    assert len(table) == len(entries)
    assert all(said and meant and " -> " not in said + meant for said, meant in table.items())
