"""Places: what a person calls a destination, in English or French, becomes an ISO country."""

from __future__ import annotations

import pytest

from giftgenius.language.places import (
    country_name,
    place_alone,
    resolve_country,
    resolve_country_slip,
)

COUNTRIES = [
    # English names, aliases and codes
    ("France", "en", "FR"),
    ("germany", "en", "DE"),
    ("UK", "en", "GB"),
    ("the UK", "en", "GB"),
    ("U.K.", "en", "GB"),
    ("England", "en", "GB"),
    ("Scotland", "en", "GB"),
    ("Wales", "en", "GB"),
    ("Great Britain", "en", "GB"),
    ("United Kingdom", "en", "GB"),
    ("USA", "en", "US"),
    ("U.S.A.", "en", "US"),
    ("the US", "en", "US"),
    ("the States", "en", "US"),
    ("United States of America", "en", "US"),
    ("America", "en", "US"),
    ("Holland", "en", "NL"),
    ("the Netherlands", "en", "NL"),
    ("South Korea", "en", "KR"),
    ("Korea", "en", "KR"),
    ("North Korea", "en", "KP"),
    ("Iran", "en", "IR"),
    ("Bolivia", "en", "BO"),
    ("Tanzania", "en", "TZ"),
    ("Congo", "en", "CG"),
    ("Vietnam", "en", "VN"),
    ("Russia", "en", "RU"),
    ("Turkey", "en", "TR"),
    ("Czech Republic", "en", "CZ"),
    ("Ivory Coast", "en", "CI"),
    ("Switzerland", "en", "CH"),
    ("Japan", "en", "JP"),
    ("Georgia", "en", "GE"),  # a country before a state; "Atlanta, Georgia" below
    ("FR", "en", "FR"),
    ("de", "en", "DE"),
    # French names, with and without accents and articles
    ("la Belgique", "fr", "BE"),
    ("Belgique", "fr", "BE"),
    ("les États-Unis", "fr", "US"),
    ("Etats Unis", "fr", "US"),
    ("aux États-Unis", "fr", "US"),
    ("Allemagne", "fr", "DE"),
    ("en Allemagne", "fr", "DE"),
    ("Royaume-Uni", "fr", "GB"),
    ("Angleterre", "fr", "GB"),
    ("Écosse", "fr", "GB"),
    ("ecosse", "fr", "GB"),
    ("Pays-Bas", "fr", "NL"),
    ("aux Pays-Bas", "fr", "NL"),
    ("Suisse", "fr", "CH"),
    ("la Suisse", "fr", "CH"),
    ("Espagne", "fr", "ES"),
    ("Italie", "fr", "IT"),
    ("Corée du Sud", "fr", "KR"),
    ("Viêt Nam", "fr", "VN"),
    ("Côte d'Ivoire", "fr", "CI"),
    ("au Canada", "fr", "CA"),
    ("au Maroc", "fr", "MA"),
    ("Irlande", "fr", "IE"),
    ("Grèce", "fr", "GR"),
    ("Grece", "fr", "GR"),
    ("Russie", "fr", "RU"),
    ("Bolivie", "fr", "BO"),
    ("Syrie", "fr", "SY"),
]

CITIES = [
    ("NYC", "en", "US"),
    ("New York", "en", "US"),
    ("Munich", "en", "DE"),
    ("München", "en", "DE"),
    ("Munchen", "en", "DE"),
    ("Bruxelles", "fr", "BE"),
    ("Brussels", "en", "BE"),
    ("Genève", "fr", "CH"),
    ("Geneve", "fr", "CH"),
    ("Geneva", "en", "CH"),
    ("Montréal", "fr", "CA"),
    ("Montreal", "en", "CA"),
    ("Toronto", "en", "CA"),
    ("Paris", "fr", "FR"),  # the most populous Paris
    ("Londres", "fr", "GB"),
    ("Vienne", "fr", "AT"),
    ("Bâle", "fr", "CH"),
    ("Anvers", "fr", "BE"),
    ("Le Caire", "fr", "EG"),
    ("Pékin", "fr", "CN"),
    ("Moscou", "fr", "RU"),
    ("Cologne", "en", "DE"),
    ("Köln", "en", "DE"),
    ("Aix-la-Chapelle", "fr", "DE"),
    ("Saint-Pétersbourg", "fr", "RU"),
    ("Florence", "en", "IT"),
    ("Cambridge", "en", "GB"),
    ("Sydney", "en", "AU"),
    ("Lyon", "fr", "FR"),
    ("Nice", "fr", "FR"),
    ("LA", "en", "US"),
    ("Los Angeles", "en", "US"),
    ("Quebec City", "en", "CA"),
    ("in Toronto", "en", "CA"),
    ("à Montréal", "fr", "CA"),
]

REGIONS = [
    ("Texas", "en", "US"),
    ("California", "en", "US"),
    ("Californie", "fr", "US"),
    ("Floride", "fr", "US"),
    ("New Jersey", "en", "US"),
    ("Ontario", "en", "CA"),
    ("Québec", "fr", "CA"),
    ("British Columbia", "en", "CA"),
    ("Colombie-Britannique", "fr", "CA"),
    ("Nouvelle-Écosse", "fr", "CA"),
    ("TX", "en", "US"),
]

QUALIFIED = [
    ("Paris, Texas", "en", "US"),
    ("Paris, France", "en", "FR"),
    ("Paris, Ontario", "en", "CA"),  # too small to be indexed: the province decides
    ("London, Ontario", "en", "CA"),
    ("Atlanta, Georgia", "en", "US"),
    ("Austin, TX", "en", "US"),
    ("Vancouver, BC", "en", "CA"),
    ("Portland, Maine", "en", "US"),
    ("Springfield, Illinois", "en", "US"),
    ("Lyon, France", "fr", "FR"),
    ("Montréal, Québec", "fr", "CA"),
]

SENTENCES = [
    ("he lives in Toronto now", "en", "CA"),
    ("She moved to Munich last year", "en", "DE"),
    ("ship it to the US please", "en", "US"),
    ("i live in germany", "en", "DE"),
    ("I live in germany", "en", "DE"),
    ("ship it to usa", "en", "US"),
    ("we're sending it to Turkey", "en", "TR"),
    ("elle habite à Bruxelles", "fr", "BE"),
    ("livraison en Belgique", "fr", "BE"),
    ("from Paris to Toronto", "en", "CA"),  # the last place named
    ("Nice est sa ville", "fr", "FR"),
    ("She lives in Nice", "en", "FR"),
    ("Nice. She lives in Reading", "en", "GB"),
]

NOWHERE = [
    ("", "en"),
    ("   ", "en"),
    ("hello", "en"),
    ("my uncle", "en"),
    ("a nice mug", "en"),  # a city's name, not capitalised, inside a sentence
    ("send it to us", "en"),  # a code, not written as one
    ("We're having turkey for Christmas", "en"),  # a country that is also a word
    ("a china teapot", "en"),
    ("She loves tea", "en"),  # "She" is a city in China
    ("Christmas", "en"),
    ("Nice idea", "en"),
    ("It has to arrive by May", "en"),
    ("something cosy", "en"),
    ("je ne sais pas", "fr"),
]


@pytest.mark.parametrize(("text", "locale", "code"), COUNTRIES)
def test_country_names_and_aliases(text, locale, code):
    assert resolve_country(text, locale) == code


@pytest.mark.parametrize(("text", "locale", "code"), CITIES)
def test_cities_in_any_spelling(text, locale, code):
    assert resolve_country(text, locale) == code


@pytest.mark.parametrize(("text", "locale", "code"), REGIONS)
def test_us_states_and_canadian_provinces(text, locale, code):
    assert resolve_country(text, locale) == code


@pytest.mark.parametrize(("text", "locale", "code"), QUALIFIED)
def test_city_region_pairs_are_settled_by_the_region(text, locale, code):
    assert resolve_country(text, locale) == code


@pytest.mark.parametrize(("text", "locale", "code"), SENTENCES)
def test_a_place_inside_a_short_sentence(text, locale, code):
    assert resolve_country(text, locale) == code


@pytest.mark.parametrize(("text", "locale"), NOWHERE)
def test_text_that_names_no_place(text, locale):
    assert resolve_country(text, locale) is None


def test_case_and_accents_do_not_matter_for_a_whole_phrase():
    for text in ("ALLEMAGNE", "allemagne", "Allemagne", "États-Unis", "ETATS-UNIS", "etats-unis"):
        assert resolve_country(text, "fr") in {"DE", "US"}
    assert resolve_country("ETATS-UNIS", "fr") == "US"


def test_country_name_speaks_the_persons_language():
    assert country_name("DE", "fr") == "Allemagne"
    assert country_name("DE", "en") == "Germany"
    assert country_name("us", "fr") == "États-Unis"


@pytest.mark.parametrize(
    ("text", "locale", "code"),
    [
        ("bordeaux", "fr", "FR"),
        ("liege", "fr", "BE"),
        ("san diego", "en", "US"),
        ("manchester", "en", "GB"),
        ("autriche", "fr", "AT"),
        ("alberta", "en", "CA"),
    ],
)
def test_a_message_that_is_only_a_lowercase_place(text, locale, code):
    assert place_alone(text, locale) == code


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("nice", "en"),  # a word first, and a sentence's opener
        ("orange", "fr"),  # a town too small to outweigh the colour
        ("tours", "fr"),
        ("bonjour", "fr"),
        ("merci beaucoup", "fr"),
        ("sounds good", "en"),
        ("turkey", "en"),  # a country that is a word needs its capital
    ],
)
def test_everyday_lowercase_answers_are_no_place(text, locale):
    assert place_alone(text, locale) is None


@pytest.mark.parametrize(
    ("text", "locale", "code"),
    [
        ("Espagen", "fr", "ES"),  # two letters swapped
        ("Portgal", "en", "PT"),  # one missing
        ("Sweeden", "en", "SE"),  # one doubled
        ("Autirche", "fr", "AT"),
        ("Belgiqe", "fr", "BE"),
        ("Grmany", "en", "DE"),
    ],
)
def test_a_country_name_with_one_slip(text, locale, code):
    assert resolve_country_slip(text, locale) == code


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("Espagne", "fr"),  # spelled right: not a slip, resolve_country reads it
        ("Inde", "fr"),  # too short to tell a slip from another word
        ("Marseile", "fr"),  # a city: too many of them for one slip to be sure
        ("Mali", "en"),
        ("Bobby", "en"),
    ],
)
def test_no_slip_is_read_where_a_name_is_right_short_or_a_town(text, locale):
    assert resolve_country_slip(text, locale) is None


@pytest.mark.parametrize(
    ("text", "locale", "expected"),
    [
        ("Denver", "en", "US"),
        ("glasgow", "en", "GB"),
        ("in seattle", "en", "US"),
        ("à bordeaux", "fr", "FR"),
        ("genève", "fr", "CH"),
        ("Reading", "en", "GB"),  # capitalised and alone: the town
        ("reading", "en", None),  # lowercase: the everyday word
        ("tours", "fr", None),
        ("pour Florence", "fr", None),  # whom it is for, not where
        ("for Austin", "en", None),
        ("ta", "en", None),
        ("NYC", "en", "US"),
        ("she lives in Denver", "en", None),  # not the place alone: resolve_country's job
    ],
)
def test_a_place_alone_in_any_case(text: str, locale: str, expected: str | None) -> None:
    assert place_alone(text, locale) == expected
