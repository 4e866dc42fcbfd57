"""``giftgenius eval``: play a dialogue corpus (and seeded replays) in parallel, report.

A dialogue passes when its written run and every replay pass. Runs are independent
processes in their own homes, so they run side by side on a thread pool whose threads only
wait on child processes.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import shutil
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from giftgenius.errors import ConfigError, UsageError
from giftgenius.evaluate.corpus import Dialogue, Script, fill, load_corpus
from giftgenius.evaluate.forking import ForkServers
from giftgenius.evaluate.player import (
    OFFLINE_MODEL,
    REPLAY_PREFIX,
    ModelSetting,
    Records,
    RunResult,
    bytecode_folder,
    clean_env,
    play,
    seeded_database,
)
from giftgenius.evaluate.pools import base, draw
from giftgenius.messages import count, environment_language, say, speak

if TYPE_CHECKING:
    from giftgenius.settings import Settings

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

    def counts(self) -> dict[str, Any]:
        """The model calls, lines typed, tokens and estimated cost of all its runs."""
        return _counts(self.runs)

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
    model: ModelSetting = field(default_factory=ModelSetting)

    @property
    def passed(self) -> int:
        return sum(r.passed for r in self.results)

    def totals(self) -> dict[str, Any]:
        totals = _counts([run for r in self.results for run in r.runs])
        lines = totals["user_lines"]
        totals["calls_per_line"] = round(totals["model_calls"] / lines, 3) if lines else None
        return totals

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
            "model": self.model.spec,
            "totals": self.totals(),
            "dialogues": [
                {
                    "id": r.dialogue.id,
                    "locale": r.dialogue.locale,
                    "passed": r.passed,
                    "reason": r.reason,
                    **r.counts(),
                    "runs": [run.as_json() for run in r.runs],
                }
                for r in self.results
            ],
        }


def _counts(runs: list[RunResult]) -> dict[str, Any]:
    return {
        "model_calls": sum(r.model_calls for r in runs),
        "user_lines": sum(r.user_lines for r in runs),
        "prompt_tokens": sum(r.prompt_tokens for r in runs),
        "completion_tokens": sum(r.completion_tokens for r in runs),
        "cost": round(sum(r.cost for r in runs), 6),
    }


def model_setting(spec: str | None, settings: Settings, record: Path | None) -> ModelSetting:
    """The model the runs talk to: ``spec`` (offline when None) with this environment's
    endpoint settings, refused now if every run would fail on it."""
    from giftgenius.llm.factory import check_model
    from giftgenius.tokens import price_per_million

    spec = (spec or OFFLINE_MODEL).strip()
    if spec.startswith(REPLAY_PREFIX):  # the runs' processes start in their own homes
        spec = REPLAY_PREFIX + str(Path(spec[len(REPLAY_PREFIX) :].strip()).expanduser().absolute())
    if spec != OFFLINE_MODEL and not spec.startswith(("openai:", REPLAY_PREFIX)):
        raise UsageError(speak("eval", "model.unknown", model=repr(spec)))
    check_model(settings.model_copy(update={"model": spec}))
    env: dict[str, str] = {}
    if spec != OFFLINE_MODEL:
        values = {
            "OPENAI_BASE_URL": settings.openai_base_url,
            "OPENAI_API_KEY": settings.openai_api_key,
            "GIFTGENIUS_CONTEXT_WINDOW": settings.context_window,
            "GIFTGENIUS_MODEL_TIMEOUT": settings.model_timeout,
            "GIFTGENIUS_MODEL_MAX_RETRIES": settings.model_max_retries,
            "GIFTGENIUS_MODEL_STREAM": "false" if not settings.model_stream else None,
        }
        env = {name: str(value) for name, value in values.items() if value is not None}
    price = (0.0, 0.0) if spec.startswith(REPLAY_PREFIX) else price_per_million(spec)
    if record is not None:
        record = record.expanduser().absolute()
        try:
            record.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            reason = exc.strerror or exc
            raise ConfigError(speak("eval", "record.cannot", folder=record, reason=reason)) from exc
    return ModelSetting(spec=spec, env=env, price=price, record=record)


SCRATCH_PREFIX = "giftgenius-eval-"  # + the evaluation's pid: its seed and every run's home


def sweep_scratch(root: Path | None = None) -> list[Path]:
    """Delete what killed evaluations left behind; the folders removed.

    An evaluation keeps its seeded database, its bytecode and every run's home in one
    temporary folder named with its pid, removed when it ends; one killed outright
    (SIGKILL, a closed terminal) cannot remove it. The next evaluation removes every such
    folder of this user whose process is gone.
    """
    root = Path(root or tempfile.gettempdir())
    removed: list[Path] = []
    for folder in root.glob(f"{SCRATCH_PREFIX}*-*"):
        pid = folder.name[len(SCRATCH_PREFIX) :].split("-", 1)[0]
        try:
            if not pid.isdigit() or folder.stat().st_uid != os.getuid() or _alive(int(pid)):
                continue
        except OSError:
            continue
        shutil.rmtree(folder, ignore_errors=True)
        removed.append(folder)
    return removed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def evaluate(
    dialogues: list[Dialogue],
    *,
    replays: int = 1,
    seed: int = 0,
    jobs: int | None = None,
    progress: Callable[[RunResult], None] | None = None,
    fresh: bool = False,
    model: ModelSetting | None = None,
) -> Report:
    """Play every dialogue, ``jobs`` runs at a time, and gather the verdicts.

    A dialogue's replays are played only once it passes as written: when the written run
    fails, the verdict and its reason are already known, and on a shared machine the
    replays would double the time for nothing.

    Each command is a process of its own; unless ``fresh`` (or where ``os.fork`` does not
    exist) it is forked from a server that has imported the application once for the
    whole evaluation (``forkserver``), which halves the evaluation's CPU. ``model`` is the
    model the runs talk to (the offline one by default).
    """
    model = model or ModelSetting()
    if replays < 0:
        raise UsageError(speak("eval", "replays.negative"))
    jobs = jobs if jobs is not None else os.cpu_count() or 1
    if jobs < 1:
        raise UsageError(speak("eval", "jobs.too_few"))
    started = time.monotonic()
    today = dt.datetime.now(dt.UTC).date()
    runs: dict[str, list[RunResult]] = {d.id: [] for d in dialogues}
    sweep_scratch()
    seed_folder = tempfile.TemporaryDirectory(prefix=f"{SCRATCH_PREFIX}{os.getpid()}-")
    database = seeded_database(Path(seed_folder.name))
    records = Records(database)
    bytecode = bytecode_folder(Path(seed_folder.name))
    servers = None
    if not fresh and hasattr(os, "fork"):
        servers = ForkServers(clean_env(seed_folder.name, bytecode))
    pool = ThreadPoolExecutor(max_workers=jobs)

    def submit(script: Script) -> Future[RunResult]:
        user = f"{script.dialogue_id[:56]}-r{script.replay}"
        return pool.submit(play, script, user, today, records, database, bytecode, servers, model)

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
        records.close()
        seed_folder.cleanup()
    results = [DialogueResult(d, sorted(runs[d.id], key=lambda r: r.replay)) for d in dialogues]
    return Report(results, seed, replays, jobs, time.monotonic() - started, today, model)


def summary_lines(report: Report) -> list[str]:
    """The human report: the pass rate, then one line per failing dialogue."""
    from giftgenius.formats import number

    lang = environment_language()
    total = len(report.results)
    rate = say("eval", "summary.rate", lang, rate=number(100 * report.passed / total, lang, 1))
    lines = [
        say(
            "eval",
            "summary.passed",
            lang,
            passed=report.passed,
            total=total,
            rate=rate if total else say("eval", "summary.unknown", lang),
            runs=count("eval", "summary.runs", lang, sum(len(r.runs) for r in report.results)),
            replays=report.replays,
            seed=report.seed,
            jobs=report.jobs,
            seconds=number(report.seconds, lang, 0),
        )
    ]
    totals = report.totals()
    per_line = totals["calls_per_line"]
    if report.model.price is None:
        cost = say("eval", "cost.unknown", lang)
    elif report.model.price == (0.0, 0.0):
        cost = say("eval", "cost.none", lang)
    else:
        cost = say("eval", "cost.estimated", lang, cost=number(totals["cost"], lang, 4))
    lines.append(
        say(
            "eval",
            "summary.model",
            lang,
            model=report.model.spec,
            calls=number(totals["model_calls"], lang),
            lines=number(totals["user_lines"], lang),
            per_line=say("eval", "summary.unknown", lang)
            if per_line is None
            else number(per_line, lang, 2),
            prompt=number(totals["prompt_tokens"], lang),
            completion=number(totals["completion_tokens"], lang),
            cost=cost,
        )
    )
    lines += [
        say("eval", "summary.failed", lang, id=r.dialogue.id, reason=r.reason)
        for r in report.results
        if not r.passed
    ]
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
    model: str | None = None,
    settings: Settings | None = None,
    record: Path | None = None,
) -> int:
    """The command: 0 when every dialogue passes, 5 otherwise (its report is still printed).

    ``model`` (offline when None) is played with ``settings``' endpoint (base URL, key,
    context window); ``record`` keeps each run's model calls under ``record/<run>``.
    """
    folder = directory or DEFAULT_DIR
    if directory is None and not folder.is_dir():
        raise UsageError(speak("eval", "no_corpus"))
    dialogues = load_corpus(folder, only)
    if not dialogues:
        raise UsageError(speak("eval", "no_dialogues", folder=folder))

    if settings is None:
        from giftgenius.settings import load_settings

        settings = load_settings()
    chosen = model_setting(model, settings, record)

    def progress(run: RunResult) -> None:
        verdict = speak("eval", "progress.passed" if run.passed else "progress.failed")
        tag = speak("eval", "progress.replay", n=run.replay) if run.replay else ""
        verdict, seconds = verdict.ljust(4), f"{run.seconds:.0f}"
        line = speak(
            "eval", "progress", verdict=verdict, id=run.dialogue_id, replay=tag, seconds=seconds
        )
        err.write(line + "\n")
        err.flush()

    report = evaluate(
        dialogues,
        replays=replays,
        seed=seed,
        jobs=jobs,
        progress=progress,
        fresh=fresh,
        model=chosen,
    )
    if as_json:
        out.write(json.dumps(report.as_json(), ensure_ascii=False, indent=2) + "\n")
    else:
        out.write("\n".join(summary_lines(report)) + "\n")
    out.flush()
    return 0 if report.passed == len(report.results) else EXIT_FAILED
