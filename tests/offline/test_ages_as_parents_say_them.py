"""Ages as parents say them: by the birthday to come ("for her 12th birthday", "pour son 10e
anniversaire"), by the age coming ("she'll be 6 next month", "aura bientôt 9 ans"), set next
to the relation ("pour mon neveu, 7 ans, …", "my grandson, 9, loves…") or in a terse line
("garçon 8 ans 25€ france"). A stretch of time, a couple's anniversary, money and counts are
no age."""

from __future__ import annotations

import datetime as dt

import pytest

from giftgenius.offline.nlu import extract

TODAY = dt.date(2026, 12, 1)


@pytest.mark.parametrize(
    ("text", "locale", "age"),
    [
        # an ordinal birthday
        ("Gift ideas for my niece for her 12th birthday", "en", 12),
        ("it's his 7th bday next week, any ideas?", "en", 7),
        ("my son's twelfth birthday is coming up", "en", 12),
        ("for my daughter's first birthday", "en", 1),
        ("Un cadeau pour mon fils pour son 10e anniversaire", "fr", 10),
        ("c'est pour le 8ème anniv de ma nièce", "fr", 8),
        ("pour le douzième anniversaire de mon fils", "fr", 12),
        ("pour son premier anniversaire, ma filleule", "fr", 1),
        ("pour ses 8 ans, ma petite-fille", "fr", 8),
        # whose birthday it is
        ("C'est pour les 7 ans de mon fils", "fr", 7),
        ("on fête les 6 ans de mon petit-fils samedi", "fr", 6),
        ("for my son's 8th, he loves space", "en", 8),
        ("it's my niece's 10th birthday on Saturday", "en", 10),
        # a coming age
        ("he's turning 8 and loves lego", "en", 8),
        ("she'll be 6 next month, my daughter", "en", 6),
        ("my nephew is gonna be 10 in May", "en", 10),
        ("she's almost 7 and obsessed with unicorns", "en", 7),
        ("Mon neveu va avoir 7 ans samedi", "fr", 7),
        ("mon filleul va bientôt avoir 5 ans et adore les camions", "fr", 5),
        ("Mon fils fête ses 6 ans samedi", "fr", 6),
        ("ma fille aura bientôt 9 ans et adore la danse", "fr", 9),
        ("ma nièce va sur ses 8 ans", "fr", 8),
        # an age reached since: "depuis" after "N ans" is no "de" ("20 ans de mariage")
        ("pour mon filleul, il a eu 11 ans depuis", "fr", 11),
        # next to the relation, after a comma or in brackets
        ("pour mon neveu, 7 ans, passionné de dinosaures", "fr", 7),
        ("pour mon neveu, sept ans, 30 euros", "fr", 7),
        ("my grandson, 9, loves trains", "en", 9),
        ("my son (8) loves lego", "en", 8),
        ("for my nephew, 12, 30 dollars", "en", 12),
        ("my niece, almost 7, loves dogs", "en", 7),
        ("ma fille, bientôt 6 ans, adore les chevaux", "fr", 6),
        ("mon neveu (10 ans) aime le foot", "fr", 10),
        # a terse line
        ("garçon 8 ans 25€ france", "fr", 8),
        ("fille 10 ans, 30€, licornes", "fr", 10),
        ("girl 7yo £20", "en", 7),
        ("Nephew 11, into Minecraft, 40 bucks, UK", "en", 11),
        ("fille 9ans 30e", "fr", 9),
    ],
)
def test_an_age_as_parents_say_it(text: str, locale: str, age: int) -> None:
    assert extract(text, today=TODAY, locale=locale).facts.get("age") == age


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        # durations
        ("je connais ma copine depuis 8 ans", "fr"),
        ("I've known my friend for 10 years", "en"),
        ("il y a 3 ans mon frère faisait du judo", "fr"),
        ("ça aura 10 ans qu'on est ensemble, pour mon mari", "fr"),
        ("for my boss, 5 years at the company", "en"),
        ("pour mon frère, 3 ans plus tard", "fr"),
        # a couple's or a firm's anniversary
        ("mon mari, nos 10 ans de mariage", "fr"),
        ("pour ma femme, 10 ans de mariage", "fr"),
        ("for our 10th anniversary, my wife", "en"),
        ("pour notre 10e anniversaire, pour ma femme", "fr"),
        ("son 30e anniversaire de mariage, pour ma mère", "fr"),
        ("pour le 10e anniversaire de notre mariage, ma femme", "fr"),
        ("pour les 10 ans de notre mariage, ma femme", "fr"),
        ("pour les 20 ans de ma boîte, mon associé", "fr"),
        ("for my son's 8th grade teacher", "en"),
        # money and counts
        ("gift for my dad, 60 dollars", "en"),
        ("pour mon père, 60€, il aime le vin", "fr"),
        ("pour ma soeur, 30, elle aime le yoga", "fr"),
        ("for my dad, 50, France", "en"),
        ("my brother 30, he likes golf", "en"),
        ("my nephew, 15", "en"),
    ],
)
def test_time_anniversaries_and_money_are_no_age(text: str, locale: str) -> None:
    assert "age" not in extract(text, today=TODAY, locale=locale).facts


def test_a_bare_figure_between_commas_that_is_the_budget_stays_the_budget() -> None:
    """ "pour ma soeur, 30, elle aime le yoga": the figure is read as the budget, not as
    both."""
    facts = extract("pour ma soeur, 30, elle aime le yoga", today=TODAY, locale="fr").facts
    assert facts.get("budget_max") == 30.0
    assert "age" not in facts


@pytest.mark.parametrize(
    "text",
    [
        "c'est pour le 8ème anniv de ma nièce",
        "pour le douzième anniversaire de mon fils",
        "pour le premier anniversaire de ma fille",
    ],
)
def test_which_birthday_is_no_day_of_the_month(text: str) -> None:
    """ "le 8ème anniv" says the age, not that the gift is due on the 8th."""
    assert "deadline" not in extract(text, today=TODAY, locale="fr").facts


@pytest.mark.slow
def test_the_day_of_an_ordinal_birthday_is_still_read() -> None:
    facts = extract(
        "pour son 10e anniversaire le 12 décembre, mon fils", today=TODAY, locale="fr"
    ).facts
    assert facts.get("age") == 10
    assert facts.get("deadline") == dt.date(2026, 12, 12)
