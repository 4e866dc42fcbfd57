"""The vocabulary is built once and read back from the disk cache; what a later process
reads answers exactly as a vocabulary built from the data, and an edited data file is read
again rather than answered from a stale table."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from giftgenius.language import vocabulary


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("GIFTGENIUS_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


def _files(cache: Path) -> list[Path]:
    return [p for p in cache.iterdir() if p.name.startswith("vocabulary-")]


@pytest.mark.slow
def test_the_vocabulary_is_built_once_then_read_back(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    built = vocabulary._load()
    assert len(_files(cache)) == 1

    def no_building() -> None:
        raise AssertionError("built again although the cache holds the vocabulary")

    monkeypatch.setattr(vocabulary, "_build", no_building)
    read = vocabulary._load()
    assert read.tags.keys == built.tags.keys
    assert read.recipients.keys == built.recipients.keys
    assert read.synonyms == built.synonyms and read.display == built.display
    assert (read.kinds, read.ingredients, read.holds) == (
        built.kinds,
        built.ingredients,
        built.holds,
    )
    for text in ("deux jeux de plateau et du thé vert", "the puzzles my stepdaughter adores"):
        assert read.tags.scan(text) == built.tags.scan(text)
        assert read.recipients.scan(text) == built.recipients.scan(text)


@pytest.mark.slow
def test_an_edited_data_file_is_read_again(
    cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = tmp_path / "vocabulary.toml"
    shutil.copy(vocabulary._DATA, data)
    monkeypatch.setattr(vocabulary, "_DATA", data)
    assert "zorblax" not in vocabulary._load().synonyms["chess"]

    text = data.read_text(encoding="utf-8")
    edited = text.replace('words = ["chess set"', 'words = ["zorblax", "chess set"', 1)
    assert edited.count("zorblax") == 1
    data.write_text(edited, encoding="utf-8")

    reread = vocabulary._load()
    assert "zorblax" in reread.synonyms["chess"]
    assert reread.tags.scan("a zorblax for him")[0] == [("chess",)]
    assert len(_files(cache)) == 2


def test_the_catalog_index_follows_the_data_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The database re-indexes its products when the vocabulary's data changes, as when its
    code does: an added synonym is searchable in SQL too."""
    from giftgenius.catalog.search import index_version

    index_version.cache_clear()
    shipped = index_version()
    data = tmp_path / "vocabulary.toml"
    data.write_text(vocabulary._DATA.read_text(encoding="utf-8") + "\n# edited\n", "utf-8")
    monkeypatch.setattr(vocabulary, "_DATA", data)
    index_version.cache_clear()
    try:
        assert index_version() != shipped
    finally:
        index_version.cache_clear()
