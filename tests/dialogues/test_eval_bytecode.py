"""An evaluation's processes share their bytecode in the evaluation's temporary folder when
the interpreter is told not to write any next to the sources (PYTHONDONTWRITEBYTECODE)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from giftgenius.evaluate.player import bytecode_folder, clean_env


@pytest.fixture
def no_bytecode(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")


def test_the_processes_write_their_bytecode_in_the_evaluation_folder(
    no_bytecode: None, tmp_path: Path
) -> None:
    folder = bytecode_folder(tmp_path)
    assert folder is not None and folder.is_relative_to(tmp_path)
    env = clean_env(str(tmp_path / "home"), folder)
    assert "PYTHONDONTWRITEBYTECODE" not in env
    assert env["PYTHONPYCACHEPREFIX"] == str(folder)
    assert env["GIFTGENIUS_HOME"] == str(tmp_path / "home")


def test_without_the_setting_nothing_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    monkeypatch.delenv("PYTHONPYCACHEPREFIX", raising=False)
    assert bytecode_folder(tmp_path) is None
    assert "PYTHONPYCACHEPREFIX" not in clean_env(str(tmp_path / "home"), None)


@pytest.mark.slow  # a fresh interpreter
def test_a_process_given_that_environment_leaves_giftgenius_bytecode_there(
    no_bytecode: None, tmp_path: Path
) -> None:
    folder = bytecode_folder(tmp_path)
    assert folder is not None
    env = clean_env(str(tmp_path / "home"), folder)
    subprocess.run([sys.executable, "-c", "import giftgenius.evaluate.judge"], env=env, check=True)
    written = {p.name for p in folder.rglob("*.pyc")}
    assert any(name.startswith("judge.") for name in written), sorted(written)[:5]
