"""What a number in a message is when a cue binds it: a day of the month or a town's district.

The rule, in one place: a number said while a list is on show is a place in that list
unless a cue binds it to something else —

- a **day**: its clause sets a deadline (a deadline cue, or an occasion whose day is said)
  and the number is that day: "before the 20th", "by the 3rd", "avant le 20", "pour le 15
  décembre", "d'ici le 3", "her birthday is on the 20th", "son anniversaire est le 20";
- a **district**: it follows a town's name ("Paris 15e", "Lyon 3e", "she lives in Paris
  15th"), a district noun follows it ("le 15e arrondissement"), or a district lead comes
  before it with a town in the same clause ("à Paris dans le 11e").

Nothing else unbinds a number: "the 2nd", "le 3e", "number 4" pick; "I'll take the 20th"
picks the 20th too, and the agent says the list is shorter. The list's length never decides
what a number is, so a six-item list and a twenty-item one read a message alike.

The bound numbers are blanked (same length, so spans hold) before a choice is read; their
facts are read from the message as it was, the districts blanked too, so "Paris 15e" is no
budget of 15 euros.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable

from giftgenius.domain import Locale
from giftgenius.language.folding import fold
from giftgenius.language.lexicon import union
from giftgenius.language.patterns import alternatives, any_word
from giftgenius.language.places import resolve_country
from giftgenius.language.when import ORDINAL_SUFFIX
from giftgenius.offline.clauses import Clause, split

_SUFFIX = rf"(?:\s?(?:{ORDINAL_SUFFIX}))?"
_NUMBER = re.compile(rf"(?<![\w.,])(\d{{1,2}}){_SUFFIX}(?![\w])")
# "Paris 15e", "Lyon 3e", "Paris 15": a bare number only where the phrase ends ("Paris 20
# euros" is money).
_TOWN_THEN_NUMBER = re.compile(
    rf"(?<![\w'-])([A-ZÀ-Ý][\w'-]{{2,}})\s+(\d{{1,2}})"
    rf"(?:{_SUFFIX.removesuffix('?')}(?![\w])|(?=\s*(?:[,.;:!?)]|$)))"
)
_NOUN_AFTER = re.compile(rf"^{_SUFFIX}\s+{any_word('number_kinds', 'district_nouns').pattern}")
_LEAD_BEFORE = re.compile(rf"(?<![\w'])(?:{alternatives('number_kinds', 'district_leads')})\s+$")
_CAPITALISED = re.compile(r"(?<![\w'-])[A-ZÀ-Ý][\w'-]{2,}")
_NOT_TOWNS = union("function_words", "definite_articles", "indefinite_articles")

Deadline = Callable[[Clause], "dt.date | None"]


def bound_spans(text: str, lang: Locale, deadline: Deadline) -> list[tuple[int, int]]:
    """The spans of ``text`` holding a number a cue binds to a day or a district."""
    if not any(ch.isdigit() for ch in text):
        return []
    spans = districts(text, lang)
    for clause in split(text):
        due = deadline(clause) if any(ch.isdigit() for ch in clause.text) else None
        if due is None:
            continue
        days = {due.day, (due + dt.timedelta(days=1)).day}  # "before the 20th" is the 19th
        for m in _NUMBER.finditer(clause.text):
            if int(m[1]) in days:
                spans.append((clause.start + m.start(), clause.start + m.end()))
    return spans


def districts(text: str, lang: Locale) -> list[tuple[int, int]]:
    """The spans of the numbers that name a town's district ("Paris 15e", "dans le 11e")."""
    spans = [(m.start(2), m.end()) for m in _TOWN_THEN_NUMBER.finditer(text) if _town(m[1], lang)]
    for clause in split(text):
        town = any(_town(m[0], lang) for m in _CAPITALISED.finditer(clause.text))
        folded = fold(clause.text, keep_length=True)
        for m in _NUMBER.finditer(clause.text):
            noun = _NOUN_AFTER.match(folded[m.end(1) :]) is not None
            led = town and _LEAD_BEFORE.search(folded[: m.start()]) is not None
            if noun or led:
                spans.append((clause.start + m.start(), clause.start + m.end()))
    return spans


def _town(word: str, lang: Locale) -> bool:
    """Whether a capitalised word names a place ("Paris", "Lyon"), not "Le" or "La"."""
    return fold(word) not in _NOT_TOWNS and resolve_country(word, lang) is not None


def blank(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` with these spans blanked, same length."""
    for start, end in spans:
        text = text[:start] + " " * (end - start) + text[end:]
    return text
