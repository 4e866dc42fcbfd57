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


@pytest.mark.parametrize(
    ("topic", "kind"), [("offline_spelling", "short_forms"), ("offline_tastes", "french_only")]
)
def test_a_mapping_kind_reads_said_then_meant(topic: str, kind: str) -> None:
    table = lexicon.mapping(topic, kind)
    entries = [w for lang in lexicon.LANGUAGES for w in lexicon.words(topic, kind, lang)]
    assert len(table) == len(entries)
    assert all(said and meant and " -> " not in said + meant for said, meant in table.items())
