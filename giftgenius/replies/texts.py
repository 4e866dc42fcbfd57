"""The sentences replies are made of, in English and French (markdown).

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
from giftgenius.catalog import phrasing
from giftgenius.catalog.vocabulary import describe

# key → (English, French). A pair of dicts "one"/"other" is a plural (see ``count``).
_TEXT: dict[str, dict[str, str]] = {
    "noted": {"en": "Noted: {facts}.", "fr": "C'est noté : {facts}."},
    "ask": {"en": "Could you tell me {parts}?", "fr": "Pouvez-vous me dire {parts} ?"},
    "list.intro.one": {
        "en": "Here is {n} idea that fits (up to {budget}):",
        "fr": "Voici {n} idée qui convient (jusqu'à {budget}) :",
    },
    "list.intro.other": {
        "en": "Here are {n} ideas that fit (up to {budget}):",
        "fr": "Voici {n} idées qui conviennent (jusqu'à {budget}) :",
    },
    "none": {
        "en": "None of the candidates passes all your criteria ({reasons}). You could raise "
        "the budget or drop a constraint (a dislike, the delivery country or the deadline).",
        "fr": "Aucun candidat ne respecte tous vos critères ({reasons}). Vous pourriez augmenter "
        "le budget ou lever une contrainte (un refus, le pays de livraison ou la date limite).",
    },
    "none.why": {
        "en": "Nothing I found fits everything you asked ({reasons}).",
        "fr": "Rien de ce que j'ai trouvé ne respecte tout ce que vous avez demandé ({reasons}).",
    },
    "relax.budget": {"en": "with a budget of {v}", "fr": "avec un budget de {v}"},
    "relax.deadline": {"en": "with a delivery by {v}", "fr": "avec une livraison d'ici le {v}"},
    "relax.country": {
        "en": "if it need not be delivered to {v}",
        "fr": "sans la livraison vers ce pays ({v})",
    },
    "relax.dislike": {"en": "without avoiding “{v}”", "fr": "sans écarter « {v} »"},
    "relax.count.one": {"en": "{how}, {n} idea would fit", "fr": "{how}, {n} idée conviendrait"},
    "relax.count.other": {
        "en": "{how}, {n} ideas would fit",
        "fr": "{how}, {n} idées conviendraient",
    },
    "relax.ask": {
        "en": "Shall I make the first change? Say “ok”, or tell me what to change (for "
        "example “{example}”).",
        "fr": "Je fais la première modification ? Dites « d'accord », ou dites-moi quoi changer "
        "(par exemple « {example} »).",
    },
    "relax.example.budget": {"en": "go up to {v}", "fr": "jusqu'à {v}"},
    "relax.example.deadline": {"en": "it can arrive by {v}", "fr": "ça peut arriver le {v}"},
    "relax.example.country": {
        "en": "forget the delivery country",
        "fr": "oublie le pays de livraison",
    },
    "relax.example.dislike": {"en": "{v} is fine after all", "fr": "finalement, {v} ça va"},
    "unserved.absent": {
        "en": "I have nothing for “{interest}” in the catalog.",
        "fr": "Je n'ai rien pour « {interest} » dans le catalogue.",
    },
    "unserved.filtered": {
        "en": "Nothing for “{interest}” fits your budget and your other criteria.",
        "fr": "Rien pour « {interest} » ne respecte votre budget et vos autres critères.",
    },
    "unserved.closest": {
        "en": "The closest I have: {names}.",
        "fr": "Ce qui s'en rapproche le plus : {names}.",
    },
    "unserved.ask": {
        "en": "Would one of those do, or is there something else they enjoy?",
        "fr": "L'une de ces pistes conviendrait-elle, ou la personne aime-t-elle autre chose ?",
    },
    "unserved.ask_other": {
        "en": "What else do they enjoy? Tell me one or two things and I will look again.",
        "fr": "Qu'est-ce que la personne aime d'autre ? Dites-moi une ou deux choses et je "
        "cherche à nouveau.",
    },
    "selected": {
        "en": "Good choice: **{title}** ({price}). Shall I confirm it and record the order draft?",
        "fr": "Bon choix : **{title}** ({price}). Je confirme et j'enregistre le brouillon de "
        "commande ?",
    },
    "selected.catalog": {
        "en": "That one was not on the list, but the catalog has **{title}** ({price}), within "
        "everything you asked. Shall I confirm it and record the order draft?",
        "fr": "Il n'était pas dans la liste, mais le catalogue a **{title}** ({price}), qui "
        "respecte tout ce que vous avez demandé. Je confirme et j'enregistre le brouillon de "
        "commande ?",
    },
    "described.none": {
        "en": "I found nothing matching “{words}” that fits everything you asked.",
        "fr": "Je n'ai rien trouvé qui corresponde à « {words} » et respecte tout ce que vous "
        "avez demandé.",
    },
    "described.closest": {
        "en": "The closest, **{title}**, is {why}.",
        "fr": "Le plus proche, **{title}**, est {why}.",
    },
    "confirmed": {
        "en": "Done! **{title}** is confirmed and the order draft is recorded (ref. {draft}).",
        "fr": "C'est fait ! **{title}** est confirmé et le brouillon de commande est "
        "enregistré (réf. {draft}).",
    },
    "saved": {
        "en": 'I saved this recipient\'s profile as "{label}".',
        "fr": "J'ai enregistré ce profil sous « {label} ».",
    },
    "loaded": {
        "en": 'I loaded the saved profile "{label}".',
        "fr": "J'ai chargé le profil enregistré « {label} ».",
    },
    "no_profile": {
        "en": 'I found no saved profile matching "{label}" (saved: {labels}). Tell me about '
        "the recipient and I'll start from there.",
        "fr": "Je n'ai trouvé aucun profil enregistré correspondant à « {label} » "
        "(enregistrés : {labels}). Parlez-moi de la personne et on repart de là.",
    },
    "none_saved": {"en": "none", "fr": "aucun"},
    "goodbye": {
        "en": "See you later! Your progress is saved; just come back and we'll pick up where "
        "we left off.",
        "fr": "À plus tard ! Votre progression est enregistrée ; revenez quand vous voulez et "
        "on reprendra là où on s'est arrêtés.",
    },
    "next.choose.one": {
        "en": "Shall I record the order draft for the idea above? Reply yes, or tell me what "
        "to change.",
        "fr": "J'enregistre le brouillon de commande pour l'idée ci-dessus ? Répondez oui, ou "
        "dites-moi ce qu'il faut changer.",
    },
    "next.choose.other": {
        "en": "Which of the {n} ideas would you like? Reply with its number (1–{n}).",
        "fr": "Laquelle des {n} idées vous plaît ? Répondez avec son numéro (1–{n}).",
    },
    "next.confirm": {
        "en": "Shall I confirm your selected gift? Say yes to record the order draft, or pick "
        "another number.",
        "fr": "Je confirme le cadeau choisi ? Dites oui pour enregistrer le brouillon de "
        "commande, ou choisissez un autre numéro.",
    },
    "next.done": {
        "en": "Your choice is recorded and this search is finished. Type /restart to look "
        "for another gift.",
        "fr": "Votre choix est enregistré et cette recherche est terminée. Tapez /restart "
        "pour chercher un autre cadeau.",
    },
    "next.more": {
        "en": "Anything else I should know (age, dislikes, delivery country, deadline)? "
        "Otherwise I'll look for ideas.",
        "fr": "Autre chose à savoir (âge, ce que la personne n'aime pas, pays de livraison, "
        "date limite) ? Sinon je cherche des idées.",
    },
    "hello": {
        "en": "Hello! Who is the gift for, what's your budget, and what do they enjoy?",
        "fr": "Bonjour ! Pour qui est le cadeau, quel est votre budget et qu'aime la personne ?",
    },
    "reason.sep": {"en": "; ", "fr": " ; "},
    "budget.about": {
        "en": "You said about {v}, so I took {v} as the budget; tell me if you want it different.",
        "fr": "Vous avez dit environ {v} : j'ai pris {v} comme budget ; dites-le si vous "
        "préférez autre chose.",
    },
    "choice.range.one": {
        "en": "The list has only one idea; say yes to record its order draft, or tell me what "
        "to change.",
        "fr": "La liste ne compte qu'une idée ; dites oui pour enregistrer son brouillon de "
        "commande, ou dites-moi ce qu'il faut changer.",
    },
    "choice.range.other": {
        "en": "The list has only {n} ideas; pick one from 1 to {n}.",
        "fr": "La liste n'a que {n} idées ; choisissez-en une de 1 à {n}.",
    },
    "choice.also.one": {
        "en": "Your words also fit {others}: say its number if you meant that one.",
        "fr": "Vos mots correspondent aussi au {others} : donnez son numéro si c'est celui-là.",
    },
    "choice.also.other": {
        "en": "Your words also fit {others}: say a number if you meant one of those.",
        "fr": "Vos mots correspondent aussi aux {others} : donnez un numéro si c'est l'un d'eux.",
    },
    "choice.number": {"en": "number {i} ({title})", "fr": "n° {i} ({title})"},
}


def _lang(locale: str) -> str:
    return "fr" if locale == "fr" else "en"


def say(key: str, locale: str, **values: Any) -> str:
    texts = _TEXT[key]
    return texts.get(_lang(locale), texts["en"]).format(**values)


def count(key: str, n: int, locale: str, **values: Any) -> str:
    """The ``key.one`` or ``key.other`` text for ``n``, as the language's plural rule says."""
    lang = _lang(locale)
    return formats.plural(
        n,
        locale,
        _TEXT[f"{key}.one"][lang].replace("{n}", "{{n}}").format(**values),
        _TEXT[f"{key}.other"][lang].replace("{n}", "{{n}}").format(**values),
    )


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
    candidates: list[dict[str, Any]], budget: dict[str, Any] | None, locale: str
) -> str:
    """The numbered shortlist the user picks from (numbers = order of ``candidate_ids``)."""
    currency: str = (budget or {}).get("currency") or ""
    limit = money(budget["amount"], currency, locale) if budget else "?"
    n = len(candidates)
    lines = [count("list.intro", n, locale, budget=limit), ""]
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
