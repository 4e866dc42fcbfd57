"""Choosing: select one of the shortlisted gifts, then confirm it as an order draft."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from giftgenius.agent.tools.call_context import StagedChange, TurnContext, ok, require_open
from giftgenius.agent.tools.candidates import GiftIdArgs, relation_ages
from giftgenius.agent.tools.given import gift_given, given_to
from giftgenius.agent.tools.registry import NoArgs, ToolArgs, tool
from giftgenius.catalog import Product, check, price_in
from giftgenius.catalog.describing import (
    Described,
    best_fits,
    described_query,
    enough,
    fit,
    of_the_kind_named,
    read_description,
)
from giftgenius.catalog.search import answers
from giftgenius.domain import MAX_CANDIDATES, OrderDraft, RecipientProfile, Step, new_id
from giftgenius.errors import ToolError
from giftgenius.language.folding import fold


@tool
def select_gift(ctx: TurnContext, args: GiftIdArgs) -> dict[str, Any]:
    """Select a shortlisted gift by id when the user picks one (by number, place, price,
    title). It only selects: then ask whether to record it. Not for questions.

    Result: `selected`.

    Maintainers: only an id from this run's shortlist that still passes today's filters is
    accepted.
    """
    require_open(ctx)
    if ctx.state.step != Step.finalizing:
        raise ToolError("choice.not_ready", step=str(ctx.state.step))
    product = _candidate(ctx, args.gift_id)
    ctx.state.selected_gift_id = product.id
    return ok(ctx, selected=ctx.candidate_view(product).model_dump())


# How many catalog products one described choice may read beyond the shortlist, per lookup.
CATALOG_LOOKUP = 8


class DescribedGiftArgs(ToolArgs):
    described: str = Field(
        min_length=1,
        max_length=200,
        description="The user's words for the gift, as said: kind, material, feature, title.",
    )
    price_end: Literal["cheapest", "priciest"] | None = Field(
        None,
        description="For 'the cheapest/priciest of the …', else null.",
    )


@tool
def select_described_gift(ctx: TurnContext, args: DescribedGiftArgs) -> dict[str, Any]:
    """Select the gift the user names by what it is ('the moka pot', 'le moulin en bois'),
    from the shortlist or else the catalog within the constraints. It only selects.

    Result: `selected` (null if nothing fits: nothing changed, and `closest` may name a
    product that fits the words but not the constraints, with `reasons`); `found`
    ("shortlist", or "catalog": added to the list, say so); `candidates` (the list now).
    """
    require_open(ctx)
    if ctx.state.step != Step.finalizing:
        raise ToolError("choice.not_ready", step=str(ctx.state.step))
    described = read_description(args.described)
    if described.size == 0:
        raise ToolError("choice.nothing_described", described=args.described)
    spec = ctx.filter_spec()
    listed = ctx.products(ctx.state.candidate_ids)
    shortlist = [
        listed[i]
        for i in ctx.state.candidate_ids
        if i in listed and not check(listed[i], spec, ctx.rates)
    ]
    profile = ctx.state.profile
    query = described_query(
        described, recipient=profile.audience, age=profile.age, ages=relation_ages(ctx)
    )
    found = "shortlist"
    product = _pick(ctx, shortlist, described, args.price_end)
    if product is None:
        found = "catalog"
        given = list(given_to(ctx))  # never a gift the recipient was given before
        matches = ctx.search(
            lambda c: c.ranked(query, limit=CATALOG_LOOKUP, spec=spec, exclude=given)
        )
        # Beyond the shortlist the words are all there is to go on, and half of them is
        # not enough: an aquarium's thermometer meets half of "le thermomètre pour la
        # viande", an atlas of coffee half of "the book about fish". The find must be of
        # every kind the words name, or answer an interest of this run.
        on_topic = [
            p for p in matches if of_the_kind_named(p, described) or answers(p, profile.interests)
        ]
        product = _pick(ctx, on_topic, described, args.price_end)
    if product is None:
        nearest = ctx.search(lambda c: c.ranked(query, limit=CATALOG_LOOKUP))
        close = best_fits(nearest, described)
        closest = (
            {"title": close[0].title, "reasons": check(close[0], spec, ctx.rates)}
            if close
            else None
        )
        return ok(ctx, selected=None, described=args.described, closest=closest)
    if product.id not in ctx.state.candidate_ids:
        ctx.state.candidate_ids = [*ctx.state.candidate_ids, product.id][-MAX_CANDIDATES:]
    ctx.state.selected_gift_id = product.id
    views = ctx.products(ctx.state.candidate_ids)
    return ok(
        ctx,
        selected=ctx.candidate_view(product).model_dump(),
        found=found,
        candidates=[
            ctx.candidate_view(views[i]).model_dump() for i in ctx.state.candidate_ids if i in views
        ],
    )


def _pick(
    ctx: TurnContext, products: list[Product], described: Described, price_end: str | None
) -> Product | None:
    """The product the words name among ``products``: the one meeting most of them (the
    first, on a tie), or with a price end the cheapest or priciest of those meeting enough."""
    if price_end is None:
        best = best_fits(products, described)
        return best[0] if best else None
    fitting = [p for p in products if enough(fit(p, described), described)]
    if not fitting:
        return None
    currency = ctx.state.profile.budget.currency if ctx.state.profile.budget else "USD"
    pick = min if price_end == "cheapest" else max
    return pick(fitting, key=lambda p: price_in(p, currency, ctx.rates))


@tool
def confirm_choice(ctx: TurnContext, args: NoArgs) -> dict[str, Any]:
    """Record the selected gift as the choice (an order draft), ending the search. Only
    after an explicit yes to recording it, or when the choosing message also confirms it.
    Never on a bare pick or "later".

    Result: `order_draft_id`, `gift`.

    Maintainers: the draft is staged, not written: it commits with the rest of the turn.
    """
    require_open(ctx)
    if ctx.state.step != Step.finalizing or ctx.state.selected_gift_id is None:
        raise ToolError("choice.none_selected")
    product = _candidate(ctx, ctx.state.selected_gift_id)
    draft = OrderDraft(
        id=new_id(),
        run_id=ctx.run_id,
        user_id=ctx.user_id,
        gift_id=product.id,
        price=product.price,
        currency=product.currency,
    )
    ctx.staged.append(lambda repos: repos.orders.upsert(draft))
    ctx.state.order_draft_id = draft.id
    with ctx.db.read() as repos:
        saved = repos.profiles.list(ctx.user_id)
    given = gift_given(ctx, product, saved)
    if given is not None:  # kept for the recipient: a later search for them leaves it out
        ctx.staged.append(lambda repos: repos.gifts.record(given))
    _remember(ctx, saved)
    ctx.move_to(Step.done)
    return ok(ctx, order_draft_id=draft.id, gift=ctx.candidate_view(product).model_dump())


def _remember(ctx: TurnContext, saved: list[RecipientProfile]) -> None:
    """A profile saved for this recipient learns what this search settled.

    People ask to keep someone's profile as soon as they think of it ("note bien que Clara
    déteste les parfums forts, pour la prochaine fois"), often before the budget and the
    country are said; next time they come back with "même budget que la fois d'avant". So
    when a gift is confirmed, every saved profile of the same recipient (same words, same
    name) takes the profile as it stands, but for the deadline, which was this occasion's.
    """
    profile = ctx.state.profile
    if not profile.recipient:
        return
    for entry in saved:
        kept = entry.profile
        same = fold(kept.recipient or "") == fold(profile.recipient) and fold(
            kept.recipient_name or ""
        ) == fold(profile.recipient_name or "")
        if not same:
            continue
        updated = RecipientProfile(
            user_id=ctx.user_id,
            label=entry.label,
            profile=profile.model_copy(update={"deadline": kept.deadline}, deep=True),
        )
        if updated.profile != kept:
            ctx.staged.append(_saving(updated))


def _saving(profile: RecipientProfile) -> StagedChange:
    return lambda repos: repos.profiles.upsert(profile)


def _candidate(ctx: TurnContext, gift_id: str) -> Product:
    """The product behind a shortlisted id, re-checked against today's catalog and filters."""
    if gift_id not in ctx.state.candidate_ids:
        raise ToolError(
            "gift.not_candidate", gift_id=gift_id, candidates=list(ctx.state.candidate_ids)
        )
    product = ctx.product(gift_id)
    if product is None:
        raise ToolError("gift.removed", gift_id=gift_id)
    reasons = check(product, ctx.filter_spec(), ctx.rates)
    if reasons:
        raise ToolError("gift.fails_filters", title=product.title, reasons=list(reasons))
    return product
