"""A context window too small for any request is refused at start-up, in one plain line.

Before, ``GIFTGENIUS_CONTEXT_WINDOW=512`` started the chat and refused the first message
as "too long"; the minimum now comes from ``tokens`` and settings check it.
"""

from __future__ import annotations

import pytest

from giftgenius.agent.runner import CONTEXT_TOO_LARGE
from giftgenius.tokens import MIN_PROMPT_TOKENS, minimum_context_window

MINIMUM = minimum_context_window(600)  # the default completion reserve


@pytest.mark.slow
def test_a_tiny_window_stops_the_chat_before_it_starts(proc) -> None:
    ran = proc(
        "chat",
        "--user",
        "u",
        stdin="gift for my sister\n",
        env={"GIFTGENIUS_CONTEXT_WINDOW": "512"},
    )
    assert ran.code == 1
    assert ran.out == ""
    lines = ran.err.splitlines()
    assert len(lines) == 1, ran.err
    assert lines[0].startswith("error: Invalid settings — GIFTGENIUS_CONTEXT_WINDOW is 512 tokens")
    assert f"below the minimum of {MINIMUM} " in lines[0]
    assert "Traceback" not in ran.err


def test_the_minimum_follows_the_completion_reserve(cli, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GIFTGENIUS_CONTEXT_WINDOW", str(MINIMUM))
    monkeypatch.setenv("GIFTGENIUS_COMPLETION_RESERVE_TOKENS", "1000")
    ran = cli("chat", "--user", "u", stdin="gift for my sister\n")
    assert ran.code == 1
    assert f"below the minimum of {MIN_PROMPT_TOKENS + 1000} " in ran.err


@pytest.mark.slow
def test_at_the_minimum_the_first_message_is_answered(
    cli, monkeypatch: pytest.MonkeyPatch, script
) -> None:
    """The scripted model refuses, as the API would, any request over the window."""
    script.shortlist(
        "gift for my sister, she loves tea, budget 30 EUR",
        recipient="sister",
        interests=["tea"],
        budget_max=30,
        currency="EUR",
    )
    monkeypatch.setenv("GIFTGENIUS_CONTEXT_WINDOW", str(MINIMUM))
    ran = cli("chat", "--user", "u", stdin="gift for my sister, she loves tea, budget 30 EUR\n")
    assert ran.code == 0, ran.err
    assert CONTEXT_TOO_LARGE["en"] not in ran.out
    assert "error" not in ran.err
