"""The context bench runs (a command, not a timed test): figures are consistent."""

from __future__ import annotations

import pytest

from giftgenius.bench.context import main, run_conversation
from giftgenius.tokens import TokenCounter


def test_bench_runs_for_ten_turns(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--turns", "10", "--budget", "4000"]) == 0
    out = capsys.readouterr().out
    assert "budget 4000" in out
    row = [line.split() for line in out.splitlines() if line.split()[:1] == ["10"]]
    assert len(row) == 1 and int(row[0][1]) <= 4000


def test_budgeted_context_sends_less_than_full_history() -> None:
    row = run_conversation(20, 4000, TokenCounter.for_model("offline"))
    assert row.last_prompt_tokens <= 4000
    assert row.summaries >= 1
    assert row.sent_tokens < row.full_resend_tokens


def test_bad_turns_is_a_usage_error() -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--turns", "ten"])
    assert exc.value.code == 2
