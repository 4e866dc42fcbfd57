"""A model may copy what the user typed into a tool call's arguments: those are stored in the
transcript and the session like any message, so PII in them is replaced there too."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from giftgenius.app import build_agent
from giftgenius.settings import load_settings

USER = "argsuser"
EMAIL = "dana.fox@example.org"


@pytest.fixture
def agent(tmp_path: Path, script, seeded_home):
    script.profile("a gift for my sister", "Noted.", recipient="sister")
    label = {"name": "save_recipient_profile", "arguments": {"label": f"sis {EMAIL}"}}
    # turns are keyed by the text the model sees: the user's message is already scrubbed
    script.turn(
        "save her as sis, my email is [email]", {"tool_calls": [label]}, {"reply": "Saved."}
    )
    built = build_agent(load_settings(home=tmp_path / "home"))
    yield built
    built.close()


def test_pii_in_tool_call_arguments_is_stored_nowhere(agent) -> None:
    run = agent.open(USER).run
    agent.turn(run.id, USER, "a gift for my sister")
    agent.turn(run.id, USER, f"save her as sis, my email is {EMAIL}")

    with agent.db.read() as repos:
        entries = repos.transcript.for_run(run.id)
        labels = [p.label for p in repos.profiles.list(USER)]
    calls = [c for e in entries for c in (e.tool_calls or [])]
    assert calls and all(EMAIL not in c.arguments for c in calls)
    assert any("[email]" in json.loads(c.arguments).get("label", "") for c in calls)
    assert all(EMAIL not in e.model_dump_json() for e in entries)
    assert labels and all(EMAIL not in label for label in labels)
    live = agent.sessions.load(run.id)
    assert live is not None and EMAIL not in live.model_dump_json()
