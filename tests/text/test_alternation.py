"""``text.alternation``: a prefix-tree pattern that matches what longest-first alternation does."""

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from giftgenius.language.folding import alternation

WORDS = st.lists(st.text(alphabet="ab$. ", min_size=1, max_size=5), min_size=1, max_size=12)


def _flat(words: list[str], end) -> str:
    ordered = sorted(set(words), key=len, reverse=True)
    return "|".join(re.escape(w) + end(w) for w in ordered)


def _lookahead(word: str) -> str:
    return r"(?![\w$])" if word[-1:].isalnum() else ""


@pytest.mark.slow
@settings(max_examples=300)
@given(WORDS, st.text(alphabet="ab$. 1", max_size=20))
def test_same_matches_as_longest_first_alternation(words: list[str], text: str) -> None:
    for end in (lambda _w: "", _lookahead):
        for after in ("", r"\s?1"):
            tree = re.compile(rf"(?:{alternation(words, end)}){after}")
            flat = re.compile(rf"(?:{_flat(words, end)}){after}")
            assert [m.span() for m in tree.finditer(text)] == [
                m.span() for m in flat.finditer(text)
            ]


def test_a_word_that_prefixes_another_still_matches_alone() -> None:
    pattern = re.compile(alternation(["euro", "euros", "dollar"]) + r"\b")
    assert pattern.fullmatch("euro") and pattern.fullmatch("euros")
    assert not pattern.fullmatch("eur")
