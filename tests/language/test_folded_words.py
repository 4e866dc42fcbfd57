"""The language layer's word lists are matched against folded text: they are written folded."""

from __future__ import annotations

import pytest

from giftgenius.language import lexicon
from giftgenius.language.folding import fold

# The topics read on folded text (accents dropped, lowercase): a word written otherwise
# would never match and would sit in the data unused.
FOLDED_TOPICS = (
    "calendar",
    "holidays",
    "currency_words",
    "materials",
    "material_phrases",
    "features",
    "stopwords",
    "language_votes",
    "places",
    "place_aliases",
    "deadline_cues",
    "leaving_cues",
)


@pytest.mark.parametrize("topic", FOLDED_TOPICS)
def test_every_word_is_written_folded(topic: str) -> None:
    for lang in lexicon.LANGUAGES:
        for kind, words in lexicon.table(topic, lang).items():
            unfolded = [w for w in words if fold(w) != w]
            assert not unfolded, f"lexicons/{lang}/{topic}.toml, {kind}: {unfolded}"
