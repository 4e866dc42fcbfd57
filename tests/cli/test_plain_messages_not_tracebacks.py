"""Faults and bad values outside a chat end in one plain line, never a traceback.

Each case runs the command as a person would and checks the exit code, the line, and that
no traceback was printed: a numeric flag too large for the database, a config file that
is not TOML or not UTF-8, an id argument holding bytes that are not UTF-8 (a shell passes
``$'\\xff'`` as a surrogate-escaped str), a database file that is not a database.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from giftgenius.evaluate.forking import ForkServers


@pytest.fixture
def run(command_server: ForkServers) -> Callable[..., subprocess.CompletedProcess[str]]:
    """The command in a process of its own, forked from the session's preloaded server."""

    def started(*argv: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
        environ = {**os.environ, **(env or {})}
        return command_server.run(list(argv), stdin="", env=environ, cwd=os.getcwd(), timeout=120)

    return started


def _one_error_line(err: str) -> str:
    assert "Traceback" not in err, err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    return lines[0]


def test_prune_keep_last_too_large_is_a_usage_error(cli) -> None:
    ran = cli("prune", "--keep-last", "99999999999999999999")
    assert ran.code == 2
    line = _one_error_line(ran.err)
    assert "--keep-last" in line and "99999999999999999999" in line


@pytest.mark.slow
@pytest.mark.parametrize(
    ("content", "said"),
    [
        (b'model = "offline\n', "is not valid TOML"),
        (b'\xff\xfemodel = "offline"\n', "is not UTF-8 text"),
    ],
    ids=["bad-toml", "not-utf8"],
)
def test_a_broken_config_file_is_named_with_what_to_do(
    tmp_path: Path, content: bytes, said: str, run
) -> None:
    config = tmp_path / "giftgenius.toml"
    config.write_bytes(content)
    done = run("state", "--user", "alice", env={"GIFTGENIUS_CONFIG": str(config)})
    assert done.returncode == 1
    line = _one_error_line(done.stderr)
    assert str(config) in line and said in line
    assert "GIFTGENIUS_CONFIG" in line  # what to do: fix it or point elsewhere


def test_a_config_file_that_is_not_there_is_named(tmp_path: Path, run) -> None:
    missing = tmp_path / "nowhere.toml"
    done = run("state", "--user", "alice", env={"GIFTGENIUS_CONFIG": str(missing)})
    assert done.returncode == 1
    line = _one_error_line(done.stderr)
    assert str(missing) in line and "GIFTGENIUS_CONFIG" in line


@pytest.mark.parametrize(
    "argv",
    [
        ["catalog", "show", "g-\udcff"],
        ["resume", "--user", "alice", "--run", "\udcff"],
        ["checkpoints", "--user", "alice", "--run", "r\udcff"],
        ["state", "--user", "\udcff"],
    ],
    ids=["gift-id", "resume-run", "checkpoints-run", "user"],
)
def test_an_argument_with_bytes_that_are_not_utf8_is_refused(cli, argv: list[str]) -> None:
    ran = cli(*argv)
    assert ran.code == 2
    line = _one_error_line(ran.err)
    assert "not valid UTF-8" in line or "Invalid user id" in line


@pytest.mark.slow
def test_an_undecodable_id_from_a_real_shell_is_refused() -> None:
    """The bytes as a shell passes them: ``giftgenius catalog show $'g-\\xff'``."""
    done = subprocess.run(
        [sys.executable.encode(), b"-m", b"giftgenius", b"catalog", b"show", b"g-\xff"],
        capture_output=True,
        env={**os.environ},
        timeout=120,
    )
    assert done.returncode == 2
    line = _one_error_line(done.stderr.decode("utf-8", "replace"))
    assert "not valid UTF-8" in line


@pytest.mark.slow
def test_a_corrupt_database_file_says_so_and_what_to_do(home: Path, run) -> None:
    home.mkdir(parents=True, exist_ok=True)
    (home / "giftgenius.db").write_bytes(b"this is no database\n" * 2000)
    done = run("chat", "--user", "x")
    assert done.returncode == 1
    assert done.stderr.startswith("Using the offline model")  # chat's notice, then the line
    line = _one_error_line(done.stderr.split("\n", 1)[1])
    assert "giftgenius.db" in line and "corrupt" in line
    assert "move it aside" in line.lower() and "backup" in line
    assert "Cannot reach" not in line


def test_a_database_file_that_cannot_be_opened_is_not_called_a_server(cli, home: Path) -> None:
    """SQLite has no server: "check that the server is running" sends the person astray."""
    (home / "giftgenius.db").mkdir(parents=True)
    ran = cli("state", "--user", "alice")
    assert ran.code == 1
    line = _one_error_line(ran.err)
    assert "giftgenius.db" in line and "unable to open database file" in line
    assert "server" not in line
    assert "GIFTGENIUS_HOME" in line
