"""An interrupted evaluation ends cleanly: Ctrl-C prints no fork-server traceback, and what
an evaluation killed outright leaves in the temporary folder is swept by the next one."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from giftgenius.evaluate.runner import SCRATCH_PREFIX, sweep_scratch

CORPUS = Path(__file__).parents[1] / "dialogues"


def _eval(tmp: Path, *args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "TMPDIR": str(tmp)}
    env.pop("GIFTGENIUS_HOME", None)
    return subprocess.Popen(
        [sys.executable, "-m", "giftgenius", "eval", str(CORPUS), "--replays", "0", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        start_new_session=True,  # its own process group, as a terminal's foreground job
    )


def _started(tmp: Path, proc: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 60
    while not list(tmp.glob(f"{SCRATCH_PREFIX}{proc.pid}-*/run-*")):
        assert time.monotonic() < deadline and proc.poll() is None, "the runs never started"
        time.sleep(0.2)


@pytest.mark.slow
def test_ctrl_c_stops_the_evaluation_without_tracebacks_or_leftovers(tmp_path: Path) -> None:
    proc = _eval(tmp_path, "--jobs", "2")
    _started(tmp_path, proc)
    os.killpg(proc.pid, signal.SIGINT)  # what a terminal's Ctrl-C does
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    assert list(tmp_path.glob(f"{SCRATCH_PREFIX}*")) == []


@pytest.mark.slow
def test_a_killed_evaluation_s_folder_is_swept_by_the_next(tmp_path: Path) -> None:
    proc = _eval(tmp_path, "--jobs", "1")
    _started(tmp_path, proc)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    left = list(tmp_path.glob(f"{SCRATCH_PREFIX}{proc.pid}-*"))
    assert left, "a killed evaluation cannot clean up after itself"
    _wait_for_orphans(left[0])
    again = _eval(tmp_path, "--only", "en-dad-coffee-correction-budget")
    again.communicate(timeout=240)
    assert not any(folder.exists() for folder in left)


def _wait_for_orphans(folder: Path) -> None:
    """Its fork servers see their input close and exit, killing the command under way
    (they are in sessions of their own, out of reach of the group's SIGKILL)."""
    deadline = time.monotonic() + 60
    while any(_cwd_in(pid, folder) for pid in os.listdir("/proc") if pid.isdigit()):
        assert time.monotonic() < deadline, "an orphaned fork server never exited"
        time.sleep(0.2)


def _cwd_in(pid: str, folder: Path) -> bool:
    try:
        return Path(os.readlink(f"/proc/{pid}/cwd")).is_relative_to(folder)
    except OSError:
        return False


def test_only_folders_of_processes_that_are_gone_are_swept(tmp_path: Path) -> None:
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    gone = tmp_path / f"{SCRATCH_PREFIX}{dead.stdout.strip()}-abc"
    alive = tmp_path / f"{SCRATCH_PREFIX}{os.getpid()}-def"
    other = tmp_path / f"{SCRATCH_PREFIX}seed-xyz"
    for folder in (gone, alive, other):
        (folder / "run-1").mkdir(parents=True)
    assert sweep_scratch(tmp_path) == [gone]
    assert not gone.exists() and alive.exists() and other.exists()
