"""The run-cycle: one turn, opening and resuming runs, tools, context and summaries.

Public surface, imported lazily: ``Agent`` (``open``, ``resume``, ``turn``, ``inspect``),
``TurnResult`` and ``Opened``. See ``giftgenius/README.md`` for the run-cycle.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from giftgenius.lazy import lazy_exports

if TYPE_CHECKING:
    from giftgenius.agent.runner import Agent, Opened, TurnResult

__all__ = ["Agent", "Opened", "TurnResult"]
__getattr__, __dir__ = lazy_exports(__name__, dict.fromkeys(__all__, "giftgenius.agent.runner"))
