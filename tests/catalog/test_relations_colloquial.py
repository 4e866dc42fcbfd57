"""Relations as people write them in everyday French: slang, SMS, verlan, Québec, Belgium and
Switzerland; everyday words that are relations only after a possessive; and a name that
precedes its relation only across a comma or a bracket (in both languages)."""

from __future__ import annotations

import pytest

from giftgenius.language.relations import resolve_relation


@pytest.mark.parametrize(
    ("text", "said", "audience", "gender"),
    [
        ("pour mon beauf qui bricole", "beauf", "brother", "male"),
        ("slt c pr mon frr", "frr", "brother", "male"),
        ("un truc pour mon reuf", "reuf", "brother", "male"),
        ("ma reum adore le thé", "reum", "mother", "female"),
        ("mon daron fête ses 60 ans", "daron", "father", "male"),
        ("ma daronne", "daronne", "mother", "female"),
        ("mes darons", "darons", "anyone", None),
        ("ma blonde aime le yoga", "blonde", "partner", "female"),
        ("mon chum", "chum", "partner", "male"),
        ("mon meilleur chum", "meilleur chum", "friend", "male"),
        ("mon mononcle Gilles", "mononcle", "anyone", "male"),
        ("ma matante", "matante", "anyone", "female"),
        ("ma gotte", "gotte", "anyone", "female"),  # Swiss godmother
        ("mon götti", "götti", "anyone", "male"),
        ("mon pépère", "pépère", "grandparent", "male"),
        ("un monsieur que j'aide pour ses courses", "monsieur", "anyone", "male"),
        ("une dame de ma chorale", "dame", "anyone", "female"),
        ("un gars du service compta", "gars", "anyone", "male"),
        ("la vieille dame du troisième", "vieille dame", "anyone", "female"),
    ],
)
def test_colloquial_french_relations(
    text: str, said: str, audience: str, gender: str | None
) -> None:
    relation = resolve_relation(text, "fr")
    assert relation is not None and relation.known
    assert (relation.said, relation.audience, relation.gender) == (said, audience, gender)


@pytest.mark.parametrize(
    "text",
    [
        "une bière blonde pas trop chère",
        "quelque chose de doux",
        "un cadeau pour homme",
        "une couverture douce",
        "Bonjour monsieur, merci d'avance",
    ],
)
def test_everyday_words_are_relations_only_after_a_possessive(text: str) -> None:
    relation = resolve_relation(text, "fr")
    assert relation is None or not relation.known


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("Bonjour monsieur, c'est pour mon oncle", "oncle"),
        ("Madame, Monsieur, je souhaite offrir un stylo à une stagiaire", "stagiaire"),
        ("Bonsoir madame. Ma voisine m'a aidée", "voisine"),
    ],
)
def test_addressing_the_agent_is_not_the_recipient(text: str, said: str) -> None:
    relation = resolve_relation(text, "fr")
    assert relation is not None and relation.said == said


@pytest.mark.parametrize(
    ("text", "locale", "said", "name"),
    [
        ("Kdo pour un collègue", "fr", "collègue", None),
        ("Idée pour mon frère", "fr", "frère", None),
        ("Gift for my uncle", "en", "uncle", None),
        ("Ideas for my sister", "en", "sister", None),
        # across a comma or a bracket the name is kept
        ("Léa, ma nièce", "fr", "nièce", "Léa"),
        ("Léa (ma nièce)", "fr", "nièce", "Léa"),
        ("l'anniversaire de Léa la coloc", "fr", "coloc", "Léa"),
        ("Karen, my boss", "en", "boss", "Karen"),
    ],
)
def test_a_name_before_the_relation_needs_a_comma_or_a_bracket(
    text: str, locale: str, said: str, name: str | None
) -> None:
    relation = resolve_relation(text, locale)  # type: ignore[arg-type]
    assert relation is not None
    assert (relation.said, relation.name) == (said, name)
