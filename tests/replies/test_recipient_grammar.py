"""The recipient said back grammatically, for every relation word of either language:
"your uncle", "votre tante", "vos parents", "la maîtresse de votre enfant" — never "votre
maîtresse" (a lover), "votre grands-parents" or "votre sœur de ma femme"."""

from __future__ import annotations

import re

import pytest

from giftgenius.language import lexicon
from giftgenius.language.folding import fold
from giftgenius.language.vocabulary import RECIPIENTS, relation_words
from giftgenius.replies.phrasing import for_whom, recipient


@pytest.mark.parametrize(
    ("said", "locale", "shown"),
    [
        ("uncle", "en", "your uncle"),
        ("my uncle", "en", "your uncle"),
        ("wife's sister", "en", "your wife's sister"),
        ("in-laws", "en", "your in-laws"),
        ("nursery teacher", "en", "your child's nursery teacher"),
        ("oncle", "fr", "votre oncle"),
        ("tante", "fr", "votre tante"),
        ("ma tante", "fr", "votre tante"),
        ("parrain", "fr", "votre parrain"),
        ("marraine", "fr", "votre marraine"),
        ("maîtresse", "fr", "la maîtresse de votre enfant"),
        ("ma maîtresse", "fr", "la maîtresse de votre enfant"),
        ("maître", "fr", "le maître de votre enfant"),
        ("institutrice", "fr", "l'institutrice de votre enfant"),
        ("maîtresse de mon fils", "fr", "la maîtresse de votre fils"),
        ("maîtresse de Léa", "fr", "la maîtresse de Léa"),
        ("sœur de ma femme", "fr", "la sœur de votre femme"),
        ("l'oncle de ma femme", "fr", "l'oncle de votre femme"),
        ("parents", "fr", "vos parents"),
        ("grands-parents", "fr", "vos grands-parents"),
        ("petits-enfants", "fr", "vos petits-enfants"),
        ("fils", "fr", "votre fils"),
        ("prof de yoga", "fr", "votre prof de yoga"),
    ],
)
def test_the_recipient_is_said_back_grammatically(said: str, locale: str, shown: str) -> None:
    assert recipient(said, locale) == shown


def test_the_noted_line_names_the_childs_teacher_not_a_lover() -> None:
    line = for_whom({"recipient": "maîtresse"}, "fr") or ""
    assert "votre maîtresse" not in line and "la maîtresse de votre enfant" in line


_FR_SINGULAR_DETERMINER = re.compile(r"^votre (\S+)")


@pytest.mark.parametrize("lang", lexicon.LANGUAGES)
def test_every_relation_word_reads_with_its_determiner(lang: str) -> None:
    child_words = {fold(w) for w in lexicon.words("relations", "of_the_child", lang)}
    for word in relation_words(lang):
        shown = recipient(word, lang)
        if word in RECIPIENTS:
            continue  # a catalog kind reads as the kind ("neighbor": "your neighbour")
        assert shown.strip() and word.split()[-1] in shown, (word, shown)
        if fold(word) in child_words:
            assert shown.startswith(("la ", "le ", "l'", "your child's")), (word, shown)
        if lang == "fr":
            head = word.split()[0]
            plural = head.endswith(("s", "x")) and relation_words(lang).get(head[:-1])
            if plural:
                assert shown.startswith("vos "), (word, shown)
            assert not shown.startswith("votre maîtresse"), shown
        else:
            assert shown.startswith(("your ", "a ", "an ", "someone", "one of your")), (word, shown)
