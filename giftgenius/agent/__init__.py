"""The run-cycle: one turn, opening and resuming runs, tools, context and summaries.

Public surface, imported lazily: ``Agent`` (``open``, ``resume``, ``turn``, ``inspect``),
``TurnResult``, ``Opened``, and ``RunReader`` (``inspect`` without a model). See
``giftgenius/README.md`` for the run-cycle.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from giftgenius.lazy import lazy_exports

if TYPE_CHECKING:
    from giftgenius.agent.reader import Opened, RunReader
    from giftgenius.agent.runner import Agent, TurnResult

__all__ = ["Agent", "Opened", "RunReader", "TurnResult"]
__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "Agent": "giftgenius.agent.runner",
        "TurnResult": "giftgenius.agent.runner",
        "Opened": "giftgenius.agent.reader",
        "RunReader": "giftgenius.agent.reader",
    },
)
