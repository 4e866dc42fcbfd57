"""The catalog reads past function words and its own stopwords, as the lexicons list them."""

from __future__ import annotations

from giftgenius.catalog import describing
from giftgenius.catalog.search import _query_words
from giftgenius.language import lexicon


def _function_words(lang: str) -> set[str]:
    return {w for words in lexicon.table("function_words", lang).values() for w in words}


def test_a_query_reads_past_every_function_word_but_those_it_keeps() -> None:
    kept = lexicon.union("stopwords", "kept_in_queries")
    for lang in lexicon.LANGUAGES:
        assert _query_words(_function_words(lang)) == {w for w in kept if len(w) >= 3} & (
            _function_words(lang)
        )


def test_a_query_reads_past_common_words_of_both_languages() -> None:
    common = lexicon.union("stopwords", "common")
    assert _query_words(common) == frozenset()
    assert _query_words(["knitting", "aime", "likes", "tricot"]) == {"knitting", "tricot"}


def test_a_description_keeps_only_what_names_the_gift() -> None:
    said = describing.read_description("celui avec le minuteur, si vous en avez")
    assert said.features == {"time"} and said.words == frozenset()
    said = describing.read_description("the one with the wooden handle please")
    assert said.materials == {"wood"} and "handle" in said.words and "please" not in said.words


def test_the_catalog_index_is_keyed_by_the_word_lists_it_is_built_from(monkeypatch) -> None:
    """Products are indexed by their significant words and materials: the database must
    re-index them when a stopword or a material's word is added."""
    from pathlib import Path

    from giftgenius.catalog.search import index_version

    read: list[Path] = []
    original = Path.read_bytes

    def recording(self: Path) -> bytes:
        read.append(self)
        return original(self)

    monkeypatch.setattr(Path, "read_bytes", recording)
    index_version.cache_clear()
    try:
        index_version()
    finally:
        index_version.cache_clear()
    for topic in ("function_words", "stopwords", "materials"):
        for lang in lexicon.LANGUAGES:
            assert (lang, f"{topic}.toml") in {(p.parent.name, p.name) for p in read}
