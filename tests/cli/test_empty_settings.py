"""An empty setting means unset: ``GIFTGENIUS_HOME=""`` must not put databases in the cwd.

``Path("")`` is ``.``, so an empty home (``GIFTGENIUS_HOME= giftgenius chat``, or a
variable exported from an empty one) used to create ``giftgenius.db``, ``sessions.db`` and
``logs/`` in whatever folder the command ran in. Each case runs the real command in a
process of its own (forked from the session's preloaded server), from a scratch working
directory, with the user data dir pointed into the test's folder.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from giftgenius.evaluate.forking import ForkServers


def _run(
    server: ForkServers, tmp_path: Path, *argv: str, env: dict[str, str]
) -> tuple[subprocess.CompletedProcess[str], Path, Path]:
    cwd = tmp_path / "cwd"
    data = tmp_path / "xdg-data"
    cwd.mkdir(exist_ok=True)
    done = server.run(
        list(argv),
        stdin="",
        cwd=str(cwd),
        env={**os.environ, "XDG_DATA_HOME": str(data), **env},
        timeout=120,
    )
    return done, cwd, data / "giftgenius"


@pytest.mark.slow
def test_an_empty_home_variable_means_the_default_home(
    tmp_path: Path, command_server: ForkServers
) -> None:
    done, cwd, default_home = _run(
        command_server, tmp_path, "catalog", "search", "tea", env={"GIFTGENIUS_HOME": ""}
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert list(cwd.iterdir()) == []  # nothing written where the command ran
    assert (default_home / "giftgenius.db").is_file()


@pytest.mark.slow
def test_an_empty_home_flag_means_no_flag(tmp_path: Path, command_server: ForkServers) -> None:
    home = tmp_path / "home-from-env"
    done, cwd, _ = _run(
        command_server,
        tmp_path,
        "--home",
        "",
        "catalog",
        "search",
        "tea",
        env={"GIFTGENIUS_HOME": str(home)},
    )
    assert done.returncode == 0, done.stderr
    assert list(cwd.iterdir()) == []
    assert (home / "giftgenius.db").is_file()


@pytest.mark.slow
def test_a_blank_home_is_refused_with_a_plain_line(
    tmp_path: Path, command_server: ForkServers
) -> None:
    done, cwd, _ = _run(
        command_server, tmp_path, "catalog", "search", "tea", env={"GIFTGENIUS_HOME": "   "}
    )
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert done.stderr.startswith("error: Invalid settings — GIFTGENIUS_HOME")
    assert "blank" in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert list(cwd.iterdir()) == []


@pytest.mark.slow
def test_an_empty_home_in_the_config_file_is_refused(
    tmp_path: Path, command_server: ForkServers
) -> None:
    config = tmp_path / "giftgenius.toml"
    config.write_text('home = ""\n', encoding="utf-8")
    done, cwd, _ = _run(
        command_server,
        tmp_path,
        "catalog",
        "search",
        "tea",
        env={"GIFTGENIUS_CONFIG": str(config), "GIFTGENIUS_HOME": ""},
    )
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert "GIFTGENIUS_HOME" in done.stderr and "blank" in done.stderr
    assert list(cwd.iterdir()) == []


@pytest.mark.slow
def test_other_empty_path_settings_mean_unset(tmp_path: Path, command_server: ForkServers) -> None:
    """The database URL, the Redis URL, the record and cache dirs and the config file."""
    home = tmp_path / "home"
    done, cwd, _ = _run(
        command_server,
        tmp_path,
        "catalog",
        "search",
        "tea",
        env={
            "GIFTGENIUS_HOME": str(home),
            "GIFTGENIUS_DATABASE_URL": "",
            "GIFTGENIUS_REDIS_URL": "",
            "GIFTGENIUS_RECORD_DIR": "",
            "GIFTGENIUS_CONFIG": "",
            "GIFTGENIUS_CACHE_DIR": "",
        },
    )
    assert done.returncode == 0, done.stderr
    assert list(cwd.iterdir()) == []
    assert (home / "giftgenius.db").is_file()
