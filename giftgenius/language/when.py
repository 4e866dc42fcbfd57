"""When the gift must arrive: a deadline read with dateparser, and words that mean "not now".

A date is a deadline only when a deadline cue introduces it — "by Friday", "before the
12th" (the 11th: "before" and "avant" leave the day out), "within a week", "it has to
arrive Monday", "avant le 20 décembre", "d'ici vendredi", "pour le 15", "pour Noël".
Without one a date is something else: "je reviens demain" and "I'll be back tomorrow" say
when the person returns, not when the gift is due,
and a clause that says the person is leaving ("I'll think about it", "on verra ça demain")
never sets a deadline, whatever it holds.

dateparser reads the date itself, in the conversation's language first, relative to
``today`` and preferring the future; text2num first turns number words into digits ("le
vingt décembre"). What dateparser does not know is written here: holidays (Christmas counts
as the 24th, so the gift is there for the evening or the morning), "the end of the month",
"the weekend". A date before ``today`` is no deadline and gives None. dateparser reads its
language data from its own package: nothing is downloaded at run time (the tests run with
the network blocked).
"""

from __future__ import annotations

import calendar
import datetime as dt
import re
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from giftgenius.domain import Locale
from giftgenius.language.folding import alternation, fold
from giftgenius.language.lexicon import LANGUAGES, LexiconError, table, union, words

# How a digit is written as an ordinal ("2nd", "le 3e", "15ème"): a day here, a place in a
# list for the offline reader.
ORDINAL_SUFFIX = alternation(union("number_kinds", "ordinal_suffixes"))


def _cue_words(kind: str) -> frozenset[str]:
    """Deadline cues of one kind, in both languages (``lexicons/<lang>/deadline_cues.toml``)."""
    return union("deadline_cues", kind)


# "for"/"pour" only introduce a day, never a duration ("for 2 weeks").
_DAY_ONLY_CUES = _cue_words("day_only")
# Cues that leave the day itself out: "before Friday", "avant le 20" (but "by Friday",
# "d'ici vendredi", "pour le 20" and "until Friday" include it).
_DAY_EXCLUDED_CUES = _cue_words("day_excluded")
# Cues, on folded text: said before the date, or a word of obligation and an arrival ("has
# to arrive"); "dans" and "courant" only before "la semaine". Longest first, so "due by
# Friday" is read past "by".
_CUE = re.compile(
    r"(?<![\w'])(?:"
    + alternation(_cue_words("before_a_date") | _DAY_ONLY_CUES | _DAY_EXCLUDED_CUES)
    + rf"|{alternation(_cue_words('obliged'))} {alternation(_cue_words('arrival'))}"
    + r"|dans(?= la semaine)|courant(?= de la semaine| semaine)"
    + r")(?![\w'])"
)
_STRICT = re.compile(rf"(?<![\w'])(?:{alternation(_DAY_EXCLUDED_CUES)})$")
# ...unless what follows is a stretch of days whose last day is meant: "before the end of
# the month", "avant la fin du mois".
_PERIOD = re.compile(r"\s*(?:the |la |le )?(?:end|fin)\b")
# Cues that follow the date: "Friday at the latest", "vendredi au plus tard".
_TRAILING_CUE = re.compile(rf"(?<![\w'])(?:{alternation(_cue_words('after_a_date'))})\W*$")

# Leaving, on folded text: "I'll think about it", "je reviens demain" (the phrases of
# ``lexicons/<lang>/leaving_cues.toml``), "back on Monday", "plus tard" but not "au plus tard".
_LEAVING = re.compile(
    r"(?<![\w'])(?:"
    + alternation(union("leaving_cues", "phrases"))
    + r"|back on \w+day|(?<!au )plus tard)(?![\w'])"
)

# Clauses: sentences, comma-separated parts (not "December 20, 2027", not ", at the latest").
_CLAUSE = re.compile(
    r"[.;!?]+|,\s+(?=[^\W\d])(?!at the latest|au plus tard|dernier d)|"
    r"\s+(?:but|mais|though|cependant)\s+"
)
# "within 3 days", "a week", "dans les 10 jours"; "within the week", "dans la semaine",
# "courant de la semaine": a week from today (the article counts one).
_DURATION = re.compile(
    r"^(?:the next |les? |de )?(\d+|a|an|one|une?|the|la)\s+(day|week|jour|semaine)s?\b"
)
# The weekdays of both languages, Monday first in each (``index % 7`` is Python's weekday).
_WEEKDAYS = "|".join(w for lang in LANGUAGES for w in words("calendar", "weekdays", lang))
# "next Friday", "vendredi prochain": dateparser, preferring the future, reads the bare weekday
# as the coming one, which is what people mean; "next week" stays as it is.
_NEXT = re.compile(
    rf"\b(?:(?:next|this|coming)\s+({_WEEKDAYS})|({_WEEKDAYS})\s+(?:prochain|qui vient))\b",
    re.IGNORECASE,
)
# "Friday next week", "vendredi de la semaine prochaine": that weekday in the coming week.
_WEEKDAY_NEXT_WEEK = re.compile(
    rf"^({_WEEKDAYS}) (?:of )?(?:next week|de la semaine prochaine|la semaine prochaine)\b"
)
_FEW = re.compile(r"^(?:(?:a )?couple (?:of )?|a few |quelques )")


def _month_words() -> dict[str, int]:
    """Each folded word of a month (its short forms, then its name; English, then French)
    → the month's number, from the calendar lexicons."""
    numbers: dict[str, int] = {}
    for n in range(1, 13):
        for lang in LANGUAGES:
            name = words("calendar", "months", lang)[n - 1]
            short = [
                w for w in words("calendar", "month_abbreviations", lang) if name.startswith(w)
            ]
            numbers.update(dict.fromkeys([*short, name], n))
    stray = union("calendar", "month_abbreviations") - set(numbers)
    if stray:
        raise LexiconError(f"lexicons/*/calendar.toml: {sorted(stray)} start no month's name.")
    return numbers


# Each word of a month, and the month's number.
_MONTH_NUMBER = _month_words()
# The months' whole names: a month said after "in" is no town, and most are nobody's name.
MONTH_NAMES = union("calendar", "months")
_MONTH_WORDS = "|".join(_MONTH_NUMBER)
# What a date dateparser may read holds: a month, a weekday, a relative day or unit word…
_DATE_WORD = re.compile(
    rf"(?<!\w)(?:{_MONTH_WORDS}|{_WEEKDAYS}|{alternation(union('calendar', 'date_words'))})(?!\w)"
)
# …or numbers written as a date: "12/20", "2026-12-20", "20.12".
_NUMERIC_DATE = re.compile(r"\d[/.\-]\d")
_MAX_DATE_WORDS = 6  # "the 24th of December 2026" is five
# "the 12th", "le 15": a day of this month, or of the next once this one's has passed.
_DAY_OF_MONTH = re.compile(
    rf"^(?P<article>(?:on )?(?:the|le) )?(?P<day>\d{{1,2}})(?P<suffix>{ORDINAL_SUFFIX})?"
    rf"(?!\s*(?:[/.\-]\d|(?:of\s+)?(?:{_MONTH_WORDS})\b|(?:day|week|month|jour|semaine|mois)))\b"
)
_FILLER = re.compile(r"^(?:(?:on|the|le|la|l'|this|that|at the latest|au plus tard)\s+)*")


def _nth_weekday(year: int, month: int, weekday: int, n: int) -> dt.date:
    """The n-th given weekday of a month; n = -1 is the last."""
    days = [
        dt.date(year, month, d)
        for d in range(1, calendar.monthrange(year, month)[1] + 1)
        if dt.date(year, month, d).weekday() == weekday
    ]
    return days[n if n < 0 else n - 1]


def _easter(year: int) -> dt.date:
    from dateutil.easter import easter

    return easter(year)


def _fete_des_meres(year: int) -> dt.date:
    """Last Sunday of May, or the first of June when that Sunday is Pentecost."""
    last = _nth_weekday(year, 5, 6, -1)
    return last + dt.timedelta(days=7) if last == _easter(year) + dt.timedelta(days=49) else last


# When each holiday of ``lexicons/<lang>/holidays.toml`` falls in a year, for a conversation
# in a language: only Mother's Day differs, and its French name always means the French date.
_HOLIDAY_RULES: dict[str, Callable[[int, Locale], dt.date]] = {
    "christmas": lambda y, _: dt.date(y, 12, 24),
    "new_years_eve": lambda y, _: dt.date(y, 12, 31),
    "valentines_day": lambda y, _: dt.date(y, 2, 14),
    "halloween": lambda y, _: dt.date(y, 10, 31),
    "saint_nicholas": lambda y, _: dt.date(y, 12, 6),
    "easter": lambda y, _: _easter(y),
    "thanksgiving": lambda y, _: _nth_weekday(y, 11, 3, 4),
    "mothers_day": lambda y, locale: (
        _fete_des_meres(y) if locale == "fr" else _nth_weekday(y, 5, 6, 2)
    ),
    "fathers_day": lambda y, _: _nth_weekday(y, 6, 6, 3),
}


def _holidays() -> dict[str, tuple[str, Locale | None]]:
    """Each holiday's name → its rule, and the language it always speaks (a French name
    gives the French date whatever the conversation's language; an English one follows it)."""
    names: dict[str, tuple[str, Locale | None]] = {}
    for lang in LANGUAGES:
        for kind, said in table("holidays", lang).items():
            if kind not in _HOLIDAY_RULES:
                raise LexiconError(f"lexicons/{lang}/holidays.toml: no date rule for {kind!r}.")
            names.update(dict.fromkeys(said, (kind, "fr" if lang == "fr" else None)))
    return names


_HOLIDAYS = _holidays()
_HOLIDAY = re.compile(
    r"^(?:(?:the|le|la)\s+)?("
    + "|".join(re.escape(h) for h in sorted(_HOLIDAYS, key=len, reverse=True))
    + r")(?![\w])"
)
_PERIOD_END = re.compile(
    r"^(?:the |la |le )?(?:(end of (?:the |this |next )?month|fin (?:du|de ce) mois(?: prochain)?)|"
    r"(end of (?:the |this |next )?week|fin de (?:la|cette) semaine(?: prochaine)?)|"
    r"((?:this |the |next |ce |le )?week-?end(?: prochain)?))\b"
)


def _fold_in_place(text: str) -> str:
    """Folded text of the same length, so a match's offsets index the original too."""
    text = text.replace("’", "'")
    if text.isascii():
        return fold(text)  # ASCII folds character for character
    return "".join(map(_first_of_fold, text))


@lru_cache(maxsize=4096)
def _first_of_fold(ch: str) -> str:
    """One character for ``ch``: the first of its fold ("œ" → "o"), itself if it folds away."""
    return (fold(ch) or ch)[0]


@lru_cache(maxsize=1)
def _dateparser() -> Any:
    """dateparser, imported on first use (about 0.2 s, plus its language data per language)."""
    import dateparser

    return dateparser


def _settings(today: dt.date, locale: Locale) -> dict[str, Any]:
    return {
        "RELATIVE_BASE": dt.datetime.combine(today, dt.time()),
        "PREFER_DATES_FROM": "future",
        "PREFER_DAY_OF_MONTH": "first",
        "DATE_ORDER": "DMY" if locale == "fr" else "MDY",
        "RETURN_AS_TIMEZONE_AWARE": False,
    }


def _roll(today: dt.date, make: Callable[[int], dt.date]) -> dt.date:
    """This year's date, or next year's when this year's has passed."""
    this_year = make(today.year)
    return this_year if this_year >= today else make(today.year + 1)


def _special(rest: str, today: dt.date, locale: Locale) -> dt.date | None:
    """Holidays and period ends, which dateparser does not know."""
    holiday = _HOLIDAY.match(rest)
    if holiday is not None:
        kind, spoken = _HOLIDAYS[holiday[1]]
        return _roll(today, lambda year: _HOLIDAY_RULES[kind](year, spoken or locale))
    next_week = _WEEKDAY_NEXT_WEEK.match(rest)
    if next_week is not None:
        index = _WEEKDAYS.split("|").index(next_week[1]) % 7
        return today + dt.timedelta(days=7 - today.weekday() + index)
    period = _PERIOD_END.match(rest)
    if period is None:
        return None
    following = "next" in period[0] or "prochain" in period[0]
    if period[1]:
        year, month = today.year, today.month
        if following:
            year, month = (year + 1, 1) if month == 12 else (year, month + 1)
        return dt.date(year, month, calendar.monthrange(year, month)[1])
    weekday = 4 if period[2] else 5  # end of the week: Friday; the weekend: Saturday
    ahead = (weekday - today.weekday()) % 7 + (7 if following else 0)
    return today + dt.timedelta(days=ahead)


def _date_after(cue: str, original: str, today: dt.date, locale: Locale) -> dt.date | None:
    """The date that starts the text following a cue, if one does."""
    from text_to_num import alpha2digit

    said = _FEW.sub(
        lambda m: "3 " if "few" in m[0] or "quelques" in m[0] else "2 ",
        fold(alpha2digit(original, locale, threshold=0)).strip(),
    )
    rest = _FILLER.sub("", said)
    special = _special(rest, today, locale)
    if special is not None:
        return special
    month = _MONTH_ALONE.match(rest)
    if month is not None:  # "for June" is as often a person; "by June" is a deadline
        if cue in _DAY_ONLY_CUES:
            return None
        return _month(month[1], today, start=cue.strip() in _DAY_EXCLUDED_CUES)
    day = _DAY_OF_MONTH.match(said)
    if day is not None and (day["article"] or day["suffix"]):  # "the 12th", "le 15"; not "2 people"
        return _day_of_month(today, int(day["day"]))
    duration = _DURATION.match(rest) or _DURATION.match(said)
    if duration is not None:
        if cue in _DAY_ONLY_CUES:
            return None
        count = int(duration[1]) if duration[1].isdigit() else 1
        unit = 7 if duration[2] in ("week", "semaine") else 1
        return today + dt.timedelta(days=count * unit)
    text = alpha2digit(_NEXT.sub(lambda m: m[1] or m[2], original.strip()), locale, threshold=0)
    return _parsed_prefix(text, today, locale)


# A month named alone ("by December", "in January", "en mars"): not a day of it.
_MONTH_ALONE = re.compile(
    rf"^(?:in |en |during |courant )?(?:the |le )?(?:month of |mois de |mois d')?"
    rf"({_MONTH_WORDS})(?![\w'])\.?(?![\w\s]*\d)"
)


def _month(word: str, today: dt.date, *, start: bool) -> dt.date:
    """A month said alone as a deadline: by its last day ("by December" said on December 1st
    is this December, not the next), or its first day after "before" (the caller takes the
    day before it). This year's, or next year's once it has passed."""
    number = _MONTH_NUMBER[word]
    year = today.year if number >= today.month else today.year + 1
    if start:
        return dt.date(year, number, 1)
    return dt.date(year, number, calendar.monthrange(year, number)[1])


def _date_before(original: str, today: dt.date, locale: Locale) -> dt.date | None:
    """The date that ends the text before a trailing cue ("vendredi au plus tard")."""
    words = original.split()
    for size in range(min(_MAX_DATE_WORDS, len(words)), 0, -1):
        when = _date_after("", " ".join(words[-size:]), today, locale)
        if when is not None:
            return when
    return None


def _parsed_prefix(text: str, today: dt.date, locale: Locale) -> dt.date | None:
    """The longest run of words, from the start of ``text``, that dateparser reads as a date.

    Only runs that look like a date are tried: dateparser alone would take "ma" (in "ma
    sœur") or "mon" (in "mon frère") for weekdays, and a bare "2" for a day.
    """
    parser = _dateparser()
    other: Locale = "en" if locale == "fr" else "fr"
    settings = _settings(today, locale)
    words = text.split()[:_MAX_DATE_WORDS]
    for size in range(len(words), 0, -1):
        prefix = " ".join(words[:size]).strip(",;:!?")
        if not (_DATE_WORD.search(fold(prefix)) or _NUMERIC_DATE.search(prefix)):
            continue
        when = parser.parse(prefix, languages=[locale, other], settings=settings)
        if when is not None:
            return when.date()
    return None


def _day_of_month(today: dt.date, day: int) -> dt.date | None:
    """The next ``day`` of a month, from today on (None for a day no month has)."""
    if not 1 <= day <= 31:
        return None
    year, month = today.year, today.month
    for _ in range(3):
        if day <= calendar.monthrange(year, month)[1] and dt.date(year, month, day) >= today:
            return dt.date(year, month, day)
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    return None


def parse_deadline(text: str, today: dt.date, locale: Locale = "en") -> dt.date | None:
    """The delivery deadline ``text`` states, or None when it states none.

    The last deadline wins (a correction comes after: "by Friday — no, by Thursday"), and a
    count of days said after it restates it ("by next Friday, that's 9 days"). A date
    with no deadline cue, a date inside a leaving clause and a date before ``today`` set
    nothing.
    """
    found: dt.date | None = None
    for clause in _CLAUSE.split(text):
        folded = _fold_in_place(clause)
        if not clause.strip() or _LEAVING.search(folded):
            continue
        restated = restated_deadline(clause, today, locale) if found is not None else None
        if restated is not None:
            found = restated
            continue
        for cue in _CUE.finditer(folded):
            after = folded[cue.end() :]
            when = _date_after(cue[0], clause[cue.end() :], today, locale)
            if when is not None and _STRICT.search(cue[0]) and not _PERIOD.match(after):
                when -= dt.timedelta(days=1)  # "before the 24th" is there on the 23rd
            if when is not None and when >= today:
                found = when
        trailing = _TRAILING_CUE.search(folded)
        if found is None and trailing is not None:
            when = _date_before(clause[: trailing.start()], today, locale)
            if when is not None and when >= today:
                found = when
    return found


# A count of days said as what the deadline amounts to, after the date itself: "d'ici
# vendredi prochain, ça fait neuf jours", "by next Friday, that's 9 days", "soit 10 jours".
# A weekday said with "next" is read differently by different people (the coming one, or
# the one of next week); the count the person adds says which, whatever today's weekday.
_RESTATED = re.compile(
    rf"^\s*(?:{alternation(union('deadline_cues', 'restating'))})\s+(?:dans\s+|in\s+)?"
    r"(\d{1,3})\s+(days?|jours?|weeks?|semaines?)\s*(?:from now|d'ici la)?\s*[.!]?\s*$"
)


def restated_deadline(text: str, today: dt.date, locale: Locale = "en") -> dt.date | None:
    """The deadline a clause restates as a count of days ("ça fait neuf jours"), or None.

    Only for a clause that is nothing but that count: "ça fait neuf jours que je cherche"
    (nine days I have been looking) restates nothing.
    """
    from text_to_num import alpha2digit

    said = fold(alpha2digit(text, locale, threshold=0))
    match = _RESTATED.match(said)
    if match is None:
        return None
    unit = 7 if match[2].startswith(("week", "semaine")) else 1
    return today + dt.timedelta(days=int(match[1]) * unit)


# A weekday; a month with its day ("December 18th", "20 déc."), since "May" and "June" alone
# are as often first names.
_DAY_NAME = re.compile(
    rf"^(?:(?:{_WEEKDAYS})(?![\w])|(?:{_MONTH_WORDS})\.?\s+(?:the\s+)?\d|"
    rf"\d{{1,2}}(?:{ORDINAL_SUFFIX})?\s+(?:of\s+)?(?:{_MONTH_WORDS})(?![\w]))"
)


def names_a_day(text: str) -> bool:
    """Whether ``text`` starts with a weekday, a month with its day or a holiday ("Friday",
    "December 18th", "Noël", "Valentine's Day"): capitalised, such a word is no one's name."""
    said = _fold_in_place(text.lower())
    return _DAY_NAME.match(said) is not None or _HOLIDAY.match(said) is not None


def is_leaving(text: str, locale: Locale = "en") -> bool:
    """True when the person is stepping away for now: "I'll think about it", "back
    tomorrow", "je reviens demain", "je réfléchis", "on verra ça demain".

    Both languages are read whatever ``locale`` says: people switch, and "bye" or "à plus"
    mean the same in either conversation. ``locale`` is taken like the other normalizers'.
    """
    return _LEAVING.search(_fold_in_place(text)) is not None


def leaving_from(text: str) -> int | None:
    """Where in ``text`` the person starts stepping away ("…, mais je reviendrai pour
    finaliser"), or None: what follows is put off, not said now."""
    found = _LEAVING.search(_fold_in_place(text))
    return None if found is None else found.start()
