"""Bad input and faults outside the run-cycle: each is answered plainly, nothing crashes.

README.md's "Bad input and faults: what the user sees" lists the same cases.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from giftgenius.cli.main import main
from giftgenius.storage.db import Database

# A piped chat: one line with a byte that is not UTF-8, one with a NUL, one with terminal
# escapes (colour, window title), then the line that must still be read and answered.
PIPED = (
    b"hello\n"
    b"bad \xff byte\n"
    b"nul \x00 here\n"
    b"my sister \x1b]0;pwned\x07\x1b[31mloves\x1b[0m books\n"
    b"gift for my sister, she loves books, 25 EUR\n"
)


@dataclass
class Ran:
    code: int
    out: str
    err: str


def run_bytes(argv: list[str], data: bytes, *, tty: bool = False) -> Ran:
    """main() with stdin a real text stream over bytes, as sys.stdin is (strict UTF-8)."""

    class Stdin(io.TextIOWrapper):
        def isatty(self) -> bool:
            return tty

    stdin = Stdin(io.BytesIO(data), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdin=stdin, stdout=out, stderr=err)
    return Ran(code, out.getvalue(), err.getvalue())


def _stored_user_texts(url: str, user: str) -> list[str]:
    db = Database(url)
    try:
        with db.read() as repos:
            texts = []
            for run in repos.runs.list_for(user):
                texts += [e.content or "" for e in repos.transcript.for_run(run.id)]
            return texts
    finally:
        db.dispose()


def _check_piped_chat(ran: Ran, url: str, user: str) -> None:
    assert ran.code == 0, ran.err
    assert "Traceback" not in ran.err
    assert "not valid UTF-8" in ran.err and "replaced by �" in ran.err
    assert "NUL" in ran.err
    assert "terminal escape" in ran.err
    assert "\x1b" not in ran.out + ran.err and "\x07" not in ran.out + ran.err
    texts = _stored_user_texts(url, user)
    joined = "".join(texts)
    assert "bad � byte" in texts
    assert "\x00" not in joined and "\x1b" not in joined and "\x07" not in joined
    assert "my sister loves books" in texts
    # The line after the bad ones was read and answered: the profile has the budget.
    assert texts[-1] and "gift for my sister, she loves books, 25 EUR" in texts


@pytest.mark.slow
def test_piped_bad_bytes_nul_and_escapes_on_sqlite(home: Path) -> None:
    ran = run_bytes(["chat", "--user", "pipe1"], PIPED)
    _check_piped_chat(ran, f"sqlite:///{home / 'giftgenius.db'}", "pipe1")


@pytest.mark.slow
@pytest.mark.postgres
def test_piped_bad_bytes_nul_and_escapes_on_postgres(postgres_url: str) -> None:
    assert main(["db", "upgrade", "--database-url", postgres_url], stdout=io.StringIO()) == 0
    ran = run_bytes(["chat", "--user", "pipe2", "--database-url", postgres_url], PIPED)
    _check_piped_chat(ran, postgres_url, "pipe2")


@pytest.mark.slow
def test_surrogate_escaped_text_stdin_is_replaced_too(cli, home: Path) -> None:
    """A text stream decoded with surrogateescape (Python's C locale) hands over \\udcff."""
    ran = cli("chat", "--user", "pipe3", stdin="bad \udcff byte\ngift for my mum, 30 EUR\n")
    assert ran.code == 0 and "replaced by �" in ran.err
    assert "bad � byte" in _stored_user_texts(f"sqlite:///{home / 'giftgenius.db'}", "pipe3")


@pytest.mark.slow
def test_a_real_process_reads_on_after_a_bad_byte(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "giftgenius", "chat", "--user", "pipe4"],
        input=PIPED,
        capture_output=True,
        env={**os.environ, "LC_ALL": "C.UTF-8", "PYTHONIOENCODING": "utf-8"},
        timeout=120,
    )
    err = done.stderr.decode("utf-8", "replace")
    assert done.returncode == 0, err
    assert "Traceback" not in err and "not valid UTF-8" in err
    home = Path(os.environ["GIFTGENIUS_HOME"])
    assert "my sister loves books" in _stored_user_texts(
        f"sqlite:///{home / 'giftgenius.db'}", "pipe4"
    )


@pytest.mark.slow
def test_escapes_typed_in_a_terminal_are_not_echoed(home: Path) -> None:
    ran = run_bytes(
        ["chat", "--user", "tty1"], b"/bogus\x1b[2J\ngift for my \x1b[31msister\n", tty=True
    )
    assert ran.code == 0, ran.err
    assert "\x1b[2J" not in ran.err and "\x1b[31m" not in ran.out + ran.err
    assert "Unknown command /bogus" in ran.err


@pytest.mark.slow
def test_a_bad_byte_typed_in_a_terminal_is_replaced_and_the_chat_goes_on(home: Path) -> None:
    ran = run_bytes(
        ["chat", "--user", "tty2"], b"bad \xff byte\ngift for my mum, 30 EUR\n", tty=True
    )
    assert ran.code == 0, ran.err
    assert "replaced by �" in ran.err and "Traceback" not in ran.err
    texts = _stored_user_texts(f"sqlite:///{home / 'giftgenius.db'}", "tty2")
    assert "bad � byte" in texts and "gift for my mum, 30 EUR" in texts


def test_prune_with_an_absurd_age_is_a_usage_error(cli) -> None:
    ran = cli("prune", "--older-than", "99999999d")
    assert ran.code == 2
    assert "too long" in ran.err and "99999999d" in ran.err
    assert "Traceback" not in ran.err


def test_a_huge_user_id_is_clipped_in_the_message(cli) -> None:
    ran = cli("state", "--user", "x" * 10_000)
    assert ran.code == 2
    assert "Invalid user id" in ran.err and "10000 characters" in ran.err
    assert len(ran.err) < 300


def test_a_mistyped_sqlite_url_is_refused_and_creates_nothing(cli, tmp_path: Path) -> None:
    missing = tmp_path / "nonexistent" / "dir"
    ran = cli("state", "--user", "u", "--database-url", f"sqlite:///{missing}/x.db")
    assert ran.code == 1
    assert f"{missing}" in ran.err and "does not exist" in ran.err
    assert "GIFTGENIUS_DATABASE_URL" in ran.err
    assert not missing.parent.exists()


@pytest.mark.slow
def test_the_default_home_is_still_created(cli, home: Path) -> None:
    assert not home.exists()
    assert cli("state", "--user", "u").code == 0
    assert (home / "giftgenius.db").is_file()


def test_postgres_down_is_one_plain_line(cli) -> None:
    ran = cli("state", "--user", "u", "--database-url", "postgresql://postgres@127.0.0.1:1/x")
    assert ran.code == 1
    message = ran.err.strip()
    assert message.startswith("error: Cannot reach the database")
    assert "\n" not in message, message
    assert "?." not in message and "Check that the server is running" in message


@pytest.mark.parametrize(
    ("content", "where"),
    [
        ('{"name": 3}', "name: Input should be a valid string"),
        ('{"name": "x", "description": "d", "user_id": "u", "script": [{"sey": "hi"}], '
         '"expect": {}}', "script.0.sey: Extra inputs are not permitted"),
        ('{"name": ', "line 1"),
    ],
)  # fmt: skip
def test_a_bad_demo_file_gets_one_plain_message(
    cli, tmp_path: Path, content: str, where: str
) -> None:
    path = tmp_path / "bad-demo.json"
    path.write_text(content, encoding="utf-8")
    ran = cli("demo", "--file", str(path))
    assert ran.code == 1
    message = ran.err.strip()
    assert message.count("\n") == 0, message
    assert str(path) in message and where in message
    assert "pydantic" not in message and "http" not in message


@pytest.mark.slow
def test_forget_of_an_unknown_user_says_nothing_is_stored(cli) -> None:
    ran = cli("forget", "--user", "ghost")
    assert ran.code == 0
    assert ran.out.strip() == "Nothing is stored for user ghost."


@pytest.mark.slow
def test_forget_asks_in_a_terminal_and_keeps_everything_on_no(cli) -> None:
    cli("chat", "--user", "f1", stdin="gift for my boss, loves coffee, 45 USD\n")
    declined = run_bytes(["forget", "--user", "f1"], b"n\n", tty=True)
    assert "Erase everything stored for user f1" in declined.err
    assert declined.code == 1 and "Nothing was erased" in declined.err
    assert cli("checkpoints", "--user", "f1", "--json").json()["checkpoints"]
    confirmed = run_bytes(["forget", "--user", "f1"], b"y\n", tty=True)
    assert confirmed.code == 0 and "Forgot user f1" in confirmed.out
    assert cli("checkpoints", "--user", "f1", "--json").json()["checkpoints"] == []


@pytest.mark.slow
def test_forget_yes_skips_the_question_in_a_terminal(cli) -> None:
    cli("chat", "--user", "f2", stdin="gift for my boss, loves coffee, 45 USD\n")
    ran = run_bytes(["forget", "--user", "f2", "--yes"], b"", tty=True)
    assert ran.code == 0 and "Forgot user f2" in ran.out
    assert "Erase everything" not in ran.err
