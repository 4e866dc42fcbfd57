"""Replay values for slots: per-kind pools and a seeded draw.

A replay swaps every slot of a dialogue for another value of the same kind, so a dialogue
that passes only with the words it was written with (60 dollars, Toronto, "uncle") is
found out. Draws depend only on (seed, dialogue id, replay number), never on the order in
which runs are scheduled, so a failing replay can be played again alone with ``--only``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from num2words import num2words

from giftgenius.evaluate.corpus import Dialogue, Locale, Slot

# Cities as people write them, by language, with the ISO country they are in. Only
# countries the catalog names in some product's ships_to (tests check the list against it).
CITIES: tuple[tuple[str, dict[str, tuple[str, ...]]], ...] = (
    ("GB", {"en": ("London", "Manchester", "Edinburgh", "Bristol", "Leeds"),
            "fr": ("Londres", "Manchester", "Édimbourg")}),
    ("IE", {"en": ("Dublin", "Cork", "Galway"), "fr": ("Dublin", "Cork")}),
    ("US", {"en": ("New York", "NYC", "Chicago", "Texas", "Ohio", "Boston", "Seattle"),
            "fr": ("New York", "Chicago", "Boston", "la Nouvelle-Orléans")}),
    ("CA", {"en": ("Toronto", "Vancouver", "Montreal", "Calgary"),
            "fr": ("Montréal", "Québec", "Toronto")}),
    ("FR", {"en": ("Paris", "Lyon", "Marseille", "Bordeaux"),
            "fr": ("Paris", "Lyon", "Marseille", "Lille", "Toulouse")}),
    ("BE", {"en": ("Brussels", "Antwerp", "Ghent"), "fr": ("Bruxelles", "Liège", "Namur")}),
    ("DE", {"en": ("Munich", "Berlin", "Hamburg", "Cologne"),
            "fr": ("Munich", "Berlin", "Cologne", "Hambourg")}),
    ("NL", {"en": ("Amsterdam", "Rotterdam", "Utrecht"), "fr": ("Amsterdam", "Rotterdam")}),
    ("ES", {"en": ("Madrid", "Barcelona", "Seville"), "fr": ("Madrid", "Barcelone", "Séville")}),
    ("IT", {"en": ("Rome", "Milan", "Florence", "Turin"), "fr": ("Rome", "Milan", "Florence")}),
    ("PT", {"en": ("Lisbon", "Porto"), "fr": ("Lisbonne", "Porto")}),
    ("AT", {"en": ("Vienna", "Salzburg"), "fr": ("Vienne", "Salzbourg")}),
    ("CH", {"en": ("Geneva", "Zurich", "Bern"), "fr": ("Genève", "Zurich", "Lausanne")}),
    ("LU", {"en": ("Luxembourg City",), "fr": ("Luxembourg",)}),
)  # fmt: skip

# Relation words, by gender and language. French words are bare: the line carries the
# determiner that fits ("mon {relative}" with relative_m); the words for either gender are
# spelled the same for a man or a woman, so "mon"/"ma" in the line stays right.
RELATIVES: dict[str, dict[Locale, tuple[str, ...]]] = {
    "relative_m": {
        "en": ("uncle", "brother", "dad", "father-in-law", "grandad", "husband", "boyfriend",
               "brother-in-law", "godfather", "stepdad", "grandpa"),
        "fr": ("oncle", "frère", "père", "beau-père", "grand-père", "mari", "copain",
               "beau-frère", "parrain", "cousin"),
    },
    "relative_f": {
        "en": ("aunt", "sister", "mum", "mother-in-law", "grandma", "wife", "girlfriend",
               "sister-in-law", "godmother", "stepmom", "auntie"),
        "fr": ("tante", "sœur", "mère", "belle-mère", "grand-mère", "femme", "copine",
               "belle-sœur", "marraine", "cousine"),
    },
    "relative": {
        "en": ("friend", "flatmate", "neighbour", "coworker", "colleague", "roommate",
               "best friend", "cousin", "partner", "teammate"),
        "fr": ("collègue", "coloc", "camarade", "partenaire", "binôme", "pote"),
    },
}  # fmt: skip

NAMES: dict[str, dict[Locale, tuple[str, ...]]] = {
    "name_m": {
        "en": ("Tom", "Raj", "Kwame", "Liam", "Diego", "Marcus", "Owen", "Yusuf", "Hiro", "Sean"),
        "fr": ("Julien", "Karim", "Mathis", "Thomas", "Moussa", "Hugo", "Olivier", "Yanis"),
    },
    "name_f": {
        "en": ("Priya", "Emma", "Aisha", "Chloe", "Mei", "Sofia", "Grace", "Nora", "Zoe", "Fatima"),
        "fr": ("Camille", "Léa", "Inès", "Chloé", "Amina", "Manon", "Sarah", "Nadia"),
    },
}  # fmt: skip

MIN_AMOUNT = 15
SPREAD = 0.4  # replays keep an amount within ±40 % of the written one


@dataclass(frozen=True)
class Draw:
    """One replay's values: the slot as the constraints see it, and the text typed for it."""

    slots: dict[str, Slot]
    words: dict[str, str]


def amount_pool(value: int) -> list[int]:
    """Round amounts (multiples of 5) within ±40 % of ``value``, never below 15."""
    low = max(MIN_AMOUNT, value * (1 - SPREAD))
    high = max(low, value * (1 + SPREAD))
    pool = [n for n in range(5, int(high) + 1, 5) if low <= n <= high]
    return pool or [max(MIN_AMOUNT, value)]


def in_words(number: int, locale: Locale) -> str:
    """How a person writes ``number`` out in ``locale`` ("forty-five", "quatre-vingts")."""
    return str(num2words(number, lang=locale))


def city_pool(locale: Locale) -> list[tuple[str, str]]:
    """(city as written in ``locale``, ISO country) for every city replays may use."""
    return [(city, country) for country, names in CITIES for city in names[locale]]


def pool(slot: Slot, locale: Locale) -> list[Slot]:
    """Every value a replay may give ``slot`` (the written value left out when others exist)."""
    if slot.kind in ("amount", "amount_words"):
        values: list[Slot] = [Slot(kind=slot.kind, value=n) for n in amount_pool(int(slot.value))]
    elif slot.kind == "city":
        values = [Slot(kind="city", value=c, country=k) for c, k in city_pool(locale)]
    elif slot.kind in RELATIVES:
        values = [Slot(kind=slot.kind, value=w) for w in RELATIVES[slot.kind][locale]]
    else:
        values = [Slot(kind=slot.kind, value=w) for w in NAMES[slot.kind][locale]]
    others = [v for v in values if (v.value, v.country) != (slot.value, slot.country)]
    return others or values


def written(slot: Slot, locale: Locale) -> str:
    """The text a line shows for ``slot``."""
    if slot.kind == "amount_words":
        return in_words(int(slot.value), locale)
    return str(slot.value)


def base(dialogue: Dialogue) -> Draw:
    """The values the dialogue was written with."""
    slots = dict(dialogue.slots)
    return Draw(slots, {n: written(s, dialogue.locale) for n, s in slots.items()})


def draw(dialogue: Dialogue, seed: int, replay: int) -> Draw:
    """Replay number ``replay`` (1, 2, …) of ``dialogue`` under ``seed``: deterministic."""
    rng = random.Random(f"{seed}:{dialogue.id}:{replay}")
    slots = {name: rng.choice(pool(slot, dialogue.locale)) for name, slot in dialogue.slots.items()}
    return Draw(slots, {n: written(s, dialogue.locale) for n, s in slots.items()})
