"""What a stream sends: the words as they come, never an echo of the state block, and
the whole reply in pieces when the model streamed nothing."""

from __future__ import annotations

import json
import queue

import pytest

from giftgenius.errors import RunClosed
from giftgenius.protocol import STATE_BLOCK_PREFIX
from giftgenius.service.streaming import StateGate, _events

ECHO = STATE_BLOCK_PREFIX + '{"step": "finalizing", "missing": []}'


def streamed(*chunks: str) -> str:
    gate = StateGate()
    return "".join(gate.feed(chunk) for chunk in chunks) + gate.flush()


@pytest.mark.parametrize("size", [1, 3, 7, 1000])
def test_an_echoed_state_block_never_goes_out_however_it_is_cut(size: int) -> None:
    text = f"{ECHO}\nHere are 3 ideas.\n" + '{"step": "done"}\nWhich one?'
    pieces = [text[i : i + size] for i in range(0, len(text), size)]
    assert streamed(*pieces) == "Here are 3 ideas.\nWhich one?"


def test_plain_words_go_out_as_they_come() -> None:
    gate = StateGate()
    assert gate.feed("Good ") == "Good "
    assert gate.feed("choice: [the ") == "choice: [the "  # a bracket that is no marker
    assert gate.feed("mug] [gift") == "mug] "  # "[gift" might start the marker: held
    assert gate.feed("s]") == "[gifts]"
    assert gate.flush() == ""
    assert gate.passed == "Good choice: [the mug] [gifts]"


def test_a_marker_after_words_stops_the_line() -> None:
    assert streamed("Sure. ", ECHO, "\nNext line") == "Sure. \nNext line"


def frames(items: list[tuple[str, object]], first: tuple[str, object]) -> list[tuple[str, dict]]:
    later: queue.Queue[tuple[str, object]] = queue.Queue()
    for item in items:
        later.put(item)
    found = []
    for block in _events(first, later, 1.0):
        name, data = block.strip().split("\n")
        found.append((name.removeprefix("event: "), json.loads(data.removeprefix("data: "))))
    return found


def test_a_reply_that_was_not_streamed_is_sent_in_pieces_before_done() -> None:
    got = frames([], ("done", {"reply": "Done! It is recorded.", "version": 3}))
    assert [name for name, _ in got] == ["delta"] * 4 + ["done"]
    assert "".join(d["text"] for _, d in got[:-1]) == "Done! It is recorded."
    assert got[-1][1]["version"] == 3


def test_a_turn_that_fails_after_words_ends_with_an_error_event() -> None:
    got = frames([("error", RunClosed("This gift search was abandoned."))], ("delta", "Sure"))
    assert got == [
        ("delta", {"text": "Sure"}),
        ("error", {"error": {"code": "run_closed", "message": "This gift search was abandoned."}}),
    ]
