"""The offline reader's word lists are written as the text they are matched against.

The reader matches most of its lexicon words against folded text ("à" is read as "a",
"Père" as "pere"), so a word written with an accent or a capital there would never match:
it would sit in the data doing nothing. Only the kinds read against the text as typed may
hold accents.
"""

from __future__ import annotations

import pytest

from giftgenius.language import lexicon
from giftgenius.language.folding import fold

# Kinds matched against the message as typed (a case-insensitive pattern on the raw text).
AS_TYPED = {
    ("reading_people", "qualifiers"),
    ("reading_ages", "about"),
    ("reading_money", "after_euros"),
}
TOPICS = [t for t in lexicon.topics() if t.startswith("reading_")]


def test_the_reader_has_its_topics() -> None:
    assert {"reading_places", "reading_people", "reading_money", "reading_ages"} <= set(TOPICS)


@pytest.mark.parametrize("topic", TOPICS)
def test_words_matched_against_folded_text_are_folded(topic: str) -> None:
    for lang in lexicon.LANGUAGES:
        for kind, words in lexicon.table(topic, lang).items():
            if (topic, kind) in AS_TYPED:
                continue
            unfolded = [w for w in words if fold(w) != w]
            assert not unfolded, f"{lang}/{topic}.toml, {kind}: write {unfolded} folded"
