"""The ``recall_memories`` tool as a real model meets it, driven by a script: it returns the
caller's own notes only — newest first with no words, closest with words — each with the
facts of the search that wrote it in ``update_profile``'s names and the gift chosen; a bad
call is refused with a reason and the turn goes on."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from giftgenius.app import build_agent
from giftgenius.settings import load_settings

MUM = {"recipient": "my mum", "budget_max": 60, "currency": "EUR", "interests": ["coffee"]}
UNCLE = {"recipient": "my uncle", "budget_max": 40, "currency": "EUR", "interests": ["chess"]}


def _tool_results(agent, run_id: str) -> list[dict]:
    with agent.db.read() as repos:
        entries = repos.transcript.for_run(run_id)
    return [json.loads(e.content or "{}") for e in entries if e.role == "tool"]


@pytest.fixture
def agent(tmp_path: Path, script, seeded_home):
    script.shortlist("for mum", **MUM).shortlist("for uncle", **UNCLE)
    script.pick("the first").confirm("yes")  # a message sent again replays its turn
    call = script.call
    script.turn(
        "like last time", call("recall_memories", about=None, recipient=None), script.reply("ok")
    )
    script.turn("mum?", call("recall_memories", about=None, recipient="mum"), script.reply("ok"))
    script.turn("chess", call("recall_memories", about="chess", recipient=None), script.reply("ok"))
    refused = {**script.reply("sorry"), "expect_tool_error": True}
    script.turn("bad", call("recall_memories", about=None, who="mum"), refused)
    built = build_agent(load_settings(home=tmp_path / "home"))
    yield built
    built.close()


def _search(agent, user: str, *lines: str) -> None:
    run = agent.open(user, new=True).run
    for line in lines:
        agent.turn(run.id, user, line)


@pytest.mark.slow
def test_recall_returns_the_callers_notes_with_their_facts(agent) -> None:
    _search(agent, "alice", "for mum", "the first", "yes")
    _search(agent, "alice", "for uncle", "the first", "yes")
    _search(agent, "bob", "for mum", "the first", "yes")  # another user's notes never show
    run = agent.open("alice", new=True).run
    for line in ("like last time", "mum?", "chess", "bad"):
        agent.turn(run.id, "alice", line)
    newest, mum, chess, bad = _tool_results(agent, run.id)

    assert [m["facts"]["recipient"] for m in newest["memories"]] == ["uncle", "mum"]
    (only,) = mum["memories"]
    facts = only["facts"]
    assert facts["interests"] == ["coffee"]
    assert (facts["budget_max"], facts["currency"]) == (60, "EUR")
    assert facts["chosen"]["title"] and facts["chosen"]["given_on"] == "2026-12-01"
    assert "Chose" in only["note"] and "run_id" not in only
    assert chess["memories"][0]["facts"]["interests"] == ["chess"]  # closest first
    assert bad["ok"] is False and "who" in json.dumps(bad)  # refused, with the reason
