"""The one folding rule: what each caller needs from it, and the length promise spans rely on."""

from __future__ import annotations

import datetime as dt
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from giftgenius.language.detect import detect_locale
from giftgenius.language.folding import fold, spell_ligatures
from giftgenius.language.vocabulary import canonical_recipient, canonical_tags
from giftgenius.offline.nlu import extract


@pytest.mark.parametrize(
    ("text", "folded"),
    [
        ("Déteste", "deteste"),
        ("CAFÉINE", "cafeine"),
        ("ça", "ca"),
        ("Noël", "noel"),
        ("sœur", "soeur"),
        ("Cœur ÆTHER", "coeur aether"),
        ("l’ami", "l'ami"),
        ("‘quoted’", "'quoted'"),
        ("ﬁlm", "film"),
        ("İstanbul", "istanbul"),
        ("thé", "the"),
    ],
)
def test_fold_lowercases_drops_accents_spells_ligatures_and_straightens_apostrophes(
    text: str, folded: str
) -> None:
    assert fold(text) == folded


@pytest.mark.parametrize(
    ("text", "folded"),
    [
        ("Déteste", "deteste"),
        ("l’ami", "l'ami"),
        ("sœur", "sœur"),  # "oe" would shift every later span by one
        ("ﬁlm", "ﬁlm"),
        ("İstanbul", "istanbul"),
        ("Ça coûte 50 €", "ca coute 50 €"),
    ],
)
def test_keep_length_folds_one_character_per_character(text: str, folded: str) -> None:
    assert fold(text, keep_length=True) == folded


@pytest.mark.slow
@given(st.text())
def test_keep_length_keeps_every_span(text: str) -> None:
    folded = fold(text, keep_length=True)
    assert len(folded) == len(text)


@pytest.mark.slow
@given(st.text())
def test_folding_leaves_no_upper_case_accents_or_curly_apostrophes(text: str) -> None:
    folded = fold(text)
    assert "’" not in folded and "‘" not in folded
    assert not any(unicodedata.combining(ch) for ch in unicodedata.normalize("NFD", folded))
    assert folded == folded.lower()


def test_spell_ligatures_keeps_accents() -> None:
    assert spell_ligatures("Sœur ÉLÈVE") == "Soeur ÉLÈVE"


def test_the_callers_agree_on_accents_ligatures_and_apostrophes() -> None:
    # The language vote: "sœur" counts as the French word "soeur", "j’adore" as "j'adore".
    assert detect_locale("ma sœur") == "fr"
    assert detect_locale("j’adore") == "fr"
    # The offline model reads accented and ligatured text through the vocabulary.
    found = extract("Cadeau pour ma SŒUR, elle adore le THÉ et déteste le café", today=_today())
    assert found.facts["recipient"] == "SŒUR"  # the person's own word, as typed
    assert found.facts["interests"] == ["tea"]
    assert found.facts["dislikes"] == ["coffee"]


def test_vocabulary_keeps_the_tea_ambiguity_folding_cannot_see() -> None:
    assert canonical_tags("du thé vert") == {"tea"}
    assert canonical_tags("the best gift") == set()
    assert canonical_recipient("ma sœur") == canonical_recipient("ma soeur") == "sister"


def _today() -> dt.date:
    """A fixed day keeps the extraction deterministic."""
    return dt.date(2026, 11, 2)


@pytest.mark.slow
@given(st.text())
def test_plain_ascii_folds_as_text_with_accents_does(text: str) -> None:
    # ASCII text takes a short way (lowercasing); an accent sends the same text the long way,
    # and the two must agree on every character.
    assert fold(text + "É", keep_length=True) == fold(text, keep_length=True) + "e"
    ascii_text = text.encode("ascii", "ignore").decode()
    assert fold(ascii_text + "É") == fold(ascii_text) + "e"


@given(st.text(), st.text())
def test_more_text_never_folds_shorter(text: str, more: str) -> None:
    # The offline model stops trying ever longer prefixes of a word once one folds longer
    # than any dictionary word (``interests.compound_tags``): that holds only if folding
    # more text never gives less.
    assert len(fold(text + more)) >= len(fold(text))
