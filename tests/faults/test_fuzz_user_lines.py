"""Fuzzing what a user types or pipes in, with hypothesis.

Lines are drawn as raw bytes — control characters, terminal escape sequences, bytes that
are not UTF-8 and encoded lone surrogates, mixed scripts, right-to-left text, emoji, PII,
lines near and over the length limit — and go in where a piped chat reads them
(``cli/lines.piped_lines``), through the chat loop (``cli/chat.run_chat``, which cleans each
line) and a whole turn of the offline model on embedded stores. Whatever comes in:

- the chat never raises and ends normally; every line it accepted is answered;
- nothing it prints carries a control character or an escape sequence, and nothing it
  stores does either (nor a lone surrogate: everything encodes as UTF-8);
- the transcript holds each accepted line exactly once, in order, scrubbed of PII, numbered
  without a gap; the run's committed version counts the answered turns, and the live
  session, which validates, holds that version.

A fixed, derandomized number of examples; each starts a new run of one user on one agent.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from giftgenius.agent.runner import Agent
from giftgenius.app import build_agent
from giftgenius.cli.chat import run_chat
from giftgenius.cli.lines import clean_line, piped_lines
from giftgenius.cli.render import ChatUI
from giftgenius.domain import Session
from giftgenius.privacy import scrub, strip_controls
from giftgenius.settings import load_settings

pytestmark = pytest.mark.slow

FUZZ = settings.get_profile("fuzz")  # tests/faults/conftest.py: 2,000 examples, fixed
USER = "typist"
MAX_CHARS = 4000  # GIFTGENIUS_MAX_INPUT_CHARS' default

ESCAPES = [
    "\x1b[31m",  # colour
    "\x1b[2J\x1b[H",  # clear the screen
    "\x1b]0;pwned\x07",  # window title
    "\x1b]8;;http://evil.example\x1b\\link\x1b]8;;\x1b\\",  # hyperlink
    "\x9b1;31m",  # 8-bit CSI
    "\x1bc",  # reset the terminal
    "\x1bP+q\x1b\\",  # DCS
    "\x1b",
    "\x1b]0;never terminated",
    "\u202e",  # right-to-left override
    "\u2066",
    "\x07\x08\x7f\x85\r\x0b\x0c\x00",
    "\t",
]
WORDS = [
    "gift for my dad, he loves coffee, budget 60 dollars",
    "un cadeau pour ma sœur, elle adore le jardinage, 40 €",
    "the first one",
    "oui, je confirme",
    "مرحبا، هدية لأخي",
    "שלום עולם",
    "给我妈妈的礼物",
    "Подарок для брата",
    "😀👨‍👩‍👧🏳️‍🌈",
    "e\u0301te\u0301",  # combining accents
    "ﬁancée",
    "\u200b\u200d\ufeff",  # zero-width characters
    "mail me at bob@example.com or call 415 555 2671",
    "FR76 3000 6000 0112 3456 7890 189",
    "FR76-3000-6000-0112-3456-7890-189",
    "my ssn is 123456789 and my card 4111.1111.1111.1111",
    "card 41 111 111 1111 1111, jo [at] example [dot] com",
    "mon numéro de sécu est 1 85 05 78 006 084 36",
    "passeport n° 12AB34567, Hauptstraße 5, 10115 Berlin, PO Box 1234",
    "   ",
    "/",
]
TEXT = st.text(
    alphabet=st.characters(min_codepoint=0, max_codepoint=0x10FFFF, exclude_categories=()),
    max_size=20,
)  # any code point, lone surrogates included
SEGMENTS = st.one_of(
    st.sampled_from(ESCAPES).map(str.encode),
    st.sampled_from(WORDS).map(str.encode),
    TEXT.map(lambda text: text.encode("utf-8", "surrogatepass")),  # surrogates: invalid UTF-8
    st.binary(max_size=8),  # any bytes at all
    st.integers(MAX_CHARS - 8, MAX_CHARS + 8).map(lambda n: b"a" * n),  # around the limit
    st.integers(1, 400).map(lambda n: "🎁".encode() * n),  # long in bytes, short in chars
)
LINES = st.lists(
    st.lists(SEGMENTS, min_size=1, max_size=5).map(b"".join),
    min_size=1,
    max_size=2,
)


@dataclass(frozen=True)
class Shared:
    agent: Agent

    def __repr__(self) -> str:
        return "Shared(...)"


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory, seeded_db_file: Path) -> Iterator[Shared]:
    """One agent on embedded stores with the offline model, for every example."""
    home = tmp_path_factory.mktemp("fuzz-lines")
    (home / "giftgenius.db").write_bytes(seeded_db_file.read_bytes())
    agent = build_agent(load_settings(home=home, model="offline"))
    try:
        yield Shared(agent)
    finally:
        agent.close()


def _stdin(data: bytes) -> io.TextIOWrapper:
    """A stdin that is not a terminal, holding these bytes (read through its byte buffer)."""
    return io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")


def _cleaned(data: bytes) -> list[str]:
    return [clean_line(raw).text.strip() for raw in piped_lines(_stdin(data))]


def _expected(cleaned: list[str]) -> list[str]:
    """The messages the chat must accept: not blank, not commands, within the limit; as
    stored (PII scrubbed)."""
    return [
        scrub(text)
        for text in cleaned
        if text and not text.startswith("/") and len(text) <= MAX_CHARS
    ]


def _clean(text: str) -> None:
    assert strip_controls(text) == text, repr(text[:300])
    text.encode("utf-8")  # no lone surrogate


@given(lines=LINES, rich=st.booleans())
@settings(FUZZ)
def test_any_line_is_answered_or_refused_plainly(shared: Shared, lines, rich: bool) -> None:
    agent = shared.agent
    data = b"".join(line + b"\n" for line in lines)
    cleaned = _cleaned(data)
    if any(c.split()[0].lower() in ("/quit", "/restart") for c in cleaned if c.split()):
        return  # a command the chat obeys: not what this test is about
    expected = _expected(cleaned)
    out, err = io.StringIO(), io.StringIO()
    ui = ChatUI(Console(file=out, width=100), Console(file=err, width=100), rich=rich)
    opened = agent.open(USER, new=True)

    code = run_chat(agent, opened, piped_lines(_stdin(data)), ui)

    assert code == 0, err.getvalue()
    _clean(out.getvalue())
    _clean(err.getvalue())
    with agent.db.read() as repos:
        run = repos.runs.get(opened.run.id)
        entries = repos.transcript.for_run(opened.run.id)
    assert run is not None
    assert [e.content for e in entries if e.role == "user"] == expected
    assert [e.seq for e in entries] == list(range(1, len(entries) + 1))
    for entry in entries:
        _clean(entry.content or "")
    answered = sum(1 for e in entries if e.role == "assistant" and not e.tool_calls)
    assert answered == len(expected) == run.session_version  # every accepted line answered
    live = agent.sessions.load(run.id)
    if expected:
        assert live is not None and live.version == run.session_version
        Session.model_validate(live.model_dump())
        assert live.user_id == USER and live.run_id == run.id
