"""An interrupted ``bench load`` ends everything within seconds and leaves nothing behind.

The command runs as a user runs it, in a process group of its own; Ctrl-C is SIGINT to the
whole group (what a terminal sends), ``kill PID`` is SIGTERM to the command alone. Either
way the command and every worker process are gone within a few seconds, without a
traceback, and the scratch stores (the temporary folder, the scratch Postgres database,
the Redis keys) are removed.
"""

from __future__ import annotations

import contextlib
import multiprocessing as mp
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
import redis
import sqlalchemy as sa

from giftgenius.bench.catalogs import ensure_synthetic
from giftgenius.bench.players import Stores, bench_agent
from giftgenius.bench.procs import Job, run_rounds
from giftgenius.bench.scratch import scratch_stores

REDIS_URL = os.environ.get("GIFTGENIUS_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
POSTGRES_ADMIN_URL = os.environ.get(
    "GIFTGENIUS_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
)
ENDS_WITHIN = 5.0  # seconds from the signal to the last process gone
LOAD = ["bench", "load", "--sessions", "4", "--processes", "2", "--turns", "100000",
        "--catalog", "40"]  # fmt: skip


def group(pgid: int) -> list[int]:
    """The live processes of process group ``pgid`` (zombies do not count)."""
    members = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rpartition(")")[2].split()
        except OSError:
            continue
        if fields[0] != "Z" and int(fields[2]) == pgid:
            members.append(int(entry.name))
    return members


def interrupt_load(env: dict[str, str], *, whole_group: bool) -> tuple[subprocess.Popen, float]:
    """Start ``bench load`` until its workers play, signal it; (process, seconds to end)."""
    command = [sys.executable, "-c", "from giftgenius.cli.main import entrypoint; entrypoint()"]
    proc = subprocess.Popen(
        [*command, *LOAD],
        env={**os.environ, **env},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 60
        while len(group(proc.pid)) < 3 and time.monotonic() < deadline:  # two workers up
            assert proc.poll() is None, proc.communicate()
            time.sleep(0.1)
        time.sleep(4)  # imported, connected, playing
        assert proc.poll() is None, proc.communicate()
        signalled = time.monotonic()
        if whole_group:
            os.killpg(proc.pid, signal.SIGINT)
        else:
            os.kill(proc.pid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=ENDS_WITHIN)
        while group(proc.pid) and time.monotonic() - signalled < ENDS_WITHIN:
            time.sleep(0.05)
        return proc, time.monotonic() - signalled
    finally:
        left = group(proc.pid)
        for pid in left:  # never leave a worker running, whatever the outcome
            os.kill(pid, signal.SIGKILL)
        if proc.poll() is None:
            proc.kill()
        proc.wait()


def check_ended(proc: subprocess.Popen, seconds: float, scratch: Path) -> None:
    _out, err = proc.communicate()
    assert seconds < ENDS_WITHIN, f"still running {seconds:.1f} s after the signal: {err}"
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "Interrupted" in err
    assert list(scratch.iterdir()) == []  # the scratch folder and its database files


@pytest.mark.slow
@pytest.mark.parametrize("whole_group", [True, False], ids=["ctrl-c", "sigterm"])
def test_an_interrupted_load_on_sqlite_ends_at_once_and_cleans_up(
    whole_group: bool, tmp_path: Path
) -> None:
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    proc, seconds = interrupt_load({"TMPDIR": str(scratch)}, whole_group=whole_group)
    check_ended(proc, seconds, scratch)
    home = Path(os.environ["GIFTGENIUS_HOME"])
    assert not (home / "giftgenius.db").exists()
    for kept in (home / "bench").glob("*"):  # the catalog cache: catalogs, never a user
        assert kept.name.startswith("synthetic-40-0-") and kept.suffix == ".db"
        with sqlite3.connect(kept) as conn:
            assert conn.execute("SELECT count(*) FROM users").fetchone() == (0,)


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.parametrize("whole_group", [True, False], ids=["ctrl-c", "sigterm"])
def test_an_interrupted_load_on_postgres_and_redis_ends_at_once_and_cleans_up(
    whole_group: bool,
    tmp_path: Path,
    migrated_postgres_url: str,
    redis_url: str,
    redis_prefix: str,
) -> None:
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    env = {
        "TMPDIR": str(scratch),
        "GIFTGENIUS_DATABASE_URL": migrated_postgres_url,
        "GIFTGENIUS_REDIS_URL": redis_url,
        "GIFTGENIUS_REDIS_PREFIX": redis_prefix,
    }
    proc, seconds = interrupt_load(env, whole_group=whole_group)
    check_ended(proc, seconds, scratch)
    client = redis.Redis.from_url(REDIS_URL)
    try:
        assert list(client.scan_iter(match=f"{redis_prefix}*", count=500)) == []
    finally:
        client.close()
    engine = sa.create_engine(POSTGRES_ADMIN_URL)
    try:
        with engine.connect() as conn:
            names = conn.execute(sa.text("SELECT datname FROM pg_database")).scalars().all()
            users = sa.create_engine(migrated_postgres_url)
            with users.connect() as configured:
                assert configured.execute(sa.text("SELECT count(*) FROM users")).scalar() == 0
            users.dispose()
    finally:
        engine.dispose()
    assert [n for n in names if n.startswith(f"giftgenius_bench_{proc.pid}_")] == []


@pytest.mark.slow
def test_an_interrupted_round_of_bench_turn_stops_its_workers(stores: Stores) -> None:
    """``bench turn``'s processes part: Ctrl-C in the command while its workers play."""
    with scratch_stores(stores) as scratch:
        small = scratch.for_catalog(40, 0)
        agent = bench_agent(small.settings())
        ensure_synthetic(agent.db, 40)
        agent.close()
        jobs = [Job(small.overrides, f"round-{i}", (0,)) for i in range(2)]
        interrupted: list[float] = []

        def on_turn() -> None:
            if len(interrupted) < 1:
                interrupted.append(time.monotonic())
                raise KeyboardInterrupt

        with pytest.raises(KeyboardInterrupt):
            run_rounds(jobs, [2], seconds=120, on_turn=on_turn)
        seconds = time.monotonic() - interrupted[0]
        left = mp.active_children()
        for child in left:
            child.kill()
    assert seconds < ENDS_WITHIN and left == []
