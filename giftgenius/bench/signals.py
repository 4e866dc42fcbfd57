"""Holding Ctrl-C while a benchmark cleans up after itself."""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def interrupts_held() -> Iterator[None]:
    """Hold Ctrl-C and SIGTERM while workers are ended or scratch stores removed (a few
    seconds at most): a second Ctrl-C then stops the command after the clean-up, never
    half-way through it. Signals can be held only on the main thread; elsewhere, nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held = {signal.SIGINT, signal.SIGTERM}
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)
