"""The tools: the only way the model moves the workflow or touches data.

Tools take the user and run from the ``TurnContext`` (never from model arguments), check
that every id they are given is the caller's or one of the run's candidates, read through
short read-only database sessions, and *stage* persistent changes in the turn's unit of
work; nothing is committed here (the run-cycle commits the whole turn at once).
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ValidationError

from giftgenius import AGENT_VERSION
from giftgenius.agent.revalidate import filter_spec
from giftgenius.catalog import (
    FilterSpec,
    Product,
    Rates,
    canonical_recipient,
    canonical_tags,
    check,
    price_in,
    search,
    why_it_fits,
)
from giftgenius.domain import (
    MAX_CANDIDATES,
    Budget,
    Checkpoint,
    CheckpointStep,
    OrderDraft,
    ProfileDraft,
    RecipientProfile,
    SessionState,
    Step,
    Summary,
    new_id,
)
from giftgenius.errors import ToolError
from giftgenius.privacy import scrub
from giftgenius.protocol import (
    TOOL_ARGS,
    CandidateView,
    GiftIdArgs,
    NoArgs,
    ProfileLabelArgs,
    SearchCandidatesArgs,
    StateView,
    UpdateProfileArgs,
)
from giftgenius.storage.db import Database
from giftgenius.storage.repositories import Repos
from giftgenius.workflow import check_transition, checkpoint_for

SHORTLIST_SIZE = 6
StagedChange = Callable[[Repos], None]


@dataclass
class TurnContext:
    """Everything a tool may see: this user's run, a working copy of its state, the clock."""

    user_id: str
    run_id: str
    state: SessionState
    db: Database
    rates: Rates
    today: dt.date
    default_currency: str
    summary: Summary = field(default_factory=Summary)
    next_seq: int = 1
    staged: list[StagedChange] = field(default_factory=list)
    checkpoints: list[Checkpoint] = field(default_factory=list)
    _products: dict[str, Product] | None = None

    def products(self) -> dict[str, Product]:
        """Today's catalog, read once per turn through a short read-only session."""
        if self._products is None:
            with self.db.read() as repos:
                self._products = {p.id: p for p in repos.catalog.all()}
        return self._products

    def move_to(self, target: Step) -> None:
        """Enforce the transition and snapshot a checkpoint when a key step is entered."""
        if target == self.state.step:
            return
        check_transition(self.state.step, target)
        cp_step = checkpoint_for(self.state.step, target)
        self.state.step = target
        if cp_step is not None:
            self.checkpoints.append(self._snapshot(cp_step))

    def _snapshot(self, step: CheckpointStep) -> Checkpoint:
        # session_version is set to the turn's new version at commit time.
        return Checkpoint(
            run_id=self.run_id,
            user_id=self.user_id,
            step=step,
            session_version=0,
            agent_version=AGENT_VERSION,
            state=self.state.model_copy(deep=True),
            summary=self.summary,
            next_seq=self.next_seq,
        )

    def view(self) -> dict[str, Any]:
        return json.loads(StateView.of(self.state, self.today).model_dump_json(exclude_none=True))

    def filter_spec(self) -> FilterSpec:
        return filter_spec(self.state.profile, self.today)

    def candidate_view(self, product: Product) -> CandidateView:
        budget = self.state.profile.budget
        return CandidateView(
            id=product.id,
            title=product.title,
            price=product.price,
            currency=product.currency,
            price_in_budget_currency=(
                price_in(product, budget.currency, self.rates) if budget else None
            ),
            delivery_days=product.delivery_days,
            why=why_it_fits(product, self.state.profile.interests, self.state.locale),
        )


def _ok(ctx: TurnContext, **data: Any) -> dict[str, Any]:
    return {"ok": True, **data, "state": ctx.view()}


def _require_open(ctx: TurnContext) -> None:
    if ctx.state.step == Step.done:
        raise ToolError(
            "This gift search is finished (the order draft is recorded). "
            "Tell the user they can type /restart to start a new one."
        )


def _normalize_facts(words: list[str]) -> list[str]:
    out: list[str] = []
    for word in words:
        tags = sorted(canonical_tags(word))
        out.extend(tags or [scrub(word).strip().lower()])
    return out


def update_profile(ctx: TurnContext, args: UpdateProfileArgs) -> dict[str, Any]:
    _require_open(ctx)
    old = ctx.state.profile
    data = old.model_dump()
    if args.recipient is not None:
        data["recipient"] = canonical_recipient(args.recipient) or scrub(args.recipient).lower()
    if args.age is not None:
        data["age"] = args.age
    if args.budget_max is not None or args.budget_min is not None or args.currency is not None:
        if args.budget_max is None and old.budget is None:
            raise ToolError("budget_max is required the first time a budget is given.")
        amount = args.budget_max if args.budget_max is not None else old.budget.amount
        currency = args.currency or (old.budget.currency if old.budget else ctx.default_currency)
        minimum = args.budget_min if args.budget_min is not None else None
        if minimum is not None and minimum > amount:
            raise ToolError(f"budget_min ({minimum}) is above budget_max ({amount}).")
        data["budget"] = Budget(amount=amount, currency=currency, min_amount=minimum)
    for key, add, remove in (
        ("interests", args.interests, args.remove_interests),
        ("dislikes", args.dislikes, args.remove_dislikes),
    ):
        values = list(data[key])
        if remove:
            gone = set(_normalize_facts(remove))
            values = [v for v in values if v not in gone]
        if add:
            values += _normalize_facts(add)
        data[key] = values
    if args.country is not None:
        data["country"] = args.country
    if args.deadline is not None:
        if args.deadline < ctx.today:
            raise ToolError(f"The deadline {args.deadline} is already past (today is {ctx.today}).")
        data["deadline"] = args.deadline
    for name in args.clear or []:
        data[name] = [] if name == "dislikes" else None
    new = ProfileDraft.model_validate(data)
    ctx.state.profile = new
    _settle_step(ctx, old)
    return _ok(ctx, changed=new != old, missing=new.missing())


SEARCH_FACTS = ("recipient", "age", "interests")
FILTER_FACTS = ("budget", "dislikes", "country", "deadline")


def _settle_step(ctx: TurnContext, old: ProfileDraft) -> None:
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
    state.selected_gift_id = None


def search_candidates(ctx: TurnContext, args: SearchCandidatesArgs) -> dict[str, Any]:
    _require_open(ctx)
    profile = ctx.state.profile
    if not profile.complete:
        raise ToolError(f"Cannot search yet: still missing {', '.join(profile.missing())}.")
    if ctx.state.step not in (Step.generating_candidates, Step.filtering, Step.finalizing):
        raise ToolError(f"search_candidates is not available at step '{ctx.state.step}'.")
    words = [*profile.interests, *args.extra_keywords]
    found = search(
        list(ctx.products().values()),
        words,
        recipient=profile.recipient,
        age=profile.age,
        limit=MAX_CANDIDATES,
    )
    ctx.state.search_pool = [p.id for p in found]
    ctx.state.candidate_ids = list(ctx.state.search_pool)
    ctx.state.selected_gift_id = None
    if ctx.state.step != Step.generating_candidates:
        ctx.move_to(Step.generating_candidates)  # a new search restarts the funnel
    ctx.move_to(Step.filtering)
    shown = [ctx.candidate_view(p).model_dump() for p in found[: args.limit]]
    return _ok(ctx, found=len(found), candidates=shown)


def filter_candidates(ctx: TurnContext, args: NoArgs) -> dict[str, Any]:
    _require_open(ctx)
    if ctx.state.step != Step.filtering:
        raise ToolError(
            f"filter_candidates needs fresh candidates (step is '{ctx.state.step}'); "
            "call search_candidates first."
        )
    spec = ctx.filter_spec()
    products = ctx.products()
    passing: list[Product] = []
    rejected: dict[str, list[str]] = {}
    for gift_id in ctx.state.search_pool:
        product = products.get(gift_id)
        reasons = (
            ["removed from the catalog"] if product is None else check(product, spec, ctx.rates)
        )
        if reasons:
            rejected[gift_id] = reasons
        else:
            passing.append(product)
    shortlist = passing[:SHORTLIST_SIZE]
    if not shortlist:
        ctx.state.candidate_ids = []
        return _ok(
            ctx,
            candidates=[],
            rejected=_reason_counts(rejected),
            hint="No candidate passes; suggest a higher budget or fewer constraints.",
        )
    ctx.state.candidate_ids = [p.id for p in shortlist]
    ctx.move_to(Step.finalizing)
    return _ok(
        ctx,
        candidates=[ctx.candidate_view(p).model_dump() for p in shortlist],
        rejected=_reason_counts(rejected),
    )


def _reason_counts(rejected: dict[str, list[str]]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for reasons in rejected.values():
        for reason in reasons:
            counts[reason] = counts.get(reason, 0) + 1
    return counts


def get_gift_details(ctx: TurnContext, args: GiftIdArgs) -> dict[str, Any]:
    product = ctx.products().get(args.gift_id)
    if product is None:
        raise ToolError(f"No gift has id '{args.gift_id}'. Use an id from the candidate list.")
    details = product.model_dump(mode="json")
    budget = ctx.state.profile.budget
    if budget is not None:
        details["price_in_budget_currency"] = price_in(product, budget.currency, ctx.rates)
    return _ok(ctx, gift=details)


def _candidate(ctx: TurnContext, gift_id: str) -> Product:
    if gift_id not in ctx.state.candidate_ids:
        raise ToolError(
            f"'{gift_id}' is not one of this run's candidates "
            f"({', '.join(ctx.state.candidate_ids) or 'none yet'}). Use one of those ids."
        )
    product = ctx.products().get(gift_id)
    if product is None:
        raise ToolError(f"'{gift_id}' was removed from the catalog; pick another candidate.")
    reasons = check(product, ctx.filter_spec(), ctx.rates)
    if reasons:
        raise ToolError(f"'{product.title}' no longer passes the filters: {'; '.join(reasons)}.")
    return product


def select_gift(ctx: TurnContext, args: GiftIdArgs) -> dict[str, Any]:
    _require_open(ctx)
    if ctx.state.step != Step.finalizing:
        raise ToolError(
            f"Nothing to choose from yet (step '{ctx.state.step}'): filter candidates first."
        )
    product = _candidate(ctx, args.gift_id)
    ctx.state.selected_gift_id = product.id
    return _ok(ctx, selected=ctx.candidate_view(product).model_dump())


def confirm_choice(ctx: TurnContext, args: NoArgs) -> dict[str, Any]:
    _require_open(ctx)
    if ctx.state.step != Step.finalizing or ctx.state.selected_gift_id is None:
        raise ToolError("No gift is selected yet: call select_gift after the user picks one.")
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
    ctx.move_to(Step.done)
    return _ok(ctx, order_draft_id=draft.id, gift=ctx.candidate_view(product).model_dump())


def list_recipient_profiles(ctx: TurnContext, args: NoArgs) -> dict[str, Any]:
    with ctx.db.read() as repos:
        saved = repos.profiles.list(ctx.user_id)
    return _ok(
        ctx,
        profiles=[{"label": p.label, "profile": p.profile.model_dump(mode="json")} for p in saved],
    )


def save_recipient_profile(ctx: TurnContext, args: ProfileLabelArgs) -> dict[str, Any]:
    if not ctx.state.profile.recipient:
        raise ToolError("Nothing to save yet: record who the gift is for first.")
    label = scrub(args.label).strip().lower()
    profile = RecipientProfile(user_id=ctx.user_id, label=label, profile=ctx.state.profile)
    ctx.staged.append(lambda repos: repos.profiles.upsert(profile))
    return _ok(ctx, saved_label=label)


def load_recipient_profile(ctx: TurnContext, args: ProfileLabelArgs) -> dict[str, Any]:
    _require_open(ctx)
    label = args.label.strip().lower()
    with ctx.db.read() as repos:
        saved = repos.profiles.get(ctx.user_id, label)
        labels = [] if saved else [p.label for p in repos.profiles.list(ctx.user_id)]
    if saved is None:
        raise ToolError(
            f"No saved profile is labelled '{label}'. Saved labels: {', '.join(labels) or 'none'}."
        )
    old = ctx.state.profile
    ctx.state.profile = saved.profile.model_copy(deep=True)
    _settle_step(ctx, old)
    return _ok(ctx, loaded_label=label, missing=ctx.state.profile.missing())


ToolFn = Callable[[TurnContext, Any], dict[str, Any]]

TOOLS: dict[str, ToolFn] = {
    "update_profile": update_profile,
    "list_recipient_profiles": list_recipient_profiles,
    "save_recipient_profile": save_recipient_profile,
    "load_recipient_profile": load_recipient_profile,
    "search_candidates": search_candidates,
    "filter_candidates": filter_candidates,
    "get_gift_details": get_gift_details,
    "select_gift": select_gift,
    "confirm_choice": confirm_choice,
}
assert TOOLS.keys() == TOOL_ARGS.keys()


def execute(ctx: TurnContext, name: str, raw_arguments: str) -> dict[str, Any]:
    """Run one tool call; any bad call becomes ``{"ok": false, "error": ...}`` for the model.

    State changes of a failed call are rolled back so a half-applied tool never leaks.
    """
    if name not in TOOLS:
        return {"ok": False, "error": f"Unknown tool '{name}'. Available: {', '.join(TOOLS)}."}
    try:
        raw = json.loads(raw_arguments or "{}")
    except json.JSONDecodeError as exc:
        return {"ok": False, "error": f"Arguments of {name} are not valid JSON ({exc.msg})."}
    try:
        args: BaseModel = TOOL_ARGS[name].model_validate(raw)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or 'arguments'}: {e['msg']}" for e in exc.errors()
        )
        return {"ok": False, "error": f"Invalid arguments for {name}: {problems}."}
    before = (ctx.state.model_copy(deep=True), len(ctx.staged), len(ctx.checkpoints))
    try:
        return TOOLS[name](ctx, args)
    except ToolError as exc:
        ctx.state, staged, cps = before
        del ctx.staged[staged:]
        del ctx.checkpoints[cps:]
        return {"ok": False, "error": str(exc)}
