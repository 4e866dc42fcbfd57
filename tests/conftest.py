"""Shared fixtures: no network, real services when present, isolated homes.

Under ``CI=true`` (or ``GIFTGENIUS_REQUIRE_SERVICES=1``) a missing Redis or Postgres fails
the run; otherwise the tests that need one skip with the reason.
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import json
import os
import socket
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit, urlunsplit

import pytest
import redis
import sqlalchemy as sa

if TYPE_CHECKING:
    from giftgenius.evaluate.forking import ForkServers

REDIS_URL = os.environ.get("GIFTGENIUS_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
POSTGRES_ADMIN_URL = os.environ.get(
    "GIFTGENIUS_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
)
REQUIRE_SERVICES = (
    os.environ.get("CI", "").lower() == "true"
    or os.environ.get("GIFTGENIUS_REQUIRE_SERVICES") == "1"
)
KEEP_ENV = ("GIFTGENIUS_TEST_", "GIFTGENIUS_REQUIRE_SERVICES")
# The day every test's agent reads dates from (a Tuesday); the real day never counts.
TODAY = dt.date(2026, 12, 1)

WIPE_DBS = range(8, 16)  # FLUSHDB runs on one of these, never on the db other tests share

_real_connect = socket.socket.connect


def _guarded_connect(self: socket.socket, address: object) -> object:
    if self.family in (socket.AF_INET, socket.AF_INET6) and isinstance(address, tuple):
        host = address[0]
        try:
            loopback = ipaddress.ip_address(host).is_loopback
        except ValueError:
            loopback = host == "localhost"
        if not loopback:
            raise RuntimeError(f"Network access blocked in tests: tried to connect to {address!r}")
    return _real_connect(self, address)


# The slow lane's longest tests, longest first. Under xdist's ``worksteal`` (pyproject's
# addopts) each of the two workers starts on its half of the collection, and one that runs
# out takes the tail of the other's queue, never the test under way nor the next one. So the
# corpus, which plays its dialogues on both cores itself, opens the first half and the others
# open the second: each starts at once, and the end of the lane is short tests on both.
LONGEST_FIRST = (
    "tests/dialogues/test_eval.py::test_corpus_passes_but_for_its_known_failures",
    "tests/faults/test_fuzz_tool_calls.py::test_tool_dispatch_survives_any_payload",
    "tests/faults/test_fuzz_tool_calls.py::test_run_cycle_survives_any_model",
    "tests/faults/test_fuzz_user_lines.py::test_any_line_is_answered_or_refused_plainly",
    "tests/agent/test_long_conversation.py::test_300_turns_stay_inside_the_budget_and_remember_the_early_dislike",
)


@pytest.hookimpl(trylast=True)  # after ``-m`` has deselected: the halves of what runs
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The longest tests first in each half (see ``LONGEST_FIRST``); the rest keep their order."""
    rank = {nodeid: place for place, nodeid in enumerate(LONGEST_FIRST)}
    longest = sorted((i for i in items if i.nodeid in rank), key=lambda i: rank[i.nodeid])
    if not longest:
        return
    rest = [item for item in items if item.nodeid not in rank]
    cut = max(len(items) // 2 - 1, 0)
    items[:] = [*longest[:1], *rest[:cut], *longest[1:], *rest[cut:]]


FAST_LANE_SECONDS = 1.0  # a test slower than this belongs in the slow lane
_too_slow: list[tuple[float, str]] = []
_started: set[str] = set()  # the processes (xdist workers) that ran a test already


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Note a test of the fast lane (not marked ``slow``) that ran over FAST_LANE_SECONDS;
    not a process's first test, which pays for loading the lexicons and the catalog."""
    if report.when != "call":
        return
    worker = str(getattr(getattr(report, "node", None), "gateway", None) or "main")
    first = worker not in _started
    _started.add(worker)
    if not first and "slow" not in report.keywords and report.duration > FAST_LANE_SECONDS:
        _too_slow.append((report.duration, report.nodeid))


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Name them at the end, so the everyday lane stays under a minute (never a failure:
    a busy machine is slow, not wrong)."""
    if _too_slow:
        terminalreporter.section("fast-lane tests over 1 s: mark them @pytest.mark.slow")
        for seconds, nodeid in sorted(_too_slow, reverse=True):
            terminalreporter.write_line(f"{seconds:5.1f} s  {nodeid}")


@pytest.fixture(autouse=True, scope="session")
def _no_network() -> Iterator[None]:
    socket.socket.connect = _guarded_connect  # type: ignore[method-assign]
    yield
    socket.socket.connect = _real_connect  # type: ignore[method-assign]


@pytest.fixture(autouse=True)
def _isolated_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test gets its own GIFTGENIUS_HOME and no stray configuration."""
    for name in list(os.environ):
        if name.startswith("GIFTGENIUS_") and not name.startswith(KEEP_ENV):
            monkeypatch.delenv(name)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    monkeypatch.setenv("GIFTGENIUS_HOME", str(tmp_path / "home"))
    # The agent reads "by Friday" from a stated day, so a test means the same on any day.
    monkeypatch.setenv("GIFTGENIUS_TODAY", TODAY.isoformat())
    # The commands speak the locale's language (cli/speech.py): English unless a test says.
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")


@pytest.fixture(scope="session")
def seeded_db_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A migrated, seeded SQLite file built once; each test copies it."""
    from giftgenius.storage.db import Database

    path = tmp_path_factory.mktemp("seed") / "seed.db"
    db = Database(f"sqlite:///{path}")
    db.ensure_catalog()
    db.dispose()
    return path


@pytest.fixture
def seeded_home(seeded_db_file: Path) -> Path:
    """GIFTGENIUS_HOME holding a copy of the seeded database, as after a first run.

    Creating, migrating and seeding a database is tested on its own (tests/persistence, and
    by the CLI tests, which start from an empty home); the rest need not pay for it in
    every test.
    """
    home = Path(os.environ["GIFTGENIUS_HOME"])
    home.mkdir(parents=True, exist_ok=True)
    (home / "giftgenius.db").write_bytes(seeded_db_file.read_bytes())
    return home


@pytest.fixture(scope="session")
def command_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ForkServers]:
    """Commands run as ``python -m giftgenius`` would, forked from one preloaded server.

    A command started from nothing spends about half of its CPU importing the application
    and building the tables every ``chat`` reads; the evaluator's fork server
    (``giftgenius/cli/forkserver.py``, checked against fresh interpreters by
    tests/dialogues/test_forkserver.py) pays that once per worker. Each command is still a
    process of its own, with its own environment, standard streams, exit code and signals
    (a SIGKILL or SIGSTOP at a fault point kills or stops that process alone), and nothing
    of it survives into the next: the server never reads a setting or opens a store.
    ``run`` stands in for ``subprocess.run``, ``start`` for ``subprocess.Popen`` (a
    ``Forked``: pid, pipes, signals, ``wait``). Tests about a fresh interpreter itself (what
    a command imports, a terminal) start one.
    """
    from giftgenius.evaluate.forking import ForkServers
    from giftgenius.evaluate.player import clean_env

    server = ForkServers(clean_env(str(tmp_path_factory.mktemp("command-server"))))
    yield server
    server.close()


def _unavailable(what: str, why: object) -> None:
    message = f"{what} is not reachable ({why})"
    if REQUIRE_SERVICES:
        pytest.fail(f"{message}; start it, or unset CI to skip these tests")
    pytest.skip(f"{message}; start it to run these tests")


@pytest.fixture(scope="session")
def redis_url() -> str:
    import redis

    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1).ping()
    except redis.RedisError as exc:
        _unavailable("Redis at " + REDIS_URL, exc)
    return REDIS_URL


@pytest.fixture
def redis_prefix(request: pytest.FixtureRequest) -> Iterator[str]:
    """A key prefix of this test's own; its keys are removed afterwards."""
    _require_marker(request, "redis")
    prefix = f"ggtest-{uuid.uuid4().hex[:10]}"
    yield prefix
    try:
        client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1)
        keys = list(client.scan_iter(match=f"{prefix}*", count=500))
        if keys:
            client.delete(*keys)
    except redis.RedisError:
        pass


@pytest.fixture
def wipe_db(redis_url: str, request: pytest.FixtureRequest) -> Iterator[redis.Redis]:
    """A client on a spare, empty db claimed by a lock key, so FLUSHDB hurts no other test."""
    _require_marker(request, "redis")
    shared = redis.Redis.from_url(redis_url)
    for db in WIPE_DBS:
        lock = f"ggtest-wipe-db-lock:{db}"
        if not shared.set(lock, uuid.uuid4().hex, nx=True, px=60_000):
            continue
        # from_url ignores db= when the URL names a db, so the path itself is rewritten.
        client = redis.Redis.from_url(urlunsplit(urlsplit(redis_url)._replace(path=f"/{db}")))
        assert client.connection_pool.connection_kwargs["db"] == db
        if client.dbsize() == 0:
            try:
                yield client
            finally:
                client.flushdb()
                client.close()
                shared.delete(lock)
                shared.close()
            return
        client.close()
        shared.delete(lock)
    shared.close()
    pytest.skip(f"no empty Redis db among {list(WIPE_DBS)} to flush safely")


def _require_marker(request: pytest.FixtureRequest, marker: str) -> None:
    """A test that uses a service carries its marker, so ``-m "not <service>"`` leaves it out."""
    if request.node.get_closest_marker(marker) is None:
        pytest.fail(
            f"{request.node.nodeid} uses {marker} but is not marked: add "
            f"@pytest.mark.{marker} (or pytestmark) to it"
        )


def _admin_engine() -> sa.Engine:
    return sa.create_engine(
        POSTGRES_ADMIN_URL, isolation_level="AUTOCOMMIT", connect_args={"connect_timeout": 2}
    )


def _create_database(name: str) -> str:
    """CREATE DATABASE; returns its URL."""
    try:
        admin = _admin_engine()
        with admin.connect() as conn:
            conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
        admin.dispose()
    except sa.exc.OperationalError as exc:
        _unavailable("PostgreSQL at " + POSTGRES_ADMIN_URL, exc.orig)
    return POSTGRES_ADMIN_URL.rsplit("/", 1)[0] + "/" + name


def _drop_database(name: str) -> None:
    admin = _admin_engine()
    with admin.connect() as conn:
        conn.execute(
            sa.text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = :n"),
            {"n": name},
        )
        conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}"'))
    admin.dispose()


@pytest.fixture(scope="session")
def _postgres_database() -> Iterator[str]:
    """This session's own Postgres database, created once (CREATE DATABASE costs a checkpoint)."""
    name = f"gg_test_{uuid.uuid4().hex[:12]}"
    url = _create_database(name)
    yield url
    _drop_database(name)


@pytest.fixture
def postgres_url(request: pytest.FixtureRequest, _postgres_database: str) -> str:
    """An empty Postgres database for this test: the session's own, its schema emptied first.

    To the application an empty ``public`` schema is an empty database (it creates nothing
    elsewhere), and dropping a schema is far cheaper than dropping a database.
    """
    _require_marker(request, "postgres")
    _close_other_connections(_postgres_database)
    engine = sa.create_engine(_postgres_database, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            conn.execute(sa.text("DROP SCHEMA public CASCADE"))
            conn.execute(sa.text("CREATE SCHEMA public"))
    finally:
        engine.dispose()
    return _postgres_database


@pytest.fixture
def migrated_postgres_url(request: pytest.FixtureRequest, _postgres_database: str) -> str:
    """The session's Postgres database at the newest schema with every table emptied.

    Migrating costs far more than emptying, so the schema is migrated only when it is not
    at head already (a test of ``postgres_url`` may have dropped it).
    """
    from giftgenius.storage import migrate

    _require_marker(request, "postgres")
    _close_other_connections(_postgres_database)
    engine = sa.create_engine(_postgres_database, isolation_level="AUTOCOMMIT")
    try:
        if migrate.current(engine) == migrate.head():
            tables = set(sa.inspect(engine).get_table_names()) - {"alembic_version"}
            quoted = ", ".join(f'"{table}"' for table in sorted(tables))
            with engine.connect() as conn:
                conn.execute(sa.text(f"TRUNCATE {quoted} RESTART IDENTITY CASCADE"))
        else:
            with engine.connect() as conn:
                conn.execute(sa.text("DROP SCHEMA public CASCADE"))
                conn.execute(sa.text("CREATE SCHEMA public"))
            migrate.upgrade(engine)
    finally:
        engine.dispose()
    return _postgres_database


def _close_other_connections(url: str) -> None:
    """End every other session on the database, so a previous test's idle pool holds no lock."""
    admin = _admin_engine()
    try:
        with admin.connect() as conn:
            conn.execute(
                sa.text(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE datname = :n AND pid <> pg_backend_pid()"
                ),
                {"n": url.rsplit("/", 1)[1]},
            )
    finally:
        admin.dispose()


@pytest.fixture
def seeded_postgres_url(migrated_postgres_url: str) -> str:
    """The session's Postgres database at the newest schema, emptied, the catalog seeded."""
    from giftgenius.storage.db import Database

    database = Database(migrated_postgres_url)
    database.ensure_catalog()
    database.dispose()
    return migrated_postgres_url


class ScriptFile:
    """This test's model script (see ``giftgenius/llm/scripted.py``), rewritten on every change.

    ``GIFTGENIUS_MODEL`` names it, so in-process agents and CLI subprocesses alike play it;
    a subprocess reads the file when it starts. Keys are the user's text as the model sees
    it: trimmed, PII already replaced by placeholders.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.data: dict[str, Any] = {"turns": []}
        self._write()

    @property
    def env(self) -> dict[str, str]:
        return {"GIFTGENIUS_MODEL": f"scripted:{self.path}"}

    @staticmethod
    def call(name: str, **arguments: Any) -> dict[str, Any]:
        return {"tool_calls": [{"name": name, "arguments": arguments}]}

    @staticmethod
    def reply(text: str) -> dict[str, Any]:
        return {"reply": text}

    def turn(self, user: str, *steps: dict[str, Any]) -> ScriptFile:
        self.data["turns"].append({"user": user, "steps": list(steps)})
        self._write()
        return self

    def says(self, user: str, text: str) -> ScriptFile:
        return self.turn(user, self.reply(text))

    def profile(self, user: str, reply: str | None = None, **facts: Any) -> ScriptFile:
        """The model records ``facts`` (``update_profile`` arguments), then answers
        ``reply`` — only when the update settles nothing the agent presents itself (a
        shortlist, or the next question while the profile is incomplete)."""
        steps = [self.call("update_profile", **facts)]
        return self.turn(user, *steps, *([self.reply(reply)] if reply is not None else []))

    def shortlist(self, user: str, **facts: Any) -> ScriptFile:
        """Record a complete profile (``update_profile`` searches and filters by itself):
        the run reaches ``finalizing`` and the agent presents the shortlist, no reply
        asked of the model."""
        return self.turn(user, self.call("update_profile", **facts))

    def pick(self, user: str, index: int = 0) -> ScriptFile:
        """Select the shortlist's ``index``-th gift; the agent asks to confirm it."""
        gift = {"$state": f"/candidate_ids/{index}"}
        return self.turn(user, self.call("select_gift", gift_id=gift))

    def confirm(self, user: str) -> ScriptFile:
        """Confirm the selected gift; the agent says the order draft is recorded."""
        return self.turn(user, self.call("confirm_choice"))

    def summary(self, text: str) -> ScriptFile:
        self.data["summary"] = text
        self._write()
        return self

    def _write(self) -> None:
        self.path.write_text(json.dumps(self.data, ensure_ascii=False, indent=1))


@pytest.fixture
def script(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ScriptFile:
    """An empty model script this test fills in; GIFTGENIUS_MODEL points at it."""
    scripted = ScriptFile(tmp_path / "model-script.json")
    for name, value in scripted.env.items():
        monkeypatch.setenv(name, value)
    return scripted
