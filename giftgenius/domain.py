"""Typed data shared by every layer: session state, messages, checkpoints, runs.

State holds ids, never product objects; every list is capped so a session or checkpoint
stays small however long the conversation runs. Every stored blob carries a schema version.
"""

from __future__ import annotations

import json
import re
import uuid
from datetime import UTC, date, datetime
from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from giftgenius.errors import UsageError
from giftgenius.messages import speak

# Bump these when the stored shape changes (and add an upgrade step in
# ``storage/checkpoints.py``): 2 and 3 added the recipient's name and audience.
SESSION_SCHEMA_VERSION = 2
CHECKPOINT_FORMAT_VERSION = 3

MAX_CANDIDATES = 20
MAX_FACTS = 12  # interests, dislikes
MAX_FACT_CHARS = 40
MAX_LABEL_CHARS = 40  # a saved recipient profile's label, as stored
MAX_SUMMARY_CHARS = 2400

# The currencies a budget or a product price can be in: the catalog's conversion table
# (``catalog/data/rates.json``) holds a rate for each, and a test keeps the two equal.
Currency = Literal["USD", "EUR", "GBP", "CHF", "CAD", "AUD", "NZD"]
Locale = Literal["en", "fr"]


USER_ID = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")


def check_user_id(user_id: str) -> str:
    """User ids name keys and rows everywhere; anything else is refused before any I/O."""
    if not isinstance(user_id, str) or not USER_ID.fullmatch(user_id):
        shown = repr(user_id)
        if isinstance(user_id, str) and len(user_id) > 64:  # never echo a pasted page back
            shown = speak("usage", "user_id.long", start=repr(user_id[:20]), length=len(user_id))
        raise UsageError(speak("usage", "user_id.invalid", shown=shown))
    return user_id


def utcnow() -> datetime:
    return datetime.now(UTC)


def new_id() -> str:
    return uuid.uuid4().hex


class Step(StrEnum):
    collecting_profile = "collecting_profile"
    generating_candidates = "generating_candidates"
    filtering = "filtering"
    finalizing = "finalizing"
    done = "done"


class CheckpointStep(StrEnum):
    profile_collected = "profile_collected"
    candidates_generated = "candidates_generated"
    filtered = "filtered"
    final_choice_made = "final_choice_made"


def _cap_facts(values: list[str]) -> list[str]:
    seen: list[str] = []
    for value in values:
        value = value.strip().lower()[:MAX_FACT_CHARS]
        if value and value not in seen:
            seen.append(value)
    return seen[-MAX_FACTS:]


Facts = Annotated[list[str], AfterValidator(_cap_facts)]


class Budget(BaseModel):
    model_config = ConfigDict(frozen=True)

    amount: float = Field(gt=0, description="Upper bound, in major units")
    currency: Currency = "USD"
    min_amount: float | None = Field(None, ge=0)


class ProfileDraft(BaseModel):
    """What we know about the recipient. Required: recipient, budget, one interest (or
    the person's word that they do not know any).

    The recipient is kept as the person put it ("uncle", "belle-mère", or only a name), so
    replies can say "your uncle Dave"; the catalog ranks by ``audience``, one of its
    ``recipients`` values ("anyone" when the relation does not tell). The tools resolve the
    three together (``catalog.relations.resolve_relation``); this layer only holds them.
    """

    recipient: str | None = Field(
        None, max_length=60, description="The relation as said: 'uncle', or the name alone"
    )
    recipient_name: str | None = Field(None, max_length=60, description="A name given: 'Dave'")
    audience: str = Field(
        "anyone", pattern=r"^[a-z]{1,20}$", description="The catalog's recipients value"
    )
    age: int | None = Field(None, ge=0, le=120)
    budget: Budget | None = None
    interests: Facts = Field(default_factory=list)
    # The person said they do not know the recipient's tastes ("no idea what she likes"):
    # the search offers gifts popular with the audience instead of asking again.
    tastes_unknown: bool = False
    dislikes: Facts = Field(default_factory=list)
    country: str | None = Field(None, pattern=r"^[A-Z]{2}$")
    deadline: date | None = None

    def missing(self) -> list[str]:
        missing = []
        if not self.recipient:
            missing.append("recipient")
        if self.budget is None:
            missing.append("budget")
        if not self.interests and not self.tastes_unknown:
            missing.append("interests")
        return missing

    @property
    def complete(self) -> bool:
        return not self.missing()


class SessionState(BaseModel):
    """Working memory of one run: small, ids only, capped lists."""

    step: Step = Step.collecting_profile
    profile: ProfileDraft = Field(default_factory=ProfileDraft)
    candidate_ids: list[str] = Field(default_factory=list, max_length=MAX_CANDIDATES)
    # The last search's results; filters re-run over it when only budget, dislikes,
    # country or deadline change, so a budget change does not need a new search.
    search_pool: list[str] = Field(default_factory=list, max_length=MAX_CANDIDATES)
    # The gifts shown since the search's facts last changed, newest last: "other ideas"
    # (``search_candidates``) are searched without them.
    shown_ids: list[str] = Field(default_factory=list, max_length=MAX_CANDIDATES)
    selected_gift_id: str | None = None
    order_draft_id: str | None = None
    locale: Locale = "en"


class ToolCall(BaseModel):
    id: str
    name: str
    arguments: str = "{}"  # JSON text, exactly as the model sent it

    def to_openai(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "type": "function",
            "function": {"name": self.name, "arguments": self.arguments},
        }


class Message(BaseModel):
    """One chat message in OpenAI's shape, plus what we keep with it.

    ``seq`` is its position in the run's transcript; ``tokens`` is counted once, when the
    message is first seen, so a turn's counting cost does not grow with the history.
    """

    role: Literal["system", "user", "assistant", "tool"]
    content: str | None = None
    tool_calls: list[ToolCall] = Field(default_factory=list)
    tool_call_id: str | None = None
    seq: int | None = None
    tokens: int | None = None

    def to_openai(self) -> dict[str, Any]:
        out: dict[str, Any] = {"role": self.role, "content": self.content}
        if self.tool_calls:
            out["tool_calls"] = [c.to_openai() for c in self.tool_calls]
        if self.role == "tool":
            out["tool_call_id"] = self.tool_call_id
        return out

    @classmethod
    def from_openai(cls, data: dict[str, Any]) -> Message:
        calls = [
            ToolCall(id=c["id"], name=c["function"]["name"], arguments=c["function"]["arguments"])
            for c in data.get("tool_calls") or []
        ]
        return cls(
            role=data["role"],
            content=data.get("content"),
            tool_calls=calls,
            tool_call_id=data.get("tool_call_id"),
        )


class Summary(BaseModel):
    """Running summary of folded messages; ``through_seq`` = last transcript seq folded."""

    text: str = Field("", max_length=MAX_SUMMARY_CHARS)
    through_seq: int = 0
    tokens: int = 0


class Usage(BaseModel):
    requests: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    summary_requests: int = 0
    summary_prompt_tokens: int = 0
    summary_completion_tokens: int = 0
    last_prompt_tokens: int = 0
    last_completion_tokens: int = 0
    truncations: int = 0
    summarizations: int = 0
    refusals: int = 0  # requests the endpoint refused as too long (then shrunk and retried)


class MemoryBlock(BaseModel):
    """The notes of the run's recipient that the model is given (``agent/memory.py``): kept
    in the live session so they are read once per recipient, not every turn, and never in
    a checkpoint (a session rebuilt from the database reads them again)."""

    key: str = Field(max_length=120)  # the recipient they are about (``recipient_key``)
    text: str = Field("", max_length=4000)


class Session(BaseModel):
    """The live working copy of a run, kept in the session store under a sliding TTL."""

    schema_version: int = SESSION_SCHEMA_VERSION
    run_id: str
    user_id: str
    version: int = 0
    state: SessionState = Field(default_factory=SessionState)
    messages: list[Message] = Field(default_factory=list)
    summary: Summary = Field(default_factory=Summary)
    usage: Usage = Field(default_factory=Usage)
    next_seq: int = 1
    memory: MemoryBlock | None = None
    created_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow)

    def dump(self) -> str:
        return self.model_dump_json()

    @classmethod
    def load(cls, raw: str | bytes) -> Session:
        return cls.model_validate_json(raw)


class Checkpoint(BaseModel):
    """A small durable snapshot at a key step: ids, state, bounded summary, metadata."""

    format_version: int = CHECKPOINT_FORMAT_VERSION
    id: str = Field(default_factory=new_id)
    run_id: str
    user_id: str
    step: CheckpointStep
    session_version: int
    agent_version: str
    created_at: datetime = Field(default_factory=utcnow)
    state: SessionState
    summary: Summary = Field(default_factory=Summary)
    next_seq: int = 1

    def payload(self) -> dict[str, Any]:
        """What the database stores in the checkpoint's JSON column."""
        return json.loads(self.payload_json())

    def payload_json(self) -> str:
        """``payload()`` as JSON text."""
        return self.model_dump_json(include={"format_version", "state", "summary", "next_seq"})


class RunStatus(StrEnum):
    active = "active"
    done = "done"
    abandoned = "abandoned"


class RunInfo(BaseModel):
    id: str
    user_id: str
    status: RunStatus
    step: Step
    session_version: int
    created_at: datetime
    updated_at: datetime
    agent_version: str | None = None  # the agent and prompt of the last committed turn


class TranscriptEntry(BaseModel):
    run_id: str
    seq: int
    turn_id: str
    role: Literal["user", "assistant", "tool"]
    content: str | None = None
    tool_calls: list[ToolCall] = Field(default_factory=list)
    tool_call_id: str | None = None
    created_at: datetime = Field(default_factory=utcnow)

    def to_message(self) -> Message:
        return Message(
            role=self.role,
            content=self.content,
            tool_calls=self.tool_calls,
            tool_call_id=self.tool_call_id,
            seq=self.seq,
        )


class RecipientProfile(BaseModel):
    """A saved recipient ("my sister"), persistent across runs; no PII."""

    id: str = Field(default_factory=new_id)
    user_id: str
    label: str = Field(min_length=1, max_length=MAX_LABEL_CHARS)
    profile: ProfileDraft
    updated_at: datetime = Field(default_factory=utcnow)


class OrderDraft(BaseModel):
    id: str = Field(default_factory=new_id)
    run_id: str
    user_id: str
    gift_id: str
    price: float
    currency: Currency
    created_at: datetime = Field(default_factory=utcnow)


class GiftGiven(BaseModel):
    """A confirmed gift, kept as given: to whom (the recipient as the run named them), what,
    for how much and when. The product's title is kept as it was, so the history reads the
    same when the catalog changes. Written with the order draft, erased by ``forget``."""

    id: str = Field(default_factory=new_id)
    user_id: str
    run_id: str
    recipient: str = Field(min_length=1, max_length=60)
    recipient_name: str | None = Field(None, max_length=60)
    gift_id: str
    title: str = Field(max_length=200)
    price: float
    currency: Currency
    confirmed_at: datetime = Field(default_factory=utcnow)
