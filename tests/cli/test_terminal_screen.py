"""The chat in a real terminal (a pseudo-terminal, as tmux gives one), read as a person
reads the screen: the shortlist appears once, as a table, and coming back shows it again."""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import sys
import time

import pytest

pytestmark = [
    pytest.mark.slow,  # two real processes
    pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal"),
]


def _screen(argv: list[str], lines: list[str], *, wait: float = 60.0) -> str:
    """Run the CLI on a pseudo-terminal, type ``lines`` then Ctrl-D; everything it printed."""
    leader, follower = pty.openpty()
    env = {**os.environ, "COLUMNS": "140", "LINES": "50", "TERM": "xterm-256color"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "giftgenius", *argv],
        stdin=follower,
        stdout=follower,
        stderr=follower,
        env=env,
        close_fds=True,
    )
    os.close(follower)
    out = bytearray()
    for text in [*lines, "\x04"]:
        out += _until_prompt(leader, proc, limit=wait)  # type only once asked, as a person does
        os.write(leader, (text if text == "\x04" else text + "\r").encode())
    out += _until_prompt(leader, proc, limit=wait)
    proc.wait(timeout=wait)
    os.close(leader)
    return _ANSI.sub("", out.decode("utf-8", "replace")).replace("\r", "")


def _until_prompt(fd: int, proc: subprocess.Popen[bytes], *, limit: float) -> bytes:
    """Read until the chat prompts again ("you>") or the program ends."""
    got = bytearray()
    start = time.monotonic()
    while time.monotonic() - start < limit and b"you>" not in got:
        ready, _, _ = select.select([fd], [], [], 0.1)
        if not ready:
            if proc.poll() is not None:
                break
            continue
        try:
            chunk = os.read(fd, 65536)
        except OSError:  # the program closed the terminal
            break
        if not chunk:
            break
        got += chunk
    return bytes(got)


_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")  # colours and cursor moves: not what one reads


def test_a_terminal_shows_the_shortlist_once_then_again_on_coming_back() -> None:
    said = "J'ai besoin d'un cadeau pour ma sœur, budget 40 euros, elle aime le thé et le yoga"
    screen = _screen(["chat", "--user", "tty1"], [said])
    assert "┃ # ┃ Cadeau" in screen  # the table…
    titles = [line.split("│")[2].strip() for line in screen.splitlines() if line.startswith("│")]
    assert len(titles) >= 2
    for title in titles:
        assert screen.count(title) == 1  # …and no markdown list of the same gifts
    assert "Voici" in screen and "idées qui conviennent" in screen
    assert "Lequel vous plaît ?" in screen

    back = _screen(["resume", "--user", "tty1"], [])
    assert "Bon retour ! Vous cherchiez un cadeau pour votre sœur" in back
    # A new chat opens with a greeting and the way to the commands; coming back, after the
    # recap, only the way to the commands: the person already said what they look for.
    assert "/help" in screen and "/help" in back
    assert "Parlez-moi du cadeau" not in back and "Tell me about the gift" not in back
    assert "idées que vous aviez" in back and "┃ # ┃ Cadeau" in back
    assert all(back.count(title) == 1 for title in titles)
