"""The contract between the agent and any model: the result shape, the state block and the
summary layout. The offline engine reads exactly this, as a real model reads the state block.

- The tools themselves (names, argument models, the schemas the model is offered) are
  defined once each in ``giftgenius.agent.tools``; a call that fails validation goes back to
  the model as a tool error.
- Every tool result is a JSON object: ``{"ok": true, ..., "state": <StateView>}`` or
  ``{"ok": false, "error": "<what went wrong and what to do>"}``; a refusal by a tool adds
  ``"code"`` (a key of the message catalogue's ``refusals``) and ``"params"`` (its JSON
  values), and its ``error`` is that code's sentence in the person's language.
- The compact state block is ``STATE_BLOCK_PREFIX + <StateView JSON>`` on one line, at the
  head of the newest user message, a blank line before the person's words
  (``with_state`` / ``split_state``), so the model always sees the authoritative state
  however much history was cut. It rides in the user message, never in a system message of
  its own: common chat templates (Gemma, Llama, Mistral) refuse a system message that is not
  the first one, and older user messages stay as typed, so a provider's prefix cache holds.
  A reply that repeats it is cut before anyone sees it (``without_state``).
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
import json
from typing import Any

from pydantic import BaseModel, Field, computed_field

from giftgenius.domain import Currency, ProfileDraft, SessionState, Step

STATE_BLOCK_PREFIX = "[giftgenius-state] "
PURPOSE_HEADER = "X-GiftGenius-Purpose"
PREVIOUS_HEADER = "Previous summary:"
MESSAGES_HEADER = "Messages to fold (oldest first):"
NO_SUMMARY = "(none)"
# ``date.weekday()`` order; English whatever the locale, like the rest of the state block.
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


class CandidateView(BaseModel):
    """What a tool shows the model of one product (ids + a few facts, never the catalog)."""

    id: str
    title: str
    price: float
    currency: Currency
    price_in_budget_currency: float | None = None
    delivery_days: int
    answers: list[str] = Field(
        default_factory=list, description="The stated interests (as stated) this gift answers"
    )
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
    today: dt.date  # an ISO date: restore and the offline model parse it

    @computed_field  # type: ignore[prop-decorator]
    @property
    def weekday(self) -> str:
        """Today's weekday in English ("Wednesday"), so "by Friday" needs no calendar."""
        return WEEKDAYS[self.today.weekday()]

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


def with_state(text: str, block: str) -> str:
    """The newest user message as the model receives it: the state block, then the words."""
    return f"{block}\n\n{text}"


def split_state(content: str) -> tuple[dict[str, Any] | None, str]:
    """The state block a user message carries (None if none or unreadable) and its words."""
    if not content.startswith(STATE_BLOCK_PREFIX):
        return None, content
    line, _, rest = content.partition("\n")
    try:
        state = json.loads(line[len(STATE_BLOCK_PREFIX) :])
    except json.JSONDecodeError:
        state = None
    return (state if isinstance(state, dict) else None), rest.removeprefix("\n")


def without_state(reply: str) -> str:
    """A model's reply with any echo of the state block cut out (small models repeat it):
    every line that carries the prefix, and a line that is the state's JSON on its own."""
    kept = [
        line
        for line in reply.splitlines()
        if STATE_BLOCK_PREFIX.strip() not in line and not _state_json(line)
    ]
    return "\n".join(kept).strip()


def _state_json(line: str) -> bool:
    """A line that is a state view as JSON without its prefix (echoed bare)."""
    text = line.strip().strip("`")
    if not (text.startswith("{") and '"step"' in text):
        return False
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        return True  # a cut-off echo is no more readable
    return isinstance(value, dict) and "step" in value
