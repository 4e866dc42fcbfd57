"""Delivery deadlines in English and French, relative to the state block's ``today``.

Works on folded text (lowercase, no accents, digits for numbers); returns the date and the
span it came from, so the span can be taken out before other facts are read.
"""

from __future__ import annotations

import calendar
import datetime as dt
import re

MONTHS = {
    "january": 1, "jan": 1, "janvier": 1, "janv": 1,
    "february": 2, "feb": 2, "fevrier": 2, "fev": 2,
    "march": 3, "mar": 3, "mars": 3,
    "april": 4, "apr": 4, "avril": 4, "avr": 4,
    "may": 5, "mai": 5,
    "june": 6, "jun": 6, "juin": 6,
    "july": 7, "jul": 7, "juillet": 7, "juil": 7,
    "august": 8, "aug": 8, "aout": 8,
    "september": 9, "sept": 9, "sep": 9, "septembre": 9,
    "october": 10, "oct": 10, "octobre": 10,
    "november": 11, "nov": 11, "novembre": 11,
    "december": 12, "dec": 12, "decembre": 12,
}  # fmt: skip
WEEKDAYS = {
    "monday": 0, "lundi": 0, "tuesday": 1, "mardi": 1, "wednesday": 2, "mercredi": 2,
    "thursday": 3, "jeudi": 3, "friday": 4, "vendredi": 4, "saturday": 5, "samedi": 5,
    "sunday": 6, "dimanche": 6,
}  # fmt: skip
HOLIDAYS = {
    "christmas": (12, 24), "xmas": (12, 24), "noel": (12, 24),
    "valentine's day": (2, 14), "valentines day": (2, 14), "valentine": (2, 14),
    "saint-valentin": (2, 14), "saint valentin": (2, 14), "st valentin": (2, 14),
    "halloween": (10, 31),
}  # fmt: skip

_MONTH = "|".join(sorted(MONTHS, key=len, reverse=True))
_DAY = r"(\d{1,2}|premier|first)(?:st|nd|rd|th|er|eme|e)?"
_LEAD = (
    r"(?:(?:by|before|until|till|for|on|the|avant|pour|le|d'ici|d'ici au|au plus tard|"
    r"jusqu'au)\s+)*"
)

_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("iso", re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")),
    ("day_month", re.compile(rf"{_LEAD}\b{_DAY}\s+(?:of\s+)?({_MONTH})\.?\b(?:\s+(\d{{4}}))?")),
    ("month_day", re.compile(rf"{_LEAD}\b({_MONTH})\.?\s+{_DAY}\b(?:,?\s+(\d{{4}}))?")),
    ("slash", re.compile(rf"{_LEAD}\b(\d{{1,2}})/(\d{{1,2}})(?:/(\d{{2,4}}))?\b")),
    (
        "in_days",
        re.compile(
            r"\b(?:in|within|dans|d'ici|sous|under)\s+(\d{1,3}|a|an|one|une|un)\s+"
            r"(days?|jours?|weeks?|semaines?)\b"
        ),
    ),
    ("tomorrow", re.compile(r"\b(?:the\s+)?day\s+after\s+tomorrow\b|\bapres-?\s?demain\b")),
    ("tomorrow1", re.compile(rf"{_LEAD}\b(?:tomorrow|demain)\b")),
    (
        "weekday",
        re.compile(
            rf"{_LEAD}\b(?:next|this|coming)?\s*({'|'.join(WEEKDAYS)})\b(?:\s+(?:prochain|next))?"
        ),
    ),
    ("holiday", re.compile(rf"{_LEAD}\b({'|'.join(sorted(HOLIDAYS, key=len, reverse=True))})\b")),
    ("month_end", re.compile(
        r"\b(?:(?:by|before|avant)\s+)?(?:the\s+)?(?:end of (?:the )?month|(?:la )?fin du mois)\b"
    )),
]  # fmt: skip


def _roll(today: dt.date, month: int, day: int, year: int | None = None) -> dt.date | None:
    """The date, in the year given or the next occurrence that is not in the past."""
    try:
        if year is not None:
            return dt.date(year if year > 99 else 2000 + year, month, day)
        candidate = dt.date(today.year, month, day)
    except ValueError:
        return None
    return candidate if candidate >= today else candidate.replace(year=today.year + 1)


def _day(text: str) -> int:
    return int(text) if text.isdigit() else 1  # "premier", "first"


def _resolve(kind: str, m: re.Match[str], today: dt.date) -> dt.date | None:
    if kind == "iso":
        try:
            return dt.date(int(m[1]), int(m[2]), int(m[3]))
        except ValueError:
            return None
    if kind == "day_month":
        return _roll(today, MONTHS[m[2]], _day(m[1]), int(m[3]) if m[3] else None)
    if kind == "month_day":
        return _roll(today, MONTHS[m[1]], _day(m[2]), int(m[3]) if m[3] else None)
    if kind == "slash":
        first, second = int(m[1]), int(m[2])
        day, month = (second, first) if second > 12 >= first else (first, second)
        return _roll(today, month, day, int(m[3]) if m[3] else None)
    if kind == "in_days":
        count = int(m[1]) if m[1].isdigit() else 1
        unit = 7 if m[2].startswith(("week", "semaine")) else 1
        return today + dt.timedelta(days=count * unit)
    if kind == "tomorrow":
        return today + dt.timedelta(days=2)
    if kind == "tomorrow1":
        return today + dt.timedelta(days=1)
    if kind == "weekday":
        ahead = (WEEKDAYS[m[1]] - today.weekday() - 1) % 7 + 1
        return today + dt.timedelta(days=ahead)
    if kind == "holiday":
        month, day = HOLIDAYS[m[1]]
        return _roll(today, month, day)
    if kind == "month_end":
        last = calendar.monthrange(today.year, today.month)[1]
        return today.replace(day=last)
    return None


def extract_deadline(text: str, today: dt.date) -> tuple[dt.date | None, tuple[int, int] | None]:
    """The last deadline the text states (a correction comes after), and its span."""
    found: list[tuple[int, int, dt.date]] = []
    taken: list[tuple[int, int]] = []
    for kind, pattern in _PATTERNS:
        for m in pattern.finditer(text):
            if any(m.start() < end and start < m.end() for start, end in taken):
                continue
            when = _resolve(kind, m, today)
            if when is not None:
                found.append((m.start(), m.end(), when))
                taken.append((m.start(), m.end()))
    if not found:
        return None, None
    start, end, when = max(found)
    return when, (start, end)
