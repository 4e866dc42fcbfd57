"""The phrase notation of the lexicons: what each piece of it matches, and that every
pattern shipped compiles, with the same kinds in every language."""

from __future__ import annotations

import re

import pytest

from giftgenius.language import lexicon
from giftgenius.language.lexicon import LexiconError
from giftgenius.language.patterns import compile_phrase


def matches(phrase: str, text: str) -> bool:
    source = compile_phrase("function_words", phrase)
    # the edges ``matcher`` puts around a phrase: whole words, an opening "'d" may touch
    return re.search(rf"(?:(?<![\w'])|(?='))(?:{source})(?![\w'])", text) is not None


@pytest.mark.parametrize(
    ("phrase", "text", "expected"),
    [
        ("at the very? end", "put it at the end please", True),
        ("at the very? end", "at the very end", True),
        ("at the very? end", "at the  very   end", True),
        ("at the very? end", "at the verry end", False),
        ("the? top one", "top one", True),
        ("the? top one", "the top one", True),
        ("the? top one", "atop one", False),
        ("(celui|celle) du bas", "celle du bas", True),
        ("(at|on) the ((very top)|top)", "on the very top", True),
        ("(at|on) the ((very top)|top)", "on the top", True),
        ("(can|will|(want to))? spend", "want to spend", True),
        ("l' avant-dernier*", "l'avant-derniere", True),
        ("l' avant-dernier*", "l' avant-dernier", True),
        ("deteste*", "elle deteste les chats", True),
        ("deteste*", "elle detestes", True),
        ("deteste*", "adeteste", False),
        ("cheap|pricey", "too pricey", True),
        ("n° #", "n°5", True),
        ("number #", "number 12", True),
        ("number #", "number twelve", False),
        ("(de|d') <definite_articles>? fin", "de la fin", True),
        ("(de|d') <definite_articles>? fin", "de fin", True),
        ("a|b ((c d)|e)?", "b", True),
        ("a|b ((c d)|e)?", "b c d", True),
        ("*ieme anniv*", "son douzieme anniversaire", True),
        ("*ieme anniv*", "son ieme anniversaire", False),
        ("the _ one", "the go-to one", True),
        ("the _ one", "the one", False),
        ("same _? _? as before", "same as before", True),
        ("same _? _? as before", "same budget and all as before", False),
        ("i (so|really)+? like", "i like", True),
        ("i (so|really)+? like", "i really really so like", True),
        ("i (so|really)+ like", "i like", False),
        ("# th", "her 12th", True),
        ("# th", "her 12 th", True),
        ("# th", "her 12the", False),
        ("'d like", "i'd like", True),
        ("'d like", "d like", False),
    ],
)
def test_the_notation(phrase: str, text: str, expected: bool) -> None:
    assert matches(phrase, text) is expected


@pytest.mark.parametrize("phrase", ["(a b", "a )", "a | ", "?", "<no_such_kind>", "a <b"])
def test_a_malformed_pattern_names_itself_and_the_notation(phrase: str) -> None:
    with pytest.raises(LexiconError, match=r"patterns\.py"):
        compile_phrase("function_words", phrase)


@pytest.mark.slow
@pytest.mark.parametrize("topic", lexicon.topics())
def test_every_pattern_compiles_with_the_same_kinds_in_every_language(topic: str) -> None:
    kinds = {lang: lexicon.pattern_kinds(topic, lang) for lang in lexicon.LANGUAGES}
    for lang, found in kinds.items():
        assert set(found) == set(kinds["en"]), f"{topic}: {lang} differs"
        for phrases in found.values():
            for phrase in phrases:
                re.compile(compile_phrase(topic, phrase))  # raises on a malformed phrase


@pytest.mark.parametrize("phrase", ["(a b|c)", "(a|b c)", "x (a b|c)? y", "((a|b) c|d)"])
def test_a_group_mixing_a_word_list_with_words_is_refused(phrase: str) -> None:
    """``|`` binds single words, so "(a b|c)" would silently mean "a (b|c)": it is refused,
    and the message shows the two ways of saying it."""
    with pytest.raises(LexiconError, match=r"\(a \(b\|c\)\) or \(\(a b\)\|c\)"):
        compile_phrase("function_words", phrase)


def test_a_word_can_be_ruled_out_after_a_phrase() -> None:
    assert matches("a|de la fin !de", "celui de la fin")
    assert matches("a|de la fin !de", "a la fin, merci")
    assert not matches("a|de la fin !de", "a la fin de la semaine")
    assert matches("a|de la fin !de", "a la fin desormais")


def test_a_word_can_be_required_after_a_phrase_and_left_out_of_it() -> None:
    source = compile_phrase("function_words", "# th|e &(birthday|anniv*)")
    found = re.search(rf"(?<![\w'])(?:{source})(?![\w'])", "her 12th birthday, le 8e anniv")
    assert found is not None and found[0] == "12th"
    assert [m[0] for m in re.finditer(source, "le 8e anniv, 9e etage")] == ["8e"]
    assert not matches("# th|e &(birthday|anniv*)", "the 12th of May")


def test_word_lists_and_words_are_alternatives_alike() -> None:
    assert matches("of <possessives>|the|l' office", "of their office")
    assert matches("of <possessives>|the|l' office", "of the office")
    assert matches("of <possessives>|the|l' office", "of l'office")
    assert not matches("of <possessives>|the|l' office", "of an office")
