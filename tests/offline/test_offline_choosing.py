"""Choosing in words over a shortlist: by place, by description, and yes-phrases.

Sentences are our own (not the dialogue corpus'), in English and French, with cases that
must not be read as a choice.
"""

from __future__ import annotations

import datetime as dt

import pytest

from giftgenius.offline.intents import Choice
from giftgenius.offline.nlu import Extraction, extract

TODAY = dt.date(2026, 11, 29)
SHORTLIST = [
    ("Merino Sock Yarn Bundle", ["knitting"]),
    ("Oolong Tasting Set", ["tea"]),
    ("Trail Running Cap", ["hiking"]),
    ("Pocket Guide to Alpine Trails", ["hiking", "books"]),
    ("Leather Dog Hiking Harness", ["dog", "hiking"]),
]


def read(text: str) -> Extraction:
    return extract(
        text,
        today=TODAY,
        choosing=True,
        candidate_titles=[title for title, _ in SHORTLIST],
        candidate_answers=[answers for _, answers in SHORTLIST],
    )


def shortlisted(text: str, locale: str) -> Extraction:
    return extract(
        text,
        today=TODAY,
        locale=locale,
        choosing=True,
        candidate_titles=[title for title, _ in SHORTLIST],
        candidate_answers=[answers for _, answers in SHORTLIST],
    )


def chosen(text: str) -> Choice | None:
    return read(text).choice


@pytest.mark.parametrize(
    ("text", "position"),
    [
        ("the one at the bottom", -1),
        ("the bottom one please", -1),
        ("whichever is at the very end", -1),
        ("celui tout en bas", -1),
        ("celle de la fin", -1),
        ("le tout dernier", -1),
        ("the top one", 1),
        ("celui du haut, merci", 1),
        ("second one's lovely", 2),
        ("Le troisième me va bien", 3),
        ("the 4th, cheers", 4),
        ("second to last one", -2),
        ("the last but one", -2),
        ("l'avant-dernier", -2),
        ("Celle juste avant la dernière", -2),
        # a verb, an adjective or a pronoun after the ordinal: still a place in the list
        ("third works for me", 3),
        ("the fifth seems right", 5),
        ("second is nice", 2),
        ("Le quatrième proposé", 4),
        ("le deuxième m'intéresse", 2),
        ("le cinquième il est top", 5),
        ("la troisième idée proposée", 3),
    ],
)
def test_a_place_in_the_list_is_a_position(text: str, position: int) -> None:
    found = chosen(text)
    assert found is not None and found.position == position


@pytest.mark.parametrize(
    "text",
    [
        "yes, that's the one",
        "Oui, c'est mon dernier mot",
        "it's her first time living abroad",
        "finally, yes",
        "she moved there last week",
        "c'est son premier appartement",
        "the first two look nice",
    ],
)
def test_no_position_in_yes_phrases_or_other_nouns_ordinals(text: str) -> None:
    found = chosen(text)
    assert found is None or found.position is None


@pytest.mark.parametrize(
    ("text", "title"),
    [
        ("the knitting one", "Merino Sock Yarn Bundle"),
        ("celui pour le tricot", "Merino Sock Yarn Bundle"),
        ("the tea one please", "Oolong Tasting Set"),
        ("je prends le thé", "Oolong Tasting Set"),
        ("le harnais", "Leather Dog Hiking Harness"),  # a cognate of the title's word
        ("la laisse pour le chien", "Leather Dog Hiking Harness"),
        ("the one for the dog", "Leather Dog Hiking Harness"),
        ("let's go with the book", "Pocket Guide to Alpine Trails"),
    ],
)
def test_a_gift_described_by_what_it_is_for(text: str, title: str) -> None:
    found = chosen(text)
    assert found is not None and found.words == title and found.also == ()


def test_words_fitting_several_take_the_one_answering_more_and_name_the_others() -> None:
    for text in ("the hiking one", "celui pour la randonnée"):
        found = chosen(text)
        assert found is not None
        assert found.words == "Pocket Guide to Alpine Trails"  # hiking and books
        assert set(found.also) == {"Trail Running Cap", "Leather Dog Hiking Harness"}


@pytest.mark.parametrize(
    "text",
    [
        "a hiking thing maybe",  # asks for more, points at none
        "she already has a dog harness",
        "il n'aime pas le thé",
        "what about something for tea?",
        "she'd like some knitting stuff too",
    ],
)
def test_not_a_choice_by_description(text: str) -> None:
    assert chosen(text) is None


@pytest.mark.parametrize(
    ("text", "confirm"),
    [
        ("sorted, cheers", True),
        ("lock it in", True),
        ("yessir", True),
        ("go on then", True),
        ("fine by me", True),
        ("that works for me", True),
        ("Bon pour moi.", True),
        ("Ça me convient tout à fait", True),
        ("Adjugé !", True),
        ("marché conclu", True),
        ("not for me, sorry", False),
        ("ça ne me convient pas", False),
        ("pas pour moi", False),
        ("hold on, does it ship to Spain?", False),
    ],
)
def test_assent_in_many_registers(text: str, confirm: bool) -> None:
    assert extract(text, today=TODAY).confirm is confirm


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("the stovetop espresso maker", "stovetop"),
        ("that little wireless speaker, if you have it", "wireless"),
        ("La lampe en bois si vous en avez une", "bois"),
        ("celle qui fait de la lumière", "lumière"),
        ("je prendrais plutôt la bouilloire électrique", "électrique"),
    ],
)
def test_a_gift_named_by_what_it_is_goes_to_the_products_own_words(text: str, kept: str) -> None:
    """Nothing on the shortlist's titles fits: the words go to the tool, which reads the
    products' descriptions and the catalog (``select_described_gift``)."""
    found = chosen(text)
    assert found is not None and found.described is not None and kept in found.described
    assert found.position is None and found.price is None and found.words is None
    assert read(text).facts == {}  # a thing named while choosing is no new taste


@pytest.mark.parametrize(
    ("text", "price", "kind"),
    [
        ("the cheapest of the candles", "min", "candles"),
        ("La moins chère des bougies, merci", "min", "bougies"),
        ("the priciest of the grinders please", "max", "grinders"),
        ("le plus cher des moulins", "max", "moulins"),
        ("the least expensive teapot, and confirm it", "min", "teapot"),
        ("donne-moi la bougie la moins chère", "min", "bougie"),
    ],
)
def test_a_price_end_over_a_kind_keeps_the_kind(text: str, price: str, kind: str) -> None:
    found = chosen(text)
    assert found is not None and found.price == price
    assert found.described is not None and kind in found.described


@pytest.mark.parametrize(
    "text",
    [
        "the cheapest one",
        "whatever's least expensive",
        "show me the dearest one, I'll have it",
        "too pricey, the cheapest instead",
        "finalement le moins cher plutôt",
        "file-moi le moins cher",
        "Je prendrai le moins cher de ta liste, merci",
        "n'importe lequel, le moins cher",
        "le moins cher de tes propositions",
        "the priciest of the first three",
        "la plus chère de la liste svp",
        # the end word alone or a two-word end ("petit prix"), one phrase each
        "je prends le plus abordable",
        "le plus économique",
        "celui au plus petit prix",
    ],
)
def test_a_price_end_over_the_whole_list_names_no_kind(text: str) -> None:
    found = chosen(text)
    assert found is not None and found.price is not None and found.described is None


@pytest.mark.parametrize(
    "text",
    [
        "that's way too expensive",
        "c'est un peu cher quand même",
        "the budget is 40 dollars now",
        "la livraison doit être en Suisse",
        "not the wooden one",
        "the others, please",
        "plutôt quelque chose pour le jardin",
        "I'd rather have something for his bike",
    ],
)
def test_no_gift_named_by_what_it_is(text: str) -> None:
    found = chosen(text)
    assert found is None or found.described is None


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("do you have a wooden tray?", "wooden"),
        ("Auriez-vous une bouilloire électrique ?", "bouilloire"),
        ("is there a wireless one?", "wireless"),
    ],
)
def test_asking_whether_there_is_one_names_it(text: str, kept: str) -> None:
    found = chosen(text)
    assert found is not None and found.described is not None and kept in found.described


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("Je prends la deuxième idée, mais je reviendrai pour finaliser plus tard.", "fr"),
        ("Le 2, je repasserai pour valider", "fr"),
        ("I'll take the second one, but I'll come back to confirm it later", "en"),
        ("the second, let me think about it and I'll confirm tomorrow", "en"),
    ],
)
def test_choosing_while_leaving_chooses_and_confirms_nothing(text: str, locale: str) -> None:
    """What is put off ("…to finalize later") is not said now: the choice stands alone."""
    read = shortlisted(text, locale)
    assert read.choice is not None and read.choice.position == 2
    assert read.leave
    assert not read.confirm and not read.explicit_confirm


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("the second one, confirm it", "en"),
        ("le deuxième, je confirme", "fr"),
        ("oui je confirme, merci et à plus", "fr"),  # the yes comes before the goodbye
        ("yes please, talk later", "en"),
    ],
)
def test_a_yes_before_the_goodbye_still_confirms(text: str, locale: str) -> None:
    assert shortlisted(text, locale).confirm
