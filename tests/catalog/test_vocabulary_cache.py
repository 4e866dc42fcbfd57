"""The vocabulary's phrase tables are built once and read back from the disk cache; what a
later process reads answers exactly as a table built from the source."""

from __future__ import annotations

from pathlib import Path

import pytest

from giftgenius.language import vocabulary
from giftgenius.language.vocabulary import _phrase_tables, _PhraseTable, _recipient_phrases


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("GIFTGENIUS_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


def test_the_tables_are_built_once_then_read_back(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    built_tags, built_recipients = _phrase_tables()
    assert len([p for p in cache.iterdir() if p.name.startswith("vocabulary-")]) == 1

    def no_building(*_: object) -> None:
        raise AssertionError("built again although the cache holds the tables")

    monkeypatch.setattr(vocabulary, "_tag_phrases", no_building)
    read_tags, read_recipients = _phrase_tables()
    assert read_tags.keys == built_tags.keys
    assert read_recipients.keys == _PhraseTable(_recipient_phrases()).keys
    for text in ("deux jeux de plateau et du thé vert", "the puzzles my stepdaughter adores"):
        assert read_tags.scan(text) == built_tags.scan(text)
        assert read_recipients.scan(text) == built_recipients.scan(text)
