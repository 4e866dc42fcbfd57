"""Vocabulary: English and French words, plurals and accents land on the same tags."""

from __future__ import annotations

import pytest

from giftgenius.catalog import canonical_recipient, canonical_tags, describe, load_products, search
from giftgenius.language import lexicon
from giftgenius.language.vocabulary import _PhraseTable, analyze, relation_words

# (English, French) phrasings that must find exactly the same items.
PAIRS = [
    ("board games", "jeux de société"),
    ("coffee", "café"),
    ("mugs", "tasses"),
    ("notebooks", "carnets"),
    ("candles", "bougies"),
    ("tea", "thé"),
    ("books", "livres"),
    ("plants", "plantes"),
    ("cooking", "cuisine"),
    ("hiking", "randonnée"),
    ("music", "musique"),
    ("gardening", "jardinage"),
    ("developer", "développeur"),
    ("fountain pens", "stylos plume"),
    ("knitting", "tricot"),
    ("headphones", "casque audio"),
    ("chess", "échecs"),
    ("cats", "chats"),
    ("science fiction", "science-fiction"),
    ("card games", "jeux de cartes"),
]


@pytest.mark.parametrize(("english", "french"), PAIRS)
def test_english_and_french_find_exactly_the_same_items(english, french):
    products = load_products()
    assert canonical_tags(english) == canonical_tags(french) != set()
    found_en = [p.id for p in search(products, english)]
    found_fr = [p.id for p in search(products, french)]
    assert found_en, english
    assert found_en == found_fr


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("mugs", {"mug"}),
        ("tasse", {"mug"}),
        ("des tasses", {"mug"}),
        ("mug", {"mug"}),
        ("carnet", {"notebook"}),
        ("cahier", {"notebook"}),
        ("notebooks", {"notebook"}),
        ("jeu de société", {"board-game"}),
        ("Jeux De Société", {"board-game"}),
        ("jeux de societe", {"board-game"}),
        ("board-game", {"board-game"}),
        ("caféine", {"coffee"}),
        ("cafeine", {"coffee"}),
        ("espresso", {"coffee"}),
        ("CAFÉ", {"coffee"}),
        ("bougies", {"candle"}),
        ("thés", {"tea"}),
        ("livres", {"book"}),
        ("randonnée", {"hiking"}),
        ("jardinage", {"gardening"}),
        ("programming", {"developer"}),
        ("wine tasting", {"wine", "experience"}),
        ("accessories", {"accessory"}),
    ],
)
def test_words_map_to_canonical_tags(text, expected):
    assert canonical_tags(text) == expected


def test_longest_phrase_wins():
    assert canonical_tags("un stylo plume") == {"fountain-pen"}
    assert canonical_tags("un stylo") == {"pen"}
    assert canonical_tags("jeux de société") == {"board-game"}
    assert canonical_tags("jeux") == {"game"}
    assert canonical_tags("tasse à café") == {"mug"}
    assert canonical_tags("sac de couchage") == {"camping"}


def test_free_text_finds_several_tags_and_ignores_unknown_words():
    assert canonical_tags("Elle adore le café, les jeux de société et les bougies!") == {
        "coffee",
        "board-game",
        "candle",
    }
    assert canonical_tags("zorblax quux") == set()
    assert canonical_tags("") == set()


def test_the_english_article_is_not_tea():
    assert canonical_tags("the best of the city") == set()
    assert canonical_tags("du thé vert") == {"tea"}


def test_a_list_is_read_item_by_item():
    assert canonical_tags(["mugs", "carnets"]) == {"mug", "notebook"}
    # "board" and "games" as separate items do not make a board game.
    assert canonical_tags(["board", "games"]) == {"game"}


def test_analyze_returns_leftover_words_folded_and_singular():
    result = analyze("Catans et cafés")
    assert result.tags == frozenset({"coffee"})
    assert "catan" in result.words


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("collègue", "colleague"),
        ("coworker", "colleague"),
        ("my colleague, a developer", "colleague"),
        ("un cadeau pour son collègue", "colleague"),
        ("ma sœur", "sister"),
        ("soeur", "sister"),
        ("sister", "sister"),
        ("mon père", "father"),
        ("dad", "father"),
        ("mon fils", "child"),
        ("ma fille", "child"),
        ("kid", "child"),
        ("enfant", "child"),
        ("ado", "teen"),
        ("teenager", "teen"),
        ("copine", "partner"),
        ("girlfriend", "partner"),
        ("boyfriend", "partner"),
        ("wife", "partner"),
        ("mon mari", "partner"),
        ("ma femme", "partner"),
        ("mon petit ami", "partner"),
        ("grand-mère", "grandparent"),
        ("grandpa", "grandparent"),
        ("mon patron", "boss"),
        ("boss", "boss"),
        ("amie", "friend"),
        ("friend", "friend"),
        ("pote", "friend"),
        ("maman", "mother"),
        ("voisine", "neighbor"),
        ("la maîtresse", "teacher"),
        ("Teacher", "teacher"),
    ],
)
def test_recipients(text, expected):
    assert canonical_recipient(text) == expected


def test_a_text_naming_nobody_is_none():
    assert canonical_recipient("a parrot that talks back") is None
    assert canonical_recipient("une bière blonde") is None  # "ma blonde" only
    assert canonical_recipient("") is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("the mailman's cousin's parrot", "anyone"),  # a relation that tells nothing of tastes
        ("my uncle", "anyone"),
        ("ma cousine", "friend"),
        ("my son", "child"),
        ("son père", "father"),  # French "son" is his, not a son
        ("ma copine", "partner"),
        ("ses copains", "partner"),  # as written first: "copain", not "copains"
        ("someone who loves tea", "anyone"),
        ("quelqu'un", "anyone"),
        ("my teenage nephew", "teen"),
    ],
)
def test_the_catalog_reads_the_relation_lexicon(text, expected):
    assert canonical_recipient(text) == expected


def test_every_relation_word_names_its_audience_to_the_catalog():
    """One lexicon: what the relation reader files under an audience, the catalog reads as
    that audience, save the words read only after a possessive or a determiner and these:"""
    unlike = {
        "son": None,  # read after a possessive ("my son"): French "son" is his
        "nana": "grandparent",  # English first: a French "nana" is a girlfriend
        "darons": "father",  # a plural is read as its singular ("daron")
        "copains": "partner",
        "copines": "partner",
    }
    for lang in lexicon.LANGUAGES:
        kinds = lexicon.table("relations", lang)
        only_after = {*kinds["only_after_possessive"], *kinds["only_after_determiner"]}
        for word, (audience, _) in relation_words(lang).items():
            if word not in only_after:
                assert canonical_recipient(word) == unlike.get(word, audience), (lang, word)


def test_describe_speaks_both_languages():
    assert describe("board-game", "en") == "board games"
    assert describe("board-game", "fr") == "jeux de société"
    assert describe("coffee", "fr") == "café"
    assert describe("not-a-tag", "fr") == "not-a-tag"


def test_a_phrase_with_two_meanings_is_refused():
    with pytest.raises(ValueError, match="Vocabulary conflict"):
        _PhraseTable({"rubber duck": ("rubber-duck",), "Rubber-Ducks": ("toy",)})


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("belote", {"card-game"}),
        ("un joueur de cartes", {"card-game"}),
        ("gin rummy", {"card-game"}),
        ("cartes postales", set()),  # postcards are not a card game
        ("outdoorsy", {"outdoor"}),
        ("le grand air", {"outdoor"}),
        ("fine wines", {"wine", "luxury"}),
        ("un whisky d'exception", {"whisky", "luxury"}),
        ("grands crus", {"wine", "luxury"}),
        ("fine", set()),  # alone, "fine" is nothing
        ("top-shelf", {"luxury"}),
    ],
)
def test_families_of_words_for_card_games_the_outdoors_and_the_high_end(text, expected):
    assert canonical_tags(text) == expected
