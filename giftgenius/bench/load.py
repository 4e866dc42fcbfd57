"""``giftgenius bench load``: many sessions over several processes, nothing lost or doubled.

The load test of the reliability issue: ``--sessions`` (200) sessions dealt out to
``--processes`` (4) worker processes on one set of scratch stores (a scratch database
and Redis key prefix on the configured servers, or a temporary SQLite file: never the
configured catalog, users or sessions — ``bench/scratch.py``), each session playing
``--turns`` turns of the benchmark conversation (``bench/players.py``). It prints turns
per second, p50 and p99 turn time, and counts, from the transcript rows in the database,
every user line sent that is not there exactly once and every accepted turn's reply that
is not there exactly once — lost or duplicated messages, which must be 0 (the exit code is
1 otherwise). Interrupted (Ctrl-C, SIGTERM), it stops its workers within seconds and
removes its scratch stores (exit code 130).
"""

from __future__ import annotations

import json
import uuid
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass

from rich.console import Console

from giftgenius.agent.runner import Agent
from giftgenius.arguments import command_parser, whole
from giftgenius.bench.catalogs import progress_bar
from giftgenius.bench.players import Played, Stores, bench_agent, configured_stores
from giftgenius.bench.procs import Job, run_workers, split
from giftgenius.bench.scratch import interrupted, scratch_stores, synthetic_catalog
from giftgenius.bench.stats import Spread
from giftgenius.catalog.synthetic import MAX_PRODUCTS
from giftgenius.messages import speak
from giftgenius.settings import Settings


@dataclass(frozen=True)
class LoadReport:
    stores: str
    sessions: int
    processes: int
    turns: int  # turns answered
    failed: int  # turns that raised
    seconds: float
    turns_per_second: float
    turn_p50_ms: float
    turn_p99_ms: float
    sent: int  # user lines sent
    lost: int  # sent lines or accepted replies found 0 times in the transcript
    duplicated: int  # extra copies of them found
    unexpected: int  # user or reply rows nobody sent
    first_failure: str | None = None

    @property
    def clean(self) -> bool:
        return self.lost == self.duplicated == self.unexpected == self.failed == 0


def run_load(
    stores: Stores,
    *,
    sessions: int,
    processes: int,
    turns: int,
    catalog: int = 1000,
    seed: int = 0,
    keep: bool = False,
    err: Console | None = None,
) -> LoadReport:
    """Play the load on scratch stores of its own (``bench/scratch.py``) and count the
    transcript; the scratch stores go at the end (unless ``keep``), interrupted or not."""
    err = err or Console(stderr=True)

    def say(text: str) -> None:
        err.print(text, markup=False, highlight=False)

    with scratch_stores(stores, keep=keep, say=say) as scratch:
        return _load(scratch, sessions, processes, turns, catalog, seed, err)


def _load(
    stores: Stores, sessions: int, processes: int, turns: int, catalog: int, seed: int, err: Console
) -> LoadReport:
    stores = stores.for_catalog(catalog, seed)
    with progress_bar(err) as progress:
        synthetic_catalog(stores, catalog, seed, progress)
    agent = bench_agent(stores.settings())
    try:
        with progress_bar(err) as progress:
            prefix = f"load-{uuid.uuid4().hex[:8]}"
            jobs = [
                Job(stores.overrides, f"{prefix}-{i}", share, turns=turns)
                for i, share in enumerate(split(range(sessions), processes))
            ]
            task = progress.add_task(
                speak(
                    "bench", "load.progress", sessions=sessions, turns=turns, processes=processes
                ),
                total=sessions * turns,
            )
            outcomes, elapsed = run_workers(jobs, on_turn=lambda: progress.advance(task))
        played = [p for o in outcomes for p in o.sessions]
        samples = [s for o in outcomes for s in o.samples]
        failures = [f for o in outcomes for f in o.failures]
        lost, duplicated, unexpected = count_transcript(agent, played)
    finally:
        agent.close()
    turn = Spread.of([s.total for s in samples])
    return LoadReport(
        stores=stores.label,
        sessions=sessions,
        processes=processes,
        turns=len(samples),
        failed=len(failures),
        seconds=round(elapsed, 2),
        turns_per_second=round(len(samples) / elapsed, 1),
        turn_p50_ms=round(turn.p50, 2),
        turn_p99_ms=round(turn.p99, 2),
        sent=sum(len(p.sent) for p in played),
        lost=lost,
        duplicated=duplicated,
        unexpected=unexpected,
        first_failure=failures[0] if failures else None,
    )


def count_transcript(agent: Agent, played: list[Played]) -> tuple[int, int, int]:
    """(lost, duplicated, unexpected) user lines and replies, from the transcript rows."""
    lost = duplicated = unexpected = 0
    for session in played:
        with agent.db.read() as repos:
            entries = repos.transcript.for_run(session.run_id)
        said = Counter(e.content for e in entries if e.role == "user")
        answered = Counter(e.content for e in entries if e.role == "assistant" and not e.tool_calls)
        for expected, found in ((session.sent, said), (session.replies, answered)):
            wanted = Counter(expected)
            for text, times in wanted.items():
                have = found.get(text, 0)
                lost += max(times - have, 0)
                duplicated += max(have - times, 0)
            unexpected += sum(n for text, n in found.items() if text not in wanted)
    return lost, duplicated, unexpected


def main(argv: Sequence[str], settings: Settings, *, out: Console, err: Console) -> int:
    p = command_parser("giftgenius bench load", speak("help", "bench.load.description"))
    p.add_argument(
        "--sessions",
        type=whole(1, 100_000, what="sessions"),
        default=200,
        help=speak("help", "bench.load.sessions"),
    )
    p.add_argument(
        "--processes",
        type=whole(1, 256, what="processes"),
        default=4,
        help=speak("help", "bench.load.processes"),
    )
    p.add_argument(
        "--turns",
        type=whole(1, 1_000_000, what="turns"),
        default=3,
        help=speak("help", "bench.load.turns"),
    )
    p.add_argument(
        "--catalog",
        type=whole(1, MAX_PRODUCTS, what="products"),
        default=1000,
        help=speak("help", "bench.load.catalog"),
    )
    p.add_argument(
        "--seed",
        type=whole(0, 2**32 - 1, what="seed"),
        default=0,
        help=speak("help", "bench.load.seed"),
    )
    p.add_argument("--keep", action="store_true", help=speak("help", "bench.keep"))
    p.add_argument("--json", action="store_true", help=speak("help", "bench.json"))
    args = p.parse_args(list(argv))
    if min(args.sessions, args.processes, args.turns, args.catalog) < 1:
        p.error(speak("bench", "load.not_positive"))
    try:
        report = run_load(
            configured_stores(settings),
            sessions=args.sessions,
            processes=min(args.processes, args.sessions),
            turns=args.turns,
            catalog=args.catalog,
            seed=args.seed,
            keep=args.keep,
            err=err,
        )
    except KeyboardInterrupt:
        err.print(interrupted(), markup=False, highlight=False)
        return 130
    if args.json:
        out.file.write(json.dumps(asdict(report), indent=2) + "\n")
    else:
        out.print(text(report), markup=False, highlight=False, soft_wrap=True)
    return 0 if report.clean else 1


def text(r: LoadReport) -> str:
    """The report, in the environment's language (the figures are the same in every one)."""
    lines = [
        speak("bench", "load.title", stores=r.stores),
        speak(
            "bench",
            "load.summary",
            sessions=r.sessions,
            turns=r.turns // max(r.sessions, 1),
            processes=r.processes,
            answered=r.turns,
            seconds=f"{r.seconds:.1f}",
            rate=f"{r.turns_per_second:.1f}",
            p50=f"{r.turn_p50_ms:.1f}",
            p99=f"{r.turn_p99_ms:.1f}",
        ),
        speak(
            "bench",
            "load.transcript",
            sent=r.sent,
            lost=r.lost,
            duplicated=r.duplicated,
            unexpected=r.unexpected,
            failed=r.failed,
        ),
    ]
    if r.first_failure:
        lines.append(speak("bench", "load.first_failure", failure=r.first_failure))
    return "\n".join(lines)
