"""Every run says which agent and system prompt answered it, from its first committed turn,
before any key step wrote a checkpoint."""

from __future__ import annotations

import re

import pytest

from giftgenius.agent.tools import agent_version
from giftgenius.resources import prompt_text


@pytest.mark.slow
def test_a_run_records_the_prompt_version_of_its_turns(cli, seeded_home) -> None:
    ran = cli("chat", "--user", "pv", stdin="hello\n")
    assert ran.code == 0, ran.err
    state = cli("state", "--user", "pv", "--json").json()
    assert state["checkpoints"] == []  # no key step yet: only the run can say it
    assert state["agent_version"] == agent_version()
    assert re.fullmatch(r"giftgenius/[\w.]+\+prompt\.[0-9a-f]{12}", state["agent_version"])
    assert prompt_text("system.md")  # the prompt the hash is of
