"""Named fault points for crash tests: ``GIFTGENIUS_FAULT=NAME`` SIGKILLs the process there.

SIGKILL, not an exception: nothing gets to clean up, exactly like a power cut.
``GIFTGENIUS_FAULT_SIGNAL=TERM`` (or ``INT``) sends that signal instead, to test the
orderly paths of ``kill`` and Ctrl-C at the same points; ``STOP`` freezes the process
there (every time a turn reaches the point) until a test sends SIGCONT, so the test can
act while a turn is in flight — forget the user, kill Redis, start another window.
"""

from __future__ import annotations

import os
import signal

from giftgenius.errors import ConfigError

FAULT_POINTS = frozenset(
    {"before_model", "after_tool_call", "before_commit", "after_commit", "before_session_save"}
)

FAULT_SIGNALS = ("KILL", "TERM", "INT", "STOP")


def fault(name: str) -> None:
    assert name in FAULT_POINTS, name
    if os.environ.get("GIFTGENIUS_FAULT") == name:
        which = os.environ.get("GIFTGENIUS_FAULT_SIGNAL", "KILL").upper()
        if which not in FAULT_SIGNALS:
            raise ConfigError(
                f"GIFTGENIUS_FAULT_SIGNAL={which!r} is not a fault signal: use one of "
                f"{', '.join(FAULT_SIGNALS)}."
            )
        os.kill(os.getpid(), getattr(signal, f"SIG{which}"))
