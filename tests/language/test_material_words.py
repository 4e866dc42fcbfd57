"""Materials are read from their lexicons: a word belongs to one material, in either language."""

from __future__ import annotations

from collections import Counter

from giftgenius.language import lexicon, materials
from giftgenius.language.folding import fold


def test_no_word_stands_for_two_materials() -> None:
    said = Counter(
        fold(word)
        for lang in lexicon.LANGUAGES
        for words in lexicon.table("materials", lang).values()
        for word in words
    )
    assert [word for word, times in said.items() if times > 1] == []


def test_a_material_is_named_in_either_language() -> None:
    assert materials.material_of("pas d'argent") == "silver"
    assert materials.material_of("Sterling silver") == "silver"
    assert materials.material_of("rien en cuir") == "leather"
    assert materials.material_of("silver ring") is None
    assert "hetre" in materials.words_for("wood") and "beech" in materials.words_for("wood")


def test_set_phrases_of_both_languages_are_not_materials() -> None:
    assert materials.idiom_at("argent de poche pour les vacances") == "argent de poche"
    assert materials.idiom_at("Golden hour photos") == "golden hour"
    assert materials.idiom_at("argent massif") is None
