"""Relations: the recipient as the person said it, their name, and the catalog's audience."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from giftgenius.catalog import RECIPIENTS, load_products
from giftgenius.language.relations import Relation, lexicon, resolve_relation

# text, locale, said, name, audience, gender
CASES = [
    # English: kinship
    ("your uncle Dave", "en", "uncle", "Dave", "anyone", "male"),
    ("my aunt", "en", "aunt", None, "anyone", "female"),
    ("my auntie Jo", "en", "auntie", "Jo", "anyone", "female"),
    ("my mother-in-law", "en", "mother-in-law", None, "mother", "female"),
    ("my step-mom", "en", "step-mom", None, "mother", "female"),
    ("my stepdad", "en", "stepdad", None, "father", "male"),
    ("my little sister", "en", "little sister", None, "sister", "female"),
    ("my big brother Tom", "en", "big brother", "Tom", "brother", "male"),
    ("my sister-in-law", "en", "sister-in-law", None, "sister", "female"),
    ("my grandma", "en", "grandma", None, "grandparent", "female"),
    ("my granny", "en", "granny", None, "grandparent", "female"),
    ("my nan", "en", "nan", None, "grandparent", "female"),
    ("grandpa", "en", "grandpa", None, "grandparent", "male"),
    ("my grandparents", "en", "grandparents", None, "grandparent", None),
    ("my nephew", "en", "nephew", None, "child", "male"),
    ("my niece", "en", "niece", None, "child", "female"),
    ("my nieces", "en", "nieces", None, "child", "female"),
    ("my godson", "en", "godson", None, "child", "male"),
    ("my goddaughter", "en", "goddaughter", None, "child", "female"),
    ("my godmother", "en", "godmother", None, "anyone", "female"),
    ("my godfather", "en", "godfather", None, "anyone", "male"),
    ("my cousin", "en", "cousin", None, "friend", None),
    ("my teenage son", "en", "teenage son", None, "teen", "male"),
    ("my daughter", "en", "daughter", None, "child", "female"),
    ("my in-laws", "en", "in-laws", None, "anyone", None),
    # English: partners and friends
    ("my wife", "en", "wife", None, "partner", "female"),
    ("my husband", "en", "husband", None, "partner", "male"),
    ("his girlfriend", "en", "girlfriend", None, "partner", "female"),
    ("my boyfriend", "en", "boyfriend", None, "partner", "male"),
    ("my fiancée", "en", "fiancée", None, "partner", "female"),
    ("my partner", "en", "partner", None, "partner", None),
    ("my best friend Sam", "en", "best friend", "Sam", "friend", None),
    ("my flatmate", "en", "flatmate", None, "friend", None),
    ("my roommate", "en", "roommate", None, "friend", None),
    ("our neighbours", "en", "neighbours", None, "neighbor", None),
    ("my neighbor", "en", "neighbor", None, "neighbor", None),
    # English: work and roles
    ("my boss Karen", "en", "boss", "Karen", "boss", None),
    ("Karen, my boss", "en", "boss", "Karen", "boss", None),
    ("my manager, Priya Patel", "en", "manager", "Priya Patel", "boss", None),
    ("my coworker", "en", "coworker", None, "colleague", None),
    ("a colleague", "en", "colleague", None, "colleague", None),
    ("the intern", "en", "intern", None, "colleague", None),
    ("a client", "en", "client", None, "colleague", None),
    ("my piano teacher", "en", "piano teacher", None, "teacher", None),
    ("my kid's teacher", "en", "kid's teacher", None, "teacher", None),
    ("the coach", "en", "coach", None, "teacher", None),
    ("my mentor", "en", "mentor", None, "teacher", None),
    ("the nurse", "en", "nurse", None, "anyone", None),
    ("my landlord", "en", "landlord", None, "anyone", None),
    # English: the hard ones
    ("my wife's sister", "en", "wife's sister", None, "sister", "female"),
    ("my chef friend", "en", "chef friend", None, "friend", None),
    ("It's for my uncle", "en", "uncle", None, "anyone", "male"),
    ("For my boss", "en", "boss", None, "boss", None),
    ("a niece named lily", "en", "niece", "lily", "child", "female"),
    ("my 12-year-old nephew", "en", "12-year-old nephew", None, "child", "male"),
    ("my 15 year old niece", "en", "15 year old niece", None, "teen", "female"),
    ("my 40-year-old sister", "en", "40-year-old sister", None, "sister", "female"),
    ("Mrs Smith, my son's teacher", "en", "son's teacher", "Mrs Smith", "teacher", None),
    ("my colleague's daughter", "en", "colleague's daughter", None, "child", "female"),
    ("my dad's birthday", "en", "dad", None, "father", "male"),
    ("for the nurse who looked after my mum", "en", "nurse", None, "anyone", None),
    ("my uncle, he loves golf", "en", "uncle", None, "anyone", "male"),
    ("Mary Jane, my sister", "en", "sister", "Mary Jane", "sister", "female"),
    ("my kid's piano teacher", "en", "kid's piano teacher", None, "teacher", None),
    ("my mum and dad", "en", "mum", None, "mother", "female"),
    # French: kinship
    ("votre marraine", "fr", "marraine", None, "anyone", "female"),
    ("mon parrain", "fr", "parrain", None, "anyone", "male"),
    ("mon oncle Jean-Pierre", "fr", "oncle", "Jean-Pierre", "anyone", "male"),
    ("ma tata", "fr", "tata", None, "anyone", "female"),
    ("ma tante", "fr", "tante", None, "anyone", "female"),
    ("ma belle-mère", "fr", "belle-mère", None, "mother", "female"),
    ("ma belle mere", "fr", "belle mere", None, "mother", "female"),
    ("mon beau-père", "fr", "beau-père", None, "father", "male"),
    ("ma belle-sœur", "fr", "belle-sœur", None, "sister", "female"),
    ("ma petite sœur", "fr", "petite sœur", None, "sister", "female"),
    ("mon grand frère Léo", "fr", "grand frère", "Léo", "brother", "male"),
    ("papi", "fr", "papi", None, "grandparent", "male"),
    ("mamie", "fr", "mamie", None, "grandparent", "female"),
    ("mes grands-parents", "fr", "grands-parents", None, "grandparent", None),
    ("ma petite-fille", "fr", "petite-fille", None, "child", "female"),
    ("mon neveu", "fr", "neveu", None, "child", "male"),
    ("ma nièce", "fr", "nièce", None, "child", "female"),
    ("mon filleul", "fr", "filleul", None, "child", "male"),
    ("ma filleule", "fr", "filleule", None, "child", "female"),
    ("mon cousin", "fr", "cousin", None, "friend", "male"),
    ("ma cousine", "fr", "cousine", None, "friend", "female"),
    ("mon fils ado", "fr", "fils ado", None, "teen", "male"),
    # French: partners and friends
    ("mon mari", "fr", "mari", None, "partner", "male"),
    ("ma femme", "fr", "femme", None, "partner", "female"),
    ("mon copain", "fr", "copain", None, "partner", "male"),
    ("ma copine", "fr", "copine", None, "partner", "female"),
    ("ma chérie", "fr", "chérie", None, "partner", "female"),
    ("mon chéri", "fr", "chéri", None, "partner", "male"),
    ("ma nana", "fr", "nana", None, "partner", "female"),
    ("ma meilleure amie", "fr", "meilleure amie", None, "friend", None),
    ("une amie d'enfance", "fr", "amie d'enfance", None, "friend", None),
    ("ma coloc", "fr", "coloc", None, "friend", None),
    ("ma voisine Mme Dupont", "fr", "voisine", "Mme Dupont", "neighbor", "female"),
    ("mon voisin", "fr", "voisin", None, "neighbor", "male"),
    # French: work and roles
    ("mon patron", "fr", "patron", None, "boss", "male"),
    ("ma patronne", "fr", "patronne", None, "boss", "female"),
    ("mon chef", "fr", "chef", None, "boss", "male"),
    ("mon chef d'équipe", "fr", "chef d'équipe", None, "boss", "male"),
    ("une collègue", "fr", "collègue", None, "colleague", None),
    ("la stagiaire", "fr", "stagiaire", None, "colleague", None),
    ("une cliente", "fr", "cliente", None, "colleague", None),
    ("la maîtresse", "fr", "maîtresse", None, "teacher", "female"),
    ("le prof de maths", "fr", "prof de maths", None, "teacher", None),
    ("la nounou", "fr", "nounou", None, "anyone", "female"),
    # French: the hard ones
    ("la sœur de ma femme", "fr", "sœur de ma femme", None, "sister", "female"),
    ("la maîtresse de ma fille", "fr", "maîtresse de ma fille", None, "teacher", "female"),
    ("C'est pour ma tata", "fr", "tata", None, "anyone", "female"),
    ("ma nièce qui s'appelle Léa", "fr", "nièce", "Léa", "child", "female"),
    ("Léa (ma nièce)", "fr", "nièce", "Léa", "child", "female"),
    ("un ami nommé Hugo", "fr", "ami", "Hugo", "friend", "male"),
    ("mon neveu de 15 ans", "fr", "neveu", None, "teen", "male"),
    ("ma fille de 8 ans", "fr", "fille", None, "child", "female"),
    ("la fille de mon collègue", "fr", "fille de mon collègue", None, "child", "female"),
    ("mon tonton Jojo", "fr", "tonton", "Jojo", "anyone", "male"),
    ("mon n+1", "fr", "n+1", None, "boss", "male"),
    ("ma moitié", "fr", "moitié", None, "partner", None),
]


@pytest.mark.parametrize(("text", "locale", "said", "name", "audience", "gender"), CASES)
def test_relations(text, locale, said, name, audience, gender):
    relation = resolve_relation(text, locale)
    assert relation is not None
    assert (relation.said, relation.name, relation.audience, relation.gender) == (
        said,
        name,
        audience,
        gender,
    )
    assert relation.known


def test_the_locale_reads_words_both_languages_spell_alike():
    assert resolve_relation("my nana", "en").audience == "grandparent"
    assert resolve_relation("ma nana", "fr").audience == "partner"
    assert resolve_relation("my cousin", "en").gender is None
    assert resolve_relation("mon cousin", "fr").gender == "male"


def test_a_word_of_the_other_language_is_still_understood():
    assert resolve_relation("my patron", "en").audience == "boss"
    assert resolve_relation("mon boss", "fr").audience == "boss"


@pytest.mark.parametrize(
    ("text", "locale", "said"),
    [("my hairstylist", "en", "hairstylist"), ("plumber", "en", "plumber"),
     ("mon kinésithérapeute", "fr", "kinésithérapeute"), ("ma boulangère", "fr", "boulangère")],
)  # fmt: skip
def test_an_unknown_relation_word_falls_back_to_anyone(text, locale, said):
    relation = resolve_relation(text, locale)
    assert relation == Relation(said=said, audience="anyone", known=False)


def test_said_stays_the_relation_in_a_long_sentence():
    text = "my uncle, who lives far away and never calls, and also my boss's wife"
    relation = resolve_relation(text, "en")
    assert (relation.said, relation.audience) == ("uncle", "anyone")


def test_a_bare_name_is_a_name():
    assert resolve_relation("Dave", "en") == Relation(name="Dave", audience="anyone", known=False)


@pytest.mark.parametrize("text", ["", "   ", "nobody", "it's for a gift", "je ne sais pas"])
def test_text_that_names_nobody(text):
    assert resolve_relation(text, "en") is None


def test_the_lexicon_is_broad_in_both_languages():
    for locale in ("en", "fr"):
        terms = lexicon()[locale]
        assert len(terms) >= 80, locale
        audiences = {term.audience for term in terms.values()}
        assert audiences <= set(RECIPIENTS)
        assert audiences == set(RECIPIENTS), set(RECIPIENTS) - audiences


def test_every_audience_is_one_the_catalog_uses():
    used = {r for product in load_products() for r in product.recipients}
    assert {term.audience for terms in lexicon().values() for term in terms.values()} <= used


def test_an_audience_outside_the_catalog_is_refused():
    with pytest.raises(ValidationError, match="audience must be one of"):
        Relation(said="uncle", audience="uncle")


@pytest.mark.parametrize(
    "text", ["my uncle " + "Bartholomew" * 8, "Hello" * 20, "Karen" * 15 + ", my boss"]
)
def test_a_word_too_long_for_a_name_is_not_taken_as_one(text):
    """Found by the fuzz suite: a capitalised word over 60 letters broke the Relation model
    (a ValidationError out of update_profile, an HTTP 500 out of the offline model)."""
    relation = resolve_relation(text, "en")
    assert relation is None or relation.name is None
