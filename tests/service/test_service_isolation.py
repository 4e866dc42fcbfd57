"""A key acts for its own user only: with Bob's key, every route is tried on Alice's run,
and Bob can neither read nor change anything of hers; with Bob's signed token the same."""

from __future__ import annotations

import datetime as dt

import pytest
from fastapi.testclient import TestClient
from service_kit import SISTER, bearer, key_for

from giftgenius.signed_tokens import mint

SECRET = "isolation-" + "s" * 32


def alices_world(client: TestClient, alice: dict[str, str], run_id: str) -> list[object]:
    """Everything of Alice's the service can show."""
    return [
        client.get("/v1/state", headers=alice).json(),
        client.get("/v1/checkpoints", headers=alice).json(),
        client.get(f"/v1/runs/{run_id}", headers=alice).json(),
        client.get("/v1/conversation", headers=alice).json(),
    ]


@pytest.mark.slow
@pytest.mark.parametrize("bob_has", ["a key", "a signed token"])
def test_bob_cannot_read_or_change_anything_of_alices(make_client, bob_has: str) -> None:
    signed = bob_has == "a signed token"
    client = make_client(token_secret=SECRET) if signed else make_client()
    alice = bearer(key_for(client.app, "alice"))
    first = client.post("/v1/messages", json={"text": SISTER}, headers=alice).json()
    run_id, gift = first["run_id"], first["shortlist"][0]["id"]
    before = alices_world(client, alice, run_id)
    if signed:
        bob = bearer(mint(SECRET, "bob", dt.timedelta(hours=1)))
    else:
        bob = bearer(key_for(client.app, "bob"))
    claims = {"user_id": "alice", "user": "alice", "run_id": run_id}

    tries = {
        ("POST", "/v1/messages"): lambda: client.post(
            "/v1/messages", json={"text": "thanks", **claims}, headers=bob, params=claims
        ),
        ("POST", "/v1/runs"): lambda: client.post("/v1/runs", json=claims, headers=bob),
        ("GET", "/v1/runs/{run_id}"): lambda: client.get(f"/v1/runs/{run_id}", headers=bob),
        ("GET", "/v1/state"): lambda: client.get("/v1/state", headers=bob, params=claims),
        ("GET", "/v1/conversation"): lambda: client.get(
            "/v1/conversation", headers=bob, params=claims
        ),
        ("GET", "/v1/checkpoints"): lambda: client.get(
            "/v1/checkpoints", headers=bob, params=claims
        ),
        ("GET", "/v1/catalog/search"): lambda: client.get(
            "/v1/catalog/search", headers=bob, params={"q": "tea", **claims}
        ),
        ("GET", "/v1/catalog/{product_id}"): lambda: client.get(
            f"/v1/catalog/{gift}", headers=bob, params=claims
        ),
        ("DELETE", "/v1/user"): lambda: client.request(
            "DELETE", "/v1/user", headers=bob, params=claims, json=claims
        ),
    }
    spec = client.get("/openapi.json").json()
    spec = client.get("/openapi.json").json()
    routes = {
        (method.upper(), path)
        for path, operations in spec["paths"].items()
        if path.startswith("/v1")
        for method in operations
    }
    assert routes == set(tries), "a new route: try it with another user's key here"

    answers = {where: attempt() for where, attempt in tries.items()}
    assert answers[("GET", "/v1/runs/{run_id}")].status_code == 404
    assert answers[("GET", "/v1/checkpoints")].status_code == 404
    bobs_turn = answers[("POST", "/v1/messages")].json()
    assert bobs_turn["run_id"] != run_id and bobs_turn["version"] == 1  # Bob's own new run
    assert answers[("GET", "/v1/state")].json()["user_id"] == "bob"
    assert answers[("GET", "/v1/conversation")].json()["messages"] == []  # Bob has said nothing
    assert answers[("DELETE", "/v1/user")].json()["user_id"] == "bob"
    for (method, path), answer in answers.items():
        assert answer.status_code < 500, (method, path, answer.text)
        if answer.status_code < 300:  # a refusal may name the id it was asked for
            assert run_id not in answer.text, (method, path)
        assert "alice" not in answer.text, (method, path)

    assert alices_world(client, alice, run_id) == before
    assert (
        client.post("/v1/messages", json={"text": "the first one"}, headers=alice).json()["run_id"]
        == run_id
    )
    if signed:  # a token is stored nowhere: it still names Bob, who has nothing left
        assert client.get("/v1/state", headers=bob).json() == {
            "user_id": "bob",
            "run_id": None,
            "state": None,
        }
    else:  # Bob forgot himself: his key went with him
        assert client.get("/v1/state", headers=bob).status_code == 401
