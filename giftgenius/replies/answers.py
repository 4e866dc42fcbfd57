"""Answers to questions about the listed gifts, from ``get_gift_details``' result (section
``answers`` of the message catalogue).

A question about the list changes nothing, so its answer is all the reply holds: what each
gift asked about is (its description), its price in the budget's currency, the day it
arrives and whether that is in time, what it matches, its ages — only the parts asked for
("will it arrive before the 20th?" is answered yes or no with the date) — and, for several,
which is the cheapest and which arrives first. The tool did the arithmetic; this only says it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from giftgenius import formats
from giftgenius import messages as catalogue
from giftgenius.replies import phrasing


def _say(key: str, locale: str, **values: Any) -> str:
    return catalogue.say("answers", key, locale, **values)


def _count(key: str, n: int, locale: str, **values: Any) -> str:
    return catalogue.count("answers", key, locale, n, **values)


def answer(result: dict[str, Any], asks: Iterable[str], locale: str) -> str:
    """The answer to a question asking ``asks`` ("describe", "arrival", "price",
    "difference", "ages") about the gifts of a ``get_gift_details`` result."""
    wanted = set(asks)
    gifts = [g for g in result.get("gifts") or [] if isinstance(g, dict)]
    budget = ((result.get("state") or {}).get("profile") or {}).get("budget") or {}
    currency = budget.get("currency")
    by = _By(result.get("by_date"), result.get("deadline"))
    # "what's the difference?" is answered whole; "which one arrives first?" by arrivals
    narrow = wanted & {"arrival", "price", "ages"}
    whole = "describe" in wanted or not narrow
    parts = [
        _whole(g, by, currency, locale) if whole else _narrow(g, wanted, by, currency, locale)
        for g in gifts
    ]
    if len(gifts) > 1:
        parts.append(_compared(result, gifts, wanted if not whole else set(), locale))
    return "\n\n".join(p for p in parts if p)


@dataclass(frozen=True)
class _By:
    """The day arrivals are measured against: one asked about, else the deadline."""

    asked: str | None
    deadline: str | None


def _name(gift: dict[str, Any], locale: str) -> str:
    title = str(gift.get("title", ""))
    if gift.get("number"):
        return _say("name", locale, i=gift["number"], title=title)
    return _say("name.unlisted", locale, title=title)


def _price(gift: dict[str, Any], currency: str | None, locale: str) -> str:
    return phrasing.price(
        gift.get("price", 0),
        str(gift.get("currency", "")),
        locale,
        converted=gift.get("price_in_budget_currency"),
        budget_currency=currency,
    )


def _whole(gift: dict[str, Any], by: _By, currency: str | None, locale: str) -> str:
    """Everything about one gift: what it is, price, arrival, what it matches, ages."""
    sentences = [
        _say("about", locale, name=_name(gift, locale), description=gift.get("description", "")),
        _say("price", locale, price=_price(gift, currency, locale)),
        _arrival(gift, by, locale, short=True),
    ]
    interests = [str(a) for a in gift.get("answers") or []]
    if interests:
        sentences.append(_say("matches", locale, interests=phrasing.tags(interests, locale)))
    return " ".join(sentences)


def _narrow(
    gift: dict[str, Any], wanted: set[str], by: _By, currency: str | None, locale: str
) -> str:
    """Only what was asked about one gift: its arrival, its price, its ages."""
    name = _name(gift, locale)
    sentences = []
    if "arrival" in wanted:
        sentences.append(_arrival(gift, by, locale, short=False))
    if "price" in wanted:
        sentences.append(
            _say("price.only", locale, name=name, price=_price(gift, currency, locale))
        )
    if "ages" in wanted:
        sentences.append(_ages(gift, name, locale))
    return " ".join(sentences)


def _arrival(gift: dict[str, Any], by: _By, locale: str, *, short: bool) -> str:
    """The day it arrives: yes or no to a date asked about, in time or not for the
    deadline, or only the day."""
    date = formats.date(str(gift.get("arrives_on")), locale)
    name = _name(gift, locale)
    asked, deadline = gift.get("in_time_for_date"), gift.get("in_time_for_deadline")
    if by.asked and asked is not None:
        key = ("in_time" if asked else "too_late") + (".short" if short else "")
        return _say(key, locale, name=name, date=date, by=formats.date(by.asked, locale))
    if by.deadline and deadline is not None:
        key = ("in_time" if deadline else "too_late") + (".short" if short else ".deadline")
        return _say(key, locale, name=name, date=date, by=formats.date(by.deadline, locale))
    days = phrasing.delivery_days(int(gift.get("delivery_days", 0)), locale)
    return _say("arrives.short" if short else "arrives", locale, name=name, date=date, days=days)


def _ages(gift: dict[str, Any], name: str, locale: str) -> str:
    low, high = gift.get("min_age"), gift.get("max_age")
    if low is not None and high is not None:
        return _say("ages.range", locale, name=name, min=low, max=high)
    if low is not None:
        return _say("ages.from", locale, name=name, min=low)
    if high is not None:
        return _say("ages.upto", locale, name=name, max=high)
    return _say("ages.any", locale, name=name)


def _compared(
    result: dict[str, Any], gifts: list[dict[str, Any]], wanted: set[str], locale: str
) -> str:
    """Which is the cheapest and which arrives first, when several were asked about (only
    the one of the two asked, when the question asked about one: ``wanted``)."""
    sentences = []
    if "price" in wanted or not wanted:
        sentences.append(_lowest(result.get("cheapest"), len(gifts), "cheapest", locale))
    if "arrival" in wanted or not wanted:
        sentences.append(_lowest(result.get("soonest"), len(gifts), "soonest", locale))
    return " ".join(s for s in sentences if s)


def _lowest(numbers: Any, asked: int, key: str, locale: str) -> str:
    said = [str(n) for n in numbers or [] if n]
    if not said:
        return ""
    if len(said) == asked:
        return _say("same_price" if key == "cheapest" else "same_day", locale)
    return _count(key, len(said), locale, numbers=formats.join(said, locale))


def then(selected_title: str | None, locale: str) -> str:
    """What the person can do after the answer: pick one, confirm the one picked, ask more."""
    if selected_title:
        return _say("then.selected", locale, title=selected_title)
    return _say("then", locale)
