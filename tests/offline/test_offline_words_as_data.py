"""The offline reader's word lists are data: each kind in the lexicon files is what the reader
reads, and the reading modules hold no word list of their own.

A word added to ``lexicons/<lang>/offline_*.toml`` must change what the reader does, with no
code change; these tests read the kinds back through the public readers.
"""

from __future__ import annotations

import ast
import datetime as dt
from pathlib import Path

import pytest

from giftgenius.language.folding import fold
from giftgenius.language.lexicon import LANGUAGES, pattern_kinds, table, words
from giftgenius.language.when import parse_deadline
from giftgenius.offline.clauses import Segment
from giftgenius.offline.doings import doing, doing_tags
from giftgenius.offline.intents import Candidate, Choice, choice, confirms, declines, title_match
from giftgenius.offline.interests import free_words
from giftgenius.offline.spelling import mend

OFFLINE = Path(__file__).parents[2] / "giftgenius" / "offline"
READERS = (
    "interests",
    "doings",
    "intents",
    "spelling",
    "clauses",
    "policy",
    "summarize",
    "nlu",
    "reading_age",
    "unknown_tastes",
    "dropped_tastes",
    "asking",
    "number_kinds",
)


def _word_lists(tree: ast.AST) -> list[int]:
    """Lines of word lists written in code: a literal string split into words, a set of more
    than seven literal strings, or a table of more than seven literal words (a dict)."""
    found = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "split"
            and isinstance(node.func.value, ast.Constant)
            and len(str(node.func.value.value).split()) > 3
        ):
            found.append(node.lineno)
        if (
            isinstance(node, ast.Set)
            and len(node.elts) > 7
            and all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts)
        ):
            found.append(node.lineno)
        if (
            isinstance(node, ast.Dict)
            and len(node.keys) > 7
            and all(isinstance(k, ast.Constant) and isinstance(k.value, str) for k in node.keys)
        ):
            found.append(node.lineno)
    return found


@pytest.mark.parametrize("module", READERS)
def test_the_reading_modules_hold_no_word_lists(module: str) -> None:
    tree = ast.parse((OFFLINE / f"{module}.py").read_text(encoding="utf-8"))
    assert _word_lists(tree) == [], f"{module}.py: move these word lists to a lexicon"


def test_the_guard_sees_a_word_list() -> None:
    tree = ast.parse('X = frozenset("one two three four five".split())')
    assert _word_lists(tree) == [1]
    table = ", ".join(f"'{w}': {i}" for i, w in enumerate(["a", "b", "c", "d", "e", "f", "g", "h"]))
    assert _word_lists(ast.parse(f"X = {{{table}}}")) == [1]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_ordinal_suffix_is_read_as_a_place_and_a_day(lang: str) -> None:
    for suffix in words("number_kinds", "ordinal_suffixes", lang):
        assert choice(fold(f"the 2{suffix}")) == Choice(position=2), suffix
        assert parse_deadline(f"by the 20{suffix}", dt.date(2026, 12, 1)) == dt.date(2026, 12, 20)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_number_word_after_a_number_noun_is_a_place(lang: str) -> None:
    noun = words("offline_choices", "number_nouns", lang)[0]
    for place, word in enumerate(
        ("two", "three", "four") if lang == "en" else ("deux", "trois"), 2
    ):
        assert choice(f"{noun} {word}") == Choice(position=place), word
    assert choice("the one with the dog") is None  # "the one" points, it counts nothing


def test_text_speak_is_written_out_from_the_lexicon() -> None:
    for entry in words("offline_spelling", "short_forms", "en")[:5]:
        short, written = entry.split(" -> ")
        assert mend(f"she {short} it") == f"she {written} it", entry


@pytest.mark.parametrize(
    ("lang", "sentence"), [("en", "he {} fishes"), ("fr", "il {} pêche le dimanche")]
)
def test_every_word_between_a_doer_and_the_verb_is_passed_over(lang: str, sentence: str) -> None:
    for word in words("offline_doings", "between", lang):
        assert doing_tags(sentence.format(word), lang) == ["fishing"], word


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_no_everyday_verb_is_a_hobby(lang: str) -> None:
    assert [v for v in words("offline_doings", "everyday_verbs", lang) if doing(v)] == []


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_no_number_word_is_a_taste(lang: str) -> None:
    for word in words("offline_numbers", "cardinals", lang):
        segment = Segment(word, word, positive=True, cued=True)
        assert free_words(segment) == [], word


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_last_answer_word_of_a_run_says_yes_or_no(lang: str) -> None:
    yes = words("offline_choices", "yes_words", lang)
    no = words("offline_choices", "no_words", lang)
    for first, last in zip(yes, no, strict=False):
        assert declines(f"{first} {last}") and not confirms(f"{first} {last}")
        assert confirms(f"{last} {first}") and not declines(f"{last} {first}")


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_what_an_ordinal_counts_is_no_position(lang: str) -> None:
    said = "my first {} here" if lang == "en" else "mon premier {} ici"
    assert choice(said.format("one")) is not None  # an ordinal alone points into the list
    for thing in words("offline_choices", "counted_things", lang):
        assert choice(said.format(thing)) is None, thing


def test_common_words_name_no_title() -> None:
    for lang in ("en", "fr"):
        said = " ".join(w for w in words("offline_choices", "common", lang) if len(w) >= 3)
        assert title_match(said, [Candidate(said.title()), Candidate("Moka Pot")]) is None


# Words moved from a reader's code to its lexicon, as the code wrote them: each stays there,
# not in the code too (comments quote examples in plain words, never a word list).
MOVED = [
    ("nlu", "birthday party|", "reading_people", "party_of"),
    ("nlu", "to give to", "reading_people", "for_before"),
    ("nlu", "allergique", "reading_tastes", "free_dislikes"),
    ("nlu", "celle", "reading_replies", "pointing"),
    ("nlu", "toutes les", "reading_money", "per_period"),
    ("nlu", "eux|elles", "reading_money", "of_them"),
    ("reading_age", "vient", "reading_ages", "coming"),
    ("reading_age", "celebre", "reading_ages", "celebrating"),
    ("nlu", "aimerions", "reading_tastes", "wishes"),
    ("nlu", "ieme|premier", "reading_dates", "nth_birthday"),
    ("nlu", "chez|pour|avec", "private_data", "not_naming"),
    ("nlu", "canadian dollars?", "reading_money", "canadian_dollars"),
    ("interests", "promenait", "offline_tastes", "not_doings"),
    ("interests", "tellement", "offline_tastes", "speakers"),
    ("interests", "faire pousser", "offline_tastes", "growing"),
    ("interests", "a little something", "offline_tastes", "something"),
    ("interests", "y'est", "offline_tastes", "subject_pronouns"),
    ("interests", "who|they|he|she", "offline_tastes", "watch_verbs"),
    ("intents", "personne", "offline_profiles", "label_openers"),
    ("intents", "option|idea|choice", "offline_choices", "one_after"),
]


@pytest.mark.parametrize(("module", "said", "topic", "kind"), MOVED)
def test_moved_words_live_in_their_lexicon_only(
    module: str, said: str, topic: str, kind: str
) -> None:
    code = (OFFLINE / f"{module}.py").read_text(encoding="utf-8")
    assert said not in code, f"{module}.py says {said!r}: read it from {topic}.{kind}"
    data = [
        phrase
        for lang in LANGUAGES
        for phrase in (*table(topic, lang).get(kind, ()), *pattern_kinds(topic, lang).get(kind, ()))
    ]
    first = said.replace("|", " ").split()[0]
    assert any(first in phrase for phrase in data), f"{topic}.{kind} lacks {first!r}"
