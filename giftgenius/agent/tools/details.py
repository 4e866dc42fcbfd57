"""Answering questions about the listed gifts: what they are, cost, and when they arrive.

A question about the list ("what's the difference between the first and the second?",
"will it arrive before the 20th?", "c'est quoi le 3 ?") must change nothing: it neither
selects a gift nor moves the deadline. The tool reads, and hands the model every fact a
person asks about with the arithmetic already done — the price in the budget's currency,
the arrival date from ``today``, whether that is in time — since a model that adds days
to a date or converts prices gets them wrong.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any

from pydantic import Field

from giftgenius.agent.tools.call_context import TurnContext, ok
from giftgenius.agent.tools.registry import ToolArgs, tool
from giftgenius.catalog import Product, price_in
from giftgenius.domain import MAX_CANDIDATES
from giftgenius.errors import ToolError


class GiftQuestionArgs(ToolArgs):
    gift_ids: list[Annotated[str, Field(min_length=1, max_length=64)]] = Field(
        min_length=1,
        max_length=MAX_CANDIDATES,
        description="The listed gifts asked about; all of them for 'which one…?'.",
    )
    by_date: dt.date | None = Field(
        None,
        description="A date asked about ('before the 20th': the 19th), YYYY-MM-DD, or null.",
    )


@tool
def get_gift_details(ctx: TurnContext, args: GiftQuestionArgs) -> dict[str, Any]:
    """Answer questions about listed gifts (what, price, delivery, ages, how they differ):
    one call with every gift asked about. Changes and selects nothing.

    Result: `gifts` (`number`, `title`, `description`, prices, `arrives_on`, in time for the
    deadline or `by_date`, ages, `answers`: interests matched); `cheapest`, `soonest`.

    Maintainers: only the run's own gifts are described (the shortlist and the selected
    gift): tools see the current run, never the whole catalog by id.
    """
    wanted = list(dict.fromkeys(args.gift_ids))
    listed = list(ctx.state.candidate_ids)
    allowed = {*listed, *([ctx.state.selected_gift_id] if ctx.state.selected_gift_id else [])}
    for gift_id in wanted:
        if gift_id not in allowed:
            raise ToolError("gift.not_candidate", gift_id=gift_id, candidates=listed)
    products = ctx.products(wanted)
    for gift_id in wanted:
        if gift_id not in products:
            raise ToolError("gift.removed", gift_id=gift_id)
    gifts = [_details(ctx, products[i], listed, args.by_date) for i in wanted]
    extra: dict[str, Any] = {}
    if len(gifts) > 1:
        extra = {"cheapest": _lowest(gifts, "_cost"), "soonest": _lowest(gifts, "delivery_days")}
    for gift in gifts:
        del gift["_cost"]
    deadline = ctx.state.profile.deadline
    return ok(
        ctx,
        gifts=gifts,
        deadline=deadline.isoformat() if deadline else None,
        by_date=args.by_date.isoformat() if args.by_date else None,
        **extra,
    )


def _details(
    ctx: TurnContext, product: Product, listed: list[str], by_date: dt.date | None
) -> dict[str, Any]:
    """Everything a person asks about one gift, dates and prices worked out."""
    view = ctx.candidate_view(product)
    arrives = ctx.today + dt.timedelta(days=product.delivery_days)
    deadline = ctx.state.profile.deadline
    budget = ctx.state.profile.budget
    currency = budget.currency if budget else ctx.default_currency
    return {
        "number": listed.index(product.id) + 1 if product.id in listed else None,
        "id": product.id,
        "title": product.title,
        "description": product.description,
        "price": product.price,
        "currency": product.currency,
        "price_in_budget_currency": view.price_in_budget_currency,
        "delivery_days": product.delivery_days,
        "arrives_on": arrives.isoformat(),
        "in_time_for_deadline": None if deadline is None else arrives <= deadline,
        "in_time_for_date": None if by_date is None else arrives <= by_date,
        "min_age": product.min_age,
        "max_age": product.max_age,
        "answers": view.answers,
        "selected": product.id == ctx.state.selected_gift_id,
        "_cost": price_in(product, currency, ctx.rates),
    }


def _lowest(gifts: list[dict[str, Any]], key: str) -> list[int | None]:
    """The numbers of the gifts with the lowest ``key`` (several on a tie)."""
    low = min(g[key] for g in gifts)
    return [g["number"] for g in gifts if g[key] == low]
