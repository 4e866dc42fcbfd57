"""The system prompt and the registry name the same tools, read at run time from both.

A tool the prompt never names is one a real model is never told when to use; a tool the
prompt names that the registry no longer has is one it will call in vain. A backticked
snake_case word in the prompt is taken for a tool unless it is a field the model sees
elsewhere (the state view's, or a tool argument's).
"""

from __future__ import annotations

import hashlib
import re

from giftgenius.agent.tools import TOOLS, TurnContext, execute
from giftgenius.protocol import StateView
from giftgenius.resources import prompt_text, prompt_version

PROMPT = prompt_text("system.md")
BACKTICKED = re.compile(r"`([a-z][a-z0-9]*(?:_[a-z0-9]+)+)`")


def _field_names() -> set[str]:
    fields = set(StateView.model_fields) | set(StateView.model_computed_fields)
    for item in TOOLS.values():
        fields |= set(item.args.model_fields)
    return fields


def test_the_prompt_names_every_registered_tool() -> None:
    named = set(BACKTICKED.findall(PROMPT))
    missing = [name for name in TOOLS if name not in named]
    assert missing == []


def test_the_prompt_names_no_tool_the_registry_lacks() -> None:
    unknown = set(BACKTICKED.findall(PROMPT)) - set(TOOLS) - _field_names()
    assert unknown == set(), f"the prompt names tools that do not exist: {sorted(unknown)}"


def test_the_check_would_catch_a_missing_or_invented_tool() -> None:
    without = PROMPT.replace("`confirm_choice`", "confirm the choice")
    assert "confirm_choice" not in set(BACKTICKED.findall(without))
    invented = BACKTICKED.findall(PROMPT + " Then call `place_order`.")
    assert set(invented) - set(TOOLS) - _field_names() == {"place_order"}


def test_the_prompt_states_the_rules_a_real_model_needs() -> None:
    for rule in ("[giftgenius-state]", "French", "Never invent", "card numbers"):
        assert rule in PROMPT
    assert "Shall I record it?" in PROMPT and "come back to finalize later" in PROMPT


def test_the_prompt_version_is_a_short_hash_of_the_text_sent() -> None:
    expected = hashlib.sha256(PROMPT.encode("utf-8")).hexdigest()[:12]
    assert prompt_version("system.md") == expected


def test_every_checkpoint_records_the_prompt_version(make_ctx) -> None:
    ctx: TurnContext = make_ctx()
    facts = '{"recipient": "my sister", "budget_max": 40, "currency": "EUR", "interests": ["tea"]}'
    assert execute(ctx, "update_profile", facts)["ok"]
    assert ctx.checkpoints
    for checkpoint in ctx.checkpoints:
        assert checkpoint.agent_version.endswith(f"+prompt.{prompt_version('system.md')}")
        assert checkpoint.agent_version.startswith("giftgenius/")
        assert len(checkpoint.agent_version) <= 64  # the checkpoints.agent_version column
