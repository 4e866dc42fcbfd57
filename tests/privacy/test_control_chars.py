"""strip_controls: what a user types can never drive the terminal or poison a stored label."""

from __future__ import annotations

import pytest

from giftgenius.domain import ProfileDraft, RecipientProfile
from giftgenius.privacy import strip_controls
from giftgenius.storage.db import Database


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("\x1b[31mred\x1b[0m text", "red text"),  # SGR colour
        ("\x1b[2J\x1b[Hcleared", "cleared"),  # clear screen, cursor home
        ("\x1b]0;pwned\x07title", "title"),  # OSC window title, BEL-terminated
        ("\x1b]8;;http://evil\x1b\\link\x1b]8;;\x1b\\", "link"),  # OSC 8 hyperlink, ST
        ("\x9b31mC1 CSI", "C1 CSI"),  # 8-bit CSI
        ("a\x00b\x07c\x08d\x7fe", "abcde"),  # NUL, BEL, backspace, DEL
        ("bidi \u202eevil\u202c end", "bidi evil end"),  # right-to-left override
        ("back\rto start", "backto start"),
        ("\x1bc reset", " reset"),  # two-character escape (RIS)
    ],
)
def test_escape_sequences_and_control_characters_are_removed(raw: str, clean: str) -> None:
    assert strip_controls(raw) == clean


@pytest.mark.parametrize(
    "text",
    [
        "tab\tand\nnewline",
        "Crème brûlée, 12 € — «merci»",
        "family 👨\u200d👩\u200d👧 emoji",
        "replacement \ufffd char",
        "[email] and [phone]",
        "",
    ],
)
def test_ordinary_text_is_left_alone(text: str) -> None:
    assert strip_controls(text) == text


@pytest.mark.slow
def test_a_saved_profile_label_is_stored_without_escape_sequences(tmp_path) -> None:
    db = Database(f"sqlite:///{tmp_path / 'labels.db'}")
    try:
        with db.write() as repos:
            repos.profiles.upsert(
                RecipientProfile(
                    user_id="alice", label="\x1b[31mSis\x1b[0m\x07", profile=ProfileDraft()
                )
            )
        with db.read() as repos:
            assert [p.label for p in repos.profiles.list("alice")] == ["sis"]
            assert repos.profiles.get("alice", "sis") is not None
    finally:
        db.dispose()
