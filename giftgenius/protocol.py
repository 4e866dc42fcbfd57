"""The contract between the agent and any model: tool names, argument schemas, result
shape and the two text markers. The offline engine reads exactly this, as a real model
reads the tool schemas and the state block.

- Arguments are pydantic models (``extra="forbid"``); their JSON schema is what the model
  is offered, and a call that fails validation goes back to the model as a tool error.
- Every tool result is a JSON object: ``{"ok": true, ..., "state": <StateView>}`` or
  ``{"ok": false, "error": "<what went wrong and what to do>"}``.
- The compact state block is a system message whose content is
  ``STATE_BLOCK_PREFIX + <StateView JSON>`` on one line; it comes just before the new user
  message, so the model always sees the authoritative state however much history was cut.
- A summarization request is told apart by the ``PURPOSE_HEADER`` HTTP header the client
  sends (``summary`` or ``chat``; harmless to any real endpoint), never by prompt text. Its
  user message is ``PREVIOUS_HEADER``, the previous summary (or ``NO_SUMMARY``), a blank
  line, ``MESSAGES_HEADER``, then one plain line per folded message: ``user: …``,
  ``assistant: …``, ``assistant called NAME(ARGS)``, ``tool NAME result: …``.

This module sits in the bottom layer: the agent, the model clients and the offline model
all import it, and it imports only ``domain``.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from giftgenius.domain import Currency, ProfileDraft, SessionState, Step

STATE_BLOCK_PREFIX = "[giftgenius-state] "
PURPOSE_HEADER = "X-GiftGenius-Purpose"
PREVIOUS_HEADER = "Previous summary:"
MESSAGES_HEADER = "Messages to fold (oldest first):"
NO_SUMMARY = "(none)"


class _Args(BaseModel):
    model_config = ConfigDict(extra="forbid")


class UpdateProfileArgs(_Args):
    """Record facts about the recipient. Lists are *added*; use remove_* to take back."""

    recipient: str | None = Field(
        None, max_length=60, description="Who the gift is for, e.g. 'colleague', 'sister'."
    )
    age: int | None = Field(None, ge=0, le=120)
    budget_max: float | None = Field(None, gt=0, description="Upper budget, major units.")
    budget_min: float | None = Field(None, ge=0)
    currency: Currency | None = Field(None, description="Currency of the budget.")
    interests: list[str] | None = Field(None, max_length=12, description="Interests to add.")
    remove_interests: list[str] | None = Field(None, max_length=12)
    dislikes: list[str] | None = Field(None, max_length=12, description="Dislikes to add.")
    remove_dislikes: list[str] | None = Field(None, max_length=12)
    country: str | None = Field(
        None, pattern=r"^[A-Z]{2}$", description="ISO 3166-1 alpha-2 delivery country."
    )
    deadline: dt.date | None = Field(None, description="Delivery deadline, YYYY-MM-DD.")
    clear: list[Literal["age", "country", "deadline", "dislikes"]] | None = Field(
        None, description="Optional facts to forget."
    )


class NoArgs(_Args):
    pass


class SearchCandidatesArgs(_Args):
    extra_keywords: list[str] = Field(default_factory=list, max_length=8)
    limit: int = Field(8, ge=1, le=20)


class GiftIdArgs(_Args):
    gift_id: str = Field(min_length=1, max_length=64)


class ProfileLabelArgs(_Args):
    label: str = Field(min_length=1, max_length=40, description="e.g. 'sister', 'boss'.")


TOOL_ARGS: dict[str, type[_Args]] = {
    "update_profile": UpdateProfileArgs,
    "list_recipient_profiles": NoArgs,
    "save_recipient_profile": ProfileLabelArgs,
    "load_recipient_profile": ProfileLabelArgs,
    "search_candidates": SearchCandidatesArgs,
    "filter_candidates": NoArgs,
    "get_gift_details": GiftIdArgs,
    "select_gift": GiftIdArgs,
    "confirm_choice": NoArgs,
}

TOOL_DESCRIPTIONS: dict[str, str] = {
    "update_profile": "Record or correct facts about the gift recipient (who, budget, "
    "interests, dislikes, age, delivery country, deadline).",
    "list_recipient_profiles": "List the user's saved recipient profiles.",
    "save_recipient_profile": "Save the current recipient profile under a label for later runs.",
    "load_recipient_profile": "Load a saved recipient profile into this run by its label.",
    "search_candidates": "Search the catalog for gift candidates matching the profile.",
    "filter_candidates": "Filter the candidates by budget, delivery country, deadline and "
    "dislikes; returns the ones that pass with details.",
    "get_gift_details": "Details of one gift by id.",
    "select_gift": "Select one of the filtered candidates as the user's choice.",
    "confirm_choice": "Confirm the selected gift and record the order draft. Call only "
    "after the user explicitly confirmed.",
}


def tool_specs() -> list[dict[str, Any]]:
    """OpenAI ``tools`` array, schemas generated from the argument models."""
    return [
        {
            "type": "function",
            "function": {
                "name": name,
                "description": TOOL_DESCRIPTIONS[name],
                "parameters": args.model_json_schema(),
            },
        }
        for name, args in TOOL_ARGS.items()
    ]


class CandidateView(BaseModel):
    """What a tool shows the model of one product (ids + a few facts, never the catalog)."""

    id: str
    title: str
    price: float
    currency: Currency
    price_in_budget_currency: float | None = None
    delivery_days: int
    why: str = ""


class StateView(BaseModel):
    """The compact state the model sees (state block, and inside every tool result)."""

    step: Step
    missing: list[str]
    profile: ProfileDraft
    candidate_ids: list[str] = Field(default_factory=list)
    selected_gift_id: str | None = None
    order_draft_id: str | None = None
    locale: str = "en"
    today: dt.date

    @classmethod
    def of(cls, state: SessionState, today: dt.date) -> StateView:
        return cls(
            step=state.step,
            missing=state.profile.missing(),
            profile=state.profile,
            candidate_ids=state.candidate_ids,
            selected_gift_id=state.selected_gift_id,
            order_draft_id=state.order_draft_id,
            locale=state.locale,
            today=today,
        )

    def to_state(self) -> SessionState:
        """Back from the view (restore from a transcript); the search pool is not in it."""
        return SessionState(
            step=self.step,
            profile=self.profile,
            candidate_ids=self.candidate_ids,
            selected_gift_id=self.selected_gift_id,
            order_draft_id=self.order_draft_id,
            locale=self.locale if self.locale in ("en", "fr") else "en",
        )


def state_block(view: StateView) -> str:
    return STATE_BLOCK_PREFIX + view.model_dump_json(exclude_none=True)
