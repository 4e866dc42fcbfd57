"""The chat prompt edits lines and recalls earlier ones (readline), per user, and never
keeps a line holding personal data in its history file."""

from __future__ import annotations

import io
import os
import sys
from pathlib import Path

import pytest
from rich.console import Console

from giftgenius.cli.history import History, history_path
from giftgenius.cli.lines import _prompt

readline = pytest.importorskip("readline")


def test_history_keeps_typed_lines_but_none_with_personal_data(tmp_path: Path) -> None:
    path = history_path(tmp_path, "h1")
    history = History(path)
    history.add("a gift for my brother, 45 dollars")
    history.add("ship it to jane.doe@example.com")
    history.add("call me on +33 6 12 34 56 78")
    history.add("   ")
    history.save()
    kept = path.read_text(encoding="utf-8")
    assert "a gift for my brother, 45 dollars" in kept
    assert "example.com" not in kept and "56 78" not in kept
    assert os.stat(path).st_mode & 0o077 == 0  # the owner's only

    History(path)  # the next chat recalls it
    items = [
        readline.get_history_item(i) for i in range(1, readline.get_current_history_length() + 1)
    ]
    assert items == ["a gift for my brother, 45 dollars"]
    History(history_path(tmp_path, "h2"))  # another user starts with none of it
    assert readline.get_current_history_length() == 0


def test_the_prompts_colours_are_marked_as_taking_no_columns() -> None:
    console = Console(file=io.StringIO(), force_terminal=True, color_system="standard")
    prompt = _prompt(console)
    assert "you>" in prompt and "\x01\x1b[" in prompt and prompt.endswith(" ")
    assert _prompt(Console(file=io.StringIO(), force_terminal=False)) == "you> "


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")
def test_arrow_up_recalls_the_last_line_in_a_terminal(home: Path) -> None:
    from test_terminal_screen import _screen

    screen = _screen(["chat", "--user", "h3"], ["/state", "\x1b[A"])
    assert "^[[A" not in screen
    assert screen.count("step: collecting_profile") == 2  # /state ran twice
    assert "/state" in history_path(home, "h3").read_text(encoding="utf-8")
