"""``giftgenius eval``: play a dialogue corpus (and seeded replays) in parallel, report.

A dialogue passes when its written run and every replay pass. Runs are independent
processes in their own homes, so they run side by side on a thread pool whose threads only
wait on child processes.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from giftgenius.errors import UsageError
from giftgenius.evaluate.corpus import Dialogue, Script, fill, load_corpus
from giftgenius.evaluate.forking import ForkServers
from giftgenius.evaluate.player import (
    Records,
    RunResult,
    bytecode_folder,
    clean_env,
    play,
    seeded_database,
)
from giftgenius.evaluate.pools import base, draw

EXIT_FAILED = 5  # as a failing demo
DEFAULT_DIR = Path("tests/dialogues")


def scripts(dialogue: Dialogue, replays: int, seed: int) -> list[Script]:
    """The written run, then ``replays`` seeded ones (none when the dialogue has no slots)."""
    first = base(dialogue)
    out = [fill(dialogue, first.slots, first.words, 0)]
    if dialogue.slots:
        for n in range(1, replays + 1):
            values = draw(dialogue, seed, n)
            out.append(fill(dialogue, values.slots, values.words, n))
    return out


@dataclass
class DialogueResult:
    dialogue: Dialogue
    runs: list[RunResult]

    @property
    def passed(self) -> bool:
        return all(r.passed for r in self.runs)

    @property
    def reason(self) -> str:
        """The first failing run's reason, saying which replay values it used."""
        for run in self.runs:
            if not run.passed:
                if run.replay == 0:
                    return run.reason
                values = ", ".join(f"{k}={v}" for k, v in run.values.items())
                return f"replay {run.replay} ({values}): {run.reason}"
        return ""


@dataclass
class Report:
    results: list[DialogueResult]
    seed: int
    replays: int
    jobs: int
    seconds: float
    today: dt.date

    @property
    def passed(self) -> int:
        return sum(r.passed for r in self.results)

    def as_json(self) -> dict[str, Any]:
        return {
            "total": len(self.results),
            "passed": self.passed,
            "pass_rate": round(self.passed / len(self.results), 4) if self.results else None,
            "seed": self.seed,
            "replays": self.replays,
            "jobs": self.jobs,
            "seconds": round(self.seconds, 1),
            "played_on": self.today.isoformat(),
            "dialogues": [
                {
                    "id": r.dialogue.id,
                    "locale": r.dialogue.locale,
                    "passed": r.passed,
                    "reason": r.reason,
                    "runs": [run.as_json() for run in r.runs],
                }
                for r in self.results
            ],
        }


def evaluate(
    dialogues: list[Dialogue],
    *,
    replays: int = 1,
    seed: int = 0,
    jobs: int | None = None,
    progress: Callable[[RunResult], None] | None = None,
    fresh: bool = False,
) -> Report:
    """Play every dialogue, ``jobs`` runs at a time, and gather the verdicts.

    A dialogue's replays are played only once it passes as written: when the written run
    fails, the verdict and its reason are already known, and on a shared machine the
    replays would double the time for nothing.

    Each command is a process of its own; unless ``fresh`` (or where ``os.fork`` does not
    exist) it is forked from a server that has imported the application once per job
    (``forkserver``), which halves the evaluation's CPU.
    """
    if replays < 0:
        raise UsageError("--replays must be 0 or more.")
    jobs = jobs or os.cpu_count() or 1
    if jobs < 1:
        raise UsageError("--jobs must be at least 1.")
    started = time.monotonic()
    today = dt.datetime.now(dt.UTC).date()
    runs: dict[str, list[RunResult]] = {d.id: [] for d in dialogues}
    records = Records()
    seed_folder = tempfile.TemporaryDirectory(prefix="giftgenius-eval-seed-")
    database = seeded_database(Path(seed_folder.name))
    bytecode = bytecode_folder(Path(seed_folder.name))
    servers = None
    if not fresh and hasattr(os, "fork"):
        servers = ForkServers(clean_env(seed_folder.name, bytecode))
    pool = ThreadPoolExecutor(max_workers=jobs)

    def submit(script: Script) -> Future[RunResult]:
        user = f"{script.dialogue_id[:56]}-r{script.replay}"
        return pool.submit(play, script, user, today, records, database, bytecode, servers)

    planned = {d.id: scripts(d, replays, seed) for d in dialogues}
    try:
        pending = {submit(planned[d.id][0]) for d in dialogues}
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                result = future.result()
                runs[result.dialogue_id].append(result)
                if progress is not None:
                    progress(result)
                if result.replay == 0 and result.passed:
                    pending |= {submit(s) for s in planned[result.dialogue_id][1:]}
    finally:
        # Interrupted (Ctrl-C, SIGTERM): start no new run; the ones under way end on their own.
        pool.shutdown(wait=False, cancel_futures=True)
        if servers is not None:
            servers.close()
        seed_folder.cleanup()
    results = [DialogueResult(d, sorted(runs[d.id], key=lambda r: r.replay)) for d in dialogues]
    return Report(results, seed, replays, jobs, time.monotonic() - started, today)


def summary_lines(report: Report) -> list[str]:
    """The human report: the pass rate, then one line per failing dialogue."""
    total = len(report.results)
    rate = f"{100 * report.passed / total:.1f} %" if total else "n/a"
    runs = sum(len(r.runs) for r in report.results)
    lines = [
        f"{report.passed}/{total} dialogues passed ({rate}) — {runs} run{'s' * (runs != 1)}, "
        f"{report.replays} replay(s) per dialogue that has slots and passes as written, "
        f"seed {report.seed}, "
        f"{report.jobs} jobs, {report.seconds:.0f} s"
    ]
    lines += [f"FAIL {r.dialogue.id}: {r.reason}" for r in report.results if not r.passed]
    return lines


def main(
    directory: Path | None,
    *,
    as_json: bool,
    replays: int,
    seed: int,
    jobs: int | None,
    only: list[str] | None,
    out: IO[str],
    err: IO[str],
    fresh: bool = False,
) -> int:
    """The command: 0 when every dialogue passes, 5 otherwise (its report is still printed)."""
    folder = directory or DEFAULT_DIR
    if directory is None and not folder.is_dir():
        raise UsageError(
            "No tests/dialogues here: run from the repository root or name the corpus folder, "
            "e.g. giftgenius eval tests/dialogues/en"
        )
    dialogues = load_corpus(folder, only)
    if not dialogues:
        raise UsageError(f"No dialogue files (*.json) under {folder}.")

    def progress(run: RunResult) -> None:
        verdict = "ok" if run.passed else "FAIL"
        tag = f" replay {run.replay}" if run.replay else ""
        err.write(f"{verdict:4} {run.dialogue_id}{tag} ({run.seconds:.0f} s)\n")
        err.flush()

    report = evaluate(
        dialogues, replays=replays, seed=seed, jobs=jobs, progress=progress, fresh=fresh
    )
    if as_json:
        out.write(json.dumps(report.as_json(), ensure_ascii=False, indent=2) + "\n")
    else:
        out.write("\n".join(summary_lines(report)) + "\n")
    out.flush()
    return 0 if report.passed == len(report.results) else EXIT_FAILED
