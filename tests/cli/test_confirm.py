"""Commands that destroy data ask first in a terminal, as ``forget`` does: no is the
default, ``--yes`` answers for scripts, and piped (nobody to answer) they go ahead."""

from __future__ import annotations

import pytest
from test_bad_input import run_bytes

SETUP = "gift for my boss, loves coffee, 45 USD\n"


def _count(cli, user: str) -> int:
    return len(cli("checkpoints", "--user", user, "--json").json()["checkpoints"])


@pytest.mark.slow
def test_prune_asks_in_a_terminal_and_keeps_everything_on_no(cli) -> None:
    cli("chat", "--user", "c1", stdin=SETUP)
    before = _count(cli, "c1")
    assert before > 0
    declined = run_bytes(["prune", "--older-than", "0d"], b"n\n", tty=True)
    assert "Delete every checkpoint, whatever its age?" in declined.err
    assert declined.code == 1 and "Nothing was deleted." in declined.err
    assert _count(cli, "c1") == before
    unanswered = run_bytes(["prune", "--older-than", "1d"], b"", tty=True)
    assert unanswered.code == 1 and "older than a day?" in unanswered.err
    confirmed = run_bytes(["prune", "--older-than", "0s"], b"y\n", tty=True)
    assert confirmed.code == 0 and "Pruned" in confirmed.out
    assert _count(cli, "c1") < before


@pytest.mark.slow
def test_prune_yes_skips_the_question_in_a_terminal(cli) -> None:
    ran = run_bytes(["prune", "--older-than", "90d", "--yes"], b"", tty=True)
    assert ran.code == 0 and "Pruned" in ran.out and "Delete every" not in ran.err


@pytest.mark.slow
def test_db_downgrade_asks_in_a_terminal(cli) -> None:
    revision = cli("db", "current").out
    declined = run_bytes(["db", "downgrade"], b"\n", tty=True)  # Enter: the default, no
    assert "Migrate the schema down from" in declined.err
    assert declined.code == 1 and "The schema was not changed." in declined.err
    assert cli("db", "current").out == revision
    down = run_bytes(["db", "downgrade", "base", "--yes"], b"", tty=True)
    assert down.code == 0 and "empty" in down.out
    assert cli("db", "upgrade").code == 0
