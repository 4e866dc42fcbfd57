"""Issue 9, defects 1-3 and part of 8: what a turn in flight meets and must not undo.

Each test stops a real chat process at a fault point (``GIFTGENIUS_FAULT_SIGNAL=STOP``),
does something to it from outside (forget the user, kill Redis, ``--new`` in another
window, start a second window), then lets it go on. The set-up is the issue's: a fresh
Postgres database after ``giftgenius db upgrade`` and a Redis server of the test's own on a
free port, which the test may kill and restart without disturbing anyone else.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import redis

from giftgenius.llm.scripted import SCRIPTED_LABEL
from giftgenius.storage.db import Database

pytestmark = [pytest.mark.slow, pytest.mark.postgres, pytest.mark.redis]

SETUP = "Gift for my colleague, he loves board games and coffee, budget 50 dollars"
PICK = "the first one"
CONFIRM = "yes, confirm it"
ANOTHER = "another gift please"
LONG_LEASE = {"GIFTGENIUS_LEASE_TTL": "60"}  # a stopped holder keeps its lease meanwhile


@pytest.fixture(autouse=True)
def _scripted(script) -> None:
    """Every chat process plays this script (the conftest's ``script`` sets GIFTGENIUS_MODEL)."""
    script.shortlist(
        SETUP,
        recipient="colleague",
        interests=["board games", "coffee"],
        budget_max=50,
        currency="USD",
    )
    script.pick(PICK).confirm(CONFIRM).says(ANOTHER, "This search is finished.")


class OwnRedis:
    """A ``redis-server`` of this test's own on a free port, without persistence."""

    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.pidfile = workdir / f"redis-{self.port}.pid"

    def start(self) -> None:
        subprocess.run(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.workdir),
                "--daemonize",
                "yes",
                "--pidfile",
                str(self.pidfile),
            ],
            check=True,
            capture_output=True,
        )
        deadline = time.monotonic() + 10
        while True:
            try:
                redis.Redis(port=self.port, socket_connect_timeout=0.5).ping()
                return
            except redis.ConnectionError:
                assert time.monotonic() < deadline, "own redis-server never answered"
                time.sleep(0.05)

    def kill(self) -> None:
        """Shut the server down now, without saving: the store goes away mid-turn."""
        # shutdown closes the connection it came on (or the server was down already)
        with contextlib.suppress(redis.ConnectionError):
            redis.Redis(port=self.port, socket_connect_timeout=0.5).shutdown(nosave=True)
        deadline = time.monotonic() + 10
        while self.pidfile.exists():  # removed by the server as it exits
            assert time.monotonic() < deadline, "own redis-server did not stop"
            time.sleep(0.05)

    def client(self) -> redis.Redis:
        return redis.Redis(port=self.port, socket_connect_timeout=1)

    def session_keys(self) -> list[bytes]:
        return list(self.client().scan_iter(match="*session*"))


@dataclass
class Env:
    vars: dict[str, str]
    redis: OwnRedis
    db: Database
    home: Path
    started: list[Stopped] = field(default_factory=list)

    def run(self, *argv: str, stdin: str = "", env: dict[str, str] | None = None) -> Done:
        done = subprocess.run(
            [sys.executable, "-m", "giftgenius", *argv],
            input=stdin,
            capture_output=True,
            text=True,
            env={**os.environ, **self.vars, **(env or {})},
            timeout=120,
        )
        assert SCRIPTED_LABEL not in done.stderr, done.stderr  # the script went astray
        return Done(done.returncode, done.stdout, done.stderr)

    def stopped_chat(self, fault: str, *argv: str, env: dict[str, str] | None = None) -> Stopped:
        """A chat that stops itself (SIGSTOP) at ``fault`` in its first turn."""
        proc = subprocess.Popen(
            [sys.executable, "-m", "giftgenius", "chat", *argv],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={
                **os.environ,
                **self.vars,
                "GIFTGENIUS_FAULT": fault,
                "GIFTGENIUS_FAULT_SIGNAL": "STOP",
                **(env or {}),
            },
        )
        stopped = Stopped(proc)
        self.started.append(stopped)
        return stopped

    def log_events(self) -> list[str]:
        found = []
        for path in (self.home / "logs").glob("giftgenius.log*"):
            for line in path.read_text(encoding="utf-8").splitlines():
                found.append(json.loads(line).get("event", ""))
        return found


@dataclass
class Done:
    code: int
    out: str
    err: str


class Stopped:
    """A chat process that will stop itself at a fault point; fed its lines up front."""

    def __init__(self, proc: subprocess.Popen[str]) -> None:
        self.proc = proc

    def feed(self, *lines: str) -> Stopped:
        assert self.proc.stdin is not None
        self.proc.stdin.write("".join(line + "\n" for line in lines))
        self.proc.stdin.close()  # the chat reads its lines, then ends at EOF
        return self

    def stopped(self) -> bool:
        stat = Path(f"/proc/{self.proc.pid}/stat").read_text()
        return stat.rsplit(")", 1)[1].split()[0] == "T"

    def wait_stopped(self, timeout: float = 60) -> Stopped:
        deadline = time.monotonic() + timeout
        while not self.stopped():
            assert self.proc.poll() is None, self.proc.communicate()
            assert time.monotonic() < deadline, "the chat never reached its fault point"
            time.sleep(0.05)
        return self

    def resume(self, timeout: float = 120) -> Done:
        """Continue it, and again each time a later turn stops at the same point; collect."""
        deadline = time.monotonic() + timeout
        os.kill(self.proc.pid, signal.SIGCONT)
        while self.proc.poll() is None:
            if self.stopped():
                os.kill(self.proc.pid, signal.SIGCONT)
            if time.monotonic() > deadline:
                self.proc.kill()
                pytest.fail(f"the chat did not end: {self.proc.communicate()}")
            time.sleep(0.05)
        # stdin was closed by feed and the chat's output is small: the pipes hold it all.
        assert self.proc.stdout is not None and self.proc.stderr is not None
        done = Done(self.proc.returncode, self.proc.stdout.read(), self.proc.stderr.read())
        assert SCRIPTED_LABEL not in done.err, done.err  # the script went astray
        return done

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


@pytest.fixture
def env(postgres_url: str, tmp_path: Path) -> Iterator[Env]:
    if shutil.which("redis-server") is None:
        why = "redis-server is not installed; these tests start their own"
        if (
            os.environ.get("CI", "").lower() == "true"
            or os.environ.get("GIFTGENIUS_REQUIRE_SERVICES") == "1"
        ):
            pytest.fail(why)  # like conftest's services: required in CI, never skipped
        pytest.skip(why)
    own = OwnRedis(tmp_path)
    own.start()
    home = tmp_path / "home"
    variables = {
        "GIFTGENIUS_DATABASE_URL": postgres_url,
        "GIFTGENIUS_REDIS_URL": own.url,
        "GIFTGENIUS_HOME": str(home),
    }
    db = Database(postgres_url)
    made = Env(variables, own, db, home)
    try:
        upgraded = made.run("db", "upgrade")
        assert upgraded.code == 0, upgraded.err
        yield made
    finally:
        for stopped in made.started:  # a failed test leaves no stopped process behind
            stopped.kill()
        db.dispose()
        own.kill()


def _runs(env: Env, user: str) -> list:
    with env.db.read() as repos:
        return repos.runs.list_for(user)


def test_forget_wins_over_a_turn_that_is_running(env: Env) -> None:
    """Defect 1: the stopped turn must not write the erased session back to Redis."""
    stopped = env.stopped_chat("before_session_save", "--user", "erase-me").feed(SETUP)
    stopped.wait_stopped()
    forgot = env.run("forget", "--user", "erase-me")
    assert forgot.code == 0, forgot.err
    assert "Forgot user erase-me" in forgot.out
    went_on = stopped.resume()
    assert "Traceback" not in went_on.err
    assert "erased" in went_on.err  # the window is told why its answer is gone
    assert env.redis.session_keys() == []  # nothing written back, no fresh TTL
    assert _runs(env, "erase-me") == []
    again = env.run("forget", "--user", "erase-me")
    assert again.code == 0 and "Nothing is stored for user erase-me" in again.out
    assert env.redis.session_keys() == []


def test_a_committed_turn_is_answered_when_redis_goes_away(env: Env) -> None:
    """Defect 2: the lease cannot be released, but the turn is committed: answer it."""
    stopped = env.stopped_chat("before_model", "--user", "no-redis").feed(SETUP)
    stopped.wait_stopped()
    env.redis.kill()
    went_on = stopped.resume()
    assert went_on.code == 0, went_on.err
    assert "Redis session store" not in went_on.err
    assert went_on.out.strip()  # the reply was printed
    (run,) = _runs(env, "no-redis")
    assert run.session_version == 1  # committed in Postgres
    with env.db.read() as repos:
        roles = [e.role for e in repos.transcript.for_run(run.id)]
    assert roles[0] == "user" and roles[-1] == "assistant"
    events = env.log_events()
    assert "lease_release_failed" in events and "session_save_failed" in events


def test_a_window_whose_run_was_abandoned_by_new_is_refused(env: Env) -> None:
    """Defect 3: ``--new`` elsewhere abandons the run; this window's turns are refused."""
    first = env.run("chat", "--user", "two-windows", stdin=SETUP + "\n")
    assert first.code == 0, first.err
    (old,) = _runs(env, "two-windows")
    window_a = env.stopped_chat("before_model", "--user", "two-windows").feed(PICK, CONFIRM)
    window_a.wait_stopped()
    window_b = env.run("chat", "--user", "two-windows", "--new", stdin=SETUP + "\n")
    assert window_b.code == 0, window_b.err
    went_on = window_a.resume()
    assert "Traceback" not in went_on.err
    assert went_on.err.count("abandoned") == 2, went_on.err  # both of its messages refused
    runs = {r.id: r for r in _runs(env, "two-windows")}
    assert str(runs[old.id].status) == "abandoned"
    assert runs[old.id].session_version == old.session_version  # nothing committed to it
    with env.db.read() as repos:
        said = [e.content for e in repos.transcript.for_run(old.id) if e.role == "user"]
        drafts = repos.orders.list_for("two-windows")
    assert CONFIRM not in said  # refused before it was accepted
    assert drafts == []


def test_a_failed_chat_with_redis_down_leaves_no_empty_run(env: Env) -> None:
    """Defect 8: with Redis unreachable, ``chat`` fails before creating a run."""
    done = env.run("chat", "--user", "finished", stdin=f"{SETUP}\n{PICK}\n{CONFIRM}\n")
    assert done.code == 0, done.err
    (finished,) = _runs(env, "finished")
    assert str(finished.status) == "done"
    env.redis.kill()
    failed = env.run("chat", "--user", "finished", stdin=ANOTHER + "\n")
    assert failed.code == 1
    assert "Redis session store" in failed.err and "Traceback" not in failed.err
    assert [r.id for r in _runs(env, "finished")] == [finished.id]
    env.redis.start()
    state = env.run("state", "--user", "finished", "--json")
    assert state.code == 0, state.err
    shown = json.loads(state.out)
    assert (shown["run_id"], shown["run_status"]) == (finished.id, "done")


def test_a_second_window_does_not_call_a_turn_in_flight_interrupted(env: Env) -> None:
    """Defect 8: another process mid-turn is not an interrupted message."""
    first = env.run("chat", "--user", "in-flight", stdin=SETUP + "\n")
    assert first.code == 0, first.err
    busy = env.stopped_chat("before_model", "--user", "in-flight", env=LONG_LEASE).feed(PICK)
    busy.wait_stopped()
    second = env.run("chat", "--user", "in-flight", stdin="")
    assert second.code == 0, second.err
    assert "Welcome back" in second.err  # the recap of the run it continues
    assert "interrupted" not in second.err
    assert busy.resume().code == 0
    # Once nobody answers it, an accepted message with no reply IS interrupted.
    short_lease = {"GIFTGENIUS_LEASE_TTL": "1"}
    crashed = env.stopped_chat("before_model", "--user", "in-flight", env=short_lease)
    crashed.feed(CONFIRM).wait_stopped()
    os.kill(crashed.proc.pid, signal.SIGKILL)
    crashed.proc.wait()
    time.sleep(1.5)  # the dead holder's lease lapses
    later = env.run("chat", "--user", "in-flight", stdin="")
    assert later.code == 0, later.err
    assert "Your last message" in later.err and "was interrupted" in later.err
    assert CONFIRM in later.err
