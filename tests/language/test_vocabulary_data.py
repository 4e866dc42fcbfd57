"""The catalog vocabulary is data: a malformed file is refused with the file and the fix."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from giftgenius.language import vocabulary
from giftgenius.language.vocabulary import VocabularyError, _read_vocabulary


def _edited(tmp_path: Path, old: str, new: str) -> Path:
    text = vocabulary._DATA.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path = tmp_path / "vocabulary.toml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path


def test_the_shipped_file_is_the_vocabulary() -> None:
    data = _read_vocabulary()
    assert set(data.tags) == vocabulary.TAGS
    assert {t for t, entry in data.tags.items() if not entry.kind} == vocabulary.INTERESTS
    assert vocabulary.describe("board-game", "fr") == data.tags["board-game"].fr


@pytest.mark.parametrize(
    ("old", "new", "fix"),
    [
        ('en = "chess"\n', "", r"tags\.chess\.en\s+Field required"),
        ('words = ["chess set"', 'words = ["poker", "chess set"', r"'poker' is a synonym of both"),
        (
            'words = ["chess set"',
            'words = ["chess set", "chess set"',
            r"listed twice",
        ),
        ('words = ["chess set"', 'words = [" chess set"', r"tags\.chess\.words\.0"),
        ('"grand cru" = ["wine"', '"grand cru" = ["wines"', r"unknown tags \['wines'\]"),
        ("[tags.chess]", "[tags.Chess]", r"lowercase words joined by hyphens"),
        ("[tags.chess]", "[tags.chess", r"not valid TOML"),
        ("version = 1", "version = 2", r"version"),
        ('en = "chess"\n', 'en = "chess"\ncolour = "black"\n', r"colour\s+Extra inputs"),
    ],
)
@pytest.mark.slow
def test_a_malformed_file_names_itself_and_what_to_fix(
    tmp_path: Path, old: str, new: str, fix: str
) -> None:
    path = _edited(tmp_path, old, new)
    with pytest.raises(VocabularyError, match=re.escape(str(path))) as refused:
        _read_vocabulary(path)
    assert refused.match(fix)


def test_a_missing_file_says_so(tmp_path: Path) -> None:
    with pytest.raises(VocabularyError, match="is missing"):
        _read_vocabulary(tmp_path / "nowhere.toml")
