"""A fast start: commands import only what they use.

``--help`` and ``--version`` import neither the stores nor the model; ``state`` and
``checkpoints`` read the stores without loading the tokenizer (tiktoken), the model client
(openai) or the offline model; a command that counts nothing says its sentence without
babel. Each command runs in a fresh interpreter — this test
process has long imported everything — on embedded stores holding a real run, with the
offline model configured (the one that would pull in the most).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from giftgenius import __version__

TALKING_ONLY = ("tiktoken", "openai", "giftgenius.offline")
STORES = ("sqlalchemy", "rich", "pydantic_settings")

# Run the real entry point's main(), then report what it imported (on stderr, after it).
_WRAPPER = """
import sys
from giftgenius.cli.main import main
try:
    code = main(sys.argv[1:])
finally:
    watched = {watched!r}
    loaded = sorted(name for name in watched if name in sys.modules)
    print("LOADED " + " ".join(loaded), file=sys.stderr)
sys.exit(code)
"""


def _run(
    *argv: str, watched: tuple[str, ...], env: dict[str, str] | None = None
) -> tuple[subprocess.CompletedProcess[str], set]:
    env = {**os.environ, "GIFTGENIUS_MODEL": "offline", **(env or {})}
    done = subprocess.run(
        [sys.executable, "-c", _WRAPPER.format(watched=watched), *argv],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    report = [line for line in done.stderr.splitlines() if line.startswith("LOADED")]
    assert report, done.stderr
    return done, set(report[-1].split()[1:])


# Fresh interpreters, one per command: multi-process, so out of the fast lane.
pytestmark = pytest.mark.slow


@pytest.fixture
def a_run(cli, script) -> str:
    """A user with a run that reached a shortlist (three checkpoints), on embedded stores."""
    script.shortlist(
        "gift for my sister who loves tea, 40 EUR",
        recipient="sister",
        interests=["tea"],
        budget_max=40,
        currency="EUR",
    )
    assert (
        cli("chat", "--user", "lazy1", stdin="gift for my sister who loves tea, 40 EUR\n").code == 0
    )
    return "lazy1"


def test_state_and_checkpoints_load_no_tokenizer_model_client_or_offline_model(a_run) -> None:
    done, loaded = _run("state", "--user", a_run, "--json", watched=TALKING_ONLY + STORES)
    assert done.returncode == 0, done.stderr
    state = json.loads(done.stdout)
    assert state["checkpoints"][:3] == ["profile_collected", "candidates_generated", "filtered"]
    assert loaded == {"sqlalchemy", "rich", "pydantic_settings"}  # it did read the stores

    done, loaded = _run("checkpoints", "--user", a_run, "--json", watched=TALKING_ONLY)
    assert done.returncode == 0, done.stderr
    assert len(json.loads(done.stdout)["checkpoints"]) >= 3
    assert loaded == set()


def test_a_command_that_counts_nothing_loads_no_babel() -> None:
    """Sentences come from the catalogue (a TOML file); babel's plural rules and number
    formats are loaded only by a command that counts, in either language."""
    for lang in ("C.UTF-8", "fr_FR.UTF-8"):
        env = {"LANG": lang}
        for argv in (["state", "--user", "nobody"], ["forget", "--user", "nobody"]):
            done, loaded = _run(*argv, watched=("babel", *TALKING_ONLY), env=env)
            assert done.returncode == 0 and "nobody" in done.stdout, done.stderr
            assert loaded == set(), (argv, lang)
        done, loaded = _run("prune", "--older-than", "90d", watched=("babel",), env=env)
        assert done.returncode == 0 and loaded == {"babel"}, lang  # "Pruned 0 checkpoints."


def test_chat_is_what_loads_them() -> None:
    """The check above can fail: a talking command does load the tokenizer and the model."""
    done, loaded = _run("chat", "--user", "lazy2", watched=TALKING_ONLY)
    assert done.returncode == 0, done.stderr
    assert loaded == set(TALKING_ONLY)


def test_help_and_version_load_neither_stores_nor_model() -> None:
    done, loaded = _run("--help", watched=TALKING_ONLY + STORES)
    assert done.returncode == 0 and "checkpoints" in done.stdout
    assert loaded == set()
    done, loaded = _run("--version", watched=TALKING_ONLY + STORES)
    assert (done.returncode, done.stdout) == (0, f"giftgenius {__version__}\n")
    assert loaded == set()
