from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass

import pytest

from giftgenius.evaluate.forking import ForkServers
from giftgenius.llm.scripted import SCRIPTED_LABEL
from giftgenius.storage.db import Database


@dataclass
class Proc:
    code: int
    out: str
    err: str


Runner = Callable[..., Proc]


@pytest.fixture
def prod_env(
    seeded_postgres_url: str, redis_url: str, redis_prefix: str, monkeypatch: pytest.MonkeyPatch
) -> dict[str, str]:
    """Production backends: this test's own Postgres database and Redis key prefix.

    The database is migrated and seeded in-process (``db upgrade`` on Postgres is tested in
    tests/persistence; running it per test cost a process start).
    """
    env = {
        "GIFTGENIUS_DATABASE_URL": seeded_postgres_url,
        "GIFTGENIUS_REDIS_URL": redis_url,
        "GIFTGENIUS_REDIS_PREFIX": redis_prefix,
    }
    for name, value in env.items():  # in-process agents of the test see them too
        monkeypatch.setenv(name, value)
    return env


def run_cli(
    server: ForkServers, env: dict[str, str], *argv: str, stdin: str = "", timeout: float = 120
) -> Proc:
    """``python -m giftgenius`` in a process of its own, forked from the session's server."""
    done = server.run(
        list(argv), stdin=stdin, env={**os.environ, **env}, cwd=os.getcwd(), timeout=timeout
    )
    assert SCRIPTED_LABEL not in done.stderr, done.stderr  # the script went astray
    return Proc(done.returncode, done.stdout, done.stderr)


@pytest.fixture
def cli_in(prod_env: dict[str, str], command_server: ForkServers) -> Runner:
    def run(*argv: str, stdin: str = "", env: dict[str, str] | None = None) -> Proc:
        return run_cli(command_server, {**prod_env, **(env or {})}, *argv, stdin=stdin)

    return run


@pytest.fixture
def database(prod_env: dict[str, str]):
    db = Database(prod_env["GIFTGENIUS_DATABASE_URL"])
    yield db
    db.dispose()
