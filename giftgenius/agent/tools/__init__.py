"""The tools: the only way the model moves the workflow or touches data.

Each tool is one function with a typed argument model (``registry.tool``); ``TOOLS`` lists
them in the order the model is offered them, and ``tool_specs()`` is derived from it. Tools
take the user and run from the ``TurnContext`` (never from model arguments), check that
every id they are given is the caller's or one of the run's candidates, read through short
read-only database sessions, and *stage* persistent changes in the turn's unit of work;
nothing is committed here (the run-cycle commits the whole turn at once).
"""

from __future__ import annotations

from typing import Any

from giftgenius.agent.tools.call_context import StagedChange, TurnContext, agent_version
from giftgenius.agent.tools.candidates import (
    GiftIdArgs,
    SearchCandidatesArgs,
    search_candidates,
)
from giftgenius.agent.tools.choice import confirm_choice, select_described_gift, select_gift
from giftgenius.agent.tools.details import GiftQuestionArgs, get_gift_details
from giftgenius.agent.tools.profile import UpdateProfileArgs, update_profile
from giftgenius.agent.tools.recall import RecallArgs, recall_memories
from giftgenius.agent.tools.registry import NoArgs, Registry, Tool, ToolArgs, ToolResult, tool
from giftgenius.agent.tools.saved_profiles import (
    ProfileLabelArgs,
    list_recipient_profiles,
    load_recipient_profile,
    save_recipient_profile,
)

TOOLS = Registry(
    update_profile,
    list_recipient_profiles,
    save_recipient_profile,
    load_recipient_profile,
    recall_memories,
    search_candidates,
    get_gift_details,
    select_gift,
    select_described_gift,
    confirm_choice,
)


def tool_specs() -> list[dict[str, Any]]:
    """The OpenAI ``tools`` array offered with every chat request."""
    return TOOLS.specs()


def execute(ctx: TurnContext, name: str, raw_arguments: str) -> ToolResult:
    """Run one tool call by name; a bad call comes back as ``{"ok": false, "error": ...}``."""
    return TOOLS.execute(ctx, name, raw_arguments)


__all__ = [
    "TOOLS",
    "GiftIdArgs",
    "GiftQuestionArgs",
    "NoArgs",
    "ProfileLabelArgs",
    "RecallArgs",
    "Registry",
    "SearchCandidatesArgs",
    "StagedChange",
    "Tool",
    "ToolArgs",
    "ToolResult",
    "TurnContext",
    "UpdateProfileArgs",
    "agent_version",
    "execute",
    "tool",
    "tool_specs",
]
