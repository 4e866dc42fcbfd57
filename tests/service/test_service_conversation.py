"""A conversation over HTTP is the terminal chat's run-cycle: the same run, the same
state documents, a reply per message, and the same replies streamed as events."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from service_kit import SISTER

from giftgenius.agent.documents import read_state, state_document
from giftgenius.app import build_reader
from giftgenius.settings import load_settings


def say(client: TestClient, who: dict[str, str], text: str) -> dict[str, Any]:
    answered = client.post("/v1/messages", json={"text": text}, headers=who)
    assert answered.status_code == 200, answered.text
    return answered.json()


def events(body: str) -> list[tuple[str, Any]]:
    """A text/event-stream body as (event, data) pairs."""
    found = []
    for block in body.strip().split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines())
        found.append((fields["event"], json.loads(fields["data"])))
    return found


@pytest.mark.slow
def test_a_conversation_through_to_a_confirmed_gift(client: TestClient, alice) -> None:
    first = say(client, alice, SISTER)
    assert first["step"] == "finalizing" and first["version"] == 1
    assert first["shortlist"] and first["reply"]
    assert "filtered" in first["checkpoints"]
    picked = say(client, alice, "the first one")
    assert picked["run_id"] == first["run_id"] and picked["version"] == 2
    assert picked["selected_gift_id"] == first["shortlist"][0]["id"]
    assert picked["shortlist"] == []  # this turn shortlisted nothing
    done = say(client, alice, "yes")
    assert done["step"] == "done" and done["order_draft_id"] and done["version"] == 3
    # a finished search still takes turns, on the same run (as in the chat window)
    after = say(client, alice, "thanks")
    assert after["run_id"] == first["run_id"] and after["reply"] == "You're welcome!"

    state = client.get("/v1/state", headers=alice).json()
    reader = build_reader(load_settings())
    try:
        assert state == state_document("alice", *read_state(reader, "alice"))
    finally:
        reader.close()
    assert state["state"]["step"] == "done" and state["session_version"] == 4
    run = client.get(f"/v1/runs/{first['run_id']}", headers=alice).json()
    assert run["status"] == "done" and run["version"] == 4
    steps = [c["step"] for c in client.get("/v1/checkpoints", headers=alice).json()["checkpoints"]]
    assert steps[-1] == "final_choice_made" and "filtered" in steps


@pytest.mark.slow
def test_a_streamed_turn_sends_deltas_then_the_whole_answer(client: TestClient, alice) -> None:
    say(client, alice, SISTER)
    say(client, alice, "the first one")
    say(client, alice, "yes")
    streamed = client.post(
        "/v1/messages",
        json={"text": "thanks"},
        headers={**alice, "Accept": "text/event-stream"},
    )
    assert streamed.status_code == 200
    assert streamed.headers["content-type"].startswith("text/event-stream")
    got = events(streamed.text)
    names = [name for name, _ in got]
    assert names[-1] == "done" and set(names[:-1]) == {"delta"} and len(names) > 1
    done = got[-1][1]
    assert "".join(data["text"] for _, data in got[:-1]) == done["reply"] == "You're welcome!"
    assert done["version"] == 4 and done["step"] == "done"


@pytest.mark.slow
def test_a_streamed_turn_refused_at_once_is_a_plain_error(client: TestClient, alice) -> None:
    refused = client.post(
        "/v1/messages", json={"text": "  "}, headers={**alice, "Accept": "text/event-stream"}
    )
    assert refused.status_code == 422
    assert refused.json()["error"]["message"].startswith("Your message is empty")


@pytest.mark.slow
def test_new_runs_restart_and_the_catalog(client: TestClient, alice) -> None:
    first = say(client, alice, SISTER)
    started = client.post("/v1/runs", headers=alice)
    assert started.status_code == 201
    new = started.json()
    assert new["run_id"] != first["run_id"] and new["status"] == "active"
    assert client.get(f"/v1/runs/{first['run_id']}", headers=alice).json()["status"] == (
        "abandoned"
    )
    restarted = say(client, alice, "/restart")
    assert restarted["run_id"] not in (first["run_id"], new["run_id"])
    assert restarted["reply"].startswith("Started a new gift search")
    other = client.post("/v1/messages", json={"text": "/usage"}, headers=alice)
    assert other.status_code == 422 and "/restart" in other.json()["error"]["message"]

    found = client.get("/v1/catalog/search", params={"q": "tea"}, headers=alice).json()
    assert found["query"] == "tea" and found["results"]
    gift = found["results"][0]["id"]
    shown = client.get(f"/v1/catalog/{gift}", headers=alice).json()
    assert shown["id"] == gift and shown["prices"]


@pytest.mark.slow
def test_forget_over_http_erases_the_user_and_their_keys(client: TestClient, alice) -> None:
    say(client, alice, SISTER)
    erased = client.delete("/v1/user", headers=alice)
    assert erased.status_code == 200
    counts = erased.json()["erased"]
    assert counts["runs"] == 1 and counts["api_keys"] == 1 and counts["users"] == 1
    assert client.get("/v1/state", headers=alice).status_code == 401


def test_the_api_is_documented(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    assert {"/v1/messages", "/v1/runs", "/v1/state", "/readyz"} <= set(spec["paths"])
    assert client.get("/docs").status_code == 200
    assert client.get("/").headers["content-type"].startswith("text/html")  # the web page
