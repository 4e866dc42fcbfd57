"""The person's earlier searches, found again: the long-term notes (``agent/memory.py``) with
the facts of the runs that wrote them, for "like last time", "what did I give her?".

A note's text is what a model reads; its facts are what it acts on, in the very names
``update_profile`` takes, read from the run's newest checkpoint and the gift history (the
records the note was written from). Only the caller's notes are searched, and the run ids
stay out of the result: the model has nothing to do with them.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from giftgenius.agent.memory import Recalled, recipient_label
from giftgenius.agent.tools.call_context import TurnContext, ok
from giftgenius.agent.tools.registry import ToolArgs, tool
from giftgenius.domain import GiftGiven, ProfileDraft
from giftgenius.storage.repositories import Repos

RECALLED = 3  # notes a recall returns: the few that matter, not the person's whole past


class RecallArgs(ToolArgs):
    about: str | None = Field(
        None, max_length=200, description="What to look for; none: the newest notes."
    )
    recipient: str | None = Field(None, max_length=60, description="Only about: 'my mum'.")


@tool
def recall_memories(ctx: TurnContext, args: RecallArgs) -> dict[str, Any]:
    """Notes of the person's earlier searches, when they speak of the past ("like last
    time").

    Result: `memories`: `note`, `facts` (update_profile's names, `chosen`).
    """
    if ctx.memory is None:  # an agent built without a memory store keeps no notes
        return ok(ctx, memories=[])
    notes = ctx.memory.recall(ctx.user_id, args.about, recipient=args.recipient, k=RECALLED + 1)
    notes = [n for n in notes if n.run_id != ctx.run_id][:RECALLED]  # not this search's own
    return ok(ctx, memories=_recalled(ctx, notes))


def known_before(ctx: TurnContext) -> dict[str, Any] | None:
    """What the newest earlier search for the run's recipient knew — its note and facts —
    for ``update_profile`` to offer when it still misses something; None when nothing is
    known (or no notes are kept)."""
    profile = ctx.state.profile
    if ctx.memory is None or not (profile.recipient or profile.recipient_name):
        return None
    notes = ctx.memory.recall(
        ctx.user_id, None, recipient=profile.recipient, name=profile.recipient_name, k=2
    )
    newest = next((n for n in notes if n.run_id != ctx.run_id), None)
    if newest is None:
        return None
    return _recalled(ctx, [newest])[0]


def _recalled(ctx: TurnContext, notes: list[Recalled]) -> list[dict[str, Any]]:
    """The notes as the model is given them, with their runs' facts (one short read)."""
    with ctx.db.read() as repos:
        gifts = {g.run_id: g for g in repos.gifts.list_for(ctx.user_id)}
        return [_memory(ctx, repos, note, gifts.get(note.run_id)) for note in notes]


def _memory(
    ctx: TurnContext, repos: Repos, note: Recalled, gift: GiftGiven | None
) -> dict[str, Any]:
    checkpoint = repos.checkpoints.latest(note.run_id, user_id=ctx.user_id)
    facts = _facts(checkpoint.state.profile) if checkpoint is not None else {}
    if gift is not None:
        chosen: dict[str, Any] = {
            "title": gift.title,
            "price": gift.price,
            "currency": gift.currency,
            "given_on": gift.confirmed_at.date().isoformat(),
        }
        budget = facts.get("currency")
        if budget and budget != gift.currency:  # what it cost in the budget's currency
            chosen["price_in_budget_currency"] = ctx.rates.convert(
                gift.price, gift.currency, budget
            )
        facts["chosen"] = chosen
    return {"note": note.text, "recipient": note.recipient, "facts": facts}


def _facts(profile: ProfileDraft) -> dict[str, Any]:
    """A profile in ``update_profile``'s argument names, what was known only."""
    budget = profile.budget
    facts: dict[str, Any] = {
        "recipient": recipient_label(profile),
        "age": profile.age,
        "budget_max": budget.amount if budget else None,
        "currency": budget.currency if budget else None,
        "interests": list(profile.interests),
        "dislikes": list(profile.dislikes),
        "country": profile.country,
    }
    return {k: v for k, v in facts.items() if v not in (None, [])}
