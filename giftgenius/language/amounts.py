"""Money in what people say: "no more than 50 bucks", "pas plus de cinquante balles", "about 30
euros", "between 20 and 40", "200 CHF", "vingt piasses".

The currency words and slang of both languages are the app's one table
(``giftgenius.language.currency``); babel adds every
currency's English and French names and distinctive symbols ("francs suisses", "Swiss
francs", "NZ$"), so only what CLDR lacks is written here. text2num turns number words into
digits first ("quatre-vingt-dix" → 90); price-parser reads the figure itself, whichever
decimal and thousands separators were used ("1 234,50", "1,234.50").

A number is money only with a currency next to it or a budget word around it ("under",
"max", "budget", "pas plus de"), or when it is all the text says: "she's 12" or "number 3"
are not budgets. "About N" sets N and says it was approximate; a range sets its top and its
bottom; "at least N" sets a minimum. When several amounts are named, the last one wins (a
correction comes after: "50 — no, make it 60").

"$" alone means the default currency (``GIFTGENIUS_CURRENCY``: what a bare "$" means);
"dollars" and "bucks" mean the default currency when it is a dollar, US dollars otherwise;
French "balles" mean euros, or francs when the default is CHF.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from giftgenius.domain import Locale
from giftgenius.language.currency import CURRENCY_WORDS, resolve
from giftgenius.language.folding import alternation, fold
from giftgenius.language.lexicon import LANGUAGES, table, union
from giftgenius.language.patterns import source

Kind = Literal["at_most", "about", "between", "at_least"]


class Amount(BaseModel):
    """A sum of money someone named, with how they meant it."""

    model_config = ConfigDict(frozen=True)

    amount: Decimal = Field(gt=0, description="The figure: a range's top, 'about N''s N")
    currency: str = Field(pattern=r"^[A-Z]{3}$", description="ISO 4217")
    kind: Kind = Field(
        "at_most", description="How the figure bounds the budget; a bare one caps it"
    )
    minimum: Decimal | None = Field(None, ge=0, description="A range's bottom, 'at least N'")
    approximate: bool = Field(False, description="'about 30': say so when using it")
    added: bool = Field(
        False, description="'another fiver', '5 euros de plus': on top of the budget known"
    )
    named: bool = Field(False, description="'a tenner': a sum said by its name, no figure")
    currency_assumed: bool = Field(
        False, description="No currency was said: the default was used; confirm it"
    )


_NUM = r"\d{1,3}(?:[ \u00a0\u202f,.']\d{3})+(?:[.,]\d{1,2})?|\d+(?:[.,]\d{1,2})?"

# Cues on folded text, each matched right before (or right after) an amount: the phrases
# are data (money_words' [patterns]).
_MONEY = "money_words"
_ABOUT_BEFORE = source(_MONEY, "about_before")
_MORE_BEFORE = re.compile(
    rf"(?<![\w'])(?:{alternation(union(_MONEY, 'more_before'))})\s*(?:an?\s+|une?\s+)?$"
)
_MORE_AFTER = re.compile(
    rf"^\s*(?:{alternation(union(_MONEY, 'more_after'))})(?![\w'])(?!\s*(?:than|que)\b)"
)
_RANGE_JOIN = rf"\s*(?:-|–|—|{source(_MONEY, 'range_joins')})\s*"
_RANGE_LEAD = rf"{source(_MONEY, 'range_leads')}\s*"


@lru_cache(maxsize=1)
def currency_words() -> dict[str, str]:
    """Folded currency word → ISO code or a marker (``DOLLAR``, ``BALLE``).

    ``CURRENCY_WORDS`` first; then babel's English and French names (singular and plural)
    and every symbol that is not a bare letter, for each currency CLDR knows. Asking babel
    for 1,300 names costs about 0.2 s, in every process that reads an amount, so the table
    is kept on disk (``diskcache``).
    """
    from pathlib import Path

    from giftgenius.diskcache import cached, fingerprint
    from giftgenius.language import currency, folding, lexicon

    lexicons = Path(lexicon.__file__).parent / "lexicons"
    sources = [
        Path(__file__),
        Path(currency.__file__),
        Path(folding.__file__),
        Path(lexicon.__file__),
        *(lexicons / lang / "currency_words.toml" for lang in lexicon.LANGUAGES),
    ]
    return cached("currency-words", fingerprint(["babel"], sources), _currency_words)


def _currency_words() -> dict[str, str]:
    from babel.numbers import get_currency_name, get_currency_symbol, list_currencies

    words: dict[str, str] = {}
    for code in sorted(list_currencies()):
        for locale in ("en", "fr"):
            for count in (1, 2):
                words.setdefault(fold(get_currency_name(code, count, locale)), code)
            symbol = fold(get_currency_symbol(code, locale))
            if not symbol.isalpha() and symbol != "$":
                words.setdefault(symbol.replace("\u202f", " "), code)
    words.update({fold(word): code for word, code in CURRENCY_WORDS.items()})
    return words


@lru_cache(maxsize=1)
def _amount_pattern() -> re.Pattern[str]:
    currency = alternation(currency_words(), end=lambda n: r"(?![\w$])" if n[-1:].isalnum() else "")
    return re.compile(
        rf"(?<![\w.,/])(?:(?P<pre>{currency})\s?(?P<n1>{_NUM})|(?P<n2>{_NUM}))"
        rf"(?![\d/:%]|[.,]\d|\w*(?:st|nd|rd|th|e|er|eme|ans?|yo|years?|h|pm|am)\b)"
        rf"(?P<ish>\s?ish\b)?(?:\s?(?:de |d')?(?P<post>{currency}))?"
    )


def _currency(word: str | None, default: str) -> str | None:
    if word is None:
        return None
    return resolve(currency_words()[word.strip()], word, default)


def _number(text: str) -> Decimal | None:
    from price_parser import Price

    value = Price.fromstring(text).amount
    return value if value is not None and value > 0 else None


_CUE_WORDS: tuple[tuple[Kind, str, str], ...] = (
    ("about", _ABOUT_BEFORE, source(_MONEY, "about_after")),
    ("at_most", source(_MONEY, "max_before"), source(_MONEY, "max_after")),
    ("at_least", source(_MONEY, "min_before"), source(_MONEY, "min_after")),
)
_CUES: dict[Kind, tuple[re.Pattern[str], re.Pattern[str]]] = {
    kind: (
        re.compile(rf"(?<![\w'])(?:{before})\s*:?\s*(?:an?\s+|une?\s+)?$"),
        re.compile(rf"^\s*(?:{after})(?![\w])"),
    )
    for kind, before, after in _CUE_WORDS
}
# French round numbers are approximations: "une cinquantaine d'euros" is about 50.
_ROUND_NUMBERS = {
    "dizaine": 10, "douzaine": 12, "quinzaine": 15, "vingtaine": 20, "trentaine": 30,
    "quarantaine": 40, "cinquantaine": 50, "soixantaine": 60, "centaine": 100,
}  # fmt: skip
_ROUND_NUMBER = re.compile(
    r"\b(?:une|la|a)\s+(" + "|".join(_ROUND_NUMBERS) + r")\b(?:\s+(?:de|d'))?", re.IGNORECASE
)
_ISH = re.compile(r"(?<=\w)\s*-?ish\b")
# Units that make a number something other than money ("sous 10 jours", "under 12 years").
_NOT_MONEY_AFTER = re.compile(rf"^\s*{source(_MONEY, 'not_money_after')}(?![\w])")
# Things counted after a figure ("about 20 guests", "environ 12 roses"), past a word that
# puts it on top ("10 more minutes"); people counted before it ("on sera environ 20").
_MORE_LEAD = re.compile(rf"^\s*(?:{alternation(union(_MONEY, 'more_after'))})(?=\s)")
_COUNTED_AFTER = re.compile(rf"^\s*(?:{alternation(union(_MONEY, 'counted_things'))})(?![\w'])")
_COUNTING_BEFORE = re.compile(
    rf"(?<![\w'])(?:{alternation(union(_MONEY, 'counting_before'))})\s+"
    rf"(?:(?:{_ABOUT_BEFORE})\s+)?(?:an?\s+|une?\s+)?$"
)
_RANGE_BETWEEN = re.compile(rf"^{_RANGE_JOIN}$")
_LEAD = re.compile(rf"(?<![\w'])(?:{_RANGE_LEAD})$")


def _kind(before: str, after: str) -> Kind | None:
    """The cue around an amount; before it, the longest wins ("not less than" over "less
    than", "no more than" over "more than")."""
    best: tuple[int, Kind] | None = None
    for kind, (cue_before, _) in _CUES.items():
        m = cue_before.search(before[-40:])
        if m is not None and (best is None or m.start() < best[0]):
            best = (m.start(), kind)
    if best is not None:
        return best[1]
    for kind, (_, cue_after) in _CUES.items():
        if cue_after.search(after[:30]):
            return kind
    return None


@dataclass(frozen=True)
class _Mention:
    """A figure in the text, with the currency word written next to it, if any."""

    match: re.Match[str]
    value: Decimal
    word: str | None


def _mentions(folded: str) -> list[_Mention]:
    found = []
    for m in _amount_pattern().finditer(folded):
        value = _number(m["n1"] or m["n2"])
        word = m["pre"] or m["post"]
        if _SIGNED.search(folded[: m.start()]):
            continue  # "-20 euros" is no budget to take as 20 (``refused_amount``)
        if value is not None and (word or not _counts(folded[: m.start()], folded[m.end() :])):
            found.append(_Mention(m, value, word))
    return found


def _counts(before: str, after: str) -> bool:
    """Whether a figure said without a currency counts things or people: a unit after it
    ("10 days", "about 20 guests", "10 more minutes") or a counting phrase before it ("on
    sera une vingtaine")."""
    after = _MORE_LEAD.sub("", after, count=1)
    return bool(
        _NOT_MONEY_AFTER.match(after)
        or _COUNTED_AFTER.match(after)
        or _COUNTING_BEFORE.search(before[-40:])
    )


# A minus sign right before a figure, not the dash of a range ("20-40").
_SIGNED = re.compile(r"(?:^|[^\w.,])[-\u2212]\s?$")


def _range(first: _Mention, second: _Mention, folded: str, default: str) -> Amount | None:
    """Two figures joined as a range: "between 20 and 40", "de 20 à 40 balles", "20-40€"."""
    gap = folded[first.match.end() : second.match.start()]
    if not _RANGE_BETWEEN.match(gap):
        return None
    led = _LEAD.search(folded[max(0, first.match.start() - 10) : first.match.start()])
    if not (led or first.word or second.word or "-" in gap):
        return None  # "2 or 3 of them, 40" is not a range
    code = _currency(second.word or first.word, default)
    low, high = sorted((first.value, second.value))
    return Amount(
        amount=high,
        minimum=low,
        kind="between",
        currency=code or default,
        currency_assumed=code is None,
    )


def _single(
    mention: _Mention, folded: str, default: str, alone: bool, named: frozenset[int]
) -> Amount | None:
    """One figure: money when a currency, a cue or a sum's name ("a tenner") goes with it,
    or when it is all there is; on top of the budget known when a word says so."""
    m = mention.match
    before, after = folded[: m.start()], folded[m.end() :]
    added = bool(_MORE_BEFORE.search(before[-30:]) or _MORE_AFTER.match(after))
    kind = "about" if m["ish"] else _kind(before, after)
    money = mention.word is not None or alone or added or m.start() in named
    if kind is None and not money:
        return None
    code = _currency(mention.word, default)
    return Amount(
        amount=mention.value,
        minimum=mention.value if kind == "at_least" else None,
        kind=kind or "at_most",
        approximate=kind == "about",
        added=added,
        named=m.start() in named,
        currency=code or default,
        currency_assumed=code is None,
    )


def _sum_words() -> dict[str, int]:
    """Folded word → the figure it names ("tenner" → 10), from the kinds ``sum_<figure>``."""
    return {
        word: int(kind.removeprefix("sum_"))
        for lang in LANGUAGES
        for kind, said in table("money_words", lang).items()
        if kind.startswith("sum_")
        for word in said
    }


_SUMS = _sum_words()
_SUM = re.compile(rf"(?<![\w'])(?:{alternation(_SUMS)})(?:s)?(?![\w'])")
_TWICE = re.compile(
    rf"(?<![\w'])(?:{alternation(union(_MONEY, 'twice'))})\s*(?P<n>100|1000)(?![\d])"
)


def _said_sums(folded: str) -> tuple[str, frozenset[int]]:
    """Sums said in words written as figures: "a tenner" → "a 10", "a couple 100" → "about
    200"; and where each such figure starts (a sum said by its name is money by itself)."""
    folded = _TWICE.sub(lambda m: f"environ {2 * int(m['n'])}", folded)
    named: list[int] = []
    out: list[str] = []
    last = 0
    for m in _SUM.finditer(folded):
        key = m[0] if m[0] in _SUMS else m[0][:-1]
        out.append(folded[last : m.start()])
        named.append(sum(map(len, out)))
        out.append(str(_SUMS[key]))
        last = m.end()
    out.append(folded[last:])
    return "".join(out), frozenset(named)


def refused_amount(
    text: str, locale: Locale = "en", default_currency: str = "USD"
) -> tuple[Decimal, str] | None:
    """A sum of zero or less said as a budget ("-20 euros", "0 dollars", "budget: -5"), with
    its currency: no budget, but not to be dropped in silence either, so the tool that
    records a budget can refuse it and ask for a positive amount."""
    folded, _ = _prepared(text, locale)
    from price_parser import Price

    for m in _amount_pattern().finditer(folded):
        value = Price.fromstring(m["n1"] or m["n2"]).amount
        signed = _SIGNED.search(folded[: m.start()])
        if value is None or not (signed or value == 0):
            continue
        word = m["pre"] or m["post"]
        before = folded[: m.start()].rstrip(" -\u2212")
        if word is not None or _kind(before, folded[m.end() :]) is not None:
            return (-value if signed else value), _currency(word, default_currency) or (
                default_currency
            )
    return None


def _prepared(text: str, locale: Locale) -> tuple[str, frozenset[int]]:
    """``text`` folded with its number words as figures ("une vingtaine" → "environ 20",
    "a tenner" → "a 10"), and where the sums said by name start."""
    from text_to_num import alpha2digit

    text = _ISH.sub(" ish", text.replace("’", "'"))
    text = _ROUND_NUMBER.sub(lambda m: f"environ {_ROUND_NUMBERS[fold(m[1])]}", text)
    return _said_sums(fold(alpha2digit(text, locale)))


def parse_amount(text: str, locale: Locale = "en", default_currency: str = "USD") -> Amount | None:
    """The budget ``text`` names, or None when it names no money.

    ``default_currency`` is the conversation's currency: what "$" means, and the currency of
    a figure said without one (``currency_assumed`` then says so). The last amount named
    wins: a correction comes after.
    """
    if not text or not text.strip():
        return None
    folded, named = _prepared(text, locale)
    mentions = _mentions(folded)
    alone = len(mentions) == 1 and not re.sub(
        r"[\W_]", "", folded.replace(mentions[0].match[0], "")
    )
    found: Amount | None = None
    n = 0
    while n < len(mentions):
        pair = (
            _range(mentions[n], mentions[n + 1], folded, default_currency)
            if n + 1 < len(mentions)
            else None
        )
        if pair is not None:
            found, n = pair, n + 2
            continue
        found = _single(mentions[n], folded, default_currency, alone, named) or found
        n += 1
    return found
