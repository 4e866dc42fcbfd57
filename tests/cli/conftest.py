from __future__ import annotations

import io
import json
import os
from dataclasses import dataclass
from pathlib import Path

import pytest

from giftgenius.cli.main import main
from giftgenius.evaluate.forking import ForkServers
from giftgenius.llm.scripted import SCRIPTED_LABEL


@dataclass
class Ran:
    code: int
    out: str
    err: str

    def json(self) -> dict:
        return json.loads(self.out)


@pytest.fixture
def cli():
    """Run the CLI in this process, stdin piped (not a terminal)."""

    def run(*argv: str, stdin: str = "") -> Ran:
        out, err = io.StringIO(), io.StringIO()
        code = main(list(argv), stdin=io.StringIO(stdin), stdout=out, stderr=err)
        assert SCRIPTED_LABEL not in err.getvalue(), err.getvalue()  # the script went astray
        return Ran(code, out.getvalue(), err.getvalue())

    return run


@pytest.fixture
def proc(command_server: ForkServers):
    """Run the CLI as a separate process (a real restart between calls), forked from the
    session's preloaded server (tests/conftest.py ``command_server``)."""

    def run(*argv: str, stdin: str = "", env: dict[str, str] | None = None) -> Ran:
        done = command_server.run(
            list(argv), stdin=stdin, env={**os.environ, **(env or {})}, cwd=os.getcwd(), timeout=120
        )
        assert SCRIPTED_LABEL not in done.stderr, done.stderr  # the script went astray
        return Ran(done.returncode, done.stdout, done.stderr)

    return run


@pytest.fixture
def home() -> Path:
    return Path(os.environ["GIFTGENIUS_HOME"])
