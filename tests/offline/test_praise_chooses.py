"""Choosing by praising a gift on show: "hmm, the guidebook sounds good", "le coussin pour
jardiner me plaît bien", "I like the yarn", "ça a l'air top, le harnais". A liking phrase
about one gift pointed at ("the …", "le …", "l'…") picks it, by its title's words, by a
compound's parts ("guidebook": a guide, a book), or by what it is or does, for the tool to
match against the products themselves. Praise that points at nothing is a yes; praise taken
back, or a liking of a kind of thing ("j'aime bien les chiens"), picks nothing.

Sentences are our own (not the corpus'), in English and French.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path

import pytest

from giftgenius.agent.runner import Agent
from giftgenius.app import build_agent
from giftgenius.catalog import load_products
from giftgenius.catalog.describing import best_fits, compound_parts, read_description
from giftgenius.offline.nlu import Extraction, extract
from giftgenius.settings import load_settings

TODAY = dt.date(2026, 12, 1)
SHORTLIST = [
    ("Merino Sock Yarn Bundle", ["knitting"]),
    ("Oolong Tasting Set", ["tea"]),
    ("Trail Running Cap", ["hiking"]),
    ("Pocket Guide to Alpine Trails", ["hiking", "books"]),
    ("Leather Dog Hiking Harness", ["dog", "hiking"]),
]


def read(text: str, locale: str) -> Extraction:
    return extract(
        text,
        today=TODAY,
        locale=locale,
        choosing=True,
        candidate_titles=[title for title, _ in SHORTLIST],
        candidate_answers=[answers for _, answers in SHORTLIST],
    )


@pytest.mark.parametrize(
    ("locale", "text", "title"),
    [
        ("en", "hmm, the guidebook sounds good", "Pocket Guide to Alpine Trails"),
        ("en", "the guidebook looks great", "Pocket Guide to Alpine Trails"),
        ("en", "ooh I like the yarn", "Merino Sock Yarn Bundle"),
        ("en", "the tea set sounds lovely", "Oolong Tasting Set"),
        ("en", "I love the trail cap", "Trail Running Cap"),
        ("en", "she'd love the tea tasting", "Oolong Tasting Set"),
        ("en", "well, the oolong seems nice", "Oolong Tasting Set"),
        ("en", "oh the sock yarn is cute", "Merino Sock Yarn Bundle"),
        ("fr", "le thé me plaît bien", "Oolong Tasting Set"),
        ("fr", "hmm, le harnais me plaît", "Leather Dog Hiking Harness"),
        ("fr", "j'aime bien le guide de randonnée", "Pocket Guide to Alpine Trails"),
        ("fr", "ça a l'air bien, le harnais pour le chien", "Leather Dog Hiking Harness"),
        ("fr", "il adorerait le thé", "Oolong Tasting Set"),
        ("fr", "euh, le coffret de thé est sympa", "Oolong Tasting Set"),
        ("fr", "j'aime bien l'idée du thé", "Oolong Tasting Set"),
        ("en", "I love the idea of the tea set", "Oolong Tasting Set"),
    ],
)
def test_praising_a_gift_pointed_at_chooses_it(locale: str, text: str, title: str) -> None:
    found = read(text, locale)
    assert found.choice is not None and found.choice.words == title
    assert found.facts == {}  # a gift liked is no taste of the recipient's


@pytest.mark.parametrize(
    ("locale", "text", "described"),
    [
        ("fr", "le coussin pour jardiner me plaît bien", "le coussin pour jardiner"),
        ("fr", "euh, la casquette a l'air top", "la casquette"),
        ("fr", "la laine me tente bien", "la laine"),
        ("en", "the cushion for gardening looks perfect", "the cushion for gardening"),
        ("en", "hmm, I really like the wooden one", "the wooden"),
    ],
)
def test_praise_of_what_a_gift_is_hands_its_words_to_the_tool(
    locale: str, text: str, described: str
) -> None:
    found = read(text, locale)
    assert found.choice is not None and found.choice.described == described


@pytest.mark.parametrize(
    ("locale", "text"),
    [
        ("en", "I don't like the harness"),
        ("fr", "le harnais ne me plaît pas"),
        ("fr", "j'aime bien les chiens"),  # a kind of thing, not one on show
        ("en", "she likes tea"),
        ("en", "that looks great"),  # a yes, pointing at none
        ("fr", "ça a l'air top"),
        ("en", "sounds good"),
        ("en", "the cap sounds good but maybe something else"),
        ("en", "I like the sound of that"),  # no speaker: an idiom of praise
        ("fr", "j'aime bien l'idée"),
    ],
)
def test_praise_taken_back_or_of_nothing_on_show_chooses_nothing(locale: str, text: str) -> None:
    found = read(text, locale)
    assert found.choice is None or (found.choice.words is None and not found.choice.described)


@pytest.mark.parametrize(
    ("locale", "text", "position"),
    [
        ("fr", "ça me tente, le deuxième", 2),
        ("fr", "le deuxième me plaît", 2),
        ("en", "the second one sounds good", 2),
        ("fr", "euh, l'hôtel à abeilles me tente", None),  # "tente" is no "tenth"
    ],
)
def test_praise_is_no_place_in_the_list(locale: str, text: str, position: int | None) -> None:
    found = read(text, locale)
    assert (found.choice.position if found.choice else None) == position


@pytest.mark.parametrize(
    ("word", "parts"),
    [
        ("guidebook", ("guide", "book")),
        ("songbook", ("song", "book")),
        ("notebook", None),  # a vocabulary word whole
        ("passport", None),
        ("something", None),
    ],
)
def test_a_compound_written_as_one_word_is_read_by_its_parts(
    word: str, parts: tuple[str, str] | None
) -> None:
    assert compound_parts(word) == parts


GARDEN = [
    "Kneeling Pad and Gardening Gloves",
    "Balcony Mushroom Grow Kit",
    "Bonsai Starter Kit",
    "Cedar Bee Hotel for Solitary Bees",  # "in a cedar frame": its text names home decor
]


@pytest.mark.parametrize(
    "text",
    [
        "le coussin pour jardiner",
        "le coussin",
        "la genouillère",
        "the cushion for gardening",
        "the kneeler",
    ],
)
def test_what_a_gift_is_or_does_finds_it_among_others_of_its_kind(text: str) -> None:
    by_title = {p.title: p for p in load_products()}
    shown = [by_title[t] for t in GARDEN]
    assert [p.title for p in best_fits(shown, read_description(text))] == [GARDEN[0]]


@pytest.mark.parametrize(
    ("text", "tag"),
    [
        ("pour jardiner", "gardening"),
        ("pour randonner", "hiking"),
        ("pour peindre", "painting"),
        ("pour pêcher", "fishing"),
        ("pour grimper", "climbing"),
    ],
)
def test_what_a_gift_is_for_said_with_a_verb_names_the_pastime(text: str, tag: str) -> None:
    assert tag in read_description(text).tags


# --- played through the agent: the praise chooses, a yes after `resume` confirms ----------


@pytest.fixture
def agent(tmp_path: Path, seeded_db_file: Path) -> Iterator[Agent]:
    home = tmp_path / "home"
    home.mkdir()
    (home / "giftgenius.db").write_bytes(seeded_db_file.read_bytes())
    built = build_agent(load_settings(home=home, model="offline"))
    try:
        yield built
    finally:
        built.close()


@pytest.mark.parametrize(
    ("first", "praise", "yes", "word"),
    [
        (
            "a gift for my dad who loves hiking and travel, 40 dollars, he lives in Boston",
            "hmm, the guidebook sounds good",
            "yes go ahead",
            "Guide",
        ),
        (
            "pour ma mère qui adore jardiner, 40 euros, elle habite à Lyon",
            "le coussin pour jardiner me plaît bien",
            "oui vas-y",
            "Kneeling",
        ),
        (
            "pour mon frère, il adore le thé, 40 euros, à Lille",
            "euh, j'aime bien le coffret de dégustation",
            "ok, on y va",
            "Tasting",
        ),
    ],
)
@pytest.mark.slow
def test_praise_then_a_yes_on_the_resumed_shortlist_records_that_gift(
    agent: Agent, first: str, praise: str, yes: str, word: str
) -> None:
    run = agent.open("me").run
    agent.turn(run.id, "me", first)
    chose = agent.turn(run.id, "me", praise)
    selected = chose.state.selected_gift_id
    assert selected is not None
    resumed = agent.resume("me")
    assert resumed.run.id == run.id and resumed.selected is not None
    done = agent.turn(run.id, "me", yes)
    assert done.state.order_draft_id and done.state.selected_gift_id == selected
    with agent.db.read() as repos:
        assert word in repos.catalog.by_ids([selected])[selected].title
