"""What to relax when no gift passes the filters, and how much it would bring back.

A dead end ("nothing fits") is only helpful when it says which constraint removed what and
what a change would bring: "with a budget of £24, 3 ideas would fit". The filters' reasons
per product are enough to know it: a product held back by one constraint alone comes back
when that constraint is relaxed. Any model reads these in the filter tool's result; stock
and catalog removals are not the person's to relax.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, Field

from giftgenius.catalog.models import Product, Rates
from giftgenius.catalog.search import FilterSpec, check, price_in


class Relaxation(BaseModel):
    """One constraint to relax, the value that would do, and how many gifts would pass."""

    constraint: Literal["budget", "deadline", "country", "dislike"]
    would_pass: int = Field(ge=1)
    budget_max: float | None = Field(None, description="The lowest budget that lets them in")
    currency: str | None = None
    deadline: dt.date | None = Field(None, description="The earliest date they can arrive")
    country: str | None = Field(None, description="The delivery country they do not ship to")
    dislike: str | None = Field(None, description="The dislike they match")


def relaxations(products: Sequence[Product], spec: FilterSpec, rates: Rates) -> list[Relaxation]:
    """For each constraint that alone holds gifts back, a change that lets some through
    (a budget up to the third cheapest of them, a date by which the first can arrive), with
    how many it lets through; in the order people usually give ground: budget, deadline,
    country, dislike."""
    over: list[float] = []
    late: list[dt.date] = []
    elsewhere = 0
    disliked: dict[str, int] = {}
    for product in products:
        reasons = check(product, spec, rates)
        if len(reasons) != 1:
            continue  # passing, or held back by more than one thing
        reason = reasons[0]
        if reason.startswith("over budget"):
            over.append(price_in(product, spec.currency, rates))
        elif reason.startswith("cannot arrive by"):
            late.append(spec.today + dt.timedelta(days=product.delivery_days))
        elif reason.startswith("does not ship to"):
            elsewhere += 1
        elif reason.startswith("matches dislike"):
            word = reason.split("'")[1]
            disliked[word] = disliked.get(word, 0) + 1
    found: list[Relaxation] = []
    if over:
        budget = float(math.ceil(sorted(over)[:_ENOUGH][-1]))
        found.append(
            Relaxation(
                constraint="budget",
                would_pass=sum(1 for price in over if price <= budget),
                budget_max=budget,
                currency=spec.currency,
            )
        )
    if late:
        first = min(late)
        found.append(
            Relaxation(
                constraint="deadline",
                would_pass=sum(1 for day in late if day <= first),
                deadline=first,
            )
        )
    if elsewhere:
        found.append(Relaxation(constraint="country", would_pass=elsewhere, country=spec.country))
    for word, n in disliked.items():
        found.append(Relaxation(constraint="dislike", would_pass=n, dislike=word))
    return found


_ENOUGH = 3  # a budget suggestion brings back a few ideas to choose from, not only one
