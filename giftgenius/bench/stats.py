"""Percentiles and per-phase summaries of timed turns (``bench turn``, ``bench load``)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from giftgenius.agent.timings import PHASES
from giftgenius.bench.players import Sample

MS = 1000.0
OUTSIDE = ("model", "tools")  # what the overhead figure leaves out: the model and the catalog


def percentile(values: Sequence[float], pct: float) -> float:
    """Nearest-rank percentile (the value below which ``pct`` % of the values lie); 0 if none."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(pct / 100 * len(ordered)))
    return ordered[rank - 1]


@dataclass(frozen=True)
class Spread:
    """p50, p99 and mean of one quantity, in milliseconds."""

    p50: float
    p99: float
    mean: float

    @classmethod
    def of(cls, seconds: Sequence[float]) -> Spread:
        mean = sum(seconds) / len(seconds) if seconds else 0.0
        return cls(percentile(seconds, 50) * MS, percentile(seconds, 99) * MS, mean * MS)

    def json(self) -> dict[str, float]:
        return {
            "p50_ms": round(self.p50, 3),
            "p99_ms": round(self.p99, 3),
            "mean_ms": round(self.mean, 3),
        }


@dataclass(frozen=True)
class Breakdown:
    """Where a set of turns spent their time: each phase, the turn, and what is left over.

    ``overhead`` is, turn by turn, the turn less the model and the tools (the catalog);
    ``unexplained`` is the mean turn less the sum of the mean phases — the phases add up
    to the turn when it is small.
    """

    count: int
    phases: dict[str, Spread]
    turn: Spread
    overhead: Spread
    unexplained_ms: float
    cpu: Spread = Spread(0.0, 0.0, 0.0)  # the process's CPU time per turn
    statements: float = 0.0  # database statements per turn, mean
    transactions: float = 0.0  # database transactions per turn, mean

    @classmethod
    def of(cls, samples: Sequence[Sample]) -> Breakdown:
        phases = {name: Spread.of([s.phases[name] for s in samples]) for name in PHASES}
        turn = Spread.of([s.total for s in samples])
        overhead = Spread.of([s.total - sum(s.phases[name] for name in OUTSIDE) for s in samples])
        unexplained = turn.mean - sum(spread.mean for spread in phases.values())
        count = max(len(samples), 1)
        return cls(
            len(samples),
            phases,
            turn,
            overhead,
            unexplained,
            cpu=Spread.of([s.cpu for s in samples]),
            statements=sum(s.statements for s in samples) / count,
            transactions=sum(s.transactions for s in samples) / count,
        )

    @property
    def unexplained_pct(self) -> float:
        return 100 * self.unexplained_ms / self.turn.mean if self.turn.mean else 0.0

    def json(self) -> dict[str, object]:
        return {
            "turns_sampled": self.count,
            "phases": {name: spread.json() for name, spread in self.phases.items()},
            "turn": self.turn.json(),
            "overhead_outside_model_and_tools": self.overhead.json(),
            "unexplained_mean_ms": round(self.unexplained_ms, 3),
            "unexplained_pct": round(self.unexplained_pct, 2),
            "turn_cpu": self.cpu.json(),
            "db_statements_per_turn": round(self.statements, 2),
            "db_transactions_per_turn": round(self.transactions, 2),
        }
