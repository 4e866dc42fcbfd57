"""Currency words people write → ISO codes: the one table every reader of amounts uses.

The offline model's budget reader (``offline/money.py``) and the upgrade of old checkpoints
(``storage/checkpoint_codec.py``, "50 USD", "$50", "50€") used to keep their own lists and
disagreed ("quid" was money to one, "us$" to the other). It sits in the bottom layer, next to
``domain.Currency``, so the offline model, the catalog and storage can all import it.

Words are lowercase and accent-free, as ``giftgenius.text.fold`` leaves them. A dollar word
without a country ("$", "dollars", "bucks") means the configured currency
(``GIFTGENIUS_CURRENCY``), so its code is chosen by the caller.
"""

from __future__ import annotations

import re
from typing import Final

from giftgenius.domain import Currency

_DOLLAR: Final = "dollar"  # the caller's dollar, not always USD

_WORDS: Final[dict[str, str]] = {
    "$": _DOLLAR,
    "dollar": _DOLLAR,
    "dollars": _DOLLAR,
    "bucks": _DOLLAR,
    "us$": "USD",
    "usd": "USD",
    "€": "EUR",
    "eur": "EUR",
    "euro": "EUR",
    "euros": "EUR",
    "£": "GBP",
    "gbp": "GBP",
    "pound": "GBP",
    "pounds": "GBP",
    "quid": "GBP",
    "livre sterling": "GBP",
    "livres sterling": "GBP",
}

# What may also stand before the number ("$50", "eur 40"); words only follow it ("40 euros").
_BEFORE_THE_AMOUNT: Final = ("$", "us$", "usd", "€", "eur", "£", "gbp")

CURRENCY_WORDS: Final = frozenset(_WORDS)


def currency_code(word: str, *, dollar: Currency | str = "USD") -> str | None:
    """The code a currency word means ("quid" → GBP, "$" → ``dollar``); None if it is none."""
    code = _WORDS.get(" ".join(word.split()))
    if code is None:
        return None
    return dollar if code == _DOLLAR else code


def currency_pattern(*, before_the_amount: bool = False) -> str:
    """A regex alternation of the currency words (all, or those written before a number).

    Longest first, so "euros" is read whole rather than as "eur" plus a stray "os".
    """
    words = _BEFORE_THE_AMOUNT if before_the_amount else _WORDS
    ordered = sorted(words, key=lambda word: (-len(word), word))
    return "|".join(re.escape(word).replace(r"\ ", r"\s+") for word in ordered)
