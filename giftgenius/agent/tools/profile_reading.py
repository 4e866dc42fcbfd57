"""What ``update_profile`` makes of the free text any model sends: who, where, which currency.

A real model passes what the person said ("my uncle Dave", "Toronto", "francs suisses"); the
offline model passes the person's words too, or an ISO code when it resolved one. Each
reader scrubs PII first, resolves with the catalog's shared normalisers (``relations``,
``places``, ``amounts``) and raises a ``ToolError`` that tells the model what to ask when
the text cannot be read; none of them keeps phrase lists of its own.
"""

from __future__ import annotations

import re
from typing import cast, get_args

from pydantic import BaseModel

from giftgenius.domain import Currency, Locale, ProfileDraft
from giftgenius.errors import ToolError
from giftgenius.language.amounts import currency_words
from giftgenius.language.currency import resolve
from giftgenius.language.folding import fold
from giftgenius.language.places import resolve_country
from giftgenius.language.relations import resolve_relation
from giftgenius.privacy import scrub

BUDGET_CURRENCY_CODES: tuple[str, ...] = get_args(Currency)
_ISO_CODE = re.compile(r"[A-Z]{2}")
_SHOWN = 60  # how much of the model's text an error quotes back


class RecipientReading(BaseModel):
    """The recipient as understood: the relation as said, a name, the catalog audience."""

    recipient: str
    recipient_name: str | None
    audience: str
    relation_known: bool


def _clean(text: str) -> str:
    return " ".join(scrub(text).split())


def read_recipient(text: str, locale: Locale, old: ProfileDraft) -> RecipientReading:
    """Who the gift is for, from "my uncle Dave", "votre marraine", "Karen, my boss"…

    An unknown relation word is kept as said with the audience "anyone". A name alone
    ("Dave") names the recipient already described when that one has no name yet ("my
    boss", then "Karen"); otherwise it is a new recipient known only by name.
    """
    clean = _clean(text)
    if not clean:
        raise ToolError("recipient.empty")
    relation = resolve_relation(clean, locale)
    if relation is None:
        return RecipientReading(
            recipient=clean[:60], recipient_name=None, audience="anyone", relation_known=False
        )
    if relation.said is None and relation.name is not None:
        if old.recipient and old.recipient_name is None:
            described = resolve_relation(old.recipient, locale)
            return RecipientReading(
                recipient=old.recipient,
                recipient_name=relation.name,
                audience=old.audience,
                relation_known=described is not None and described.known,
            )
        return RecipientReading(
            recipient=relation.name,
            recipient_name=relation.name,
            audience="anyone",
            relation_known=False,
        )
    return RecipientReading(
        recipient=relation.said or clean[:60],
        recipient_name=relation.name,
        audience=relation.audience,
        relation_known=relation.known,
    )


def _iso_country(code: str) -> bool:
    import pycountry  # lazily: only a call that names a country pays for it

    return pycountry.countries.get(alpha_2=code) is not None


def read_country(text: str, locale: Locale) -> str:
    """The ISO 3166-1 alpha-2 code of an ISO code or a country, region or city name.

    Two capital letters that are an ISO code are taken as one ("FR", "CA"); anything else
    is a place name ("Toronto", "la Belgique", "UK").
    """
    clean = _clean(text)
    if _ISO_CODE.fullmatch(clean) and _iso_country(clean):
        return clean
    code = resolve_country(clean, locale) if clean else None
    if code is None:
        raise ToolError("country.unknown", place=clean[:_SHOWN])
    return code


def read_currency(text: str, *, dollar: str, available: list[str]) -> Currency:
    """The ISO 4217 code of a budget currency from a code or a word ("CHF", "euros", "balles").

    ``dollar`` is the conversation's currency (what "$" and "balles" mean, see
    ``giftgenius.language.currency``); ``available`` the currencies the catalog's conversion table
    holds, the only ones a budget can be compared in.
    """
    word = " ".join(text.split())
    code: str | None = word.upper() if word.upper() in available else None
    if code is None:
        meaning = currency_words().get(fold(word))
        code = resolve(meaning, fold(word), dollar) if meaning is not None else None
    if code is None:
        raise ToolError("currency.unknown", word=word[:_SHOWN], choices=list(available))
    if code not in available:
        raise ToolError("currency.unsupported", currency=code, choices=list(available))
    return cast(Currency, code)  # one of ``available``, all of them ``Currency`` values
