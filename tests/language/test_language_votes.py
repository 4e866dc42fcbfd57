"""The language of a line is voted by the words of the language-vote lexicons."""

from __future__ import annotations

from giftgenius.language import lexicon
from giftgenius.language.detect import detect_locale


def test_silent_words_are_function_words_of_their_language() -> None:
    for lang in lexicon.LANGUAGES:
        function_words = {w for ws in lexicon.table("function_words", lang).values() for w in ws}
        assert set(lexicon.words("language_votes", "silent", lang)) <= function_words, lang


def test_function_words_and_own_words_vote() -> None:
    assert detect_locale("pour ma nièce", default="en") == "fr"
    assert detect_locale("for my niece", default="fr") == "en"
    assert detect_locale("j'hésite", default="en") == "fr"  # an elided word and an accent
    assert detect_locale("qu'importe", default="en") == "fr"


def test_silent_words_leave_a_tie_to_the_conversation() -> None:
    assert detect_locale("them", default="fr") == "fr"
    assert detect_locale("eux", default="en") == "en"
