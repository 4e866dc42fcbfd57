"""Everyday kinds of sentences the offline reader once misread.

Each kind is tried with sentences written for it (none from any dialogue set, so the sets
keep measuring reading they did not teach), in English and French where the kind exists in
both, with a case that must still be read the old way.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from giftgenius.language.when import parse_deadline
from giftgenius.offline.nlu import extract

TODAY = dt.date(2026, 11, 30)
TITLES = ["Cedar Pencil Set", "Walnut Desk Lamp", "Linen Apron", "Copper Kettle"]


def facts(text: str, **kwargs: Any) -> dict[str, Any]:
    return extract(text, today=TODAY, **kwargs).facts


def choosing(text: str, locale: str) -> Any:
    return extract(text, today=TODAY, locale=locale, choosing=True, candidate_titles=TITLES)


# --- answer words one after the other: the last one says it ------------------------------


@pytest.mark.parametrize(
    ("text", "locale", "yes"),
    [
        ("yeah nah, not feeling it", "en", False),
        ("nah yeah, sounds good to me", "en", True),
        ("yep no, hold off", "en", False),
        ("ouais non, pas convaincue", "fr", False),
        ("non ouais, vas-y", "fr", True),
        # one answer, or the same answer twice, reads as before
        ("yeah no worries, go ahead", "en", True),
        ("oui oui, parfait", "fr", True),
        ("nope", "en", False),
    ],
)
def test_a_run_of_answer_words_means_its_last(text: str, locale: str, yes: bool) -> None:
    found = choosing(text, locale)
    assert (found.confirm, found.decline) == (yes, not yes)


# --- a gift refused before the one chosen, without "but" ---------------------------------


@pytest.mark.parametrize(
    ("text", "locale", "position", "price"),
    [
        ("not number 1, number 4 please", "en", 4, None),
        ("not that one, the cheapest", "en", None, "min"),
        ("pas la deuxième, la dernière", "fr", -1, None),
        ("non pas celui-ci ; le 4", "fr", 4, None),
        # the refusal after the choice leaves the choice as it is
        ("the third, not the first", "en", 3, None),
    ],
)
def test_the_choice_is_what_follows_a_refused_one(
    text: str, locale: str, position: int | None, price: str | None
) -> None:
    choice = choosing(text, locale).choice
    assert choice is not None
    assert (choice.position, choice.price) == (position, price)


# --- taking back what was just said, without "but" ---------------------------------------


@pytest.mark.parametrize(
    ("text", "locale", "interests"),
    [
        ("he's into chess. never mind that, he's really into astronomy", "en", ["astronomy"]),
        ("she likes candles, oh wait no, puzzles", "en", ["puzzle"]),
        ("elle aime la poterie, euh non, le dessin", "fr", ["drawing"]),
        ("il adore le jazz. Laisse tomber, il est fan d'opéra", "fr", ["opera"]),
        # a correction that adds keeps what came before
        ("she likes jazz. actually she also likes opera", "en", ["jazz", "opera"]),
    ],
)
def test_a_taste_taken_back_in_the_same_message_is_gone(
    text: str, locale: str, interests: list[str]
) -> None:
    found = facts(text, locale=locale)
    assert found.get("interests") == interests
    assert "dislikes" not in found


@pytest.mark.parametrize(
    ("text", "locale", "budget"),
    [("hmm no, 55 tops", "en", 55.0), ("non attends, 70 € grand max", "fr", 70.0)],
)
def test_taking_back_a_budget_refuses_nothing(text: str, locale: str, budget: float) -> None:
    found = facts(text, locale=locale, profile={"budget": {"max": 90}})
    assert found.get("budget_max") == budget
    assert "dislikes" not in found


# --- short names of tastes ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "locale", "tag"),
    [
        ("my niece loves her Nintendo Switch", "en", "video-game"),
        ("mon filleul adore sa PS4", "fr", "video-game"),
        ("my boss is partial to a G and T", "en", "gin"),
        ("ma cousine joue à D&D avec ses amis", "fr", "role-playing"),
        ("he spends his weekends at the allotment", "en", "gardening"),
    ],
)
def test_short_names_of_tastes(text: str, locale: str, tag: str) -> None:
    assert tag in facts(text, locale=locale).get("interests", [])


# --- keenness in other words -------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "locale", "tag"),
    [
        ("she never says no to a good whisky", "en", "whisky"),
        ("mon père ne dit jamais non à un bon fromage", "fr", "cheese"),
        ("my nephew devours fantasy novels", "en", "fantasy"),
        ("ma sœur dévore les polars", "fr", "mystery"),
        ("she just joined a climbing gym", "en", "climbing"),
        ("mon fils s'est inscrit au club de tennis", "fr", "tennis"),
        ("she runs the chess club at her school", "en", "chess"),
        ("il kiff les mangas", "fr", "manga"),
    ],
)
def test_keenness_in_other_words(text: str, locale: str, tag: str) -> None:
    found = facts(text, locale=locale)
    assert tag in found.get("interests", [])
    assert tag not in found.get("dislikes", [])


def test_to_run_something_is_not_running_but_running_still_is() -> None:
    assert "running" not in facts("she runs a pottery studio", locale="en").get("interests", [])
    assert "running" in facts("she runs every evening", locale="en").get("interests", [])


def test_a_plain_never_still_refuses() -> None:
    assert "wine" in facts("he never drinks wine", locale="en").get("dislikes", [])


# --- deadlines ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "locale", "due"),
    [
        ("within the week please", "en", dt.date(2026, 12, 7)),
        ("dans la semaine si possible", "fr", dt.date(2026, 12, 7)),
        ("it has to be there before January 9th", "en", dt.date(2027, 1, 8)),
        ("avant le 12 janvier", "fr", dt.date(2027, 1, 11)),
        ("by the 9th", "en", dt.date(2026, 12, 9)),
        ("d'ici le 9", "fr", dt.date(2026, 12, 9)),
    ],
)
def test_deadline_kinds(text: str, locale: str, due: dt.date) -> None:
    assert parse_deadline(text, TODAY, locale) == due  # type: ignore[arg-type]


def test_a_week_without_a_cue_is_no_deadline() -> None:
    assert parse_deadline("la semaine dernière elle m'en a parlé", TODAY, "fr") is None


@pytest.mark.parametrize(
    ("text", "locale", "recipient"),
    [
        ("something for my aunt before January 6th", "en", "aunt"),
        ("avant Noël svp, c'est pour mon parrain", "fr", "parrain"),
        ("needs to arrive before Valentine's Day", "en", None),
    ],
)
def test_a_month_or_a_holiday_is_no_name(text: str, locale: str, recipient: str | None) -> None:
    assert facts(text, locale=locale).get("recipient") == recipient


# --- where someone works, and a phrase's head noun, are no tastes of their own ------------


@pytest.mark.parametrize(
    ("text", "locale", "interests"),
    [
        ("une idée pour ma collègue de bureau, fan de randonnée", "fr", ["hiking"]),
        ("something for my office mate, she loves plants", "en", ["plant"]),
        ("il adore la cuisine italienne", "fr", ["italian-cuisine"]),
        ("ma tante raffole de la cuisine indienne", "fr", ["indian-cuisine"]),
        # a taste in how the relation is named still counts, and a verb still does
        ("for my tennis partner", "en", ["tennis"]),
        ("elle cuisine tous les dimanches", "fr", ["cooking"]),
    ],
)
def test_naming_words_are_no_extra_taste(text: str, locale: str, interests: list[str]) -> None:
    assert facts(text, locale=locale).get("interests") == interests


# --- an occasion's day --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "locale", "due"),
    [
        ("my niece turns 8 in two weeks", "en", dt.date(2026, 12, 14)),
        ("mon père fête ses 70 ans le 12", "fr", dt.date(2026, 12, 12)),
        ("it's for her birthday on the 3rd", "en", dt.date(2026, 12, 3)),
        ("son anniversaire tombe le 5", "fr", dt.date(2026, 12, 5)),
    ],
)
def test_the_day_of_an_occasion_is_the_deadline(text: str, locale: str, due: dt.date) -> None:
    assert facts(text, locale=locale).get("deadline") == due


# --- names: a family name, and "en" before a town --------------------------------------------


@pytest.mark.parametrize(
    ("text", "locale", "recipient"),
    [
        ("a gift for Ana Lopez, she likes yoga", "en", "Ana Lopez"),
        ("un cadeau pour Hélène Martin qui aime le thé", "fr", "Hélène Martin"),
        ("for Tom, he loves chess", "en", "Tom"),
    ],
)
def test_a_family_name_stays_with_the_first_name(text: str, locale: str, recipient: str) -> None:
    assert facts(text, locale=locale).get("recipient") == recipient


@pytest.mark.parametrize(
    ("text", "country"),
    [
        ("mon frère est en grève depuis lundi", None),
        ("elle vit en Suisse", "CH"),
        ("il est en Californie pour le boulot", "US"),
        ("il est en stage à Berlin", "DE"),
    ],
)
def test_en_goes_before_a_land_not_a_town(text: str, country: str | None) -> None:
    assert facts(text, locale="fr").get("country") == country


def test_text_speak_with() -> None:
    assert "astronomy" in facts("my dad is obsessed w telescopes", locale="en")["interests"]


def test_walking_someone_else_is_no_hike() -> None:
    assert "hiking" not in facts("for the lady who walks my dog", locale="en").get("interests", [])
    assert "hiking" not in facts("pour celui qui promène mon chien", locale="fr").get(
        "interests", []
    )
    assert "hiking" in facts("she walks for hours every weekend", locale="en")["interests"]


@pytest.mark.parametrize(
    ("text", "locale", "recipient"),
    [
        ("pour Inès du service client, elle adore le thé", "fr", "Inès"),
        ("for Jo from customer support, she loves tea", "en", "Jo"),
        ("a thank-you gift for my best client", "en", "best client"),
    ],
)
def test_a_department_names_no_relation(text: str, locale: str, recipient: str) -> None:
    assert facts(text, locale=locale).get("recipient") == recipient


@pytest.mark.parametrize(
    ("text", "recipient"),
    [
        ("a little thank-you for the lady who feeds my cats", "lady"),
        ("something for the guy who fixed my bike, he's into jazz", "guy"),
        # the speaker's own animal is no recipient either way
        ("for the woman next door who waters my plants", "woman"),
    ],
)
def test_a_person_described_by_what_they_do_is_the_recipient(text: str, recipient: str) -> None:
    assert facts(text, locale="en").get("recipient") == recipient


@pytest.mark.parametrize(
    ("text", "locale", "country"),
    [
        ("Austin, 40 dollars", "en", None),  # a first name where a name goes
        ("Valence, 25 €", "fr", None),
        ("Belgique, 25 €", "fr", "BE"),  # a country's own name is a place anywhere
        ("marseille, 25 €", "fr", "FR"),  # a town typed in lowercase names no one
        ("Manchester", "en", "GB"),  # a whole message that is a town
    ],
)
def test_a_capitalised_first_piece_is_a_name_not_a_town(
    text: str, locale: str, country: str | None
) -> None:
    assert facts(text, locale=locale).get("country") == country


@pytest.mark.parametrize(
    ("text", "locale", "tag"),
    [
        ("no rush at all, my aunt loves jigsaws", "en", "puzzle"),
        ("pas de pression hein, mon oncle adore le golf", "fr", "golf"),
        ("aucun souci, ma fille adore les chevaux", "fr", "horse"),
    ],
)
def test_saying_all_is_well_refuses_nothing(text: str, locale: str, tag: str) -> None:
    found = facts(text, locale=locale)
    assert tag in found.get("interests", [])
    assert "dislikes" not in found


def test_a_real_refusal_of_the_same_word_still_refuses() -> None:
    assert "stress" in facts("she hates stress, loves yoga", locale="en").get("dislikes", [])


@pytest.mark.parametrize(
    ("text", "locale", "refused"),
    [
        ("my mum avoids sugar these days", "en", "confectionery"),
        ("he's been avoiding alcohol since january, loves chess", "en", "alcohol"),
        ("ma sœur évite le plastique", "fr", "plastique"),
    ],
)
def test_avoiding_is_refusing(text: str, locale: str, refused: str) -> None:
    assert refused in facts(text, locale=locale).get("dislikes", [])
