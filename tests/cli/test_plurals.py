"""Counts read as a person says them: "1 checkpoint", "1 user", "1 day", never "1 days"."""

from __future__ import annotations

from datetime import timedelta

import pytest
from test_bad_input import run_bytes

from giftgenius.cli.main import _older_than
from giftgenius.cli.speech import count


def test_counts_agree_with_their_number() -> None:
    assert count("product.delivery", 1) == "1 day"
    assert count("product.delivery", 0) == "0 days"
    assert count("product.delivery", 1200) == "1,200 days"
    assert _older_than(timedelta(days=1)) == "every checkpoint older than a day"


@pytest.mark.slow
def test_forget_and_prune_count_in_the_singular_for_one(cli) -> None:
    cli("chat", "--user", "n1", stdin="gift for my boss, loves coffee, 45 USD\n")
    asked = run_bytes(["forget", "--user", "n1"], b"n\n", tty=True)
    assert "(1 gift search," in asked.err
    forgot = cli("forget", "--user", "n1")
    assert "1 user" in forgot.out and "1 gift search" in forgot.out
    assert "1 users" not in forgot.out and "1 runs" not in forgot.out
    assert "Pruned 0 checkpoints." in cli("prune", "--older-than", "90d").out


@pytest.mark.slow
def test_ctrl_d_at_the_prompt_ends_the_line() -> None:
    ran = run_bytes(["chat", "--user", "n2"], b"", tty=True)
    assert ran.code == 0 and ran.out.endswith("you> \n")
