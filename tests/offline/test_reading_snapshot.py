"""What the offline reader takes from every corpus line stays as it was.

The reader is rewritten often (rules into data, long functions into small ones); the corpus
eval says whether dialogues still end well, this says whether each line is still *read* the
same: its facts and intents, alone and with a shortlist on show. After a change meant to
alter a reading, write the snapshot anew and read its diff:

    .venv/bin/python tests/offline/test_reading_snapshot.py --write
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from giftgenius.evaluate.corpus import fill, load_dialogue
from giftgenius.evaluate.pools import written
from giftgenius.offline.nlu import extract

HERE = Path(__file__).parent
SNAPSHOT = HERE / "data" / "readings.json"
CORPUS = HERE.parent / "dialogues"
TITLES = ["Moka Pot Espresso Maker", "Wooden Chess Set", "Cipher Circle"]
DEFAULT_DAY = dt.date(2026, 12, 1)  # a fixed day: tests pass on any day they run
ANSWERS = [["coffee"], ["board-game", "chess"], ["puzzle"]]


def _reading(line: str, today: dt.date, locale: str, choosing: bool) -> dict[str, Any]:
    found = extract(
        line,
        today=today,
        locale=locale,
        choosing=choosing,
        candidate_titles=TITLES if choosing else None,
        candidate_answers=ANSWERS if choosing else None,
    )
    reading = dataclasses.asdict(found)
    return json.loads(json.dumps(reading, sort_keys=True, default=repr))


def readings() -> dict[str, Any]:
    out: dict[str, Any] = {}
    for path in sorted(CORPUS.glob("*/*.json")):
        dialogue = load_dialogue(path)
        words = {name: written(slot, dialogue.locale) for name, slot in dialogue.slots.items()}
        script = fill(dialogue, dict(dialogue.slots), words, 0)
        today = dialogue.today or DEFAULT_DAY
        lines = [line for part in script.parts for line in part]
        out[dialogue.id] = [
            {
                "line": line,
                "alone": _reading(line, today, dialogue.locale, False),
                "choosing": _reading(line, today, dialogue.locale, True),
            }
            for line in lines
        ]
    return out


@pytest.mark.slow
def test_every_corpus_line_is_read_as_before() -> None:
    expected = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
    got = readings()
    assert sorted(got) == sorted(expected)
    changed = [
        (key, i, row["line"])
        for key, rows in got.items()
        for i, row in enumerate(rows)
        if expected[key][i] != row
    ]
    assert not changed, f"{len(changed)} lines read differently, first: {changed[:5]}"


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    SNAPSHOT.write_text(json.dumps(readings(), indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {SNAPSHOT}")
