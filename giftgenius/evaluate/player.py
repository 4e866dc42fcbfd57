"""Play one run of a dialogue through the real command line, then judge what it chose.

Each run gets a fresh ``GIFTGENIUS_HOME`` on embedded defaults (SQLite, offline model) and
one ``python -m giftgenius`` process per part, with the part's lines on stdin: exactly what
a person piping a conversation would do. The verdict comes from one ``state`` (which run is
current, which gift it chose, and whether its ``final_choice_made`` checkpoint was written)
and the gift's own ``catalog show`` record; every idea on the last shortlist is held to the
recipient's place and age too (``judge.suggestion_failures``).

The model is the offline one unless the evaluation names another (``ModelSetting``: its
``GIFTGENIUS_MODEL`` and endpoint settings go into every process's environment). Every run
records its model calls (``GIFTGENIUS_RECORD_DIR``, into its home unless the evaluation
keeps them), and its call log gives the run's calls and tokens.

A fresh home's first command would migrate the database and seed the catalog; the same
code does it once per evaluation (``seeded_database``) and each run's home starts with a
copy of that file, so the conversation itself is all a run's processes spend time on.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from giftgenius import messages
from giftgenius.evaluate.corpus import Script
from giftgenius.evaluate.forking import ForkServers
from giftgenius.evaluate.judge import judge, suggestion_failures
from giftgenius.llm.recording import count_calls
from giftgenius.messages import speak
from giftgenius.settings import DATABASE_FILE

TIMEOUT = 240.0  # seconds per process; the offline model answers a turn in well under one
TAIL_CHARS = 1500
NOTHING_TO_RESUME = 3  # the exit code of `resume` with no unfinished run
OFFLINE_NOTICES = frozenset(messages.by_language("commands", "offline_model").values())
"""The notice every talking command prints on stderr, in each language it may be printed in
(the processes inherit the caller's locale): not worth a transcript line."""


OFFLINE_MODEL = "offline"
REPLAY_PREFIX = "replay:"
WIRE_FOLDER = "wire"  # a run's recording in its home, when the evaluation keeps none


@dataclass(frozen=True)
class ModelSetting:
    """The model every run talks to, as its processes' environment says it.

    ``env`` holds the endpoint's settings (base URL, key, context window) for a model other
    than the offline one; ``price`` is USD per million (prompt, completion) tokens, None
    when unknown; ``record`` keeps each run's model calls under ``record/<user>``.
    """

    spec: str = OFFLINE_MODEL
    env: Mapping[str, str] = field(default_factory=dict)
    price: tuple[float, float] | None = (0.0, 0.0)
    record: Path | None = None

    def env_for(self, user: str, home: Path) -> dict[str, str]:
        """The model's variables for one run: its recording folder, and for a replay the
        run's own recording when the folder holds one per run (``--record``)."""
        spec = self.spec
        if spec.startswith(REPLAY_PREFIX):
            own = Path(spec[len(REPLAY_PREFIX) :]) / user
            if own.is_dir():
                spec = f"{REPLAY_PREFIX}{own}"
        return {
            **self.env,
            "GIFTGENIUS_MODEL": spec,
            "GIFTGENIUS_RECORD_DIR": str(self.wire(user, home)),
        }

    def wire(self, user: str, home: Path) -> Path:
        """Where a run's model calls are recorded."""
        return self.record / user if self.record is not None else home / WIRE_FOLDER

    def cost(self, prompt_tokens: int, completion_tokens: int) -> float:
        """Estimated USD at list prices; 0 when the price is unknown (a local model)."""
        if self.price is None:
            return 0.0
        prompt, completion = self.price
        return (prompt * prompt_tokens + completion * completion_tokens) / 1_000_000


@dataclass
class RunResult:
    dialogue_id: str
    replay: int
    values: dict[str, str]
    passed: bool
    reason: str
    gift_id: str | None = None
    last_step: str | None = None
    seconds: float = 0.0
    transcript_tail: str = ""
    commands: list[str] = field(default_factory=list)
    user_lines: int = 0  # lines typed into the processes that ran
    model_calls: int = 0  # requests to the model, summaries included
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float = 0.0  # USD, estimated (``ModelSetting.cost``)

    def as_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "replay": self.replay,
            "values": self.values,
            "passed": self.passed,
            "reason": self.reason,
            "gift": self.gift_id,
            "last_step": self.last_step,
            "seconds": round(self.seconds, 2),
            "commands": self.commands,
            "model_calls": self.model_calls,
            "user_lines": self.user_lines,
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "cost": round(self.cost, 6),
        }
        if not self.passed:
            data["transcript_tail"] = self.transcript_tail
        return data


class _Failed(Exception):
    """A run cannot go on (a process failed); the message is the run's reason."""


def clean_env(home: str, bytecode: Path | None = None) -> dict[str, str]:
    """The caller's environment without any GiftGenius or OpenAI setting: embedded defaults.

    With ``bytecode`` (from ``bytecode_folder``) the processes keep their compiled modules
    there instead of compiling every imported source again.
    """
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIFTGENIUS_", "OPENAI_"))}
    env.update(GIFTGENIUS_HOME=home, GIFTGENIUS_MODEL="offline", PYTHONIOENCODING="utf-8")
    if bytecode is not None:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(bytecode)
    return env


def bytecode_folder(folder: Path) -> Path | None:
    """Where an evaluation's processes share bytecode, or None when they need no help.

    Under ``PYTHONDONTWRITEBYTECODE`` (set on CI machines, and here) an editable install
    has no ``.pyc`` for GiftGenius' own modules, so every one of an evaluation's ~900
    processes compiled about 100 modules (30,000 lines) from source again: 0.4 s of CPU
    each, a sixth of a ``chat``. The processes of one evaluation instead write and read
    their bytecode under ``folder`` (``PYTHONPYCACHEPREFIX``, for every module they import,
    so the first processes also copy the library bytecode there), which the evaluation
    deletes with its other temporary files: nothing is written next to the sources, as the
    setting asks. The code each process runs is the same.
    """
    if not sys.dont_write_bytecode:
        return None  # the processes already write and reuse bytecode next to the sources
    return folder / "bytecode"


class _Cli:
    def __init__(self, env: dict[str, str], cwd: str, servers: ForkServers | None = None):
        self.env, self.cwd, self.servers = env, cwd, servers
        self.commands: list[str] = []
        self.transcript: list[str] = []
        self.user_lines = 0

    def run(self, args: list[str], stdin: str = "") -> subprocess.CompletedProcess[str]:
        self.commands.append("giftgenius " + " ".join(args))
        try:
            if self.servers is not None:
                return self.servers.run(args, stdin, self.env, self.cwd, TIMEOUT)
            return subprocess.run(
                [sys.executable, "-m", "giftgenius", *args],
                input=stdin,
                capture_output=True,
                text=True,
                encoding="utf-8",
                env=self.env,
                cwd=self.cwd,
                timeout=TIMEOUT,
                check=False,
            )
        except subprocess.TimeoutExpired:
            raise _Failed(
                speak("eval", "command.timeout", command=" ".join(args), seconds=f"{TIMEOUT:g}")
            ) from None

    def json(self, args: list[str]) -> dict[str, Any]:
        done = self.run([*args, "--json"])
        if done.returncode != 0:
            raise _Failed(
                speak(
                    "eval",
                    "command.failed",
                    command=" ".join([*args, "--json"]),
                    code=done.returncode,
                    said=_last_line(done.stderr),
                )
            )
        try:
            data = json.loads(done.stdout)
        except json.JSONDecodeError:
            command = " ".join([*args, "--json"])
            raise _Failed(speak("eval", "command.no_json", command=command)) from None
        return data if isinstance(data, dict) else {}

    def talk(
        self, command: str, user: str, lines: tuple[str, ...], *, may_be_finished: bool = False
    ) -> bool:
        """Type ``lines`` into one process; False when ``resume`` found nothing unfinished.

        Trying ``resume`` and falling back to ``chat`` on its exit code 3 is what a person
        does, and costs one process less than asking ``state`` first.
        """
        done = self.run([command, "--user", user], "".join(line + "\n" for line in lines))
        if may_be_finished and done.returncode == NOTHING_TO_RESUME:
            return False
        self.user_lines += len(lines)
        for line in lines:
            self.transcript.append(f"you> {line}")
        self.transcript.append(done.stdout.rstrip())
        self.transcript += [f"(stderr) {line}" for line in stderr_notes(done.stderr)]
        if done.returncode != 0:
            raise _Failed(
                speak(
                    "eval",
                    "command.failed",
                    command=command,
                    code=done.returncode,
                    said=_last_line(done.stderr),
                )
            )
        return True


def stderr_notes(stderr: str) -> list[str]:
    """The lines a process wrote on stderr that belong in the run's transcript: all but blank
    lines and the offline model's notice, in whichever language the process spoke."""
    return [line for line in stderr.splitlines() if line.strip() and line not in OFFLINE_NOTICES]


def _last_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1] if lines else "(no message)"


class Records:
    """Gift records by id, as ``catalog show ID --json`` prints them, shared by the runs of
    one evaluation.

    Every fresh home seeds the same bundled catalog, so a gift's record is the same in all
    of them: each is read once per evaluation, from the seeded database every home is a copy
    of (``database``), with the function ``catalog show`` prints through
    (``catalog.product_json``) — a judge that checks every idea on every shortlist would
    otherwise start a process per gift. Without a seeded database (or for an id it lacks,
    whose error the command words), the command itself is asked.
    """

    def __init__(self, database: Path | None = None) -> None:
        self._records: dict[str, dict[str, Any]] = {}
        self._lock = threading.Lock()
        self._database = database
        self._db: Any = None

    def get(self, cli: _Cli, gift_id: str) -> dict[str, Any]:
        with self._lock:
            known = self._records.get(gift_id) or self._read(gift_id)
            if known is not None:
                self._records[gift_id] = known
                return known
        known = cli.json(["catalog", "show", gift_id])
        with self._lock:
            self._records[gift_id] = known
        return known

    def _read(self, gift_id: str) -> dict[str, Any] | None:
        """The record from the seeded database (under the lock), or None."""
        if self._database is None:
            return None
        from giftgenius.catalog import load_rates, product_json
        from giftgenius.storage.db import Database

        if self._db is None:
            self._db = Database(f"sqlite:///{self._database}")
        with self._db.read() as repos:
            product = repos.catalog.get(gift_id)
        return None if product is None else product_json(product, load_rates())

    def close(self) -> None:
        """Let the database go; a run still under way asks the command from now on."""
        with self._lock:
            self._database = None
            if self._db is not None:
                self._db.dispose()
                self._db = None


def seeded_database(folder: Path) -> Path:
    """A fresh home's database as its first command leaves it: migrated, catalog seeded.

    Made by the code every command runs at start (``Database.ensure_catalog``), so a copy
    is the file a run would otherwise build itself.
    """
    from giftgenius.storage.db import Database

    path = folder / DATABASE_FILE
    db = Database(f"sqlite:///{path}")
    try:
        db.ensure_catalog()
    finally:
        db.dispose()  # the last connection folds the write-ahead log into the file
    return path


def play(
    script: Script,
    user: str,
    today: dt.date | None = None,
    records: Records | None = None,
    database: Path | None = None,
    bytecode: Path | None = None,
    servers: ForkServers | None = None,
    model: ModelSetting | None = None,
) -> RunResult:
    """Play ``script`` as ``user`` in a throw-away home; never raises for a failed run.

    The run is played and judged on the script's stated day, else on ``today``, else on
    the real one.

    ``database`` (from ``seeded_database``) is copied into the home first; ``bytecode``
    (from ``bytecode_folder``) is where the processes keep compiled modules; with
    ``servers`` each command is forked from a preloaded interpreter (``forkserver``)
    instead of started from nothing. ``model`` is the model the run talks to (the offline
    one by default).
    """
    model = model or ModelSetting()
    started = time.monotonic()
    today = script.today or today or dt.datetime.now(dt.UTC).date()
    result = RunResult(script.dialogue_id, script.replay, script.values, False, "")
    # Inside the evaluation's own folder (where ``database`` is), so that a killed
    # evaluation's homes are swept with it (``runner.sweep_scratch``).
    scratch = str(database.parent) if database is not None else None
    with tempfile.TemporaryDirectory(prefix="run-", dir=scratch) as home:
        if database is not None:
            shutil.copyfile(database, Path(home) / DATABASE_FILE)
        env = clean_env(home, bytecode)
        env["GIFTGENIUS_TODAY"] = today.isoformat()  # every process reads dates from this day
        env.update(model.env_for(user, Path(home)))
        wire = model.wire(user, Path(home))
        shutil.rmtree(wire, ignore_errors=True)  # a run recorded again starts afresh
        cli = _Cli(env, home, servers)
        try:
            _play(cli, script, user, today, result, records or Records())
        except _Failed as exc:
            result.passed, result.reason = False, str(exc)
        result.commands = cli.commands
        calls = count_calls(wire)
        result.user_lines = cli.user_lines
        result.model_calls = calls.calls
        result.prompt_tokens = calls.prompt_tokens
        result.completion_tokens = calls.completion_tokens
        # A replayed call costs nothing; the estimate is for calls that reached an endpoint.
        result.cost = (
            0.0 if calls.replayed else model.cost(calls.prompt_tokens, calls.completion_tokens)
        )
        result.transcript_tail = "\n".join(cli.transcript)[-TAIL_CHARS:]
    result.seconds = time.monotonic() - started
    return result


def _play(
    cli: _Cli, script: Script, user: str, today: dt.date, result: RunResult, records: Records
) -> None:
    for index, part in enumerate(script.parts):
        if index == 0 or not cli.talk("resume", user, part, may_be_finished=True):
            cli.talk("chat", user, part)  # first part, or the last search was finished
    state = cli.json(["state", "--user", user])
    inner = state.get("state") or {}
    result.last_step = inner.get("step")
    if result.last_step != "done":  # done is the only step final_choice_made leads to
        result.reason = speak("eval", "run.not_chosen", step=result.last_step)
        return
    if "final_choice_made" not in state.get("checkpoints", []):
        result.reason = speak("eval", "run.no_checkpoint")
        return
    gift = inner.get("selected_gift_id")
    result.gift_id = gift
    if not gift:
        result.reason = speak("eval", "run.no_gift")
        return
    failures = judge(records.get(cli, str(gift)), script.constraints, today)
    for shown in inner.get("candidate_ids") or []:  # the last shortlist, every idea on it
        failures += suggestion_failures(records.get(cli, str(shown)), script.constraints)
    result.passed = not failures
    result.reason = speak("eval", "judge.separator").join(failures)
