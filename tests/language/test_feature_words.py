"""Features are read from their lexicons: a word or set phrase of either language names one."""

from __future__ import annotations

from collections import Counter

from giftgenius.catalog import describing
from giftgenius.language import lexicon
from giftgenius.language.folding import fold


def test_no_word_stands_for_two_features() -> None:
    said = Counter(
        fold(word)
        for lang in lexicon.LANGUAGES
        for words in lexicon.table("features", lang).values()
        for word in words
    )
    assert [word for word, times in said.items() if times > 1] == []


def test_a_feature_is_named_by_a_word_or_a_set_phrase_of_either_language() -> None:
    assert describing.read_description("le thermomètre").features == {"temperature"}
    assert describing.read_description("the one with a timer").features == {"time"}
    assert "wireless" in describing.read_description("une enceinte sans fil").features
    assert describing.read_description("le bol fait à la main").features == {"handmade"}
    assert "sonde" in describing.feature_words("temperature")
