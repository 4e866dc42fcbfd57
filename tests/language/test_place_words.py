"""Place words and aliases are read from the place lexicons; the index is keyed by them."""

from __future__ import annotations

from pathlib import Path

import pytest

from giftgenius import diskcache
from giftgenius.language import lexicon, places


def test_words_left_out_of_a_kind_are_function_words_of_their_language() -> None:
    for lang in lexicon.LANGUAGES:
        function_words = {w for ws in lexicon.table("function_words", lang).values() for w in ws}
        for kind in ("not_leading", "capitalised_places"):
            assert set(lexicon.words("places", kind, lang)) <= function_words, (lang, kind)


def test_every_alias_kind_names_a_country_code() -> None:
    import pycountry

    for lang in lexicon.LANGUAGES:
        for kind in lexicon.table("place_aliases", lang):
            prefix, _, code = kind.partition("_")
            assert prefix in ("country", "city")
            assert pycountry.countries.get(alpha_2=code.upper()) is not None, kind


@pytest.mark.slow
def test_aliases_of_both_languages_name_their_country() -> None:
    assert places.resolve_country("the States") == "US"
    assert places.resolve_country("Royaume-Uni", "fr") == "GB"
    assert places.resolve_country("NYC") == "US"
    assert places.resolve_country("mtl", "fr") == "CA"


def test_a_capitalised_code_still_names_its_place_at_the_start_of_a_sentence() -> None:
    assert places.resolve_country("US please, by Friday") == "US"
    assert places.resolve_country("Nice idea, ship it to Lyon") == "FR"
    assert places.resolve_country("Nice idea") is None


def test_the_place_index_is_keyed_by_the_alias_files(monkeypatch) -> None:
    seen: list[Path] = []

    def fingerprint(distributions, sources):
        seen.extend(sources)
        return "key"

    monkeypatch.setattr(diskcache, "fingerprint", fingerprint)
    monkeypatch.setattr(diskcache, "cached", lambda name, key, build: "built")
    assert places._index.__wrapped__() == "built"
    assert {(p.parent.name, p.name) for p in seen} >= {
        ("en", "place_aliases.toml"),
        ("fr", "place_aliases.toml"),
    }
