"""The repository stands on its own: its design is in giftgenius/README.md, and nothing in it
points a reader at a document that only exists outside the repository."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
OUTSIDE = ("DESIGN.md", "../shared", "shared/reference")


def _tracked_files() -> list[Path]:
    listed = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    return [ROOT / name for name in listed if (ROOT / name).is_file()]


@pytest.mark.slow
def test_no_file_cites_a_document_outside_the_repository() -> None:
    offenders = [
        f"{path.relative_to(ROOT)}: {needle}"
        for path in _tracked_files()
        if path.suffix in {".py", ".md", ".toml", ".json", ".txt", ".cfg", ".ini", ".mako"}
        and path.name != Path(__file__).name
        for needle in OUTSIDE
        if needle in path.read_text("utf-8", errors="replace")
    ]
    assert not offenders, offenders


def test_the_package_readme_covers_the_design() -> None:
    text = (ROOT / "giftgenius" / "README.md").read_text("utf-8")
    for topic in (
        "## Layers",
        "## The three memory layers",
        "## The run-cycle",
        "## The checkpoint format",
        "**A tool.**",
        "**A session store.**",
        "**A model.**",
    ):
        assert topic in text, topic


def test_ci_runs_exactly_the_readme_test_command() -> None:
    """CI must run what a newcomer is told to run: the README's test command is the last
    line of ``.ci/run``, character for character."""
    readme = (ROOT / "README.md").read_text("utf-8").splitlines()
    ci_last = (ROOT / ".ci" / "run").read_text("utf-8").rstrip("\n").splitlines()[-1]
    assert ci_last.startswith("python3 -m venv .venv"), ci_last
    assert ci_last in readme, "README.md must show .ci/run's test command as a line of its own"
