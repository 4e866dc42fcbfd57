"""Named fault points for crash tests: ``GIFTGENIUS_FAULT=NAME`` SIGKILLs the process there.

SIGKILL, not an exception: nothing gets to clean up, exactly like a power cut.
``GIFTGENIUS_FAULT_SIGNAL=TERM`` (or ``INT``) sends that signal instead, to test the
orderly paths of ``kill`` and Ctrl-C at the same points.
"""

from __future__ import annotations

import os
import signal

FAULT_POINTS = frozenset(
    {"before_model", "after_tool_call", "before_commit", "after_commit", "before_session_save"}
)


def fault(name: str) -> None:
    assert name in FAULT_POINTS, name
    if os.environ.get("GIFTGENIUS_FAULT") == name:
        which = os.environ.get("GIFTGENIUS_FAULT_SIGNAL", "KILL").upper()
        os.kill(os.getpid(), getattr(signal, f"SIG{which}"))
