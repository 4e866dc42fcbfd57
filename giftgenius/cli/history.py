"""Line editing and a per-user history at the chat prompt, with the standard library's
``readline`` (as ``llm chat`` has): arrow keys move and recall instead of printing ``^[[A``.

History is kept on disk, one file per user under ``GIFTGENIUS_HOME/history/``, readable by
its owner only. A line that holds personal data (``privacy.contains_pii``: an email, a
phone or card number, an address…) is never written there: the transcript stores such text
scrubbed, and a plain-text history beside it must not keep what the transcript removed.
Piped input never comes here.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from types import ModuleType

from giftgenius.privacy import contains_pii, strip_controls

HISTORY_LENGTH = 1000
"""Lines kept per user: enough to recall a week of searches, small enough to read at once."""


class History:
    """The prompt's editing and recall for one user; ``add`` what was typed, ``save`` at the
    end. Without ``readline`` (a Python built without it) both do nothing."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.readline = _readline()
        if self.readline is None:
            return
        self.readline.set_auto_history(False)  # we choose which lines are kept
        self.readline.set_history_length(HISTORY_LENGTH)
        self.readline.clear_history()
        with contextlib.suppress(OSError):  # none yet, or unreadable: start empty
            self.readline.read_history_file(path)

    def add(self, line: str) -> None:
        text = strip_controls(line).strip()
        if self.readline is None or not text or contains_pii(text):
            return
        self.readline.add_history(text)

    def save(self) -> None:
        if self.readline is None:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.path.touch(mode=0o600, exist_ok=True)
            self.readline.write_history_file(self.path)
        except OSError:  # a read-only home: the chat itself was saved, history is a comfort
            pass


def history_path(home: Path, user_id: str) -> Path:
    """Where ``user_id``'s prompt history is kept (the id is checked: a plain file name)."""
    return home / "history" / user_id


def _readline() -> ModuleType | None:
    """The ``readline`` module; importing it is what gives ``input()`` its line editing."""
    try:
        import readline
    except ImportError:  # a Python built without it: the prompt still reads lines
        return None
    return readline
