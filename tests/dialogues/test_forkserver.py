"""The evaluator's fork server runs each command as ``python -m giftgenius`` would: the same
output, exit code and isolation, in a process of its own."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from giftgenius.evaluate.forking import ForkServers
from giftgenius.evaluate.player import clean_env

LINES = "A present for my aunt who loves knitting, 40 euros, she lives in Lyon\n"


@pytest.fixture(scope="module")
def server_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("server-home")


@pytest.fixture(scope="module")
def servers(server_home: Path) -> Iterator[ForkServers]:
    """One server for the module's commands, as the evaluator keeps one per job: starting one
    imports the whole application (about 3 s of CPU), once rather than per test."""
    started = ForkServers(clean_env(str(server_home)))
    yield started
    started.close()


def _fresh(args: list[str], stdin: str, env: dict[str, str], cwd: str):
    return subprocess.run(
        [sys.executable, "-m", "giftgenius", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        timeout=120,
        check=False,
    )


def _home(tmp_path: Path, name: str) -> tuple[dict[str, str], str]:
    home = tmp_path / name
    home.mkdir()
    return clean_env(str(home)), str(home)


def test_a_chat_prints_what_a_new_interpreter_prints(servers: ForkServers, tmp_path) -> None:
    env, cwd = _home(tmp_path, "forked")
    forked = servers.run(["chat", "--user", "ana"], LINES, env, cwd, 120)
    env2, cwd2 = _home(tmp_path, "fresh")
    fresh = _fresh(["chat", "--user", "ana"], LINES, env2, cwd2)
    assert forked.returncode == fresh.returncode == 0
    assert forked.stdout == fresh.stdout
    assert "knitting" in forked.stdout.lower() or "tricot" in forked.stdout.lower()


def test_exit_codes_and_errors_come_through(servers: ForkServers, tmp_path) -> None:
    env, cwd = _home(tmp_path, "empty")
    nothing = servers.run(["resume", "--user", "nobody"], "", env, cwd, 120)
    assert nothing.returncode == _fresh(["resume", "--user", "nobody"], "", env, cwd).returncode
    assert nothing.returncode == 3
    bad = servers.run(["state", "--user", "not a valid id!"], "", env, cwd, 120)
    assert bad.returncode != 0 and bad.stderr.strip()


def test_each_command_has_its_own_home_and_nothing_carries_over(
    servers, server_home, tmp_path
) -> None:
    env_a, cwd_a = _home(tmp_path, "a")
    env_b, cwd_b = _home(tmp_path, "b")
    assert servers.run(["chat", "--user", "ana"], LINES, env_a, cwd_a, 120).returncode == 0
    assert servers.run(["resume", "--user", "ana"], "", env_b, cwd_b, 120).returncode == 3
    assert (Path(cwd_a) / "giftgenius.db").exists()
    assert not (server_home / "giftgenius.db").exists()


def test_a_command_out_of_time_is_killed_and_the_server_goes_on(servers, tmp_path) -> None:
    env, cwd = _home(tmp_path, "slow")
    with pytest.raises(subprocess.TimeoutExpired):
        servers.run(["chat", "--user", "ana"], LINES, env, cwd, 0.01)
    assert servers.run(["--version"], "", env, cwd, 120).returncode == 0
