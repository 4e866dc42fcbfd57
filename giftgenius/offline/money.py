"""Budgets in free text: amounts, currencies, ranges and the words around them.

Works on folded text with digits (see ``numbers.words_to_digits``). A bare number is a
budget only with a currency or a budget word next to it, or as a correction of a budget
already known ("actually make it 70"): "she's 12" and "number 3" are not money.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from giftgenius.currency import BUDGET_CURRENCIES, currency_code, currency_pattern

_NUM = r"(\d+(?:[.,]\d{1,2})?)"
_PRE = f"({currency_pattern(before_the_amount=True, within=BUDGET_CURRENCIES)})"
_POST = f"({currency_pattern(within=BUDGET_CURRENCIES)})"
_AMOUNT = rf"(?:{_PRE}\s?{_NUM}|{_NUM}\s?{_POST}?)"

_RANGE = re.compile(
    rf"(?:between|entre|from|de)\s+{_AMOUNT}\s+(?:and|et|to|a)\s+{_AMOUNT}|{_AMOUNT}\s*(?:-|to)\s*{_AMOUNT}"
)
_AROUND = re.compile(
    rf"(?:around|about|approximately|approx\.?|roughly|environ|autour de|aux alentours de|"
    rf"dans les|~)\s*{_AMOUNT}"
)
_MIN = re.compile(rf"(?:at least|minimum|min\.?|au moins|more than|plus de)\s*{_AMOUNT}")
_MAX = re.compile(
    rf"(?:(?:budget\s+)?max(?:imum)?\.?|maxi|up to|upto|jusqu'?\s?a|under|below|less than|"
    rf"no more than|not more than|at most|moins de|au plus|au maximum|pas plus de|"
    rf"ne pas depasser|plafond(?: de)?|budget(?:\s+(?:de|of|is|est|d'environ))?|"
    rf"(?:a\s+)?(?:bigger|higher|larger|smaller|lower|new|plus gros|plus grand|nouveau)\s+"
    rf"budget(?:\s+(?:de|of))?|spend|depenser|mettre|make it|change it to|raise it to|"
    rf"monte a|passe a)\s*:?\s*{_AMOUNT}"
)
_POSTFIX_MAX = re.compile(rf"{_AMOUNT}\s*(?:max(?:imum)?|maxi|tops|at most|au plus|au maximum)\b")
_CORRECTION = re.compile(
    rf"(?:actually|finalement|plutot|instead|say|disons|rather|en fait|oh and|ok|okay)\s*,?\s*"
    rf"{_AMOUNT}"
)
_BARE = re.compile(_AMOUNT)


@dataclass(frozen=True)
class BudgetFact:
    amount: float
    currency: str | None
    min_amount: float | None = None


def _currency(symbol: str | None, dollar: str) -> str | None:
    if not symbol:
        return None
    return currency_code(symbol, dollar=dollar, within=BUDGET_CURRENCIES)


def _amount(groups: tuple[str | None, ...], dollar: str) -> tuple[float, str | None]:
    """(value, currency) from the four groups of one ``_AMOUNT``."""
    pre, num_pre, num_post, post = groups
    number = num_pre or num_post or "0"
    return float(number.replace(",", ".")), _currency(pre or post, dollar)


def _fact(kind: str, m: re.Match[str], dollar: str) -> tuple[float, str | None, float | None, bool]:
    """(max, currency, min, has_currency_or_keyword) for one match of a pattern."""
    groups = m.groups()
    if kind == "range":
        first = groups[:4] if any(groups[:4]) else groups[8:12]
        second = groups[4:8] if any(groups[:4]) else groups[12:16]
        low, cur_low = _amount(first, dollar)
        high, cur_high = _amount(second, dollar)
        low, high = min(low, high), max(low, high)
        return high, cur_high or cur_low, low, True
    value, currency = _amount(groups[:4], dollar)
    if kind == "around":
        return round(value * 1.1, 2), currency, None, True
    if kind == "min":
        return value, currency, value, True
    return value, currency, None, kind in ("max", "postfix") or currency is not None


def extract_budget(
    text: str, *, dollar: str = "USD", has_budget: bool = False
) -> tuple[BudgetFact | None, list[tuple[int, int]]]:
    """The budget the text states (the last one wins: corrections come after) and its spans.

    ``has_budget``: a budget is already known, so "actually 70" corrects it.
    """
    found: list[tuple[int, int, BudgetFact]] = []
    spans: list[tuple[int, int]] = []
    patterns = [
        ("range", _RANGE),
        ("around", _AROUND),
        ("min", _MIN),
        ("max", _MAX),
        ("postfix", _POSTFIX_MAX),
        ("correction", _CORRECTION),
        ("bare", _BARE),
    ]
    for kind, pattern in patterns:
        for m in pattern.finditer(text):
            if any(m.start() < end and start < m.end() for start, end in spans):
                continue
            high, currency, low, qualified = _fact(kind, m, dollar)
            if kind == "correction" and not (has_budget or currency):
                continue
            if kind == "bare" and not qualified:
                continue
            if high <= 0:
                continue
            if kind == "min":
                found.append((m.start(), m.end(), BudgetFact(0, currency, low)))
            else:
                found.append((m.start(), m.end(), BudgetFact(high, currency, low)))
            spans.append((m.start(), m.end()))
    if not found:
        return None, []
    found.sort(key=lambda item: item[0])
    minimum = next((f.min_amount for _, _, f in reversed(found) if f.min_amount), None)
    maxima = [f for _, _, f in found if f.amount > 0]
    if not maxima:
        return None, []
    last = maxima[-1]
    currency = last.currency or next((f.currency for _, _, f in found if f.currency), None)
    if minimum is not None and minimum >= last.amount:
        minimum = None
    return BudgetFact(last.amount, currency, minimum), spans
