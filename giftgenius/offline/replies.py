"""The offline model's sentences, in English and French (markdown)."""

from __future__ import annotations

from typing import Any

from giftgenius.catalog.vocabulary import describe

_TEXT: dict[str, dict[str, str]] = {
    "noted": {"en": "Noted: {facts}.", "fr": "C'est noté : {facts}."},
    "ask": {"en": "Could you tell me {parts}?", "fr": "Pouvez-vous me dire {parts} ?"},
    "and": {"en": " and ", "fr": " et "},
    "missing.recipient": {"en": "who the gift is for", "fr": "pour qui est le cadeau"},
    "missing.budget": {
        "en": "your budget (for example 50 $)",
        "fr": "votre budget (par exemple 50 €)",
    },
    "missing.interests": {
        "en": "one or two things they enjoy",
        "fr": "une ou deux choses qu'il ou elle aime",
    },
    "list.intro": {
        "en": "Here are {n} ideas that fit ({budget}):",
        "fr": "Voici {n} idées qui conviennent ({budget}) :",
    },
    "list.item": {
        "en": "{i}. **{title}** — {price}, delivered in {days}{why}",
        "fr": "{i}. **{title}** — {price}, livré en {days}{why}",
    },
    "list.ask": {
        "en": "Which one would you like? Reply with its number.",
        "fr": "Lequel vous plaît ? Répondez avec son numéro.",
    },
    "none": {
        "en": "None of the candidates passes all your criteria ({reasons}). You could raise "
        "the budget or drop a constraint (a dislike, the delivery country or the deadline).",
        "fr": "Aucun candidat ne respecte tous vos critères ({reasons}). Vous pourriez augmenter "
        "le budget ou lever une contrainte (un refus, le pays de livraison ou la date limite).",
    },
    "selected": {
        "en": "Good choice: **{title}** ({price}). Shall I confirm it and record the order draft?",
        "fr": "Bon choix : **{title}** ({price}). Je confirme et j'enregistre le brouillon de "
        "commande ?",
    },
    "confirmed": {
        "en": "Done! **{title}** is confirmed and the order draft is recorded ({draft}).",
        "fr": "C'est fait ! **{title}** est confirmé et le brouillon de commande est "
        "enregistré ({draft}).",
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
    "error": {
        "en": "I couldn't do that: {error}",
        "fr": "Je n'ai pas pu le faire : {error}",
    },
    "next.choose": {
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
        "fr": "Autre chose à savoir (âge, ce qu'il ou elle n'aime pas, pays de livraison, "
        "date limite) ? Sinon je cherche des idées.",
    },
    "hello": {
        "en": "Hello! Who is the gift for, what's your budget, and what do they enjoy?",
        "fr": "Bonjour ! Pour qui est le cadeau, quel est votre budget et qu'aime la personne ?",
    },
    "fact.recipient": {"en": "for your {v}", "fr": "pour : {v}"},
    "fact.budget": {"en": "budget up to {v}", "fr": "budget jusqu'à {v}"},
    "fact.budget_range": {"en": "budget {lo}–{v}", "fr": "budget de {lo} à {v}"},
    "fact.interests": {"en": "likes {v}", "fr": "aime : {v}"},
    "fact.dislikes": {"en": "avoid {v}", "fr": "à éviter : {v}"},
    "fact.age": {"en": "{v} years old", "fr": "{v} ans"},
    "fact.country": {"en": "delivery to {v}", "fr": "livraison : {v}"},
    "fact.deadline": {"en": "by {v}", "fr": "avant le {v}"},
    "reason.sep": {"en": "; ", "fr": " ; "},
    "day": {"en": "{n} day", "fr": "{n} jour"},
    "days": {"en": "{n} days", "fr": "{n} jours"},
    "budget.about": {
        "en": "You said about {v}, so I took {v} as the budget; tell me if you want it different.",
        "fr": "Vous avez dit environ {v} : j'ai pris {v} comme budget ; dites-le si vous "
        "préférez autre chose.",
    },
    "choice.range": {
        "en": "The list has only {n} ideas; pick one from 1 to {n}.",
        "fr": "La liste n'a que {n} idées ; choisissez-en une de 1 à {n}.",
    },
}


def say(key: str, locale: str, **values: Any) -> str:
    texts = _TEXT[key]
    return texts.get(locale, texts["en"]).format(**values)


def money(amount: float, currency: str) -> str:
    text = f"{amount:.2f}".rstrip("0").rstrip(".") if amount == int(amount) else f"{amount:.2f}"
    return f"{text} {currency}"


def join(items: list[str], locale: str) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + say("and", locale) + items[-1]


RECIPIENT_FR = {
    "colleague": "un·e collègue",
    "friend": "un·e ami·e",
    "partner": "votre conjoint·e",
    "mother": "votre mère",
    "father": "votre père",
    "sister": "votre sœur",
    "brother": "votre frère",
    "child": "un enfant",
    "teen": "un·e ado",
    "grandparent": "un grand-parent",
    "boss": "votre patron·ne",
    "teacher": "un·e enseignant·e",
    "neighbor": "un·e voisin·e",
    "anyone": "quelqu'un",
}


def recipient(value: str, locale: str) -> str:
    return RECIPIENT_FR.get(value, value) if locale == "fr" else value


def tags(values: list[str], locale: str) -> str:
    return ", ".join(describe(v, locale) for v in values)


def profile_facts(profile: dict[str, Any], locale: str) -> str:
    """A one-line recap of the recorded profile, in the user's language."""
    parts: list[str] = []
    if profile.get("recipient"):
        parts.append(say("fact.recipient", locale, v=recipient(profile["recipient"], locale)))
    budget = profile.get("budget")
    if budget:
        top = money(budget["amount"], budget.get("currency", "USD"))
        if budget.get("min_amount"):
            parts.append(say("fact.budget_range", locale, lo=budget["min_amount"], v=top))
        else:
            parts.append(say("fact.budget", locale, v=top))
    if profile.get("interests"):
        parts.append(say("fact.interests", locale, v=tags(profile["interests"], locale)))
    if profile.get("dislikes"):
        parts.append(say("fact.dislikes", locale, v=tags(profile["dislikes"], locale)))
    if profile.get("age"):
        parts.append(say("fact.age", locale, v=profile["age"]))
    if profile.get("country"):
        parts.append(say("fact.country", locale, v=profile["country"]))
    if profile.get("deadline"):
        parts.append(say("fact.deadline", locale, v=profile["deadline"]))
    return "; ".join(parts)


def ask_missing(missing: list[str], locale: str) -> str:
    parts = [say(f"missing.{name}", locale) for name in missing if f"missing.{name}" in _TEXT]
    return say("ask", locale, parts=join(parts, locale))


def candidate_list(
    candidates: list[dict[str, Any]], budget: dict[str, Any] | None, locale: str
) -> str:
    """The numbered shortlist the user picks from (numbers = order of ``candidate_ids``)."""
    currency: str = (budget or {}).get("currency") or ""
    limit = money(budget["amount"], currency) if budget else "?"
    lines = [say("list.intro", locale, n=len(candidates), budget="≤ " + limit), ""]
    for i, c in enumerate(candidates, 1):
        price = money(c["price"], c["currency"])
        converted = c.get("price_in_budget_currency")
        if converted is not None and currency and currency != c["currency"]:
            price += f" (≈ {money(converted, currency)})"
        why = f" — {c['why']}" if c.get("why") else ""
        lines.append(
            say(
                "list.item",
                locale,
                i=i,
                title=c["title"],
                price=price,
                days=say(
                    "day" if c["delivery_days"] == 1 else "days", locale, n=c["delivery_days"]
                ),
                why=why,
            )
        )
    lines += ["", say("list.ask", locale)]
    return "\n".join(lines)
