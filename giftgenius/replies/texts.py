"""Replies put together from the message catalogue's sentences, in English and French
(markdown; ``giftgenius.messages``, section ``replies``).

The agent presents a conclusive tool outcome with them (``replies.outcomes``) and the
offline model writes every other reply with them, so both speak with one voice.

Written as a person would write them: prices, numbers and dates through ``formats`` (babel:
"49,90 €", "24 décembre 2026"), counts with the language's plural rule ("Here is 1 idea",
"Voici 2 idées"), the recipient named as the person named them ("for your uncle Dave",
"pour votre marraine"), and no inclusive-writing dots or "pour :" labels.
"""

from __future__ import annotations

from typing import Any

from giftgenius import formats
from giftgenius import messages as catalogue
from giftgenius.language.vocabulary import describe
from giftgenius.replies import phrasing


def say(key: str, locale: str, **values: Any) -> str:
    """The catalogue's sentence ``key`` in the locale's language, filled with ``values``."""
    return catalogue.text("replies", key, locale).format(**values)


def count(key: str, n: int, locale: str, **values: Any) -> str:
    """The ``key.one`` or ``key.other`` text for ``n``, as the language's plural rule says."""
    return catalogue.count("replies", key, locale, n, **values)


def money(amount: float, currency: str, locale: str = "en") -> str:
    return formats.money(amount, currency, locale)


def join(items: list[str], locale: str) -> str:
    return formats.join(items, locale)


# The profile and the filters' reasons are phrased where the terminal's recaps phrase them too.
recipient = phrasing.recipient
tags = phrasing.tags
profile_facts = phrasing.profile_facts
rejection_reasons = phrasing.reasons
reason = phrasing.reason
price = phrasing.price


def ask_missing(missing: list[str], locale: str, currency: str = "USD") -> str:
    """Ask for what is still missing; the budget example is in the person's currency."""
    example = money(50, "EUR" if locale == "fr" and currency == "USD" else currency, locale)
    parts = phrasing.missing(missing, locale, budget_example=example)
    return say("ask", locale, parts=join(parts, locale))


def candidate_list(
    candidates: list[dict[str, Any]],
    budget: dict[str, Any] | None,
    locale: str,
    *,
    others: bool = False,
) -> str:
    """The numbered shortlist the user picks from (numbers = order of ``candidate_ids``);
    ``others``: ideas other than those shown before."""
    currency: str = (budget or {}).get("currency") or ""
    limit = money(budget["amount"], currency, locale) if budget else "?"
    n = len(candidates)
    intro = "list.others" if others else "list.intro"
    lines = [count(intro, n, locale, budget=limit), ""]
    lines += [phrasing.shortlist_item(i, c, currency, locale) for i, c in enumerate(candidates, 1)]
    lines += ["", phrasing.choose_question(n, locale)]
    return "\n".join(lines)


def choose_prompt(n: int, locale: str) -> str:
    return count("next.choose", n, locale)


def unserved_note(unserved: list[dict[str, Any]], locale: str) -> str:
    """Say plainly which stated interests have nothing, and the closest things on offer."""
    sentences: list[str] = []
    for item in unserved:
        interest = describe(str(item.get("interest", "")), locale)
        key = "unserved.filtered" if item.get("in_catalog") else "unserved.absent"
        sentences.append(say(key, locale, interest=interest))
        names = [str(s) for s in item.get("suggestions") or []]
        if names:
            sentences.append(say("unserved.closest", locale, names=join(names, locale)))
    return " ".join(sentences)


def dead_end(rejected: dict[str, int], relax: list[dict[str, Any]], locale: str) -> str:
    """Nothing passed: which constraint removed what, and what each change would bring back
    ("with a budget of £24, 3 ideas would fit"), then how to say it. Without anything to
    offer, the general advice."""
    reasons = rejection_reasons(rejected, locale) or "—"
    if not relax:
        return say("none", locale, reasons=reasons)
    options = [
        count("relax.count", int(item.get("would_pass", 0)), locale, how=_relaxed(item, locale))
        for item in relax
    ]
    first = relax[0]
    example = say(f"relax.example.{first['constraint']}", locale, v=_relaxed_value(first, locale))
    return " ".join(
        [
            say("none.why", locale, reasons=reasons),
            *(option[:1].upper() + option[1:] + "." for option in options),
            say("relax.ask", locale, example=example),
        ]
    )


def _relaxed(item: dict[str, Any], locale: str) -> str:
    return say(f"relax.{item['constraint']}", locale, v=_relaxed_value(item, locale))


def _relaxed_value(item: dict[str, Any], locale: str) -> str:
    kind = item["constraint"]
    if kind == "budget":
        return money(float(item["budget_max"]), str(item.get("currency") or ""), locale)
    if kind == "deadline":
        return formats.date(str(item["deadline"]), locale)
    if kind == "country":
        return phrasing.country(str(item.get("country") or ""), locale)
    return describe(str(item.get("dislike") or ""), locale)


def popular_note(popular: Any, state: dict[str, Any], locale: str) -> str:
    """Why the ideas are popular ones: the person said they do not know the recipient's
    tastes, so the search looked for gifts broadly liked by them (``popular`` in a search
    result); "" for a search of the recipient's own interests."""
    if not isinstance(popular, dict):
        return ""
    profile = state.get("profile") or {}
    whom = phrasing.for_whom(profile, locale)
    key = "popular.whom" if whom else "popular"
    return catalogue.say("tastes", key, locale, whom=whom or "")
