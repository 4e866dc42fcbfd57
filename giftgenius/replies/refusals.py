"""A refused tool call, told to the person in their own language.

A tool error's ``error`` text is English written for the model ("call select_gift first");
relaying it would put English inside a French reply and instructions meant for the model in
front of the person. The result also carries a stable ``code`` and its ``params`` (see
``giftgenius.errors.TOOL_ERRORS``): each code has a sentence here in English and French, its
dates and numbers formatted for the locale. A result without a known code (an argument the
model got wrong, a code added without a sentence) gets a plain sentence in the person's
language, never the model's English.
"""

from __future__ import annotations

from typing import Any

from giftgenius import formats
from giftgenius.catalog import phrasing

# code → (English, French): what the person reads, and what they can do about it.
_TEXT: dict[str, dict[str, str]] = {
    "currency.no_rate": {
        "en": "I can't count in {currency}: I only know {choices}.",
        "fr": "Je ne sais pas compter en {currency} : je ne connais que {choices}.",
    },
    "currency.unknown": {
        "en": "I don't know the currency “{word}”. Could you give the budget in {choices}?",
        "fr": "Je ne connais pas la monnaie « {word} ». Pouvez-vous donner le budget en "
        "{choices} ?",
    },
    "currency.unsupported": {
        "en": "I can't compare prices in {currency}. Could you give the budget in {choices}?",
        "fr": "Je ne peux pas comparer les prix en {currency}. Pouvez-vous donner le budget en "
        "{choices} ?",
    },
    "recipient.empty": {"en": "Who is the gift for?", "fr": "Pour qui est le cadeau ?"},
    "country.unknown": {
        "en": "I can't tell which country “{place}” is in. Which country should the gift be "
        "delivered to?",
        "fr": "Je ne sais pas dans quel pays se trouve « {place} ». Dans quel pays faut-il "
        "livrer le cadeau ?",
    },
    "deadline.past": {
        "en": "{deadline} is already past (today is {today}). By when do you need the gift?",
        "fr": "Le {deadline} est déjà passé (nous sommes le {today}). Pour quand vous faut-il "
        "le cadeau ?",
    },
    "budget.max_required": {
        "en": "What is the most you would like to spend?",
        "fr": "Quelle somme voulez-vous dépenser au maximum ?",
    },
    "budget.min_above_max": {
        "en": "The lowest price you gave ({minimum}) is above the highest ({maximum}). Which "
        "range did you mean?",
        "fr": "Le minimum indiqué ({minimum}) dépasse le maximum ({maximum}). Quelle fourchette "
        "vouliez-vous dire ?",
    },
    "profile.nothing_to_save": {
        "en": "There is nothing to save yet: tell me first who the gift is for.",
        "fr": "Il n'y a encore rien à enregistrer : dites-moi d'abord pour qui est le cadeau.",
    },
    "label.empty": {
        "en": "That name is empty: save the profile under a plain word, such as “sister”.",
        "fr": "Ce nom est vide : enregistrez le profil sous un mot simple, comme « sœur ».",
    },
    "label.too_long": {
        "en": "That name is too long: use {limit} characters at most.",
        "fr": "Ce nom est trop long : {limit} caractères au maximum.",
    },
    "label.unknown": {
        "en": "I have no saved profile called “{label}” (saved: {labels}).",
        "fr": "Je n'ai aucun profil enregistré sous « {label} » (enregistrés : {labels}).",
    },
    "search.incomplete": {
        "en": "I can't look for ideas yet. Could you tell me {missing}?",
        "fr": "Je ne peux pas encore chercher d'idées. Pouvez-vous me dire {missing} ?",
    },
    "search.wrong_step": {
        "en": "I can't start a new search at this point.",
        "fr": "Je ne peux pas relancer une recherche à ce stade.",
    },
    "choice.not_ready": {
        "en": "There is no list to choose from yet: let me look for ideas first.",
        "fr": "Il n'y a pas encore de liste où choisir : laissez-moi d'abord chercher des idées.",
    },
    "choice.nothing_described": {
        "en": "I couldn't tell which gift “{described}” means: could you give its number?",
        "fr": "Je n'ai pas compris de quel cadeau « {described} » parle : pouvez-vous donner "
        "son numéro ?",
    },
    "choice.none_selected": {
        "en": "No gift is chosen yet: reply with the number of the one you want.",
        "fr": "Aucun cadeau n'est encore choisi : répondez avec le numéro de celui que vous "
        "voulez.",
    },
    "gift.unknown": {
        "en": "I can't find that gift: pick one from the list.",
        "fr": "Je ne trouve pas ce cadeau : choisissez-en un dans la liste.",
    },
    "gift.not_candidate": {
        "en": "That gift is not on the list: pick one by its number.",
        "fr": "Ce cadeau n'est pas dans la liste : choisissez-en un par son numéro.",
    },
    "gift.removed": {
        "en": "That gift is no longer in the catalog: pick another one.",
        "fr": "Ce cadeau n'est plus au catalogue : choisissez-en un autre.",
    },
    "gift.fails_filters": {
        "en": "**{title}** no longer fits what you asked ({reasons}): pick another one.",
        "fr": "**{title}** ne respecte plus vos critères ({reasons}) : choisissez-en un autre.",
    },
    "run.finished": {
        "en": "This search is finished and your choice is recorded. Type /restart to look for "
        "another gift.",
        "fr": "Cette recherche est terminée et votre choix est enregistré. Tapez /restart pour "
        "chercher un autre cadeau.",
    },
    "step.illegal": {
        "en": "I can't do that at this point of the search.",
        "fr": "Je ne peux pas faire cela à ce stade de la recherche.",
    },
}

_GENERIC = {
    "en": "Something went wrong and I couldn't do that. Could you say it another way?",
    "fr": "Quelque chose n'a pas marché et je n'ai pas pu le faire. Pouvez-vous le dire "
    "autrement ?",
}
_NONE = {"en": "none", "fr": "aucun"}
_OFFERED = frozenset({"choices", "candidates", "allowed"})  # lists to pick one from

CODES = frozenset(_TEXT)  # the codes this module can say; a test holds it to TOOL_ERRORS


def render(result: dict[str, Any], locale: str) -> str:
    """The person's sentence for a failed tool ``result`` (``{"ok": false, "code", ...}``)."""
    lang = "fr" if locale == "fr" else "en"
    texts = _TEXT.get(str(result.get("code")))
    params = result.get("params")
    if texts is None or not isinstance(params, dict):
        return _GENERIC[lang]
    try:
        currency = str(params.get("currency") or "") if "minimum" in params else ""
        values = {name: _value(name, value, lang, currency) for name, value in params.items()}
        return texts[lang].format(**values)
    except (KeyError, ValueError, TypeError, IndexError):  # a parameter missing or malformed
        return _GENERIC[lang]


def _value(name: str, value: Any, lang: str, currency: str = "") -> str:
    """One parameter as the person reads it: dates, numbers and amounts (in ``currency`` when
    the error is about a budget's amounts) in the locale's format, lists joined with the
    locale's "and" (or "or" for choices), what is missing as the phrases that ask for it, the
    filters' reasons as the shortlist's recaps say them."""
    if name == "missing":
        return formats.join(phrasing.missing([str(v) for v in value], lang), lang)
    if name == "reasons":  # the filters' stable reasons, in the words the recaps use
        return formats.join([phrasing.reason(str(v), lang) for v in value], lang)
    if name in ("deadline", "today"):
        return formats.date(str(value), lang)
    if isinstance(value, bool):
        raise TypeError(name)
    if isinstance(value, int | float):
        return formats.money(value, currency, lang) if currency else formats.number(value, lang)
    if isinstance(value, list):
        either = name in _OFFERED  # one of these to pick: "USD, EUR or GBP"
        return formats.join([str(v) for v in value], lang, either=either) or _NONE[lang]
    return str(value)
