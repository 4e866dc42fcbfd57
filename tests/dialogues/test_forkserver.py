"""The fork server runs each command as ``python -m giftgenius`` would: the same output, exit
code, signals and isolation, in a process of its own."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from giftgenius.cli.forkserver import Children
from giftgenius.evaluate.forking import Forked, ForkServers
from giftgenius.evaluate.player import clean_env

LINES = "A present for my aunt who loves knitting, 40 euros, she lives in Lyon\n"


@pytest.fixture(scope="module")
def server_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("server-home")


@pytest.fixture(scope="module")
def servers(server_home: Path) -> Iterator[ForkServers]:
    """One server for the module's commands, as the evaluator keeps one: starting one imports
    the whole application (about 3 s of CPU), once rather than per test."""
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


@pytest.mark.slow
def test_a_chat_prints_what_a_new_interpreter_prints(servers: ForkServers, tmp_path) -> None:
    env, cwd = _home(tmp_path, "forked")
    forked = servers.run(["chat", "--user", "ana"], LINES, env, cwd, 120)
    env2, cwd2 = _home(tmp_path, "fresh")
    fresh = _fresh(["chat", "--user", "ana"], LINES, env2, cwd2)
    assert forked.returncode == fresh.returncode == 0
    assert forked.stdout == fresh.stdout
    assert "knitting" in forked.stdout.lower() or "tricot" in forked.stdout.lower()


@pytest.mark.slow
def test_exit_codes_and_errors_come_through(servers: ForkServers, tmp_path) -> None:
    env, cwd = _home(tmp_path, "empty")
    nothing = servers.run(["resume", "--user", "nobody"], "", env, cwd, 120)
    assert nothing.returncode == _fresh(["resume", "--user", "nobody"], "", env, cwd).returncode
    assert nothing.returncode == 3
    bad = servers.run(["state", "--user", "not a valid id!"], "", env, cwd, 120)
    assert bad.returncode != 0 and bad.stderr.strip()


@pytest.mark.slow
def test_each_command_has_its_own_home_and_nothing_carries_over(
    servers, server_home, tmp_path
) -> None:
    env_a, cwd_a = _home(tmp_path, "a")
    env_b, cwd_b = _home(tmp_path, "b")
    assert servers.run(["chat", "--user", "ana"], LINES, env_a, cwd_a, 120).returncode == 0
    assert servers.run(["resume", "--user", "ana"], "", env_b, cwd_b, 120).returncode == 3
    assert (Path(cwd_a) / "giftgenius.db").exists()
    assert not (server_home / "giftgenius.db").exists()


@pytest.mark.slow
def test_a_command_out_of_time_is_killed_and_the_server_goes_on(servers, tmp_path) -> None:
    env, cwd = _home(tmp_path, "slow")
    with pytest.raises(subprocess.TimeoutExpired):
        servers.run(["chat", "--user", "ana"], LINES, env, cwd, 0.01)
    assert servers.run(["--version"], "", env, cwd, 120).returncode == 0


STOP_BEFORE_MODEL = {"GIFTGENIUS_FAULT": "before_model", "GIFTGENIUS_FAULT_SIGNAL": "STOP"}


def _state(pid: int) -> str:
    """The process's state letter in ``/proc`` (``T``: stopped); empty once it is gone (its
    parent, the server, reaps it as soon as it ends)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return ""


def _wait_stopped(forked: Forked, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while _state(forked.pid) != "T":
        assert forked.poll() is None, forked.communicate()
        assert time.monotonic() < deadline, "the chat never reached its fault point"
        time.sleep(0.05)


@pytest.mark.slow
def test_a_started_command_is_stopped_and_killed_alone(servers, tmp_path) -> None:
    """A SIGSTOP at a fault point freezes that command, and nothing else: the server forks
    others meanwhile; the command holds none of the server's descriptors; SIGKILL ends it
    with the exit code ``subprocess`` reports for it."""
    env, cwd = _home(tmp_path, "stopped")
    chat = servers.start(["chat", "--user", "ana"], {**env, **STOP_BEFORE_MODEL}, cwd)
    chat.stdin.write(LINES)
    chat.stdin.close()
    _wait_stopped(chat)
    fds = Path(f"/proc/{chat.pid}/fd")
    shared = [fd.name for fd in fds.iterdir() if os.readlink(fd).startswith(("pipe:", "socket:"))]
    assert sorted(shared) == ["0", "1", "2"]  # its own standard streams, nothing else
    other_env, other_cwd = _home(tmp_path, "other")
    assert servers.run(["resume", "--user", "ana"], "", other_env, other_cwd, 120).returncode == 3
    assert _state(chat.pid) == "T" and chat.poll() is None
    chat.kill()
    assert chat.wait(60) == -signal.SIGKILL
    chat.kill()  # ended: no signal goes anywhere


@pytest.mark.slow
def test_a_stopped_command_goes_on_when_continued(servers, tmp_path) -> None:
    env, cwd = _home(tmp_path, "continued")
    chat = servers.start(["chat", "--user", "ana"], {**env, **STOP_BEFORE_MODEL}, cwd)
    chat.stdin.write(LINES)
    chat.stdin.close()
    _wait_stopped(chat)
    chat.send_signal(signal.SIGCONT)
    out, err = chat.communicate(timeout=120)
    assert chat.returncode == 0, err
    assert "knitting" in (out or "").lower() or "tricot" in (out or "").lower()


@pytest.mark.slow
def test_a_fault_that_kills_ends_that_command_with_the_signal(servers, tmp_path) -> None:
    env, cwd = _home(tmp_path, "killed")
    faulty = {**env, "GIFTGENIUS_FAULT": "before_model"}
    killed = servers.run(["chat", "--user", "ana"], LINES, faulty, cwd, 120)
    assert killed.returncode == -signal.SIGKILL
    assert servers.run(["--version"], "", env, cwd, 120).returncode == 0


@pytest.mark.slow
def test_a_server_whose_client_left_kills_the_commands_it_started() -> None:
    """What the server does once its socket closes, on a child of this process."""
    child = os.posix_spawnp("sleep", ["sleep", "60"], os.environ)
    read, write = os.pipe()
    children = Children()
    children.add(child, write)
    children.kill_all()
    with os.fdopen(read, "rb") as status:
        assert status.read() == f"{-signal.SIGKILL}\n".encode()
    assert children.status == {} and children.pidfds == {}
