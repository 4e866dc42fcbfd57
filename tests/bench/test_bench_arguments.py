"""A benchmark's numbers are bounded where they are read: a negative count, a 20-digit one,
``nan`` or ``1e999`` seconds end in one usage line, not a traceback or a run that never
ends."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from giftgenius.evaluate.forking import ForkServers


@pytest.mark.slow
@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["search", "--repeat", "-1"], "argument --repeat: give a count from 1 to 100000, not -1"),
        (["search", "--repeat", "9" * 20], "give a count from 1 to 100000"),
        (["turn", "--seconds", "1e999"], "argument --seconds: give seconds from 0.1 to 3600"),
        (["turn", "--seconds", "nan"], "argument --seconds: give seconds from 0.1 to 3600"),
        (["turn", "--turns", "9" * 20], "--turns takes numbers from 1 to 10,000,000"),
        (["load", "--sessions", "0"], "argument --sessions: give a count from 1 to 100000"),
        (["load", "--catalog", "9" * 20], "argument --catalog: give a count from 1 to"),
        (["memory", "--sizes", "0,10"], "--sizes takes numbers from 1 to 1,000,000"),
        (["memory", "--backend", "postgres"], "--backend postgres needs GIFTGENIUS_DATABASE_URL"),
    ],
)
def test_a_number_out_of_bounds_is_one_usage_line(
    argv: list[str], said: str, tmp_path: Path, command_server: ForkServers
) -> None:
    env = {**os.environ, "GIFTGENIUS_HOME": str(tmp_path / "home")}
    done = command_server.run(["bench", *argv], stdin="", env=env, cwd=os.getcwd(), timeout=60)
    assert done.returncode == 2, done.stderr
    assert said in done.stderr and "Traceback" not in done.stderr
