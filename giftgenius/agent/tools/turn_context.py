"""What a tool may see and touch during one turn, and the result shape every tool returns.

Tools take the user and run from the ``TurnContext`` (never from model arguments), read
through short read-only database sessions, and *stage* persistent changes; nothing is
committed here (the run-cycle commits the whole turn at once).
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from giftgenius import AGENT_VERSION
from giftgenius.agent.revalidate import filter_spec
from giftgenius.catalog import FilterSpec, Product, Rates, answers, price_in, why_it_fits
from giftgenius.domain import Checkpoint, CheckpointStep, SessionState, Step, Summary
from giftgenius.errors import ToolError
from giftgenius.protocol import CandidateView, StateView
from giftgenius.storage.db import Database
from giftgenius.storage.repositories import Repos
from giftgenius.workflow import check_transition, checkpoint_for

StagedChange = Callable[[Repos], object]  # what it returns is ignored


@dataclass
class TurnContext:
    """Everything a tool may see: this user's run, a working copy of its state, the clock.

    ``summary`` is what the checkpoints taken in this turn carry, so it must be the
    session's summary as it stands for this turn (after any summarization).
    """

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
            answers=answers(product, self.state.profile.interests),
            why=why_it_fits(product, self.state.profile.interests, self.state.locale),
        )


def ok(ctx: TurnContext, **data: Any) -> dict[str, Any]:
    """A successful result: the tool's data, then the state the model should now believe."""
    return {"ok": True, **data, "state": ctx.view()}


def require_open(ctx: TurnContext) -> None:
    """Refuse changes to a finished run (its order draft is recorded)."""
    if ctx.state.step == Step.done:
        raise ToolError(
            "This gift search is finished (the order draft is recorded). "
            "Tell the user they can type /restart to start a new one."
        )
