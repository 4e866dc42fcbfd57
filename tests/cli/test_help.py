"""The command line explains itself: bare ``giftgenius`` shows what it can do, every
command's ``--help`` says what it does and what each option means (with its default), and
the chat, in a terminal, says once how to find its commands."""

from __future__ import annotations

import io

import pytest

from giftgenius.cli.main import main


class _Terminal(io.TextIOWrapper):
    def isatty(self) -> bool:
        return True


def test_bare_giftgenius_prints_its_help_not_an_error() -> None:
    out, err = io.StringIO(), io.StringIO()
    assert main([], stdout=out, stderr=err) == 0
    assert "usage: giftgenius" in out.getvalue() and "error" not in err.getvalue()
    for command in ("chat", "resume", "forget", "prune", "catalog"):
        assert command in out.getvalue()


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["chat"], ["Talk to GiftGenius", "the user id", "/help"]),
        (["state"], ["The current state", "print one JSON document"]),
        (["eval"], ["(default: 1)", "(default: 0)"]),
        (["catalog", "generate"], ["Write a synthetic catalog", "(default: 0)"]),
        (["db", "downgrade"], ["Migrate the schema down", "(default: -1)"]),
        (["model", "serve"], ["(default: 8000)"]),
    ],
)
def test_every_command_says_what_it_does_and_its_defaults(capsys, argv, words) -> None:
    main([*argv, "--help"])
    shown = " ".join(capsys.readouterr().out.split())  # as read, whatever the wrapping
    for word in words:
        assert word in shown, shown
    assert "(default: None)" not in shown and "(default: False)" not in shown


def test_bench_help_names_the_benchmarks_without_internals(capsys) -> None:
    main(["bench", "--help"])
    shown = capsys.readouterr().out
    assert "rest" not in shown.split() and "``" not in shown
    assert "context" in shown and "giftgenius bench WHAT --help" in shown


@pytest.mark.slow
def test_an_interactive_chat_greets_with_the_help_hint_once() -> None:
    err = io.StringIO()
    stdin = _Terminal(io.BytesIO(b""), encoding="utf-8")
    assert main(["chat", "--user", "hello1"], stdin=stdin, stdout=io.StringIO(), stderr=err) == 0
    assert err.getvalue().count("/help") == 1


@pytest.mark.slow
def test_a_piped_chat_is_not_greeted(cli) -> None:
    ran = cli("chat", "--user", "hello2", stdin="")
    assert "/help" not in ran.out + ran.err


@pytest.mark.parametrize("which", ["context", "state", "search", "turn", "load"])
def test_each_benchmark_explains_every_option_in_plain_text(capsys, which) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["bench", which, "--help"])
    assert exited.value.code == 0
    shown = capsys.readouterr().out
    assert "``" not in shown
    options = [line.split()[0] for line in shown.splitlines() if line.startswith("  --")]
    assert options and all(f"{option} " in shown for option in options)
    # every option says something: a bare "--flag VALUE" line is followed by its help
    lines = shown.splitlines()
    for line, after in zip(lines, [*lines[1:], ""], strict=True):
        if line.startswith("  --") and len(line.split()) <= 2:
            assert after.startswith(" " * 8) and not after.strip().startswith("-"), line
    # every option that takes a value says its default (a flag that is off says none)
    valued = [line for line in lines if line.startswith("  --") and line.split()[1:2] != []]
    valued = [line for line in valued if line.split()[1].isupper()]
    assert shown.count("(default:") >= len(valued) - 1
    assert "(default: False)" not in shown
