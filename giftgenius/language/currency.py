"""Currency words people write → ISO codes: the one table every reader of amounts uses.

The catalog's amount normaliser (``language/amounts.py``, which adds babel's names of every
currency on top), the offline model's budget reader (``offline/money.py``) and the upgrade of
old checkpoints (``storage/checkpoint_codec.py``) all read this table, so "quid", "piasses"
or "us$" mean the same thing everywhere. It sits in the bottom layer, next to
``domain.Currency``, because it needs nothing else.

Words are lowercase and accent-free, as ``giftgenius.language.folding.fold`` leaves them. Two words
depend on the conversation, so the table holds a marker for them and ``resolve`` decides:
``DOLLAR`` — "$" alone is the configured currency (``GIFTGENIUS_CURRENCY``), while "dollars"
and "bucks" are that currency when it is a dollar, US dollars otherwise; ``BALLE`` — French
"balles" are euros, or Swiss francs when the configured currency is CHF.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import Final, get_args

from giftgenius.domain import Currency

DOLLAR: Final = "$"
BALLE: Final = "balles"

CURRENCY_WORDS: Final[dict[str, str]] = {
    # symbols
    "$": DOLLAR, "€": "EUR", "£": "GBP", "¥": "JPY", "us$": "USD", "$us": "USD", "$ us": "USD",
    "u.s.$": "USD", "c$": "CAD", "ca$": "CAD", "$ca": "CAD", "$ can": "CAD", "$can": "CAD",
    "a$": "AUD", "au$": "AUD", "$au": "AUD", "nz$": "NZD", "fr.": "CHF", "sfr": "CHF",
    "chf": "CHF",
    # codes people type in lowercase too
    "usd": "USD", "eur": "EUR", "gbp": "GBP", "cad": "CAD", "aud": "AUD", "nzd": "NZD",
    "jpy": "JPY", "sek": "SEK", "nok": "NOK", "dkk": "DKK", "pln": "PLN", "czk": "CZK",
    "mxn": "MXN", "inr": "INR", "brl": "BRL", "cny": "CNY", "hkd": "HKD", "sgd": "SGD",
    "zar": "ZAR",
    # English
    "dollar": DOLLAR, "dollars": DOLLAR, "buck": DOLLAR, "bucks": DOLLAR, "dollarydoos": "AUD",
    "us dollars": "USD", "us dollar": "USD", "american dollars": "USD",
    "canadian dollars": "CAD", "canadian": "CAD", "loonies": "CAD", "loonie": "CAD",
    "toonies": "CAD", "aussie dollars": "AUD", "australian dollars": "AUD",
    "australian dollar": "AUD", "nz dollars": "NZD", "nz dollar": "NZD",
    "new zealand dollars": "NZD", "kiwi dollars": "NZD",
    "euro": "EUR", "euros": "EUR", "quid": "GBP", "pound": "GBP", "pounds": "GBP",
    "pounds sterling": "GBP", "sterling": "GBP", "quids": "GBP", "fiver": "GBP",
    "swiss francs": "CHF", "francs": "CHF", "franc": "CHF", "yen": "JPY",
    # French
    "balles": BALLE, "balle": BALLE, "boules": "EUR", "thunes": "EUR", "eurals": "EUR",
    "livre sterling": "GBP", "livres sterling": "GBP", "livres anglaises": "GBP",
    "piasses": "CAD", "piasse": "CAD", "piastres": "CAD", "piastre": "CAD", "huards": "CAD",
    "dollars canadiens": "CAD", "dollar canadien": "CAD", "dollars americains": "USD",
    "dollars us": "USD", "dollars australiens": "AUD", "dollars neo-zelandais": "NZD",
    "francs suisses": "CHF",
    "franc suisse": "CHF", "balles suisses": "CHF", "yens": "JPY",
}  # fmt: skip

DOLLAR_CURRENCIES = frozenset(
    {"USD", "CAD", "AUD", "NZD", "HKD", "SGD", "TWD", "MXN", "XCD", "BSD", "BBD", "JMD"}
)

# The currencies a budget can be held in (the catalog's conversion table).
BUDGET_CURRENCIES: Final = frozenset(get_args(Currency))

# What may also stand before the number ("$50", "eur 40"); words only follow it ("40 euros").
_BEFORE_THE_AMOUNT: Final = frozenset(
    {"$", "us$", "usd", "€", "eur", "£", "gbp", "c$", "ca$", "a$", "au$", "nz$", "chf", "fr."}
)


def resolve(code: str, word: str, default: str) -> str:
    """The ISO code a table entry means in this conversation (``default``: its currency)."""
    if code == DOLLAR:
        return default if default in DOLLAR_CURRENCIES or word.strip() == "$" else "USD"
    if code == BALLE:
        return "CHF" if default == "CHF" else "EUR"
    return code


def currency_code(
    word: str, *, dollar: str = "USD", within: Collection[str] | None = None
) -> str | None:
    """The code a currency word means ("quid" → GBP, "$" → ``dollar``); None if it is none,
    or if it is not one of ``within`` when that is given."""
    word = " ".join(word.split())
    code = CURRENCY_WORDS.get(word)
    if code is None:
        return None
    code = resolve(code, word, dollar)
    return code if within is None or code in within else None


def currency_pattern(
    *, before_the_amount: bool = False, within: Collection[str] | None = None
) -> str:
    """A regex alternation of the currency words (all, or those written before a number),
    only those that can mean a code of ``within`` when it is given.

    Longest first, so "euros" is read whole rather than as "eur" plus a stray "os".
    """
    words = [
        word
        for word, code in CURRENCY_WORDS.items()
        if (not before_the_amount or word in _BEFORE_THE_AMOUNT)
        and (within is None or code in (DOLLAR, BALLE) or code in within)
    ]
    ordered = sorted(words, key=lambda word: (-len(word), word))
    return "|".join(re.escape(word).replace(r"\ ", r"\s+") for word in ordered)
