"""Worker processes that play benchmark sessions side by side.

Each worker builds its own agent (its own connections), opens its sessions, says it is
ready, and waits for the word: start-up (imports, the tokenizer, connecting) is not timed.
Then it plays its sessions in turn — one turn of each, round and round — either a fixed
number of turns each (the load test) or until time is up (turns per second), and sends
back every timed turn, what each session said and heard, and any error as text.
Processes are spawned, not forked: no connection or lock is ever shared by accident.

Stopping: workers ignore Ctrl-C (a terminal sends it to the whole process group) and stop
when the command says so — a ``stop`` event it sets when it is interrupted (Ctrl-C,
SIGTERM) or fails, checked before every turn — or when the command is gone (their parent
changed). A worker still busy after ``STOP_GRACE`` seconds (starting up, or stuck on a
store) is terminated, then killed: an interrupted benchmark ends within seconds, and its
scratch stores (``bench/scratch.py``) are removed once no worker can write to them.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import queue
import signal
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from giftgenius.bench.players import Played, Player, Sample, bench_agent
from giftgenius.bench.signals import interrupts_held
from giftgenius.errors import GiftGeniusError
from giftgenius.logs import configure_logging
from giftgenius.messages import speak
from giftgenius.settings import load_settings

START_TIMEOUT = 180.0  # seconds a worker may take to import, connect and open its sessions
STOP_GRACE = 1.0  # seconds stopped workers get to end their turn before they are terminated
DONE_TIMEOUT = 30.0  # seconds finished workers get to close their connections


@dataclass(frozen=True)
class Job:
    """One worker's share: the settings to load, its sessions' numbers, and how long to play."""

    overrides: dict[str, Any]
    prefix: str
    numbers: tuple[int, ...]
    turns: int | None = None  # turns per session, or
    seconds: float | None = None  # play until this much time has passed


@dataclass
class Outcome:
    """What a worker sends back."""

    samples: list[Sample] = field(default_factory=list)
    sessions: list[Played] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    ended: float = 0.0  # time.monotonic() when its last turn ended (system-wide on Linux)


def run_workers(
    jobs: list[Job], *, on_turn: Callable[[], None] | None = None
) -> tuple[list[Outcome], float]:
    """Run one process per job; every outcome and the seconds from start word to last turn."""
    context = mp.get_context("spawn")
    messages: Any = context.Queue()
    go, stop = context.Event(), context.Event()
    workers = [
        context.Process(target=_work, args=(job, messages, go, stop), daemon=True) for job in jobs
    ]
    _start(workers)
    outcomes: list[Outcome] = []
    finished = False
    try:
        outcomes += _await_ready(messages, workers)
        started = time.monotonic()
        go.set()
        while len(outcomes) < len(jobs):
            kind, payload = _next(messages, workers, None)
            if kind == "turn" and on_turn is not None:
                on_turn()
            elif kind == "done":
                outcomes.append(payload)
        finished = True
    finally:
        _end(workers, stop, [go], finished=finished)
    ended = max((o.ended for o in outcomes if o.ended), default=started)
    return outcomes, max(ended - started, 1e-9)


def _await_ready(messages: Any, workers: list[Any]) -> list[Outcome]:
    """Wait until every worker is ready to start or failed before it could; the outcomes of
    those that failed."""
    failed: list[Outcome] = []
    ready = 0
    while ready + len(failed) < len(workers):
        kind, payload = _next(messages, workers, START_TIMEOUT)
        if kind == "ready":
            ready += 1
        elif kind == "done":  # failed before it could start
            failed.append(payload)
    return failed


def _next(messages: Any, workers: list[Any], timeout: float | None) -> tuple[str, Any]:
    """The next message; a worker that died without a word is an error, not a hang."""
    waited = 0.0
    while True:
        try:
            return messages.get(timeout=1.0)
        except queue.Empty:
            waited += 1.0
            dead = [w for w in workers if w.exitcode not in (None, 0)]
            if dead:
                raise GiftGeniusError(
                    speak("bench", "worker.died", code=dead[0].exitcode)
                ) from None
            if timeout is not None and waited > timeout:
                raise GiftGeniusError(
                    speak("bench", "worker.not_ready", seconds=f"{timeout:.0f}")
                ) from None


def _work(job: Job, messages: Any, go: Any, stop: Any) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the command stops us: see the docstring
    outcome = Outcome()
    try:
        settings = load_settings(**job.overrides)
        configure_logging(settings)  # as the command's own process does: logs cost time too
        agent = bench_agent(settings)
    except Exception as exc:  # reported to the parent, which says it plainly
        outcome.failures.append(f"{type(exc).__name__}: {exc}")
        messages.put(("done", outcome))
        return
    try:
        player = Player(agent, job.prefix)
        outcome.sessions = [player.open(number) for number in job.numbers]
        messages.put(("ready", None))
        go.wait()
        _play(player, job, outcome, messages, stop)
    except Exception as exc:
        outcome.failures.append(f"{type(exc).__name__}: {exc}\n{traceback.format_exc(limit=4)}")
    finally:
        outcome.ended = outcome.ended or time.monotonic()
        agent.close()
        _goodbye(messages, stop, ("done", outcome))


def _play(player: Player, job: Job, outcome: Outcome, messages: Any, stop: Any) -> None:
    deadline = None if job.seconds is None else time.monotonic() + job.seconds
    parent = os.getppid()
    while True:
        for played in outcome.sessions:
            if job.turns is not None and played.turns >= job.turns:
                continue
            if stop.is_set() or os.getppid() != parent:  # told to stop, or the command is gone
                outcome.ended = time.monotonic()
                return
            try:
                outcome.samples.append(player.turn(played))
            except Exception as exc:  # counted; the session goes on with its next line
                error = f"{type(exc).__name__}: {exc}"
                said = speak("bench", "worker.session_failed", number=played.number, error=error)
                outcome.failures.append(said)
            messages.put(("turn", None))
            if deadline is not None and time.monotonic() >= deadline:
                outcome.ended = time.monotonic()
                return
        if job.turns is not None and all(p.turns >= job.turns for p in outcome.sessions):
            outcome.ended = time.monotonic()
            return


def split(numbers: range, processes: int) -> list[tuple[int, ...]]:
    """Session numbers dealt out to ``processes`` workers, as evenly as they go."""
    return [tuple(numbers[i::processes]) for i in range(processes)]


@dataclass
class Rounds:
    """What ``run_rounds`` measured: per round, its outcomes and seconds; every session."""

    rounds: list[tuple[list[Outcome], float]] = field(default_factory=list)
    sessions: list[Played] = field(default_factory=list)


def run_rounds(
    jobs: list[Job],
    counts: list[int],
    *,
    seconds: float,
    on_turn: Callable[[], None] | None = None,
) -> Rounds:
    """Turns per second with ``counts[r]`` of the same workers playing in round ``r``.

    One process per job, started once (start-up, untimed, is most of a short benchmark's
    time: imports, the tokenizer, connecting): in each round the first ``counts[r]``
    workers play their sessions for ``seconds`` while the others wait. The sessions go on
    from one round to the next.
    """
    context = mp.get_context("spawn")
    messages: Any = context.Queue()
    gos = [context.Event() for _ in counts]
    stop = context.Event()
    workers = [
        context.Process(
            target=_work_rounds,
            args=(index, job, tuple(counts), seconds, messages, gos, stop),
            daemon=True,
        )
        for index, job in enumerate(jobs)
    ]
    _start(workers)
    measured = Rounds()
    finished = False
    try:
        for failed in _await_ready(messages, workers):
            raise GiftGeniusError(speak("bench", "worker.not_started", why=failed.failures))
        done = 0  # goodbyes: a worker's may come before another's last round

        def receive(outcomes: list[Outcome]) -> None:
            nonlocal done
            kind, payload = _next(messages, workers, None)
            if kind == "turn" and on_turn is not None:
                on_turn()
            elif kind == "round":
                outcomes.append(payload)
            elif kind == "bye":
                measured.sessions.extend(payload)
                done += 1

        for number, count in enumerate(counts):
            started = time.monotonic()
            gos[number].set()
            outcomes: list[Outcome] = []
            while len(outcomes) < count:
                receive(outcomes)
            ended = max((o.ended for o in outcomes if o.ended), default=started)
            measured.rounds.append((outcomes, max(ended - started, 1e-9)))
        while done < len(jobs):
            receive([])
        finished = True
    finally:
        _end(workers, stop, gos, finished=finished)
    return measured


def _work_rounds(
    index: int,
    job: Job,
    counts: tuple[int, ...],
    seconds: float,
    messages: Any,
    gos: list[Any],
    stop: Any,
) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the command stops us: see the docstring
    try:
        settings = load_settings(**job.overrides)
        configure_logging(settings)
        agent = bench_agent(settings)
    except Exception as exc:  # reported to the parent, which says it plainly
        messages.put(("done", Outcome(failures=[f"{type(exc).__name__}: {exc}"])))
        return
    sessions: list[Played] = []
    try:
        player = Player(agent, job.prefix)
        sessions = [player.open(number) for number in job.numbers]
        messages.put(("ready", None))
        timed = Job(job.overrides, job.prefix, job.numbers, seconds=seconds)
        for number, count in enumerate(counts):
            if index >= count:
                continue
            gos[number].wait()
            if stop.is_set():
                break
            outcome = Outcome(sessions=sessions)
            try:
                _play(player, timed, outcome, messages, stop)
            except Exception as exc:
                outcome.failures.append(f"{type(exc).__name__}: {exc}")
            outcome.ended = outcome.ended or time.monotonic()
            outcome.sessions = []  # sent once, with the goodbye
            messages.put(("round", outcome))
    finally:
        agent.close()
        _goodbye(messages, stop, ("bye", sessions))


def _start(workers: list[Any]) -> None:
    """Start the workers with Ctrl-C ignored from their first instruction (the ignored
    disposition is inherited across the spawn): a worker hit while it imports would print
    a traceback, and the command stops its workers itself. Ctrl-C pressed meanwhile is held
    and reaches the command once they are started."""
    if threading.current_thread() is not threading.main_thread():
        for worker in workers:
            worker.start()
        return
    held = {signal.SIGINT}
    signal.pthread_sigmask(signal.SIG_BLOCK, held)
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        for worker in workers:
            worker.start()
    finally:
        signal.signal(signal.SIGINT, signal.SIG_DFL if previous is None else previous)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, held)


def _end(workers: list[Any], stop: Any, gos: list[Any], *, finished: bool) -> None:
    """Every worker gone: finished ones closing their connections, or, when the command was
    interrupted or failed, stopped at their next turn, terminated after ``STOP_GRACE``."""
    with interrupts_held():
        if not finished:
            stop.set()
        for go in gos:
            go.set()  # a worker still waiting for the word (or its round) ends
        deadline = time.monotonic() + (DONE_TIMEOUT if finished else STOP_GRACE)
        for worker in workers:
            worker.join(timeout=max(deadline - time.monotonic(), 0.0))
        for worker in workers:
            if worker.is_alive():
                worker.terminate()
        for worker in workers:
            worker.join(timeout=1.0)
            if worker.is_alive():
                worker.kill()
                worker.join(timeout=1.0)


def _goodbye(messages: Any, stop: Any, message: tuple[str, Any]) -> None:
    """The worker's last message; once stopped, nobody reads it, and the process must not
    wait at exit for the queue to take it (``cancel_join_thread``)."""
    if stop.is_set():
        messages.cancel_join_thread()
        return
    messages.put(message)
