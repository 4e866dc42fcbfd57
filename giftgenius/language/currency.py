"""Currency words people write → ISO codes: the one table every reader of amounts uses.

The catalog's amount normaliser (``language/amounts.py``, which adds babel's names of every
currency on top), the offline model's readers (``offline/interests.py``, ``spelling.py``) and
the upgrade of old checkpoints (``storage/checkpoints.py``) all read this table, so "quid",
"piasses" or "us$" mean the same thing everywhere. The words of each language are data
(``lexicons/<lang>/currency_words.toml``, one kind per currency); the symbols and ISO codes,
the same in every language, and the rules are here.

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
from giftgenius.language.lexicon import LANGUAGES, table, union

DOLLAR: Final = "$"
BALLE: Final = "balles"

# What is the same in every language: the symbols, and the ISO codes people type in lowercase.
_SYMBOLS: Final = {"$": DOLLAR, "€": "EUR", "£": "GBP", "¥": "JPY"}
_TYPED_CODES: Final = (
    "USD", "EUR", "GBP", "CAD", "AUD", "NZD", "JPY", "SEK", "NOK", "DKK", "PLN", "CZK", "MXN",
    "INR", "BRL", "CNY", "HKD", "SGD", "ZAR", "CHF",
)  # fmt: skip
# The kinds of ``lexicons/<lang>/currency_words.toml`` that are no currency of their own.
_MARKERS: Final = {"dollar": DOLLAR, "balle": BALLE}
_BEFORE_KIND: Final = "before_the_amount"


def _currency_words() -> dict[str, str]:
    """Word → ISO code or marker: symbols, lowercase codes, then each language's words."""
    words: dict[str, str] = dict(_SYMBOLS)
    words.update({code.lower(): code for code in _TYPED_CODES})
    for lang in LANGUAGES:
        for kind, said in table("currency_words", lang).items():
            if kind != _BEFORE_KIND:
                words.update(dict.fromkeys(said, _MARKERS.get(kind, kind.upper())))
    return words


CURRENCY_WORDS: Final[dict[str, str]] = _currency_words()

DOLLAR_CURRENCIES = frozenset(
    {"USD", "CAD", "AUD", "NZD", "HKD", "SGD", "TWD", "MXN", "XCD", "BSD", "BBD", "JMD"}
)

# The currencies a budget can be held in (the catalog's conversion table).
BUDGET_CURRENCIES: Final = frozenset(get_args(Currency))

# What may also stand before the number ("$50", "eur 40"); words only follow it ("40 euros").
_BEFORE_THE_AMOUNT: Final = frozenset(
    {"$", "€", "£", "usd", "eur", "gbp", "chf", *union("currency_words", _BEFORE_KIND)}
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
