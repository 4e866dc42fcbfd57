"""What a search left out because the recipient was given it before, told to the person:
"You gave your mum **Moka Pot** in December 2026, so I left it out."

Reads a search result's ``given_before`` (``agent/tools/given.py``), as any other part of
a reply reads tool results: JSON only. Sentences from the catalogue's ``history`` section,
months through ``formats`` (babel).
"""

from __future__ import annotations

from typing import Any

from giftgenius import formats
from giftgenius import messages as catalogue
from giftgenius.replies import phrasing


def _whom(state: dict[str, Any], gift: dict[str, Any], locale: str) -> str:
    """The recipient as the person names them now ("your mum"), else as the gift was kept."""
    profile = state.get("profile") or {}
    said = profile.get("recipient") or gift.get("recipient") or ""
    name = profile.get("recipient_name") if profile.get("recipient") else gift.get("recipient_name")
    return phrasing.recipient(str(said), locale, name=name or None)


def _one(gift: dict[str, Any], locale: str) -> str:
    when = formats.month(str(gift.get("given_on", "")), locale)
    return catalogue.say("history", "gift", locale, title=gift.get("title", ""), when=when)


def given_note(given: Any, state: dict[str, Any], locale: str) -> str:
    """The sentence saying which gifts were left out and when they were given; "" if none."""
    if not isinstance(given, list):
        return ""
    gifts = [g for g in given if isinstance(g, dict) and g.get("given_on")]
    if not gifts:
        return ""
    items = formats.join([_one(g, locale) for g in gifts], locale)
    return catalogue.count(
        "history", "left_out", locale, len(gifts), whom=_whom(state, gifts[0], locale), gifts=items
    )


def recalled_note(memories: Any, state: dict[str, Any], locale: str) -> str:
    """What a search started from: the newest note recalled — for whom, and the gift chosen
    then, its price and day — or that no note was found."""
    if not isinstance(memories, list) or not memories or not isinstance(memories[0], dict):
        return catalogue.say("replies", "recalled.none", locale)
    newest = memories[0]
    facts = newest.get("facts") or {}
    now = (state.get("profile") or {}).get("recipient")  # as the person names them now
    said = now or facts.get("recipient") or newest.get("recipient")
    whom = phrasing.recipient(str(said or ""), locale)
    chosen = facts.get("chosen")
    if not isinstance(chosen, dict) or not chosen.get("title"):
        return catalogue.say("replies", "recalled.plain", locale, whom=whom)
    try:
        day = formats.date(str(chosen.get("given_on")), locale)
    except ValueError:  # written by the tool, but JSON is JSON
        return catalogue.say("replies", "recalled.plain", locale, whom=whom)
    price = formats.money(chosen.get("price", 0), str(chosen.get("currency", "")), locale)
    return catalogue.say(
        "replies", "recalled", locale, day=day, whom=whom, title=chosen["title"], price=price
    )


def known_note(known: Any, state: dict[str, Any], locale: str) -> str:
    """The offer to start from what an earlier search for the same person knew: "Last time
    for your mum (December 2026): budget up to €60; likes coffee. Say yes to start from
    there." — then the usual question; "" when nothing was known."""
    if not isinstance(known, dict) or not isinstance(known.get("facts"), dict):
        return ""
    facts = known["facts"]
    budget = facts.get("budget_max")
    profile = {
        "budget": {"amount": budget, "currency": facts.get("currency") or "USD"}
        if budget
        else None,
        "interests": facts.get("interests") or [],
        "dislikes": facts.get("dislikes") or [],
        "age": facts.get("age"),
    }
    said = phrasing.profile_facts(profile, locale, whom=False)
    if not said:
        return ""
    whom = phrasing.recipient(str((state.get("profile") or {}).get("recipient") or ""), locale)
    chosen = facts.get("chosen")
    when = ""
    if isinstance(chosen, dict) and chosen.get("given_on"):
        when = formats.month(str(chosen["given_on"]), locale)
    key = "known.offer.when" if when else "known.offer"
    return catalogue.say("replies", key, locale, whom=whom, when=when, facts=said) + " "
