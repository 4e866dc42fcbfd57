"""The chat's input boundary: every line a user types or pipes in is made safe here, once.

Piped stdin can carry anything. A byte that is not UTF-8 used to end the chat with a
traceback (strict decoding) or reach the database as a lone surrogate that neither SQLite
nor Postgres will encode; a NUL is refused by Postgres; terminal escape sequences came back
raw in replies and could recolour, clear or retitle the terminal. So lines are read as
bytes and decoded with ``surrogateescape`` (nothing is lost while reading), then each line
is cleaned: bad bytes become U+FFFD, NULs and control characters go, and the user is told
in one plain sentence what was changed. The chat goes on either way.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TextIO

from rich.console import Console

from giftgenius import messages as catalogue
from giftgenius.cli.history import History
from giftgenius.privacy import strip_controls

_SURROGATE_RE = re.compile("[\ud800-\udfff]")
"""What ``surrogateescape`` makes of a byte that is not UTF-8 (Python's own stdin in the C
locale does the same), and what a UTF-8 encoder then refuses."""

PROMPT = "[bold cyan]you>[/] "

_SGR = re.compile(r"(\x1b\[[0-9;]*m)")
"""A colour code in the prompt, which readline must be told takes no column."""


@dataclass(frozen=True)
class Line:
    """One cleaned line and, when something was changed, the sentence telling the user."""

    text: str
    note: str | None = None


def _count(key: str, n: int, locale: str) -> str:
    """The catalogue's ``chat`` sentence ``key.one`` or ``key.other`` for ``n`` (never 0)."""
    return catalogue.say("chat", f"{key}.{'one' if n == 1 else 'other'}", locale, n=n)


def clean_line(raw: str, locale: str = "en") -> Line:
    """``raw`` without its line ending, made safe to store, log and echo; what was changed
    is told in ``locale`` (English, before the conversation's language is known)."""
    text = raw.rstrip("\r\n")
    text, invalid = _SURROGATE_RE.subn("\ufffd", text)
    nuls = text.count("\x00")
    text = text.replace("\x00", "")
    stripped = strip_controls(text)
    changes = []
    if invalid:
        changes.append(_count("input.invalid", invalid, locale))
    if nuls:
        changes.append(_count("input.nul", nuls, locale))
    if stripped != text:
        changes.append(catalogue.text("chat", "input.controls", locale))
    if not changes:
        return Line(stripped)
    joined = catalogue.text("chat", "input.sep", locale).join(changes)
    return Line(stripped, catalogue.say("chat", "input.changed", locale, changes=joined))


def piped_lines(stdin: TextIO) -> Iterator[str]:
    """The lines of a stdin that is not a terminal; a bad byte never stops the reading.

    A real stream is read through its byte buffer (its own decoder would raise on the first
    bad byte, and the rest of the input would be lost); a text-only stream (a test's
    StringIO) is read as it is.
    """
    buffer = getattr(stdin, "buffer", None)
    if buffer is None:
        yield from stdin
        return
    for raw in buffer:
        yield raw.decode("utf-8", "surrogateescape")


def terminal_lines(
    console: Console, stdin: TextIO, history: History | None = None
) -> Iterator[str]:
    """Lines typed at the prompt until end of input (Ctrl-D).

    The process's own stdin is read with ``input()``: with ``history`` (``readline``) the
    arrow keys edit the line and recall earlier ones, and the prompt is handed to
    ``input()`` so that readline knows where the line starts. Any other stream is read from
    directly. A stream in strict UTF-8 mode raises on a bad byte: the bytes it was decoding
    (a terminal hands over one line at a time; a pasted block may hold several) are
    recovered from the error and cleaned like piped ones.
    """
    stream = None if stdin is sys.stdin else stdin
    editing = stream is None and history is not None and history.readline is not None
    try:
        while True:
            try:
                line = input(_prompt(console)) if editing else console.input(PROMPT, stream=stream)
            except EOFError:  # Ctrl-D: end the prompt's line, as the shell's own prompt does
                console.line()
                return
            except UnicodeDecodeError as exc:
                yield from bytes(exc.object).decode("utf-8", "surrogateescape").splitlines()
                continue
            if stream is not None and not line:  # readline() returns "" only at end of input
                console.line()
                return
            if history is not None:
                history.add(line)
            yield line
    finally:
        if history is not None:
            history.save()


def _prompt(console: Console) -> str:
    """``PROMPT`` as the console would print it, its colour codes marked for readline."""
    with console.capture() as captured:
        console.print(PROMPT, end="")
    return _SGR.sub("\x01\\1\x02", captured.get())
