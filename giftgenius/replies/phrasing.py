"""The gift profile and the filters' reasons in the person's words, English or French.

Shared by whoever talks to the person: the offline model's replies and the terminal's
recaps ("Welcome back! You were looking for a gift for your sister…") say the same things
the same way. Recipients are named as the person named them ("for your uncle Dave", "pour
votre marraine"), interests with the vocabulary's display words, prices and dates through
``formats`` (babel), and no inclusive-writing dots or "pour :" labels.
"""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import pairwise
from typing import Any

from giftgenius import formats
from giftgenius import messages as catalogue
from giftgenius.language import lexicon
from giftgenius.language.folding import fold
from giftgenius.language.folding import key as folded_key
from giftgenius.language.relations import lexicon as relation_lexicon
from giftgenius.language.relations import resolve_relation
from giftgenius.language.vocabulary import describe

# The person's own words turned to the listener's side: "my uncle" → "your uncle".
_POSSESSIVES = {
    "en": {"my": "your", "our": "your", "mine": "yours"},
    "fr": {"mon": "votre", "ma": "votre", "mes": "vos", "notre": "votre", "nos": "vos"},
}
_DETERMINERS = {
    "en": {"a", "an", "the", "your", "his", "her", "their", "some", "this", "that"},
    "fr": {"un", "une", "le", "la", "les", "votre", "vos", "son", "sa", "ses", "leur", "ce"},
}
_ELIDED = re.compile(r"^(l|d)['’]", re.IGNORECASE)


def _lang(locale: str) -> str:
    return "fr" if locale == "fr" else "en"


def _say(key: str, locale: str, **values: Any) -> str:
    """The catalogue's ``profile`` sentence ``key``, filled with ``values``."""
    return catalogue.say("profile", key, _lang(locale), **values)


def _count(section: str, key: str, n: int, locale: str) -> str:
    """The catalogue's ``key.one`` or ``key.other`` for ``n``, as the language's rule says."""
    return catalogue.count(section, key, _lang(locale), n)


def _kind(value: str, lang: str) -> str | None:
    """How a recipient kind (the catalog's audience: "colleague") is named when the person's
    own words for them are not in the profile ("your colleague"); None for any other word."""
    key = f"kind.{value}"
    return catalogue.text("profile", key, lang) if key in catalogue.keys("profile") else None


def recipient(value: str, locale: str, *, name: str | None = None) -> str:
    """The recipient as a phrase to follow "for"/"pour": "your sister", "votre oncle Dave".

    A catalog kind reads as the kind ("colleague" → "your colleague"); anything else is the
    person's own words, turned to the listener's side ("ma marraine" → "votre marraine").
    """
    lang = _lang(locale)
    text = _kind(value.strip().lower(), lang) or _as_said(value.strip(), lang)
    if name and name.lower() not in text.lower():
        text = f"{text} {name}"
    return text


def _as_said(text: str, lang: str) -> str:
    words = text.split()
    if not words:
        return catalogue.text("profile", "kind.anyone", lang)
    first = words[0].lower()
    if first in _POSSESSIVES[lang] and len(words) > 1:
        return _yours(words[1:], lang)  # "ma tante" → "votre tante", "ma maîtresse" → below
    if first in _DETERMINERS[lang] or _ELIDED.match(first) or text[0].isupper():
        # "the Smiths", "l'oncle de ma femme", "Marco": already a whole phrase
        return " ".join(_turned(words, lang))
    return _yours(words, lang)


def _turned(words: list[str], lang: str) -> list[str]:
    """Every possessive of the person's turned to the listener's ("de ma femme" → "de votre
    femme")."""
    return [_POSSESSIVES[lang].get(word.lower(), word) for word in words]


# What joins a French relation to whose it is ("la sœur de ma femme", "le prof d'Emma").
_OF = frozenset({"de", "du", "des"})


def _complement(words: list[str]) -> bool:
    """A French relation said with whose it is: "sœur de ma femme", "maîtresse de Léa"."""
    for word, following in pairwise(words):
        if word.lower() in _OF and (
            following.lower() in _POSSESSIVES["fr"] or following[:1].isupper()
        ):
            return True
    return any(re.match(r"^d['’]\w*[A-Z]", word) for word in words[1:])


def _yours(words: list[str], lang: str) -> str:
    """A relation said bare, with the listener's determiner, as its grammar wants: "votre
    tante", "vos parents", "la sœur de votre femme", "la maîtresse de votre enfant" (never
    "votre maîtresse": that would be a lover)."""
    phrase = " ".join(_turned(words, lang))
    if lang == "fr" and _complement(words):
        return _the(phrase, words, lang)
    if _of_the_child(words, lang):
        shown = _the(phrase, words, lang) if lang == "fr" else phrase
        return catalogue.say("fit", "of_the_child", lang, v=shown)
    if _plural(words, lang):
        return catalogue.say("fit", "yours.plural", lang, v=phrase)
    return catalogue.say("profile", "yours", lang, v=phrase)


def _the(phrase: str, words: list[str], lang: str) -> str:
    """The phrase after the definite article its head wants ("la", "le", "l'", "les")."""
    if _plural(words, lang):
        key = "the.plural"
    elif fold(phrase[:1]) in "aeiouyh":
        key = "the.elided"
    else:
        relation = resolve_relation(" ".join(words), "fr" if lang == "fr" else "en")
        key = "the.female" if relation is not None and relation.gender == "female" else "the.male"
    return catalogue.say("fit", key, lang, v=phrase)


def _of_the_child(words: list[str], lang: str) -> bool:
    """Whether the relation names someone of the person's child ("maîtresse", "nursery
    teacher": ``of_the_child`` in the relation lexicon), said without whose it is."""
    folded = [fold(word) for word in words]
    for size in range(len(folded), 0, -1):
        head = " ".join(folded[:size] if lang == "fr" else folded[-size:])
        if head in _child_words(lang):
            return True
    return False


@lru_cache(maxsize=2)
def _child_words(lang: str) -> frozenset[str]:
    return frozenset(fold(w) for w in lexicon.words("relations", "of_the_child", lang))


def _plural(words: list[str], lang: str) -> bool:
    """Several people ("parents", "grands-parents", "mes cousines"): the head's last letter
    is a plural's and its singular is a relation word too ("fils" is one son)."""
    head = fold(words[0] if lang == "fr" else words[-1])
    if not head.endswith(("s", "x")):
        return False
    singular = head.split("-")[-1][:-1]  # "grands-parents": parent
    return any(folded_key(singular) in table for table in relation_lexicon().values())


# Countries whose English name takes "the" ("delivery to the United States").
_WITH_THE = frozenset({"US", "GB", "NL", "AE", "PH", "BS", "GM", "DO", "CF", "KM", "MV"})


def country(code: str, locale: str) -> str:
    """A country's name as it reads after "to": "the United States", "Belgique"."""
    name = formats.country(code, locale)
    if _lang(locale) == "en" and code.upper() in _WITH_THE:
        return _say("country.with_the", locale, v=name)
    return name


def tags(values: list[str], locale: str) -> str:
    """Interests or dislikes with the vocabulary's display words: "board games and coffee"."""
    return formats.join([describe(v, locale) for v in values], locale)


def for_whom(profile: dict[str, Any], locale: str) -> str | None:
    """The recipient after "for": "for your uncle Dave", "pour votre marraine" (None when
    nobody is named yet).

    ``recipient`` is the relation as the person said it ("uncle", "marraine", or only a
    name; older profiles hold the catalog's kind, "colleague"), ``recipient_name`` a name.
    """
    said = profile.get("recipient")
    if not said:
        return None
    who = recipient(str(said), locale, name=profile.get("recipient_name"))
    return _say("fact.recipient", locale, v=who)


def profile_facts(profile: dict[str, Any], locale: str, *, whom: bool = True) -> str:
    """A one-line recap of the recorded profile, in the user's language (``whom=False``
    leaves out the recipient, for a sentence that names them already)."""
    parts: list[str] = []
    who = for_whom(profile, locale) if whom else None
    if who:
        parts.append(who)
    budget = profile.get("budget")
    if budget:
        currency = budget.get("currency", "USD")
        top = formats.money(budget["amount"], currency, locale)
        if budget.get("min_amount"):
            low = formats.money(budget["min_amount"], currency, locale)
            parts.append(_say("fact.budget_range", locale, lo=low, v=top))
        else:
            parts.append(_say("fact.budget", locale, v=top))
    if profile.get("interests"):
        parts.append(_say("fact.interests", locale, v=tags(profile["interests"], locale)))
    if profile.get("dislikes"):
        parts.append(_say("fact.dislikes", locale, v=tags(profile["dislikes"], locale)))
    if profile.get("age"):
        parts.append(_count("profile", "fact.age", int(profile["age"]), locale))
    if profile.get("country"):
        parts.append(_say("fact.country", locale, v=country(profile["country"], locale)))
    if profile.get("deadline"):
        parts.append(_say("fact.deadline", locale, v=formats.date(profile["deadline"], locale)))
    return _say("sep", locale).join(parts)


_REASONS = [
    (re.compile(r"^out of stock$"), "reason.stock"),
    (re.compile(r"^over budget \(max (?P<amount>[\d.]+) (?P<cur>[A-Z]{3})\)$"), "reason.over"),
    (re.compile(r"^under budget \(min (?P<amount>[\d.]+) (?P<cur>[A-Z]{3})\)$"), "reason.under"),
    (re.compile(r"^does not ship to (?P<country>[A-Z]{2})$"), "reason.ship"),
    (re.compile(r"^cannot arrive by (?P<date>\d{4}-\d{2}-\d{2})$"), "reason.late"),
    (re.compile(r"^matches dislike '(?P<dislike>.*)'$"), "reason.dislike"),
    (re.compile(r"^removed from the catalog$"), "reason.gone"),
]


def reasons(rejected: dict[str, int], locale: str) -> str:
    """The filters' counted reasons ("over budget (max 50.00 USD)": 3) in the person's words:
    "over $50: 3" / "au-dessus de 50 $US : 3" (no agreement to get wrong)."""
    out = [
        _say("counted", locale, reason=reason(text, locale), n=formats.number(int(n), locale))
        for text, n in rejected.items()
    ]
    return _say("sep", locale).join(out)


def reason(text: str, locale: str) -> str:
    """One of ``catalog.check``'s stable reasons in the person's words ("over $50");
    an unknown one is kept as it is."""
    for pattern, key in _REASONS:
        match = pattern.match(text)
        if match is None:
            continue
        found = match.groupdict()
        if "amount" in found:
            value = formats.money(float(found["amount"]), found["cur"], locale)
        elif "country" in found:
            value = country(found["country"], locale)
        elif "date" in found:
            value = formats.date(found["date"], locale)
        else:
            value = describe(found.get("dislike", ""), locale)
        return _say(key, locale, v=value)
    return text


def price(
    amount: float,
    currency: str,
    locale: str,
    *,
    converted: float | None = None,
    budget_currency: str | None = None,
) -> str:
    """ "€39.90 (≈ $43.37)": the gift's own price, then in the budget's currency if other."""
    text = formats.money(amount, currency, locale)
    if budget_currency and currency != budget_currency and converted is not None:
        also = formats.money(converted, budget_currency, locale)
        text = catalogue.say(
            "replies", "shortlist.converted", _lang(locale), price=text, converted=also
        )
    return text


def shortlist_item(
    i: int, candidate: dict[str, Any], budget_currency: str | None, locale: str
) -> str:
    """One numbered line of a shortlist, from a candidate's view (``CandidateView`` as JSON).

    The offline model's reply and the terminal's welcome-back recap list candidates with
    this same line, so a person sees one format whoever shows the list.
    """
    why = f" — {candidate['why']}" if candidate.get("why") else ""
    shown = price(
        candidate["price"],
        candidate["currency"],
        locale,
        converted=candidate.get("price_in_budget_currency"),
        budget_currency=budget_currency,
    )
    days = delivery_days(int(candidate["delivery_days"]), locale)
    values = {"i": i, "title": candidate["title"], "price": shown, "days": days, "why": why}
    return catalogue.say("replies", "shortlist.item", _lang(locale), **values)


def choose_question(n: int, locale: str) -> str:
    """What is asked under a shortlist of ``n`` ideas, by the offline model's reply and by
    the terminal's welcome-back recap alike."""
    return _count("replies", "shortlist.choose", n, locale)


def delivery_days(n: int, locale: str) -> str:
    """ "1 day", "3 days", "1 jour", "3 jours"."""
    return _count("replies", "shortlist.days", n, locale)


def missing(names: list[str], locale: str, *, budget_example: str | None = None) -> list[str]:
    """What is still needed, as phrases to join: "who the gift is for", "your budget"…"""
    phrases = []
    for name in names:
        key = "missing.budget.example" if name == "budget" and budget_example else f"missing.{name}"
        if key in catalogue.keys("profile"):
            phrases.append(_say(key, locale, example=budget_example))
    return phrases
