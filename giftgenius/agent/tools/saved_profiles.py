"""Recipient profiles the user keeps across runs, under a label ("sister", "boss")."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from giftgenius.agent.tools.call_context import TurnContext, ok, require_open
from giftgenius.agent.tools.profile import follow_up, settle_step
from giftgenius.agent.tools.registry import NoArgs, ToolArgs, tool
from giftgenius.domain import MAX_LABEL_CHARS, RecipientProfile
from giftgenius.errors import ToolError
from giftgenius.privacy import scrub
from giftgenius.storage.repositories import normalize_label


class ProfileLabelArgs(ToolArgs):
    label: str = Field(
        min_length=1,
        max_length=MAX_LABEL_CHARS,
        description="A short label as said: 'sister', 'boss'.",
    )


@tool
def list_recipient_profiles(ctx: TurnContext, args: NoArgs) -> dict[str, Any]:
    """The user's saved recipient profiles, when they mention someone saved before or ask.

    Result: `profiles` (each `label` and `profile`).
    """
    with ctx.db.read() as repos:
        saved = repos.profiles.list(ctx.user_id)
    return ok(
        ctx,
        profiles=[{"label": p.label, "profile": p.profile.model_dump(mode="json")} for p in saved],
    )


@tool
def save_recipient_profile(ctx: TurnContext, args: ProfileLabelArgs) -> dict[str, Any]:
    """Save the current recipient profile under a label for later searches, only when the
    user asks to remember this person (also after the choice).

    Result: `saved_label`.

    Maintainers: the label is scrubbed (a model may echo an address or a phone number into it) and
    cleaned of control characters; what is left must still be a label.
    """
    if not ctx.state.profile.recipient:
        raise ToolError("profile.nothing_to_save")
    label = normalize_label(scrub(args.label))
    if not label:
        raise ToolError("label.empty")
    if len(label) > MAX_LABEL_CHARS:
        raise ToolError("label.too_long", limit=MAX_LABEL_CHARS)
    profile = RecipientProfile(user_id=ctx.user_id, label=label, profile=ctx.state.profile)
    ctx.staged.append(lambda repos: repos.profiles.upsert(profile))
    return ok(ctx, saved_label=label)


@tool
def load_recipient_profile(ctx: TurnContext, args: ProfileLabelArgs) -> dict[str, Any]:
    """Load a saved profile into this search by its label; later facts go to
    update_profile.

    Result: `loaded_label`, `missing`; when nothing is missing, the shortlist as for
    update_profile.
    """
    require_open(ctx)
    label = normalize_label(args.label)
    with ctx.db.read() as repos:
        saved = repos.profiles.get(ctx.user_id, label)
        labels = [] if saved else [p.label for p in repos.profiles.list(ctx.user_id)]
    if saved is None:
        raise ToolError("label.unknown", label=label, labels=labels)
    old = ctx.state.profile
    ctx.state.profile = saved.profile.model_copy(deep=True)
    settle_step(ctx, old)
    found = follow_up(ctx, changed=ctx.state.profile != old)
    return ok(ctx, loaded_label=label, missing=ctx.state.profile.missing(), **found)
