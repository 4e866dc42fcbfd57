"""One relation lexicon, as data: a word's audience and gender come from its kind, and a
malformed lexicon is refused with the file and the fix."""

from __future__ import annotations

import pytest

from giftgenius.language import lexicon, relations
from giftgenius.language.vocabulary import relation_words


def _with(monkeypatch: pytest.MonkeyPatch, **changed: tuple[str, ...]) -> None:
    """The English relation lexicon with some kinds replaced."""
    shipped = lexicon.table

    def table(topic: str, lang: str) -> dict[str, tuple[str, ...]]:
        kinds = shipped(topic, lang)
        return {**kinds, **changed} if (topic, lang) == ("relations", "en") else kinds

    monkeypatch.setattr(lexicon, "table", table)


def test_a_kind_says_the_audience_and_the_gender() -> None:
    words = relation_words("fr")
    assert words["belle-mère"] == ("mother", "female")
    assert words["cousin"] == ("friend", "male")
    assert words["prof"] == ("teacher", None)
    assert relations.lexicon()["fr"]["belle mere"].audience == "mother"


def test_a_misspelt_audience_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    _with(monkeypatch, mothr_female=("mum",))
    with pytest.raises(
        lexicon.LexiconError, match=r"lexicons/en/relations.toml, kind 'mothr_female'"
    ):
        relation_words("en")


def test_a_word_under_two_audiences_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    _with(monkeypatch, teacher=("teacher", "Mother In Law"))
    with pytest.raises(lexicon.LexiconError, match=r"gives 'Mother In Law' two meanings"):
        relation_words("en")


def test_a_word_read_after_a_possessive_needs_an_audience(monkeypatch: pytest.MonkeyPatch) -> None:
    _with(monkeypatch, only_after_possessive=("sweetie",))
    with pytest.raises(lexicon.LexiconError, match=r"\['sweetie'\] .* file them under one"):
        relations._terms("en")


def test_an_everyday_word_is_a_relation_only_where_the_lexicon_says() -> None:
    girlfriend = relations.resolve_relation("un cadeau pour ma blonde", "fr")
    assert girlfriend is not None and girlfriend.audience == "partner"
    assert relations.resolve_relation("une bière blonde", "fr") is None


@pytest.mark.parametrize(
    ("text", "locale", "audience"),
    [
        ("my 15-year-old nephew", "en", "teen"),
        ("my nephew, 12 yrs old", "en", "child"),
        ("mon neveu de 16 ans", "fr", "teen"),
        ("my 30 yo son", "en", "anyone"),
    ],
)
def test_an_age_in_the_ages_lexicon_decides_child_or_teen(
    text: str, locale: str, audience: str
) -> None:
    relation = relations.resolve_relation(text, locale)  # type: ignore[arg-type]
    assert relation is not None and relation.audience == audience
