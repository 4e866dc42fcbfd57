"""Finding gifts: search the catalog for the profile, filter the result, show one gift."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from giftgenius.agent.tools.call_context import TurnContext, ok, require_open
from giftgenius.agent.tools.given import given_to, left_out
from giftgenius.agent.tools.registry import ToolArgs, tool
from giftgenius.agent.tools.tastes import popular_note, searched_interests
from giftgenius.catalog import (
    FilterSpec,
    Product,
    answers,
    check,
    search_pool,
    shortlist,
    unserved,
)
from giftgenius.catalog.relaxing import relaxations
from giftgenius.catalog.search import band_fill, in_band, reserve
from giftgenius.domain import MAX_CANDIDATES, MAX_FACTS, GiftGiven, Step
from giftgenius.errors import ToolError
from giftgenius.language.relations import told_ages

# How many passing candidates the user is shown to choose from.
SHORTLIST_SIZE = 6
# The most product rows a turn reads, whatever the catalog's size: the search pool (capped
# at MAX_CANDIDATES; ranking reads ids only) plus, when filtering, one reserve product per
# stated interest (capped at MAX_FACTS) the filters emptied from the pool. Every other read
# (revalidation, the shortlist, details, choosing) is of ids already in state, read once
# per turn, plus up to SHORTLIST_SIZE gifts priced in the budget's band the pool lacked
# (``band_fill``). tests/agent/test_catalog_rows_per_turn.py holds a 10,000-product catalog
# to it.
MAX_PRODUCT_ROWS_PER_TURN = MAX_CANDIDATES + MAX_FACTS + SHORTLIST_SIZE


class SearchCandidatesArgs(ToolArgs):
    extra_keywords: list[str] = Field(
        default_factory=list,
        max_length=8,
        description="Words for what to look for beyond the interests ('wooden'), or null.",
    )


class GiftIdArgs(ToolArgs):
    gift_id: str = Field(min_length=1, max_length=64, description="A gift id from a tool result.")


@tool
def search_candidates(ctx: TurnContext, args: SearchCandidatesArgs) -> dict[str, Any]:
    """A new search, filtered, only when the user asks for other ideas or something more
    of a kind (those words in `extra_keywords`). Not after update_profile, which searches
    by itself; not for questions about a listed gift.

    Result: `shortlist`, `unserved`, `relax`, as for update_profile.

    Maintainers: the whole result (up to ``MAX_CANDIDATES`` ids, every stated interest
    taking its turn) becomes the search pool the filters run over (``find_gifts``); only
    the shortlist that passes them is shown.
    """
    require_open(ctx)
    profile = ctx.state.profile
    if not profile.complete:
        raise ToolError("search.incomplete", missing=list(profile.missing()))
    if ctx.state.step not in (Step.generating_candidates, Step.filtering, Step.finalizing):
        raise ToolError("search.wrong_step", step=str(ctx.state.step))
    return ok(ctx, **find_gifts(ctx, args.extra_keywords or [], others=True))


def find_gifts(
    ctx: TurnContext, extra_keywords: list[str] | None = None, *, others: bool = False
) -> dict[str, Any]:
    """Search the catalog for the profile, then filter: the whole funnel in one step.

    The workflow is the agent's, not the model's: a model that had to call a search and then
    a filter saw an unfiltered list in between (and presented over-budget gifts from it),
    and spent a model call on each. Writes ``candidates_generated`` then ``filtered``.

    With ``others`` (the person asked for other ideas), the gifts already shown since the
    facts last changed are left out; when none is left, the list on show stays and the
    result says ``no_others``.
    """
    showing = list(ctx.state.candidate_ids)
    shown = list(ctx.state.shown_ids) if others else []
    result = _search_and_filter(ctx, extra_keywords, shown)
    if shown and not result["shortlist"] and showing:
        return _no_others(ctx, showing)
    return {**result, "others": True} if shown and result["shortlist"] else result


def _no_others(ctx: TurnContext, showing: list[str]) -> dict[str, Any]:
    """Nothing fits that was not shown: the list on show stays, and the result says so."""
    products = ctx.products(showing)
    kept = [products[i] for i in showing if i in products]
    ctx.state.candidate_ids = [p.id for p in kept]
    if kept:
        ctx.move_to(Step.finalizing)
    return {
        "no_others": True,
        "shortlist": [ctx.candidate_view(p).model_dump() for p in kept],
        "hint": "No other gift fits everything the user said: say so; the shortlist is the "
        "one already shown. A wider budget or another interest would bring new ideas.",
    }


def _search_and_filter(
    ctx: TurnContext, extra_keywords: list[str] | None, shown: list[str]
) -> dict[str, Any]:
    profile = ctx.state.profile
    found = ctx.search(
        lambda catalog: search_pool(
            catalog,
            searched_interests(profile),
            extra_words=extra_keywords or [],
            recipient=profile.audience,  # the catalog's word; the person's is for replies
            age=profile.age,
            ages=relation_ages(ctx),
            limit=MAX_CANDIDATES,
        )
    )
    ctx.state.search_pool = [p.id for p in found]
    ctx.state.candidate_ids = list(ctx.state.search_pool)
    ctx.state.selected_gift_id = None
    if ctx.state.step != Step.generating_candidates:
        ctx.move_to(Step.generating_candidates)  # a new search restarts the funnel
    ctx.move_to(Step.filtering)
    return {"found": len(found), **refilter(ctx, shown=shown), **popular_note(profile)}


def relation_ages(ctx: TurnContext) -> tuple[int, int] | None:
    """The ages the recipient's relation tells (an uncle 18 to 99, a kid 3 to 12), which the
    search holds products to when no age was said: the catalog audience alone ("anyone")
    would let an uncle be offered a junior golf set."""
    return told_ages(ctx.state.profile.recipient, ctx.state.locale)


def refilter(ctx: TurnContext, *, shown: list[str] | None = None) -> dict[str, Any]:
    """Filter the last search (``state.search_pool``) by budget, delivery country, deadline
    and dislikes, and make the shortlist of what passes (without the gifts ``shown``
    already, when other ideas are asked for; the shortlist is then added to them).

    The result's ``shortlist`` holds the passing gifts, each naming the stated interests it
    ``answers``; ``rejected`` counts rejections per reason; ``unserved`` names the interests
    no shortlisted gift answers, with the closest things the catalog has; when nothing
    passes, ``relax`` says which change would bring ideas back. Moves to ``finalizing``
    (``filtered``) when something passes.
    """
    spec = ctx.filter_spec()
    given = given_to(ctx)
    seen = set(shown or ())
    pool = [i for i in ctx.state.search_pool if i not in given and i not in seen]
    products = ctx.products(pool)
    passing, rejected = _checked(ctx, pool, products, spec)
    profile = ctx.state.profile
    interests = profile.interests
    wanted = searched_interests(profile)  # popular kinds when the tastes are unknown
    passing += ctx.search(
        lambda catalog: reserve(
            catalog,
            wanted,
            passing,
            spec,
            recipient=profile.audience,
            age=profile.age,
            ages=relation_ages(ctx),
            exclude=[*given, *seen],
        )
    )
    passing += _toward_budget(ctx, passing, spec, [*given, *seen])
    preferred = {p.id for p in passing if in_band(p, spec, ctx.rates)}
    chosen = shortlist(passing, interests, SHORTLIST_SIZE, preferred=preferred)
    gaps = ctx.search(lambda catalog: unserved(interests, chosen, catalog, ctx.state.locale))
    missing = [u.model_dump() for u in gaps]
    # What the search found that the recipient was given before: left out, and said so.
    history = _given_before(ctx.state.search_pool, given)
    if not chosen:
        ctx.state.candidate_ids = []
        # Only gifts that answer a stated interest can reach a shortlist, so only they count.
        answering = [
            products[i]
            for i in pool
            if i in products and (not interests or answers(products[i], interests))
        ]
        return {
            **history,
            "shortlist": [],
            "rejected": _reason_counts(rejected),
            "unserved": missing,
            "relax": [r.model_dump(mode="json") for r in relaxations(answering, spec, ctx.rates)],
            "hint": "Nothing passes: tell the user which constraint removed what and offer the "
            "changes in `relax` (each with how many ideas it would bring back).",
        }
    ctx.state.candidate_ids = [p.id for p in chosen]
    ctx.state.shown_ids = [*(shown or []), *ctx.state.candidate_ids][-MAX_CANDIDATES:]
    ctx.move_to(Step.finalizing)
    return {
        **history,
        "shortlist": [ctx.candidate_view(p).model_dump() for p in chosen],
        "rejected": _reason_counts(rejected),
        "unserved": missing,
    }


def _checked(
    ctx: TurnContext, pool: list[str], products: dict[str, Product], spec: FilterSpec
) -> tuple[list[Product], dict[str, list[str]]]:
    """The pool's gifts that pass the filters, and each other gift's reasons."""
    passing: list[Product] = []
    rejected: dict[str, list[str]] = {}
    for gift_id in pool:
        product = products.get(gift_id)
        reasons = (
            ["removed from the catalog"] if product is None else check(product, spec, ctx.rates)
        )
        if reasons or product is None:
            rejected[gift_id] = reasons
        else:
            passing.append(product)
    return passing, rejected


def _given_before(pool: list[str], given: dict[str, GiftGiven]) -> dict[str, Any]:
    """``given_before``: the gifts of the search left out because the recipient was given
    them before (each with when and to whom), in the search's order; nothing when none."""
    gifts = [given[i] for i in pool if i in given]
    return {"given_before": left_out(gifts)} if gifts else {}


def _toward_budget(
    ctx: TurnContext, passing: list[Product], spec: FilterSpec, excluded: list[str]
) -> list[Product]:
    """Gifts priced in the budget's band (``catalog.search.band_fill``) when the passing ones
    that answer an interest hold fewer than a shortlist: so "120 CAD for the team" is not
    filled with €14 items, and raising a budget changes what is offered."""
    profile = ctx.state.profile
    interests = searched_interests(profile)  # popular kinds when the tastes are unknown
    have = sum(1 for p in passing if in_band(p, spec, ctx.rates) and answers(p, interests))
    need = SHORTLIST_SIZE - have
    if need <= 0:
        return []
    return ctx.search(
        lambda catalog: band_fill(
            catalog,
            interests,
            spec,
            need=need,
            exclude=[*excluded, *(p.id for p in passing)],
            recipient=profile.audience,
            age=profile.age,
            ages=relation_ages(ctx),
        )
    )


def _reason_counts(rejected: dict[str, list[str]]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for reasons in rejected.values():
        for reason in reasons:
            counts[reason] = counts.get(reason, 0) + 1
    return counts
