"""The tokenizer's parsed ranks are kept on disk (``giftgenius.diskcache``) and read back by
later processes — but only for the very file they were parsed and verified from."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from giftgenius import tokens
from giftgenius.errors import ConfigError


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("GIFTGENIUS_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


def _data_dir(folder: Path, data: bytes) -> Path:
    folder.mkdir()
    (folder / "cl100k_base.tiktoken.gz").write_bytes(gzip.compress(data))
    return folder


def _original() -> bytes:
    return gzip.decompress((tokens.default_data_dir() / "cl100k_base.tiktoken.gz").read_bytes())


@pytest.mark.slow
def test_the_second_load_reads_the_cache_instead_of_parsing(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = tokens.load_encoding("cl100k_base")
    assert len([p for p in cache.iterdir() if p.name.startswith("tiktoken-cl100k_base")]) == 1

    def no_parsing(*_: object) -> dict[bytes, int]:
        raise AssertionError("parsed again although the cache holds these ranks")

    monkeypatch.setattr(tokens, "_read_ranks", no_parsing)
    second = tokens.load_encoding("cl100k_base")
    text = "Un cadeau pour ma grand-mère, about £40 — she loves jazz."
    assert second.encode(text) == first.encode(text)


@pytest.mark.slow
def test_a_tampered_file_is_refused_even_after_the_good_one_was_cached(
    cache: Path, tmp_path: Path
) -> None:
    good = _data_dir(tmp_path / "good", _original())
    tokens.load_encoding("cl100k_base", data_dir=good)
    tampered = _data_dir(tmp_path / "bad", _original().replace(b"IQ== 0", b"Ig== 0", 1))
    with pytest.raises(ConfigError, match="expected sha256"):
        tokens.load_encoding("cl100k_base", data_dir=tampered)


def test_a_missing_file_is_still_named_with_the_cache_on(cache: Path, tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="missing; reinstall"):
        tokens.load_encoding("cl100k_base", data_dir=tmp_path)
