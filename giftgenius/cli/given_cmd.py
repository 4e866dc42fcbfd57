"""``giftgenius history``: the gifts a person confirmed, newest first — to whom, what, for how
much and when — in the commands' language (the catalogue's ``history`` section).

``--recipient`` takes a saved profile's label ("mum"), or the recipient as the person names
them ("my mum", "Clara"), and keeps the gifts given to that person (``language/kin.py``
says when two mentions are one person: "mum" finds what was given to "ma mère").
"""

from __future__ import annotations

from typing import Any

from giftgenius import formats
from giftgenius import messages as catalogue
from giftgenius.agent.reader import RunReader
from giftgenius.domain import GiftGiven, RecipientProfile, check_user_id
from giftgenius.language.folding import key
from giftgenius.language.kin import Recipient, recipient, same_person
from giftgenius.language.relations import resolve_relation
from giftgenius.replies import phrasing
from giftgenius.storage.repositories import normalize_label


def _wanted(label: str, saved: list[RecipientProfile], lang: str) -> list[Recipient]:
    """Whom ``--recipient`` names: the saved profile so labelled, and the words read as a
    recipient ("my mum", "sister Clara", "Clara")."""
    found = [
        recipient(p.profile.recipient, p.profile.recipient_name)
        for p in saved
        if p.label == normalize_label(label) and p.profile.recipient
    ]
    relation = resolve_relation(label, "fr" if lang == "fr" else "en")
    if relation is not None and relation.said:
        found.append(recipient(relation.said, relation.name))
    elif relation is not None and relation.name:
        found.append(recipient(relation.name, relation.name))
    found.append(recipient(label))
    return found


def _label(gift: GiftGiven, saved: list[RecipientProfile]) -> str | None:
    """The label of the saved profile that is the gift's recipient, if one is."""
    given = recipient(gift.recipient, gift.recipient_name)
    for entry in saved:
        kept = entry.profile
        if kept.recipient and same_person(given, recipient(kept.recipient, kept.recipient_name)):
            return entry.label
    return None


def _whom(gift: GiftGiven, saved: list[RecipientProfile], lang: str) -> str:
    """How the recipient is named to the person: their saved profile's label ("mum"), else
    the words the run named them with, on the person's side ("your sister Clara")."""
    return _label(gift, saved) or phrasing.recipient(gift.recipient, lang, name=gift.recipient_name)


def gift_history(
    reader: RunReader, user_id: str, label: str | None, lang: str
) -> tuple[dict[str, Any], list[str]]:
    """The gifts as a JSON document and as lines of text (date, title, price, recipient)."""
    check_user_id(user_id)
    with reader.db.read() as repos:
        gifts = repos.gifts.list_for(user_id)
        saved = repos.profiles.list(user_id)
    if label is not None:
        wanted = _wanted(label, saved, lang)
        named = key(label)
        gifts = [
            g
            for g in gifts
            if any(same_person(w, recipient(g.recipient, g.recipient_name)) for w in wanted)
            or (g.recipient_name and key(g.recipient_name) == named)
        ]
    document = {
        "user": user_id,
        "recipient": label,
        "gifts": [
            {
                "recipient": g.recipient,
                "recipient_name": g.recipient_name,
                "label": _label(g, saved),
                "gift_id": g.gift_id,
                "title": g.title,
                "price": g.price,
                "currency": g.currency,
                "confirmed_at": g.confirmed_at.isoformat(),
                "run_id": g.run_id,
            }
            for g in gifts
        ],
    }
    if not gifts:
        if label is None:
            return document, [catalogue.say("history", "none", lang, user=user_id)]
        return document, [catalogue.say("history", "none_for", lang, user=user_id, recipient=label)]
    lines = [
        catalogue.say(
            "history",
            "line",
            lang,
            date=formats.date(g.confirmed_at.date(), lang),
            title=g.title,
            price=formats.money(g.price, g.currency, lang),
            recipient=_whom(g, saved, lang),
        )
        for g in gifts
    ]
    return document, lines
