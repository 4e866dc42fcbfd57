"""Questions about the gifts on show: read as questions, answered, and nothing changed.

While a shortlist is on show, "what's the difference between the first and the second?",
"will it arrive before December 20?", "tell me more about the third" or "c'est quoi la
différence entre le 1 et le 2 ?" ask about listed gifts. They select nothing and change no
deadline: the offline model calls ``get_gift_details`` with the gifts meant, and answers
from its result (``replies.answers``), as a real model is told to.

The one rule for what is a question (``read_question``): the message has a question's form
— a question word or phrase opening one of its clauses ("what", "is it", "c'est quoi"), a
question word anywhere or a verb opening it in a message that ends with "?" ("it arrives
when?", "is that ok?"), a French inverted verb ("arrive-t-il"), or an ask to be told
("tell me more", "dis-m'en plus") — it is about the listed gifts (it names some, or asks
about an arrival, a price, a difference, an age or what a gift is), and it asks for
nothing to be done. A "?" alone is no question ("the second one?" picks it), nor is an
imperative ("do it"). A polite request is done as said, "?" or not: "can I have the
second one?" picks it, "could you show cheaper ones?" or "can you make it under 40?"
change the search; only a request to be told ("can you tell me more about #3?", "tu peux
me décrire le 2 ?") is a question. A message with a choosing word ("I'll take", "je le
prends") chooses.

Every word read here is in ``lexicons/<lang>/questions.toml``.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from giftgenius.domain import Locale
from giftgenius.language.folding import alternation, fold
from giftgenius.language.lexicon import union
from giftgenius.language.patterns import alternatives
from giftgenius.language.when import MONTH_NAMES, ORDINAL_SUFFIX, parse_deadline
from giftgenius.offline import intents
from giftgenius.offline.number_kinds import blank
from giftgenius.offline.spelling import mend
from giftgenius.offline.wire import json_object, message_text

_TOPIC = "questions"
# What a question asks about a gift; "describe" when it asks nothing narrower.
ASPECTS = ("arrival", "price", "difference", "ages")
DETAILS_TOOL = "get_gift_details"


@dataclass(frozen=True)
class Question:
    """A question about listed gifts: what it asks, and which gifts it names.

    ``positions`` are 1-based places in the list, as named; none means the gifts meant
    before ("it", "ça": the one discussed last, or the one selected). ``every`` is the whole
    list ("which one arrives first?"), ``both`` two of them. ``by_date`` is a date the
    person asks whether the gifts arrive by — a question, never a new deadline.
    """

    asks: frozenset[str]
    positions: tuple[int, ...] = ()
    every: bool = False
    both: bool = False
    by_date: dt.date | None = None


def _phrases(*kinds: str) -> re.Pattern[str]:
    """Any phrase of these kinds, in either language, as whole words; an elided French
    word runs into the next ("qu'est-ce qu'il": "qu'est-ce qu'" and "il")."""
    words = alternatives(_TOPIC, *kinds)
    return re.compile(rf"(?<![\w-])(?:{words})(?:(?<=')|(?![\w']))")


# The kinds of phrases read anywhere in a message besides the aspects.
_KINDS = (
    "topics", "telling", "requests", "choosing", "pointing", "changes", "all_items",
    "both_items", "wh_words", "verbs",
)  # fmt: skip


@lru_cache(maxsize=1)
def _patterns() -> dict[str, re.Pattern[str]]:
    """The lexicon's phrases as patterns, built once per process."""
    found = {kind: _phrases(kind) for kind in (*ASPECTS, *_KINDS)}
    found["leads"] = _phrases("openers", "auxiliaries", "fillers")
    found["opener"] = _at_start("openers")
    found["auxiliary"] = _at_start("auxiliaries")
    found["inversions"] = re.compile(rf"[a-z](?:{alternatives(_TOPIC, 'inversions')})(?![\w'])")
    found["first_few"] = _counted("first_few")
    found["last_few"] = _counted("last_few")
    return found


def _at_start(kind: str) -> re.Pattern[str]:
    """A phrase of ``kind`` opening the message, after any fillers ("well, can you…")."""
    fillers = alternatives(_TOPIC, "fillers")
    return re.compile(rf"^(?:(?:{fillers})[\s,!.]+)*(?:{alternatives(_TOPIC, kind)})(?![\w'])")


def _counted(kind: str) -> re.Pattern[str]:
    """A phrase of ``kind`` with a count before or after it ("the first two", "les trois
    derniers"); the count is group ``a`` or ``b``."""
    few, words = alternation(intents.COUNTS), alternatives(_TOPIC, kind)
    return re.compile(
        rf"(?<![\w'])(?:(?:{words})\s+(?P<a>{few})|(?P<b>{few})\s+(?:{words}))(?![\w'])"
    )


_CLAUSE = re.compile(r"[,;:.!?()]+")
_NUMBER = re.compile(rf"(?<![\w$€£.,/:'-])(\d{{1,2}})(?:{ORDINAL_SUFFIX})?(?![\w%€$£/:-]|[.,]\d)")
_WORD = re.compile(r"[a-z°#][a-z'-]*|#")


def read_question(
    text: str,
    *,
    today: dt.date,
    locale: Locale,
    listed: int,
    titles: list[str] | None = None,
    answers: list[list[str]] | None = None,
) -> Question | None:
    """The question ``text`` asks about a list of ``listed`` gifts (``titles`` and the
    interests each ``answers``, when in view), or None when it asks none (the module's rule)."""
    if listed < 1:
        return None
    raw = mend(text.replace("’", "'").replace("‘", "'"))
    folded = fold(raw, keep_length=True)
    if not _asks(folded):
        return None
    pattern = _patterns()
    asks = frozenset(a for a in ASPECTS if pattern[a].search(folded))
    by_date = parse_deadline(raw, today, locale)
    if by_date is not None and by_date <= today:
        by_date = None  # "which one arrives first?" names no day; nothing arrives today
    if by_date is not None:
        asks |= {"arrival"}
    positions, every, both = _targets(raw, folded, listed, titles or [], answers or [])
    if not (positions or every or both or asks or pattern["topics"].search(folded)):
        return None
    return Question(asks or frozenset({"describe"}), positions, every, both, by_date)


def _targets(
    raw: str, folded: str, listed: int, titles: list[str], answers: list[list[str]]
) -> tuple[tuple[int, ...], bool, bool]:
    """The places the message names, else whether it means all the list, else two, else
    the one gift whose title it names."""
    pattern = _patterns()
    positions = _positions(folded, listed, _title_words(titles))
    if positions:
        return positions, False, False
    if pattern["all_items"].search(folded):
        return (), True, False
    if pattern["both_items"].search(folded):
        return (), False, True
    return _by_title(_blank_asking(raw, folded), titles, answers), False, False


def _asks(folded: str) -> bool:
    """Whether the message has a question's form and asks for nothing to be done."""
    pattern = _patterns()
    if pattern["choosing"].search(folded) or pattern["changes"].search(folded):
        return False
    telling = pattern["telling"].search(folded) is not None
    if pattern["requests"].search(folded) and not telling:
        return False
    clauses = [c.strip() for c in _CLAUSE.split(folded) if c.strip()]
    opened = any(pattern["opener"].match(c) for c in clauses)
    asked = folded.rstrip().endswith("?") and (
        pattern["wh_words"].search(folded)
        or pattern["verbs"].search(folded)
        or any(pattern["auxiliary"].match(c) for c in clauses)
    )
    return bool(telling or opened or asked or pattern["inversions"].search(folded))


def _positions(folded: str, listed: int, named: frozenset[str]) -> tuple[int, ...]:
    """The places in the list the message names, in the order said: numbers, ordinals, and
    a few at one end ("the first two", "les 3 derniers"). ``named``: the titles' words."""
    found: list[tuple[int, int]] = []
    for end, sign in (("first_few", 1), ("last_few", -1)):
        for m in _patterns()[end].finditer(folded):
            said = m["a"] or m["b"]
            n = intents.COUNTS[said]
            few = range(1, n + 1) if sign > 0 else range(listed - n + 1, listed + 1)
            found += [(m.start(), p) for p in few]
            folded = blank(folded, [m.span()])
    found += _numbers(folded) + _ordinals(folded, listed, named)
    places = [p for _, p in sorted(found) if 1 <= p <= listed]
    return tuple(dict.fromkeys(places))


def _numbers(folded: str) -> list[tuple[int, int]]:
    """Numbers that point into the list: not an amount, an age, a size or a day."""
    found = []
    for m in _NUMBER.finditer(folded):
        before = _WORD.findall(folded[max(0, m.start() - 24) : m.start()])
        after = _WORD.findall(folded[m.end() : m.end() + 16])
        if _counts_something(before, after, folded[m.end() : m.end() + 2]):
            continue
        found.append((m.start(), int(m[1])))
    return found


def _counts_something(before: list[str], after: list[str], next_chars: str) -> bool:
    """Whether a number counts money, years, a size or names a day ("December 20", "le 20
    décembre", "before the 5th") rather than a place in the list."""
    if next_chars.strip()[:1] in ("€", "$", "£", "%"):
        return True
    if after and (after[0] in _UNITS or after[0] in MONTH_NAMES):
        return True
    if before and before[-1] in MONTH_NAMES:
        return True
    lead = [w for w in before if w not in _ARTICLES]
    return bool(lead) and lead[-1] in _DATE_CUES


_ARTICLES = union("function_words", "definite_articles")
_UNITS = union(_TOPIC, "units")
# Words before a day: "before the 20th", "avant le 20", "by the 5th".
_DATE_CUES = frozenset(
    c for c in union("deadline_cues", "before_a_date", "day_excluded", "day_only") if " " not in c
)


def _ordinals(folded: str, listed: int, named: frozenset[str]) -> list[tuple[int, int]]:
    """Ordinals that point into the list ("the first and the second", "le premier"), not
    ones that say when ("which one arrives first?") or qualify a noun of a title or another
    thing they count ("the first aid kit", "her first time")."""
    found = []
    lead, nouns = union(_TOPIC, "item_lead"), union(_TOPIC, "item_nouns")
    qualified = named | union("offline_choices", "counted_things")
    words = list(re.finditer(r"[a-z#°'-]+", folded))
    for i, word in enumerate(words):
        place = intents.ORDINALS.get(word[0])
        if place is None:
            continue
        before = words[i - 1][0] if i else ""
        after = words[i + 1][0] if i + 1 < len(words) else ""
        if after in qualified and after not in nouns:
            continue
        if before in lead or after in nouns:
            found.append((word.start(), place if place > 0 else listed + 1 + place))
    return found


def _blank_asking(raw: str, folded: str) -> str:
    """The message with its asking words blanked, so that only the gift's own words are
    left to meet the titles ("how long does delivery take?" is not the "Long Trails" kit)."""
    kinds = (*ASPECTS, "topics", "telling", "wh_words", "requests", "leads")
    spans = [m.span() for kind in kinds for m in _patterns()[kind].finditer(folded)]
    # "are" is no slip of "Care": short words say too little
    spans += [m.span() for m in re.finditer(r"[^\W\d_]+", folded) if len(m[0]) < 4]
    return blank(raw, spans)


def _title_words(titles: list[str]) -> frozenset[str]:
    """The words of the titles that can follow an ordinal inside a title ("First Aid")."""
    common = union("offline_choices", "common") | union(_TOPIC, "item_lead")
    words = {w for t in titles for w in re.findall(r"[a-z]+", fold(t))}
    return frozenset(w for w in words if len(w) >= 3 and w not in common)


def _by_title(raw: str, titles: list[str], answers: list[list[str]]) -> tuple[int, ...]:
    """The one listed gift the message names by its title's words ("is the daypack
    waterproof?"), if exactly one."""
    if not titles:
        return ()
    shortlist = [
        intents.Candidate(t, tuple(a))
        for t, a in zip(titles, answers or [[]] * len(titles), strict=False)
    ]
    match = intents.title_match(raw, shortlist)
    return (match.best[0] + 1,) if match is not None and len(match.best) == 1 else ()


def gift_ids(question: Question, ids: list[str], meant: list[str]) -> list[str]:
    """The ids a question is about: the places it names; all the list; two; or the gifts
    meant before (``meant``: discussed last, or selected), else the whole list. A difference
    asked about one named gift is with the one meant before ("how is it different from the
    third?")."""
    if question.every:
        return list(ids)
    if question.both:
        return meant if len(meant) == 2 else ids[:2]
    named = [ids[p - 1] for p in question.positions if 1 <= p <= len(ids)]
    if "difference" in question.asks and len(named) < 2:
        # "how is it different from the third?"; "which is better for a beginner?"
        earlier = [i for i in meant if i not in named]
        return [*earlier[:1], *named] if named and earlier else named or _several(meant, ids)
    return named or meant or list(ids)


def _several(meant: list[str], ids: list[str]) -> list[str]:
    """The gifts a comparison is between: those meant before, if several, else all."""
    return meant if len(meant) > 1 else list(ids)


def points_at_one(folded: str) -> bool:
    """Whether a message without a number picks the gift just talked about: a choosing word
    ("I'll take it", "je le prends") or a pointing one ("that one then", "celui-là")."""
    pattern = _patterns()
    return bool(pattern["choosing"].search(folded) or pattern["pointing"].search(folded))


def meant_before(messages: list[dict[str, Any]], last_user: int, ids: list[str]) -> list[str]:
    """The gifts the conversation in view last pointed at, before this message: the last
    question's (the ids ``get_gift_details`` was called with) or the last pick's; the
    selected gift comes from the state when nothing in view says more."""
    meant: list[str] = []
    for message in messages[:last_user]:
        for call in message.get("tool_calls") or [] if message.get("role") == "assistant" else []:
            function = call.get("function") or {}
            name, args = function.get("name"), json_object(function.get("arguments"))
            if name == DETAILS_TOOL:
                meant = [str(i) for i in args.get("gift_ids") or []]
            elif name == "select_gift" and args.get("gift_id"):
                meant = [str(args["gift_id"])]
        if message.get("role") == "tool":
            selected = json_object(message_text(message)).get("selected")
            if isinstance(selected, dict) and selected.get("id"):
                meant = [str(selected["id"])]
    return [i for i in meant if i in ids]
