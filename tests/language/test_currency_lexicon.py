"""Currency words are data: each kind names a currency, and the amount table is keyed by them."""

from __future__ import annotations

from pathlib import Path

from babel.numbers import list_currencies

from giftgenius import diskcache
from giftgenius.language import amounts, currency, lexicon

_NOT_A_CURRENCY = {"dollar", "balle", "before_the_amount"}


def test_every_kind_is_a_currency_or_a_rule_of_the_code() -> None:
    known = set(list_currencies())
    for lang in lexicon.LANGUAGES:
        for kind in lexicon.table("currency_words", lang):
            assert kind in _NOT_A_CURRENCY or kind.upper() in known, (lang, kind)


def test_words_written_before_the_figure_are_currency_words_of_their_language() -> None:
    for lang in lexicon.LANGUAGES:
        kinds = lexicon.table("currency_words", lang)
        said = {w for kind, words in kinds.items() if kind != "before_the_amount" for w in words}
        assert set(kinds["before_the_amount"]) <= said, lang


def test_slang_of_both_languages_means_its_currency() -> None:
    assert currency.currency_code("quid") == "GBP"
    assert currency.currency_code("piasses") == "CAD"
    assert currency.currency_code("balles", dollar="EUR") == "EUR"
    assert currency.currency_code("balles", dollar="CHF") == "CHF"
    assert currency.currency_code("bucks", dollar="CAD") == "CAD"
    assert currency.currency_code("bucks", dollar="EUR") == "USD"
    assert currency.currency_code("€") == "EUR"  # symbols and codes stay in the code
    assert currency.currency_code("sek") == "SEK"


def test_the_amount_table_is_built_from_the_currency_lexicons(monkeypatch) -> None:
    seen: list[Path] = []

    def fingerprint(distributions, sources):
        seen.extend(sources)
        return "key"

    monkeypatch.setattr(diskcache, "fingerprint", fingerprint)
    monkeypatch.setattr(diskcache, "cached", lambda name, key, build: build())
    table = amounts.currency_words.__wrapped__()
    assert table["thunes"] == "EUR"
    assert {(p.parent.name, p.name) for p in seen} >= {
        ("en", "currency_words.toml"),
        ("fr", "currency_words.toml"),
    }
