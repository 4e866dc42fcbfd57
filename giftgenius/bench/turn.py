"""``giftgenius bench turn``: where one turn's time goes, as conversations and catalogs grow.

Plays the scripted conversation (``bench/players.py``) through the real ``Agent.turn`` on
scratch stores of its own on the configured backends — temporary SQLite files, or a scratch
database and Redis key prefix when ``GIFTGENIUS_DATABASE_URL`` / ``GIFTGENIUS_REDIS_URL``
name servers (``bench/scratch.py``: the configured catalog, users and sessions are never
touched, and the scratch stores are removed at the end) — with a model that answers
in-process at once, and prints:

1. per-turn time by phase (``agent/timings.py``), p50 and p99 in ms, over the ``WINDOW``
   turns that end at each milestone (10, 100, 500), on the smallest catalog, with the
   turn's time outside the model and the tools, and what the phases leave unexplained;
2. the catalog's cost (the ``tools`` phase) for search, filter and the shortlist re-check,
   at each catalog size (1,000, 10,000, 100,000 synthetic products, generated once); a
   search or filter turn re-checks the shortlist the turn before left, first;
3. turns per second with 1, 2 and 4 worker processes on the smallest catalog.

A command that prints figures, not a timed test.
"""

from __future__ import annotations

import argparse
import json
import os
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from rich.console import Console
from rich.progress import Progress

from giftgenius import messages
from giftgenius.arguments import command_parser, seconds, whole
from giftgenius.bench.catalogs import Written, progress_bar
from giftgenius.bench.players import (
    Played,
    Player,
    Sample,
    Stores,
    bench_agent,
    configured_stores,
    move,
)
from giftgenius.bench.procs import Job, run_rounds
from giftgenius.bench.scratch import interrupted, scratch_stores, synthetic_catalog
from giftgenius.bench.stats import Breakdown, Spread
from giftgenius.errors import GiftGeniusError
from giftgenius.formats import number
from giftgenius.messages import environment_language, speak
from giftgenius.settings import Settings

DEFAULT_TURNS = (10, 100, 500)
DEFAULT_CATALOGS = (1_000, 10_000, 100_000)
DEFAULT_PROCESSES = (1, 2, 4)
DEFAULT_SESSIONS = 1  # a worker plays its sessions in turn: more only add turns to wait for
WINDOW = 20  # turns per milestone, ending at it (turn 10's window has 10)
# Per catalog size: the profile, then a search, a filter and a re-check at least, and two of
# each when they take under CATALOG_SECONDS (plan "f": ``players.move``).
CATALOG_TURNS = (4, 7)
CATALOG_SECONDS = 10.0
JSON_LANGUAGE = "en"  # a --json document is the same in every language (giftgenius/README.md)
CATALOG_PART = "catalog "  # a catalog part's name in the JSON's part_seconds, then its size
# The catalog part's columns, each the turns of plan "f" making that move. Every turn after
# the first re-checks the shortlist first; a chat turn does only that.
CATALOG_KINDS = {
    "search": "search",  # search_candidates: a new search, filtered
    "filter": "filter",  # update_profile with a new budget: the filters over the last search
    "re-check": "chat",  # no tool: the shortlist re-checked against the catalog
}


def _counts(flag: str, minimum: int, maximum: int = 10_000_000) -> Callable[[str], list[int]]:
    def parse(text: str) -> list[int]:
        try:
            parts = [part.replace("_", "") for part in text.split(",") if part.strip()]
            values = sorted({int(part) for part in parts})
        except ValueError:
            raise argparse.ArgumentTypeError(
                speak("bench", "counts.not", flag=flag, text=repr(text))
            ) from None
        if not values or values[0] < minimum or values[-1] > maximum:
            high = number(maximum, environment_language())
            raise argparse.ArgumentTypeError(
                speak("bench", "counts.range", flag=flag, low=minimum, high=high, text=repr(text))
            )
        return values

    return parse


def parser(prog: str = "giftgenius bench turn") -> argparse.ArgumentParser:
    p = command_parser(prog, speak("help", "bench.turn.description"))
    for flag, default, what in (
        ("--turns", DEFAULT_TURNS, "bench.turn.turns"),
        ("--catalog", DEFAULT_CATALOGS, "bench.turn.catalog"),
        ("--processes", DEFAULT_PROCESSES, "bench.turn.processes"),
    ):
        p.add_argument(flag, type=_counts(flag, 1), default=list(default), help=speak("help", what))
    p.add_argument(
        "--sessions",
        type=whole(1, 10_000, what="sessions"),
        default=DEFAULT_SESSIONS,
        help=speak("help", "bench.turn.sessions"),
    )
    p.add_argument(
        "--seconds", type=seconds(0.1, 3600), default=3.0, help=speak("help", "bench.turn.seconds")
    )
    p.add_argument(
        "--max-search-seconds",
        type=seconds(0.0, 3600),
        default=5.0,
        help=speak("help", "bench.turn.max_search_seconds"),
    )
    p.add_argument(
        "--seed",
        type=whole(0, 2**32 - 1, what="seed"),
        default=0,
        help=speak("help", "bench.turn.seed"),
    )
    p.add_argument("--keep", action="store_true", help=speak("help", "bench.keep"))
    p.add_argument("--json", action="store_true", help=speak("help", "bench.json"))
    return p


@dataclass
class TurnFigures:
    stores: str
    milestones: dict[int, Breakdown] = field(default_factory=dict)
    catalogs: dict[int, dict[str, Any]] = field(default_factory=dict)
    throughput: dict[int, dict[str, Any]] = field(default_factory=dict)
    written: list[Written] = field(default_factory=list)
    load_average: list[float] = field(default_factory=list)  # 1-minute, at start and end
    part_seconds: dict[str, float] = field(default_factory=dict)  # wall time of each part
    skipped: dict[int, dict[str, str]] = field(default_factory=dict)  # why, for the report


class TurnBench:
    """One run of ``bench turn``: the three parts, on one store configuration."""

    def __init__(self, args: argparse.Namespace, stores: Stores, progress: Progress) -> None:
        self.args = args
        self.stores = stores
        self.progress = progress
        self.prefix = f"bench-{uuid.uuid4().hex[:8]}"
        self.figures = TurnFigures(stores.label)
        self.left: list[tuple[Stores, list[Played]]] = []  # for ``erase``

    def run(self, say: Callable[[str], None] | None = None) -> TurnFigures:
        """The three parts, on scratch stores of the benchmark's own (``bench/scratch.py``),
        removed at the end (unless ``--keep``), interrupted or not."""
        configured = self.stores
        with scratch_stores(configured, keep=self.args.keep, say=say) as self.stores:
            self.figures.stores = self.stores.label
            try:
                self._parts()
            finally:
                self.stores = configured
        return self.figures

    def _parts(self) -> None:
        smallest = self.args.catalog[0]
        with self.timed("conversations"):
            self.conversations(smallest)
        with self.timed("processes"):
            self.throughput(smallest)
        sizes = list(self.args.catalog)
        for index, size in enumerate(sizes):
            with self.timed(f"{CATALOG_PART}{size:,}"):
                self.catalog(size)
            search = self.figures.catalogs[size]["search"]["p50_ms"] / 1000
            later = sizes[index + 1 :]
            if later and search * later[0] / size > self.args.max_search_seconds:
                self.skip(later, size, search)
                break

    @contextmanager
    def timed(self, part: str) -> Iterator[None]:
        """Record the wall time of one part of the benchmark (printed with the figures)."""
        start = time.perf_counter()
        try:
            yield
        finally:
            self.figures.part_seconds[part] = round(time.perf_counter() - start, 1)

    def _catalog(self, size: int) -> Stores:
        stores = self.stores.for_catalog(size, self.args.seed)
        written = synthetic_catalog(stores, size, self.args.seed, self.progress)
        if written.written:
            self.figures.written.append(written)
        return stores

    def conversations(self, size: int) -> None:
        """Part 1: sessions played to the last milestone, side by side."""
        stores = self._catalog(size)
        last = self.args.turns[-1]
        agent = bench_agent(stores.settings())
        player = Player(agent, self.prefix + "-c")
        task = self.progress.add_task(
            speak("bench", "turn.progress.conversations", sessions=self.args.sessions, turns=last),
            total=self.args.sessions * last,
        )
        sessions = [player.open(number) for number in range(self.args.sessions)]
        self.left.append((stores, sessions))
        windows: dict[int, list[Sample]] = {t: [] for t in self.args.turns}
        try:
            for _ in range(last):
                for played in sessions:
                    sample = player.turn(played)
                    for milestone, window in windows.items():
                        if milestone - WINDOW < sample.turn <= milestone:
                            window.append(sample)
                    self.progress.advance(task)
        finally:
            agent.close()
            self.progress.remove_task(task)
        self.figures.milestones = {t: Breakdown.of(w) for t, w in windows.items()}

    def throughput(self, size: int) -> None:
        """Part 3: turns per second with each process count (start-up not timed).

        The most processes asked for are started once; each round lets the first ``count``
        of them play, ``--sessions`` sessions each, for ``--seconds``.
        """
        stores = self.stores.for_catalog(size, self.args.seed)
        counts = list(self.args.processes)
        prefix = f"{self.prefix}-p"
        jobs = [
            Job(stores.overrides, f"{prefix}{i}", tuple(range(self.args.sessions)))
            for i in range(max(counts))
        ]
        task = self.progress.add_task(
            speak("bench", "turn.progress.throughput", processes=counts), total=None
        )
        try:
            measured = run_rounds(
                jobs,
                counts,
                seconds=self.args.seconds,
                on_turn=partial(self.progress.advance, task),
            )
        finally:
            self.progress.remove_task(task)
        self.left.append((stores, measured.sessions))
        for count, (outcomes, elapsed) in zip(counts, measured.rounds, strict=True):
            samples = [s for o in outcomes for s in o.samples]
            failures = [f for o in outcomes for f in o.failures]
            if failures:
                raise GiftGeniusError(
                    speak(
                        "bench",
                        "turns_failed",
                        failed=len(failures),
                        processes=count,
                        first=failures[0],
                    )
                )
            turn = Spread.of([s.total for s in samples])
            self.figures.throughput[count] = {
                "processes": count,
                "sessions": count * self.args.sessions,
                "turns": len(samples),
                "seconds": round(elapsed, 2),
                "turns_per_second": round(len(samples) / elapsed, 1),
                "turn": turn.json(),
            }

    def catalog(self, size: int) -> None:
        """Part 2: the catalog's cost (the tools phase) at one catalog size."""
        stores = self._catalog(size)
        agent = bench_agent(stores.settings())
        player = Player(agent, f"{self.prefix}-k{size}", filters=True)
        least, most = CATALOG_TURNS
        task = self.progress.add_task(
            speak("bench", "turn.progress.catalog", products=f"{size:,}"), total=most
        )
        played = player.open(0)
        self.left.append((stores, [played]))
        samples: list[Sample] = []
        try:
            while len(samples) < most:
                samples.append(player.turn(played))
                self.progress.advance(task)
                spent = sum(sample.total for sample in samples)
                if len(samples) >= least and spent > CATALOG_SECONDS:
                    break
        finally:
            agent.close()
            self.progress.remove_task(task)
        row: dict[str, Any] = {"products": size}
        for kind, what in CATALOG_KINDS.items():
            timed = [s for s in samples if move(player.kind, s.turn) == what]
            row[kind] = Spread.of([s.phases["tools"] for s in timed]).json() | {"turns": len(timed)}
        row["overhead"] = Breakdown.of(samples).overhead.json()
        self.figures.catalogs[size] = row

    def skip(self, sizes: list[int], measured: int, search: float) -> None:
        """Leave out catalogs whose searches would run for minutes, saying why."""
        for size in sizes:
            guess = search * size / measured
            why = {
                "seconds": f"{search:.1f}",
                "measured": f"{measured:,}",
                "guess": f"{guess:.0f}",
                "products": f"{size:,}",
                "limit": f"{self.args.max_search_seconds:g}",
            }
            self.figures.skipped[size] = why
            skipped = messages.say("bench", "turn.skipped", JSON_LANGUAGE, **why)
            self.figures.catalogs[size] = {"products": size, "skipped": skipped}

    def erase(self) -> None:
        """Remove the benchmark's users, runs, transcripts and live sessions: for parts run
        on stores that are not scratch ones (``run`` drops its scratch stores whole)."""
        for stores, sessions in self.left:
            if not sessions:
                continue
            agent = bench_agent(stores.settings())
            try:
                Player(agent).forget(sessions)
            finally:
                agent.close()


def main(argv: Sequence[str], settings: Settings, *, out: Console, err: Console) -> int:
    args = parser().parse_args(list(argv))
    if args.sessions < 1 or args.seconds <= 0 or args.max_search_seconds <= 0:
        parser().error(speak("bench", "turn.not_positive"))
    stores = configured_stores(settings)
    started = os.getloadavg()[0]

    def say(text: str) -> None:
        err.print(text, markup=False, highlight=False)

    try:
        with progress_bar(err) as progress:
            figures = TurnBench(args, stores, progress).run(say)
    except KeyboardInterrupt:
        err.print(interrupted(), markup=False, highlight=False)
        return 130
    figures.load_average = [round(started, 2), round(os.getloadavg()[0], 2)]
    if args.json:
        out.file.write(json.dumps(as_json(figures, args), indent=2) + "\n")
    else:
        out.print(report(figures, args), markup=False, highlight=False, soft_wrap=True)
    return 0


def as_json(figures: TurnFigures, args: argparse.Namespace) -> dict[str, Any]:
    return {
        "stores": figures.stores,
        "model": messages.text("bench", "turn.model", JSON_LANGUAGE),
        "load_average_1min_start_end": figures.load_average,
        "part_seconds": figures.part_seconds,
        "window_turns": WINDOW,
        "sessions": args.sessions,
        "catalog_for_turns": args.catalog[0],
        "milestones": {str(t): b.json() for t, b in figures.milestones.items()},
        "catalogs": {str(n): row for n, row in figures.catalogs.items()},
        "throughput": {str(p): row for p, row in figures.throughput.items()},
        "generated": [
            {
                "version": w.version,
                "generate_s": round(w.generate_seconds, 2),
                "write_s": round(w.write_seconds, 2),
            }
            for w in figures.written
        ],
    }


def _phase(name: str, breakdown: Breakdown) -> Spread:
    return breakdown.phases[name]


def _says(key: str, **values: Any) -> str:
    return speak("bench", f"turn.{key}", **values)


def _part(part: str) -> str:
    """A part's name as the JSON writes it ("catalog 1,000"), said in the report."""
    if part.startswith(CATALOG_PART):
        return _says("part.catalog", products=part[len(CATALOG_PART) :])
    return _says(f"part.{part}")


def report(figures: TurnFigures, args: argparse.Namespace) -> str:
    """The three parts' tables, their titles and the machine, in the environment's language;
    the figures and the columns' widths are the same in every language."""
    load = figures.load_average
    lines = [
        _says("title", stores=figures.stores),
        _says("model"),
        _says("machine", cpus=os.cpu_count(), start=f"{load[0]:.2f}", end=f"{load[1]:.2f}"),
        "",
    ]
    lines += _milestones(figures, args)
    lines += ["", *_catalogs(figures)]
    lines += ["", *_throughput(figures, args)]
    parts = ", ".join(f"{_part(part)} {took:.1f}" for part, took in figures.part_seconds.items())
    lines.append(_says("parts", parts=parts))
    for w in figures.written:
        lines.append(
            _says(
                "generated",
                version=w.version,
                build=f"{w.generate_seconds:.1f}",
                write=f"{w.write_seconds:.1f}",
            )
        )
    return "\n".join(lines)


def _milestones(figures: TurnFigures, args: argparse.Namespace) -> list[str]:
    """Part 1: a row per phase, a p50 and a p99 column per milestone."""
    milestones = list(figures.milestones)
    samples = ", ".join(
        _says("samples", count=b.count, turn=t) for t, b in figures.milestones.items()
    )
    p99 = _says("col.p99")
    lines = [
        _says(
            "milestones",
            products=f"{args.catalog[0]:,}",
            sessions=args.sessions,
            window=WINDOW,
            samples=samples,
        ),
        f"{_says('col.phase'):<28}"
        + "".join(f"{_says('col.milestone_p50', turn=t):>16}{p99:>9}" for t in milestones),
    ]

    def row(name: str, pick: Callable[[Breakdown], Spread]) -> str:
        cells = "".join(
            f"{pick(b).p50:>16.2f}{pick(b).p99:>9.2f}" for b in figures.milestones.values()
        )
        return f"{name:<28}{cells}"

    for phase in figures.milestones[milestones[0]].phases:
        lines.append(row(_says(f"phase.{phase}"), partial(_phase, phase)))
    lines.append(row(_says("row.turn"), lambda b: b.turn))
    lines.append(row(_says("row.outside"), lambda b: b.overhead))
    lines.append(row(_says("row.cpu"), lambda b: b.cpu))
    lines.append(
        f"{_says('row.statements'):<28}"
        + "".join(
            f"{b.statements:>16.2f}{b.transactions:>9.2f}" for b in figures.milestones.values()
        )
    )
    lines.append(
        f"{_says('row.unexplained'):<28}"
        + "".join(
            f"{b.unexplained_ms:>16.3f}{f'{b.unexplained_pct:.1f}%':>9}"
            for b in figures.milestones.values()
        )
    )
    return lines


def _catalogs(figures: TurnFigures) -> list[str]:
    """Part 2: a row per catalog size, the tools phase of each kind of turn."""
    p99 = _says("col.p99")
    lines = [
        _says("catalogs"),
        f"{_says('col.products'):>10}{_says('col.search_p50'):>12}{p99:>9}"
        f"{_says('col.filter_p50'):>12}{p99:>9}{_says('col.recheck_p50'):>14}{p99:>9}"
        f"{_says('col.outside_p50'):>13}",
    ]
    for size, cat in figures.catalogs.items():
        if "skipped" in cat:
            why = figures.skipped.get(size)
            said = _says("skipped", **why) if why else cat["skipped"]
            lines.append(f"{size:>10,}  {said}")
            continue
        lines.append(
            f"{size:>10,}{cat['search']['p50_ms']:>12.1f}{cat['search']['p99_ms']:>9.1f}"
            f"{cat['filter']['p50_ms']:>12.1f}{cat['filter']['p99_ms']:>9.1f}"
            f"{cat['re-check']['p50_ms']:>14.1f}{cat['re-check']['p99_ms']:>9.1f}"
            f"{cat['overhead']['p50_ms']:>13.2f}"
        )
    return lines


def _throughput(figures: TurnFigures, args: argparse.Namespace) -> list[str]:
    """Part 3: a row per process count."""
    lines = [
        _says("throughput", products=f"{args.catalog[0]:,}", seconds=f"{args.seconds:g}"),
        f"{_says('col.processes'):>10}{_says('col.sessions'):>10}{_says('col.turns'):>8}"
        f"{_says('col.turns_per_second'):>9}{_says('col.turn_p50'):>10}{_says('col.p99'):>9}",
    ]
    for count, tp in figures.throughput.items():
        lines.append(
            f"{count:>10}{tp['sessions']:>10}{tp['turns']:>8}{tp['turns_per_second']:>9.1f}"
            f"{tp['turn']['p50_ms']:>10.1f}{tp['turn']['p99_ms']:>9.1f}"
        )
    return lines
