"""What a tool may see and touch during one turn, and the result shape every tool returns.

Tools take the user and run from the ``TurnContext`` (never from model arguments), read
through short read-only database sessions, and *stage* persistent changes; nothing is
committed here (the run-cycle commits the whole turn at once).
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from giftgenius import AGENT_VERSION
from giftgenius.agent.memory import MemoryBook
from giftgenius.agent.revalidate import filter_spec
from giftgenius.catalog import FilterSpec, Product, Rates, answers, price_in, why_it_fits
from giftgenius.catalog.search import CatalogSource
from giftgenius.domain import Checkpoint, CheckpointStep, SessionState, Step, Summary
from giftgenius.errors import ToolError
from giftgenius.protocol import CandidateView, StateView
from giftgenius.resources import prompt_version
from giftgenius.storage.db import Database
from giftgenius.storage.repositories import Repos
from giftgenius.workflow import check_transition, checkpoint_for

StagedChange = Callable[[Repos], object]  # what it returns is ignored
# The system prompt the agent sends (``agent/runner.py``); every checkpoint records its
# version beside the code's, as ``giftgenius/<version>+prompt.<12 hex digits>``.
SYSTEM_PROMPT = "system.md"


def agent_version() -> str:
    """This agent and its system prompt, as runs and checkpoints record them."""
    return f"{AGENT_VERSION}+prompt.{prompt_version(SYSTEM_PROMPT)}"


_T = TypeVar("_T")


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
    memory: MemoryBook | None = None  # the user's long-term notes (None: none are kept)
    next_seq: int = 1
    staged: list[StagedChange] = field(default_factory=list)
    checkpoints: list[Checkpoint] = field(default_factory=list)
    _read: dict[str, Product | None] = field(default_factory=dict)

    def products(self, ids: Iterable[str]) -> dict[str, Product]:
        """Today's products with these ids (absent ones left out), each read at most once
        per turn, through a short read-only session: a turn never reads the whole catalog."""
        wanted = list(dict.fromkeys(ids))
        missing = [i for i in wanted if i not in self._read]
        if missing:
            with self.db.read() as repos:
                found = repos.catalog.by_ids(missing)
            self._read.update((i, found.get(i)) for i in missing)
        return {i: p for i in wanted if (p := self._read[i]) is not None}

    def product(self, gift_id: str) -> Product | None:
        return self.products([gift_id]).get(gift_id)

    def search(self, lookup: Callable[[CatalogSource], _T]) -> _T:
        """Run ``lookup`` on the catalog in the database (one read-only session); the
        products it returns are remembered for the rest of the turn."""
        with self.db.read() as repos:
            result = lookup(repos.catalog.search(self.rates))
        if isinstance(result, list):
            self._read.update((p.id, p) for p in result if isinstance(p, Product))
        return result

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
            agent_version=agent_version(),
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
        raise ToolError("run.finished")
