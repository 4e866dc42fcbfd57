"""Numbers, prices, dates, country names, lists and plurals written for the person's locale.

Every sentence shown to a person (the offline model's replies, the terminal's table and
recaps) formats through here, so French reads "49,90 €" and "24 décembre 2026" and English
"€49.90" and "December 24, 2026" wherever they appear. babel holds the CLDR rules
(separators, symbol placement, plural categories, list conjunctions); it is imported on
first use, so commands that print nothing for people do not pay for it.

babel writes no-break spaces where a line must not break ("49,90\\xa0€"); they are kept.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

# The CLDR locale each conversation language is written in.
_CLDR = {"en": "en", "fr": "fr_FR"}


def cldr(locale: str) -> str:
    """The babel locale for a conversation language (English when unknown)."""
    return _CLDR.get(locale, "en")


@lru_cache(maxsize=8)
def _babel_locale(locale: str) -> Any:
    from babel import Locale as BabelLocale

    return BabelLocale.parse(cldr(locale))


def money(amount: float, currency: str, locale: str) -> str:
    """A price: "49,90 €" / "€49.90"; whole amounts without cents ("50 €", "$50")."""
    from babel.numbers import format_currency

    if not currency:
        return number(amount, locale)
    if not math.isfinite(amount) or abs(amount) >= 1e15:  # beyond babel's decimal precision
        return f"{amount:g} {currency}"
    if round(amount, 2) == int(amount):
        pattern = _babel_locale(locale).currency_formats["standard"].pattern
        whole = pattern.split(";")[0].replace(".00", "")
        return format_currency(
            amount, currency, format=whole, locale=cldr(locale), currency_digits=False
        )
    return format_currency(amount, currency, locale=cldr(locale))


def number(value: float, locale: str, places: int | None = None) -> str:
    """A plain number with the locale's separators ("1 234,5" / "1,234.5"); with ``places``,
    exactly that many decimals ("1.67", "97,5")."""
    from babel.numbers import format_decimal

    pattern = None if places is None else "#,##0" + ("." + "0" * places if places else "")
    return format_decimal(value, format=pattern, locale=cldr(locale), decimal_quantization=True)


def date(value: dt.date | str, locale: str) -> str:
    """A calendar date in words: "24 décembre 2026" / "December 24, 2026" ("1er mai")."""
    from babel.dates import format_date

    day = dt.date.fromisoformat(value) if isinstance(value, str) else value
    text = format_date(day, format="long", locale=cldr(locale))
    if locale == "fr" and day.day == 1:
        text = "1er" + text[1:]  # French writes the first of the month as an ordinal
    return text


def country(code: str, locale: str) -> str:
    """A country's name in the person's language ("FR" → "France"; unknown codes as given)."""
    return str(_babel_locale(locale).territories.get(code.upper(), code.upper()))


def join(items: Sequence[str], locale: str, *, either: bool = False) -> str:
    """ "a, b and c" / "a, b et c" (CLDR's list pattern for the language); ``either`` for the
    choices offered: "a, b or c" / "a, b ou c"."""
    from babel.lists import format_list

    if not items:
        return ""
    if either:
        return format_list(list(items), style="or", locale=cldr(locale))
    return format_list(list(items), style="standard", locale=cldr(locale))


def plural(n: int, locale: str, one: str, other: str) -> str:
    """``one`` or ``other`` as the language's plural rule says for ``n``, with ``{n}`` filled.

    French counts 0 and 1 as singular ("0 idée", "1 idée"), English only 1.
    """
    form = _babel_locale(locale).plural_form(n)
    return (one if form == "one" else other).format(n=number(n, locale))


def month(value: dt.date | str, locale: str) -> str:
    """A month of a year in words: "December 2026" / "décembre 2026" (when a gift was given)."""
    from babel.dates import format_skeleton

    day = dt.date.fromisoformat(value) if isinstance(value, str) else value
    return str(format_skeleton("yMMMM", day, locale=cldr(locale)))


def preload() -> None:
    """Load babel and both languages' CLDR data now, for a process that forks commands
    (each command that formats would otherwise import and load them itself)."""
    for locale in ("en", "fr"):
        join(["a", "b"], locale)
        join(["a", "b"], locale, either=True)
        money(12.5, "EUR", locale)
        date(dt.date(2026, 12, 1), locale)
        month(dt.date(2026, 12, 1), locale)
        country("FR", locale)
        plural(2, locale, "{n}", "{n}")
