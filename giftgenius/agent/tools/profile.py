"""Recording who the gift is for, and moving the workflow back as far as a change requires."""

from __future__ import annotations

import datetime as dt
from typing import Any, Literal

from pydantic import Field

from giftgenius.agent.tools.call_context import TurnContext, ok, require_open
from giftgenius.agent.tools.candidates import find_gifts, refilter
from giftgenius.agent.tools.profile_reading import (
    BUDGET_CURRENCY_CODES,
    read_country,
    read_currency,
    read_recipient,
)
from giftgenius.agent.tools.recall import known_before
from giftgenius.agent.tools.registry import ToolArgs, tool
from giftgenius.agent.tools.tastes import popular_note, read_tastes
from giftgenius.catalog import canonical_tags
from giftgenius.domain import Budget, ProfileDraft, SessionState, Step
from giftgenius.errors import ToolError
from giftgenius.language.places import country_name
from giftgenius.privacy import scrub

# The recipient's words and name do not change what suits them; their audience does.
SEARCH_FACTS = ("audience", "age", "interests", "tastes_unknown")
FILTER_FACTS = ("budget", "dislikes", "country", "deadline")


class UpdateProfileArgs(ToolArgs):
    # Lists are added to what is recorded; remove_* takes back. Every field is optional:
    # the model sends null for what the user did not say (strict mode sends them all).

    recipient: str | None = Field(
        None,
        min_length=1,
        max_length=120,
        description="Who the gift is for, as the user said it with any name: 'my uncle "
        "Dave', 'votre marraine', 'Karen, my boss'.",
    )
    age: int | None = Field(None, ge=0, le=120, description="Age in years.")
    # The schema says "above zero" as before, but validation leaves it to the tool: a model
    # that passes a "-20" or a "0" the person typed gets a refusal that says why, in the
    # person's language, rather than a schema error (``budget.not_positive``).
    budget_max: float | None = Field(
        None, description="Most to spend, e.g. 50.", json_schema_extra={"exclusiveMinimum": 0}
    )
    budget_min: float | None = Field(None, ge=0, description="Least to spend, if said.")
    currency: str | None = Field(
        None,
        min_length=1,
        max_length=30,
        description=f"Budget currency: {', '.join(BUDGET_CURRENCY_CODES)} or the user's word.",
    )
    interests: list[str] | None = Field(
        None,
        max_length=12,
        description="Likes to add, short words as said ('tea', 'jardinage', 'Terry Pratchett').",
    )
    remove_interests: list[str] | None = Field(
        None,
        max_length=12,
        description="Interests taken back, or replaced by new ones.",
    )
    tastes_unknown: bool | None = Field(
        None,
        description="true when the person does not know the recipient's tastes.",
    )
    dislikes: list[str] | None = Field(
        None,
        max_length=12,
        description="Dislikes to add: kinds of gift, materials, ingredients ('mugs', 'cuir').",
    )
    remove_dislikes: list[str] | None = Field(
        None, max_length=12, description="Dislikes taken back."
    )
    country: str | None = Field(
        None,
        min_length=1,
        max_length=80,
        description="Delivery country: ISO code ('CA') or the place named ('Toronto', "
        "'la Belgique').",
    )
    deadline: dt.date | None = Field(
        None,
        description="Latest delivery date, YYYY-MM-DD (from `today` in the state).",
    )
    clear: list[Literal["age", "country", "deadline", "dislikes"]] | None = Field(
        None, description="Facts to forget."
    )


@tool
def update_profile(ctx: TurnContext, args: UpdateProfileArgs) -> dict[str, Any]:
    """Record or correct facts the user gives about the gift: recipient, budget, interests,
    dislikes, age, delivery country, deadline. Send only what they said (null for the
    rest). Not for questions about a gift, nor for choosing one.

    Result: `changed`; `missing` (still needed: ask for it); `understood` (how free text was
    read; each interest or dislike with the catalog `tags` it became, or, for a word the
    catalog does not know, its `closest` tags and whether any product text names it,
    `in_catalog`). When the profile is complete and the change matters, this call also
    searches and filters: `shortlist` (gifts to present, in order, each with the interests
    it `answers`), `unserved` (interests nothing answers, with the closest things: say so),
    and if the shortlist is empty `relax` (changes that would bring ideas back: offer them).
    Tastes unknown: the ideas are `popular` ones; say so. `known_before`: what an earlier
    search for this recipient knew; offer to start from it.

    Maintainers: free text is scrubbed of PII, then read with the catalog's normalisers
    (``profile_reading``, ``tastes``): the recipient is kept as said with its name and
    catalog audience, a place becomes an ISO country, a currency word a code; interests
    become canonical tags. A change moves the workflow back only as far as it must (see
    ``settle_step``).
    """
    require_open(ctx)
    old = ctx.state.profile
    data = old.model_dump()
    understood: dict[str, Any] = {}
    if args.recipient is not None:
        reading = read_recipient(args.recipient, ctx.state.locale, old)
        data.update(reading.model_dump(exclude={"relation_known"}))
        understood["recipient"] = reading.model_dump()
    if args.age is not None:
        data["age"] = args.age
    if args.budget_max is not None or args.budget_min is not None or args.currency is not None:
        data["budget"] = _budget(ctx, old, args)
    _record_tastes(ctx, args, data, understood)
    if args.country is not None:
        data["country"] = read_country(args.country, ctx.state.locale)
        understood["country"] = {
            "code": data["country"],
            "name": country_name(data["country"], ctx.state.locale),
        }
    if args.deadline is not None:
        if args.deadline < ctx.today:
            raise ToolError(
                "deadline.past", deadline=args.deadline.isoformat(), today=ctx.today.isoformat()
            )
        data["deadline"] = args.deadline
    for name in args.clear or []:
        data[name] = [] if name == "dislikes" else None
    new = ProfileDraft.model_validate(data)
    ctx.state.profile = new
    settle_step(ctx, old)
    if args.currency is not None and new.budget is not None:
        understood["currency"] = new.budget.currency
    found = follow_up(ctx, changed=new != old)
    if args.recipient is not None and new.missing() and new.recipient != old.recipient:
        known = known_before(ctx)  # someone searched for before: offer what was known
        found.update({"known_before": known} if known else {})
    return ok(ctx, changed=new != old, missing=new.missing(), understood=understood, **found)


def _record_tastes(
    ctx: TurnContext, args: UpdateProfileArgs, data: dict[str, Any], understood: dict[str, Any]
) -> None:
    """Interests and dislikes added or taken back, and whether the tastes are unknown.

    A place given as the delivery country in the same call is no interest ("lives in
    Tokyo": country "Tokyo", not the interest "Tokyo"); a taste said at last ends
    ``tastes_unknown``, so the search looks for it rather than for popular gifts.
    """
    destination = " ".join((args.country or "").lower().split())
    interests = [w for w in args.interests or [] if " ".join(w.lower().split()) != destination]
    for key, add, remove in (
        ("interests", interests, args.remove_interests),
        ("dislikes", args.dislikes, args.remove_dislikes),
    ):
        values = list(data[key])
        if remove:
            gone = set(_normalize_facts(remove))
            values = [v for v in values if v not in gone]
        if add:
            values += _normalize_facts(add)
            understood[key] = read_tastes(ctx, add, dislikes=key == "dislikes")
        data[key] = values
    if args.tastes_unknown is not None:
        data["tastes_unknown"] = args.tastes_unknown
    if interests:
        data["tastes_unknown"] = False


def follow_up(ctx: TurnContext, *, changed: bool) -> dict[str, Any]:
    """What the workflow does next, done here rather than left to the model.

    A profile that became complete, or a change that matters on a complete one, searches
    and filters at once (``find_gifts``); a budget, dislike, country or deadline change
    re-runs the filters over the last search (``refilter``). So the model reports what the
    person said and gets the shortlist back in the same call.
    """
    step = ctx.state.step
    if step == Step.generating_candidates:
        return find_gifts(ctx)
    if step == Step.filtering and changed:
        return {**refilter(ctx), **popular_note(ctx.state.profile)}
    return {}


def _budget(ctx: TurnContext, old: ProfileDraft, args: UpdateProfileArgs) -> Budget:
    """The new budget: given parts over the old ones; the currency defaults as configured."""
    if args.budget_max is not None:
        amount = args.budget_max
    elif old.budget is not None:
        amount = old.budget.amount
    else:
        raise ToolError("budget.max_required")
    currency: str  # a Currency value: read_currency's, the old budget's or the settings'
    if args.currency is not None:
        available = [code for code in BUDGET_CURRENCY_CODES if code in ctx.rates.per_usd]
        currency = read_currency(args.currency, dollar=ctx.default_currency, available=available)
    else:
        currency = old.budget.currency if old.budget else ctx.default_currency
    if amount <= 0:  # "-20 euros", "0 dollars": ask again, keep the budget known
        raise ToolError("budget.not_positive", amount=amount, currency=currency)
    minimum = args.budget_min
    if minimum is not None and minimum > amount:
        raise ToolError("budget.min_above_max", minimum=minimum, maximum=amount, currency=currency)
    return Budget(amount=amount, currency=currency, min_amount=minimum)


def _normalize_facts(words: list[str]) -> list[str]:
    out: list[str] = []
    for word in words:
        tags = sorted(canonical_tags(word))
        out.extend(tags or [scrub(word).strip().lower()])
    return out


def settle_step(ctx: TurnContext, old: ProfileDraft) -> None:
    """Move the workflow back as far as the profile change requires, and no further.

    Who/what changes need a new search; budget, dislikes, country or deadline only need
    the filters re-run over the last search (a new ``filtered`` checkpoint).
    """
    state, new = ctx.state, ctx.state.profile
    search_changed = any(getattr(old, f) != getattr(new, f) for f in SEARCH_FACTS)
    filter_changed = any(getattr(old, f) != getattr(new, f) for f in FILTER_FACTS)
    if not new.complete:
        if state.step != Step.collecting_profile:
            _reset_candidates(state)
            ctx.move_to(Step.collecting_profile)
    elif state.step == Step.collecting_profile:
        ctx.move_to(Step.generating_candidates)
    elif search_changed and state.step in (Step.filtering, Step.finalizing):
        _reset_candidates(state)
        ctx.move_to(Step.generating_candidates)
    elif filter_changed and state.step in (Step.filtering, Step.finalizing):
        state.candidate_ids = list(state.search_pool)
        state.selected_gift_id = None
        ctx.move_to(Step.filtering)


def _reset_candidates(state: SessionState) -> None:
    state.candidate_ids = []
    state.search_pool = []
    state.shown_ids = []
    state.selected_gift_id = None
