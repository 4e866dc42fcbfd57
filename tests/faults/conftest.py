"""Servers the fault suite starts, breaks and restarts itself, and chats it stops mid-turn.

The shared Redis and Postgres other tests use must never be killed, so a test that takes a
store away runs its own: a ``redis-server`` on a free port without persistence
(``OwnRedis``), or a Postgres cluster made by ``initdb`` under a temporary directory with
the installed server binaries (``OwnPostgres``). ``Stopped`` is a real chat process that
freezes itself at a named fault point (``GIFTGENIUS_FAULT_SIGNAL=STOP``, see
``giftgenius/faults.py``), so the test can act while a turn is in flight, then let it go on.

Every command here is a process of its own, forked from the session's preloaded server
(``command_server`` in tests/conftest.py) rather than a new interpreter: its own
environment, standard streams, exit code and signals, so a SIGSTOP or SIGKILL at a fault
point stops or kills that command alone.

Missing server binaries skip these tests, except in CI (``CI=true`` or
``GIFTGENIUS_REQUIRE_SERVICES=1``), where they fail like the conftest's services.
"""

from __future__ import annotations

import contextlib
import glob
import io
import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import redis
from hypothesis import HealthCheck, settings
from redis.backoff import NoBackoff
from redis.retry import Retry

from giftgenius.cli.main import main
from giftgenius.evaluate.forking import Forked, ForkServers
from giftgenius.llm.scripted import SCRIPTED_LABEL
from giftgenius.storage.db import Database

FUZZ_EXAMPLES = 2000
settings.register_profile(
    "fuzz",
    max_examples=FUZZ_EXAMPLES,
    deadline=None,
    derandomize=True,  # a fixed set of examples: the same every run, in CI as here
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
"""The fuzz tests' settings (``settings.get_profile("fuzz")``): a fixed count of examples."""

REQUIRE_SERVICES = (
    os.environ.get("CI", "").lower() == "true"
    or os.environ.get("GIFTGENIUS_REQUIRE_SERVICES") == "1"
)


def _missing(why: str) -> None:
    if REQUIRE_SERVICES:
        pytest.fail(why)  # like conftest's services: required in CI, never skipped
    pytest.skip(why)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _wait_for(check: object, what: str, timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while not check():  # type: ignore[operator]
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


class OwnRedis:
    """A ``redis-server`` of this test's own on a free port, without persistence."""

    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir
        self.port = free_port()
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
        _wait_for(self._answers, "own redis-server never answered")

    def _once(self) -> redis.Redis:
        """A client that asks once: redis-py retries a lost connection with backoff by
        default, about 4 s for each shutdown (whose connection always ends) or early ping."""
        return redis.Redis(port=self.port, socket_connect_timeout=0.5, retry=Retry(NoBackoff(), 0))

    def _answers(self) -> bool:
        try:
            return bool(self._once().ping())
        except redis.ConnectionError:
            return False

    def kill(self) -> None:
        """Shut the server down now, without saving: the store goes away mid-turn."""
        # shutdown closes the connection it came on (or the server was down already)
        with contextlib.suppress(redis.ConnectionError):
            self._once().shutdown(nosave=True)
        # the pidfile is removed by the server as it exits
        _wait_for(lambda: not self.pidfile.exists(), "own redis-server did not stop")

    def restart(self) -> None:
        """Down and up again on the same port: every key, lease included, is gone."""
        self.kill()
        self.start()

    def flush(self) -> None:
        """Every key gone while the server stays up (an operator's FLUSHALL, an eviction)."""
        self.client().flushall()

    def client(self) -> redis.Redis:
        return redis.Redis(port=self.port, socket_connect_timeout=1)

    def session_keys(self) -> list[bytes]:
        return list(self.client().scan_iter(match="*session*"))


def _server_bin() -> Path | None:
    """The installed Postgres server binaries (``initdb``, ``pg_ctl``), newest version first."""
    found = shutil.which("pg_ctl")
    if found:
        return Path(found).parent
    for candidate in sorted(
        glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"),
        key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0,
        reverse=True,
    ):
        return Path(candidate).parent
    return None


class OwnPostgres:
    """A Postgres cluster of this test's own: ``initdb`` on a free port in a temp directory.

    Run as the ``postgres`` OS user when the tests run as root (CI does, and initdb refuses
    root); the directory is then handed to that user, outside pytest's root-only temp tree.
    ``fsync`` is off (a throwaway cluster; a stopped server loses nothing without an OS
    crash) but commits stay synchronous, so an ``immediate`` stop never loses a committed turn.
    """

    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.root = Path(tempfile.mkdtemp(prefix="gg-faults-pg-"))
        self.data = self.root / "data"
        self.port = free_port()
        self.url = f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"
        self._as_user: list[str] = []
        if os.geteuid() == 0:
            shutil.chown(self.root, "postgres", "postgres")
            self._as_user = ["runuser", "-u", "postgres", "--"]

    @property
    def _pg_ctl(self) -> str:
        return str(self.bindir / "pg_ctl")

    def _run(self, *argv: str) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(
            [*self._as_user, *argv], capture_output=True, text=True, timeout=120, cwd=self.root
        )
        assert done.returncode == 0, f"{argv[0]} failed: {done.stdout}{done.stderr}"
        return done

    def init(self) -> None:
        self._run(
            str(self.bindir / "initdb"),
            "-D",
            str(self.data),
            "-U",
            "postgres",
            "--auth=trust",
            "--no-sync",
            "-E",
            "UTF8",
        )

    def start(self) -> None:
        options = (
            f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.root} "
            "-c fsync=off -c full_page_writes=off"
        )
        log = str(self.root / "server.log")
        self._run(self._pg_ctl, "-D", str(self.data), "-l", log, "-o", options, "-w", "start")

    def stop(self, mode: str) -> None:
        """``pg_ctl stop -m fast`` (sessions ended, clean) or ``immediate`` (a crash)."""
        self._run(self._pg_ctl, "-D", str(self.data), "-m", mode, "-w", "stop")

    def running(self) -> bool:
        done = subprocess.run(
            [*self._as_user, self._pg_ctl, "-D", str(self.data), "status"],
            capture_output=True,
        )
        return done.returncode == 0

    def ensure_running(self) -> None:
        if not self.running():
            self.start()

    def destroy(self) -> None:
        with contextlib.suppress(AssertionError):
            if self.running():
                self.stop("immediate")
        shutil.rmtree(self.root, ignore_errors=True)


@pytest.fixture(scope="session")
def own_postgres(command_server: ForkServers) -> Iterator[OwnPostgres]:
    """One cluster for the session's store-outage tests; each case may stop and start it.

    The application's schema is migrated into it once, by ``giftgenius db upgrade``.
    """
    bindir = _server_bin()
    if bindir is None:
        _missing("the Postgres server binaries (initdb, pg_ctl) are not installed")
    assert bindir is not None
    cluster = OwnPostgres(bindir)
    try:
        cluster.init()
        cluster.start()
        upgraded = command_server.run(
            ["db", "upgrade"],
            "",
            {**os.environ, "GIFTGENIUS_DATABASE_URL": cluster.url},
            os.getcwd(),
            120,
        )
        assert upgraded.returncode == 0, upgraded.stderr
        yield cluster
    finally:
        cluster.destroy()


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[OwnRedis]:
    """A ``redis-server`` of this test's own, started; killed at the end."""
    if shutil.which("redis-server") is None:
        _missing("redis-server is not installed; these tests start their own")
    own = OwnRedis(tmp_path)
    own.start()
    try:
        yield own
    finally:
        own.kill()


@dataclass
class Done:
    code: int
    out: str
    err: str


class Stopped:
    """A chat process that will stop itself at a fault point; fed its lines up front."""

    def __init__(self, proc: Forked) -> None:
        self.proc = proc

    def feed(self, *lines: str) -> Stopped:
        assert self.proc.stdin is not None
        self.proc.stdin.write("".join(line + "\n" for line in lines))
        self.proc.stdin.close()  # the chat reads its lines, then ends at EOF
        return self

    def stopped(self) -> bool:
        try:
            stat = Path(f"/proc/{self.proc.pid}/stat").read_text()
        except (FileNotFoundError, ProcessLookupError):  # it ended and was reaped, before or
            # while its stat was read (the fork server reaps at once)
            return False
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
        self.proc.send_signal(signal.SIGCONT)
        while self.proc.poll() is None:
            if self.stopped():
                self.proc.send_signal(signal.SIGCONT)
            if time.monotonic() > deadline:
                self.proc.kill()
                pytest.fail(f"the chat did not end: {self.proc.communicate()}")
            time.sleep(0.05)
        # stdin was closed by feed and the chat's output is small: the pipes hold it all.
        out, err = self.proc.communicate()
        assert self.proc.returncode is not None and out is not None and err is not None
        done = Done(self.proc.returncode, out, err)
        assert SCRIPTED_LABEL not in done.err, done.err  # the script went astray
        return done

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


SETUP = "Gift for my colleague, he loves board games and coffee, budget 50 dollars"


@dataclass
class Env:
    """The variables that point chat processes at this test's stores, and what it started.

    ``setup`` is the first line of every conversation here; the model script answers it
    with a whole profile (a colleague who loves board games and coffee, 50 USD), a search
    and the filters, so the run reaches ``finalizing`` in one turn.
    """

    vars: dict[str, str]
    redis: OwnRedis
    db: Database
    home: Path
    server: ForkServers
    started: list[Stopped] = field(default_factory=list)
    setup: str = SETUP

    def run(self, *argv: str, stdin: str = "", env: dict[str, str] | None = None) -> Done:
        done = self.server.run(
            list(argv), stdin, {**os.environ, **self.vars, **(env or {})}, os.getcwd(), 120
        )
        assert SCRIPTED_LABEL not in done.stderr, done.stderr  # the script went astray
        return Done(done.returncode, done.stdout, done.stderr)

    def stopped_chat(self, fault: str, *argv: str, env: dict[str, str] | None = None) -> Stopped:
        """A chat that stops itself (SIGSTOP) at ``fault`` in each of its turns."""
        proc = self.server.start(
            ["chat", *argv],
            {
                **os.environ,
                **self.vars,
                "GIFTGENIUS_FAULT": fault,
                "GIFTGENIUS_FAULT_SIGNAL": "STOP",
                **(env or {}),
            },
            os.getcwd(),
        )
        stopped = Stopped(proc)
        self.started.append(stopped)
        return stopped

    def chat_here(self, user: str, *lines: str) -> Done:
        """A whole piped ``chat`` in this process (cheaper than a new one when nothing stops)."""
        out, err = io.StringIO(), io.StringIO()
        stdin = io.StringIO("".join(line + "\n" for line in lines))
        code = main(["chat", "--user", user], stdin=stdin, stdout=out, stderr=err)
        assert SCRIPTED_LABEL not in err.getvalue(), err.getvalue()
        return Done(code, out.getvalue(), err.getvalue())

    def log_events(self) -> list[str]:
        found = []
        for path in (self.home / "logs").glob("giftgenius.log*"):
            for line in path.read_text(encoding="utf-8").splitlines():
                found.append(json.loads(line).get("event", ""))
        return found


@contextlib.contextmanager
def _env(
    database_url: str,
    own: OwnRedis,
    home: Path,
    monkeypatch: pytest.MonkeyPatch,
    script,
    server: ForkServers,
) -> Iterator[Env]:
    script.shortlist(
        SETUP,
        recipient="colleague",
        interests=["board games", "coffee"],
        budget_max=50,
        currency="USD",
    )
    variables = {
        "GIFTGENIUS_DATABASE_URL": database_url,
        "GIFTGENIUS_REDIS_URL": own.url,
        "GIFTGENIUS_HOME": str(home),
    }
    for name, value in variables.items():  # in-process chats and agents of the test too
        monkeypatch.setenv(name, value)
    db = Database(database_url)
    made = Env(variables, own, db, home, server)
    try:
        yield made
    finally:
        for stopped in made.started:  # a failed test leaves no stopped process behind
            stopped.kill()
        db.dispose()


@pytest.fixture
def env(
    migrated_postgres_url: str,
    own_redis: OwnRedis,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    script,
    command_server: ForkServers,
) -> Iterator[Env]:
    """The shared Postgres server (a database at the newest schema, every table empty) and a
    Redis of our own.

    ``giftgenius db upgrade`` on Postgres is tested in tests/cli; here the schema is
    migrated in-process, and only when it is not at head already (the tables are emptied).
    """
    home = tmp_path / "home"
    with _env(migrated_postgres_url, own_redis, home, monkeypatch, script, command_server) as made:
        yield made


@pytest.fixture
def pg_env(
    own_postgres: OwnPostgres,
    own_redis: OwnRedis,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    script,
    command_server: ForkServers,
) -> Iterator[tuple[Env, OwnPostgres]]:
    """A Postgres cluster and a Redis server of our own: both may be taken away mid-turn.

    The cluster is started again afterwards whatever the test did to it, and emptied of
    the test's rows by its user ids being unique (the cluster is the session's).
    """
    own_postgres.ensure_running()
    home = tmp_path / "home"
    with _env(own_postgres.url, own_redis, home, monkeypatch, script, command_server) as made:
        try:
            yield made, own_postgres
        finally:
            own_postgres.ensure_running()
