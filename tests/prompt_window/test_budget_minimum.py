"""One budget: ``tokens.context_budget`` computes it, and its minimum is one that works.

``MIN_PROMPT_TOKENS`` is a constant (settings check it without loading tiktoken), so these
tests hold it to the shipped prompts: a first turn, with a full state block and a large
tool result and a message of a thousand characters, must still fit in a request that size.
"""

from __future__ import annotations

import datetime as dt
import json
import subprocess
import sys
from pathlib import Path

import pytest

from giftgenius.agent.prompt_window import MIN_TOOL_RESULT_TOKENS, build_context
from giftgenius.agent.tools import tool_specs
from giftgenius.app import build_agent
from giftgenius.domain import Budget, Message, ProfileDraft, SessionState, Step, Summary, ToolCall
from giftgenius.errors import ConfigError
from giftgenius.protocol import StateView, state_block
from giftgenius.resources import prompt_text
from giftgenius.settings import load_settings
from giftgenius.tokens import (
    MIN_PROMPT_TOKENS,
    TokenCounter,
    context_budget,
    minimum_context_window,
)


def _full_state() -> SessionState:
    """The largest state block a run can show: every fact set, lists at their caps."""
    return SessionState(
        step=Step.finalizing,
        profile=ProfileDraft(
            recipient="colleague",
            age=42,
            budget=Budget(amount=50, currency="EUR", min_amount=20),
            interests=[f"interest-{i}" for i in range(12)],
            dislikes=[f"dislike-{i}" for i in range(12)],
            country="FR",
            deadline=dt.date(2026, 12, 24),
        ),
        candidate_ids=[f"g-{i:04d}" for i in range(6)],
        selected_gift_id="g-0001",
        locale="fr",
    )


def test_a_first_turn_fits_in_the_minimum_prompt() -> None:
    counter = TokenCounter.for_model("offline")
    call = ToolCall(id="call_1", name="search_candidates", arguments='{"extra_keywords": null}')
    turn = [
        Message(role="user", content="A gift for my colleague, she loves board games. " * 20),
        Message(role="assistant", tool_calls=[call]),
        Message(
            role="tool",
            tool_call_id="call_1",
            content=json.dumps(
                {"ok": True}
                | {f"candidate_{i}": "a long description of one candidate " * 4 for i in range(20)}
            ),
        ),
    ]
    built = build_context(
        counter=counter,
        budget=MIN_PROMPT_TOKENS,
        system_prompt=prompt_text("system.md"),
        tools=tool_specs(),
        summary=Summary(),
        history=[],
        state_block=state_block(StateView.of(_full_state(), dt.date(2026, 12, 1))),
        turn=turn,
    )
    assert built.prompt_tokens <= MIN_PROMPT_TOKENS
    tool_result = counter.count_message(built.messages[-1])
    assert tool_result >= MIN_TOOL_RESULT_TOKENS  # the model still sees the result's head


def test_the_budget_is_the_window_less_the_reserve_and_never_below_the_minimum() -> None:
    minimum = minimum_context_window(600)
    assert minimum == MIN_PROMPT_TOKENS + 600
    assert context_budget("offline", context_window=minimum, completion_reserve=600) == 3200
    with pytest.raises(ConfigError, match=f"GIFTGENIUS_CONTEXT_WINDOW is 512 tokens.*{minimum}"):
        context_budget("offline", context_window=512, completion_reserve=600)
    with pytest.raises(ConfigError, match="GIFTGENIUS_COMPLETION_RESERVE_TOKENS=8000"):
        context_budget("gpt-4", context_window=None, completion_reserve=8000)  # 8,192 window


@pytest.mark.slow
def test_the_agent_takes_its_budget_from_context_budget(tmp_path: Path) -> None:
    agent = build_agent(load_settings(home=tmp_path / "home", context_window=5000))
    try:
        assert agent.budget == context_budget(
            "offline", context_window=5000, completion_reserve=600
        )
        assert agent.budget == 4400
    finally:
        agent.close()


def test_settings_refuse_a_small_window_at_start_up() -> None:
    with pytest.raises(ConfigError) as refused:
        load_settings(context_window=1000, completion_reserve_tokens=64)
    assert str(refused.value).startswith(
        "Invalid settings — GIFTGENIUS_CONTEXT_WINDOW is 1000 tokens, below the minimum of "
        f"{MIN_PROMPT_TOKENS + 64} "
    )
    assert load_settings(context_window=MIN_PROMPT_TOKENS + 64, completion_reserve_tokens=64)


@pytest.mark.slow
def test_settings_check_the_window_without_loading_tiktoken() -> None:
    code = (
        "import sys; from giftgenius.settings import load_settings\n"
        "load_settings(context_window=4000)\n"
        "print('tiktoken' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"
