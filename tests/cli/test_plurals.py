"""Counts read as a person says them: "1 checkpoint", "1 user", "1 day", never "1 days"."""

from __future__ import annotations

from test_bad_input import run_bytes

from giftgenius.cli.main import _age, _count


def test_counts_agree_with_their_number() -> None:
    assert _count(1, "{n} day", "{n} days") == "1 day"
    assert _count(0, "{n} day", "{n} days") == "0 days"
    assert _count(1200, "{n} day", "{n} days") == "1,200 days"
    assert _age(__import__("datetime").timedelta(days=1)) == "1 day"


def test_forget_and_prune_count_in_the_singular_for_one(cli) -> None:
    cli("chat", "--user", "n1", stdin="gift for my boss, loves coffee, 45 USD\n")
    asked = run_bytes(["forget", "--user", "n1"], b"n\n", tty=True)
    assert "(1 gift search," in asked.err
    forgot = cli("forget", "--user", "n1")
    assert "1 user" in forgot.out and "1 gift search" in forgot.out
    assert "1 users" not in forgot.out and "1 runs" not in forgot.out
    assert "Pruned 0 checkpoints." in cli("prune", "--older-than", "90d").out


def test_ctrl_d_at_the_prompt_ends_the_line() -> None:
    ran = run_bytes(["chat", "--user", "n2"], b"", tty=True)
    assert ran.code == 0 and ran.out.endswith("you> \n")
