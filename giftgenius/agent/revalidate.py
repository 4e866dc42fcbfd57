"""Re-check a run's candidates against today's catalog when the run is picked up again.

A person may come back days later: a product may have sold out, changed price, left the
catalog, or no longer arrive before their deadline. State holds only ids, so the check is
cheap, and the user is told what changed instead of being offered a gift that fails.
"""

from __future__ import annotations

import datetime as dt

from giftgenius.catalog import FilterSpec, Product, Rates, check
from giftgenius.domain import ProfileDraft, SessionState, Step
from giftgenius.workflow import check_transition


def filter_spec(profile: ProfileDraft, today: dt.date) -> FilterSpec:
    """The catalog filters a complete profile asks for (the budget is required)."""
    if profile.budget is None:
        raise ValueError("filters need a budget; the profile is not complete")
    return FilterSpec(
        budget_max=profile.budget.amount,
        budget_min=profile.budget.min_amount,
        currency=profile.budget.currency,
        country=profile.country,
        deadline=profile.deadline,
        today=today,
        dislikes=profile.dislikes,
    )


def revalidate(
    state: SessionState, products: dict[str, Product], rates: Rates, today: dt.date
) -> list[str]:
    """Drop candidates that no longer pass; returns one note per dropped candidate.

    When the shortlist empties, the run goes back to filtering over its search pool, so the
    next turn re-runs the filters instead of offering nothing.
    """
    if state.step != Step.finalizing or state.profile.budget is None:
        return []
    spec = filter_spec(state.profile, today)
    notes: list[str] = []
    kept: list[str] = []
    for gift_id in state.candidate_ids:
        product = products.get(gift_id)
        reasons = ["removed from the catalog"] if product is None else check(product, spec, rates)
        if reasons:
            title = product.title if product else gift_id
            notes.append(f"{title} is no longer available: {'; '.join(reasons)}")
        else:
            kept.append(gift_id)
    if not notes:
        return []
    state.candidate_ids = kept
    if state.selected_gift_id not in kept:
        state.selected_gift_id = None
    if not kept:
        check_transition(state.step, Step.filtering)  # no checkpoint: nothing new was made
        state.candidate_ids = [i for i in state.search_pool if i in products]
        state.step = Step.filtering
    return notes
