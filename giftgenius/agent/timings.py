"""Where one turn's time went, step by step, for ``giftgenius bench turn``.

The run-cycle (``agent/runner.py``) fills one ``TurnTimings`` per turn with
``time.perf_counter`` differences — a dozen clock reads a turn, nothing stored or logged —
and hands it back on ``TurnResult.timings``; ``Agent.turn`` then records the same figures
in the turn-phase histogram (``metrics.py``), and ``TimedModel`` each model call's time and
tokens, so nothing is timed twice. The phases do not overlap: the model's time
is taken out of the steps that call it (summarizing, thinking) and reported on its own, so
the phases add up to the turn.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from giftgenius import metrics
from giftgenius.llm.base import ChatModel, ChatRequest, ChatResponse

PHASES = ("load", "accept", "summarize", "context", "model", "tools", "commit", "save")


@dataclass
class TurnTimings:
    """Seconds per phase of one turn; ``total`` is the whole of ``Agent.turn``'s work.

    - ``load``: take the session lease, read the run row, load (or rebuild) the session;
    - ``accept``: the user's message written to the transcript;
    - ``summarize``: folding old history into the summary, outside the model call;
    - ``context``: building the model's context (budget, truncation) and the state block;
    - ``model``: inside ``ChatModel.complete``, every call of the turn (summaries too);
    - ``tools``: running the tools the model called and scrubbing their results, plus
      re-checking a shortlist against today's catalog — the catalog's cost;
    - ``commit``: the turn's one fenced transaction;
    - ``save``: saving the live session, the erasure check and releasing the lease.
    """

    load: float = 0.0
    accept: float = 0.0
    summarize: float = 0.0
    context: float = 0.0
    model: float = 0.0
    tools: float = 0.0
    commit: float = 0.0
    save: float = 0.0
    total: float = 0.0

    @contextmanager
    def phase(self, name: str) -> Iterator[None]:
        """Add the time the block takes to phase ``name``, less the model's time within it."""
        start, model = time.perf_counter(), self.model
        try:
            yield
        finally:
            spent = time.perf_counter() - start - (self.model - model)
            setattr(self, name, getattr(self, name) + spent)

    def phases(self) -> dict[str, float]:
        """The phases alone (no total), in run-cycle order."""
        return {name: getattr(self, name) for name in PHASES}


class TimedModel:
    """A ``ChatModel`` that adds the time spent in the wrapped model to ``timings.model``."""

    def __init__(self, model: ChatModel, timings: TurnTimings) -> None:
        self._model = model
        self._timings = timings
        self.name = model.name

    def complete(
        self, request: ChatRequest, on_text: Callable[[str], None] | None = None
    ) -> ChatResponse:
        start = time.perf_counter()
        try:
            response = self._model.complete(request, on_text=on_text)
        except BaseException:
            spent = time.perf_counter() - start
            self._timings.model += spent
            metrics.model_called(self.name, spent, ok=False)
            raise
        spent = time.perf_counter() - start
        self._timings.model += spent
        usage = response.usage
        metrics.model_called(self.name, spent, usage.prompt_tokens, usage.completion_tokens)
        return response
