"""Every refusal leaves through one table: its status, its code, the terminal's sentence."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from service_kit import SISTER, bearer, key_for

from giftgenius.errors import (
    GiftGeniusError,
    NotFound,
    RunClosed,
    SchemaOutdated,
    SessionBusy,
    StorageError,
    UsageError,
)
from giftgenius.service.errors import STATUSES, error_response, status_of


def error(answer) -> dict[str, str]:
    body = answer.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message"}, body
    return body["error"]


@pytest.mark.parametrize(
    ("exc", "status", "code"),
    [
        (SessionBusy("busy"), 409, "session_busy"),
        (RunClosed("closed"), 409, "run_closed"),
        (SchemaOutdated("old"), 503, "schema_outdated"),
        (StorageError("down"), 503, "store_down"),
        (UsageError("bad"), 422, "invalid_input"),
        (NotFound("none"), 404, "not_found"),
        (GiftGeniusError("?"), 500, "internal"),
    ],
)
def test_the_table_picks_the_nearest_class(exc, status, code) -> None:
    assert (status_of(exc).status, status_of(exc).code) == (status, code)
    response = error_response(exc, busy_retry=7)
    assert response.status_code == status
    assert ("retry-after" in response.headers) == isinstance(exc, SessionBusy)
    assert GiftGeniusError in STATUSES


def test_no_key_a_wrong_key_and_a_revoked_key_are_401(client: TestClient, alice) -> None:
    for headers in ({}, bearer("gg_nope"), {"Authorization": "Basic eDp5"}):
        refused = client.get("/v1/state", headers=headers)
        assert refused.status_code == 401
        assert refused.headers["www-authenticate"].startswith("Bearer")
        assert error(refused)["code"] == "unauthorized"
    assert "API key" in error(client.get("/v1/state"))["message"]
    with client.app.state.service.agent().db.write() as repos:  # type: ignore[attr-defined]
        (made,) = repos.keys.list("alice")
        repos.keys.revoke(made.id)
    revoked = client.get("/v1/state", headers=alice)
    assert revoked.status_code == 401 and "revoked" in error(revoked)["message"]


@pytest.mark.slow
def test_bad_input_is_422_with_the_terminals_sentence(client: TestClient, alice) -> None:
    too_long = client.post("/v1/messages", json={"text": "a" * 4001}, headers=alice)
    assert too_long.status_code == 422
    assert error(too_long)["message"].startswith("Your message is 4001 characters long")
    shapeless = client.post("/v1/messages", json={"words": "hi"}, headers=alice)
    assert shapeless.status_code == 422
    assert error(shapeless)["message"] == "The request was not taken: body.text: Field required."
    assert client.post("/v1/messages", content=b"{", headers=alice).status_code == 422


def test_a_body_over_the_limit_is_413_declared_or_sent(client: TestClient, alice) -> None:
    big = b'{"text": "' + b"a" * 70_000 + b'"}'
    declared = client.post(
        "/v1/messages", content=big, headers={**alice, "content-type": "application/json"}
    )
    assert declared.status_code == 413 and error(declared)["code"] == "too_large"

    def chunks():
        yield big[:40_000]
        yield big[40_000:]

    sent = client.post(
        "/v1/messages", content=chunks(), headers={**alice, "content-type": "application/json"}
    )
    assert sent.status_code == 413 and "GIFTGENIUS_MAX_REQUEST_BYTES" in error(sent)["message"]


@pytest.mark.slow
def test_unknown_things_are_404(client: TestClient, alice) -> None:
    assert error(client.get("/v1/runs/nope", headers=alice))["message"] == "You have no run 'nope'."
    assert client.get("/v1/catalog/g-nope", headers=alice).status_code == 404
    assert client.get("/v1/checkpoints?run_id=nope", headers=alice).status_code == 404
    nowhere = client.get("/v1/nowhere", headers=alice)
    assert nowhere.status_code == 404 and "/docs" in error(nowhere)["message"]
    assert client.put("/v1/state", headers=alice).status_code == 405


def test_the_service_speaks_the_requests_language(client: TestClient) -> None:
    refused = client.get("/v1/state", headers={"Accept-Language": "fr-FR,fr;q=0.9"})
    assert error(refused)["message"].startswith("Cette requête n'a pas de clé")


@pytest.mark.slow
def test_a_busy_session_is_409_with_retry_after(make_client, alice) -> None:
    client = make_client(lease_wait=0)
    key = bearer(key_for(client.app, "bob"))
    first = client.post("/v1/messages", json={"text": SISTER}, headers=key).json()
    agent = client.app.state.service.agent()
    with agent.sessions.lease(first["run_id"], "another-window", wait=0):
        busy = client.post("/v1/messages", json={"text": "the first one"}, headers=key)
    assert busy.status_code == 409 and busy.headers["retry-after"] == "8"
    assert error(busy)["code"] == "session_busy"
    assert error(busy)["message"].startswith("This conversation is busy in another window")


def test_a_store_that_is_down_is_503_and_not_ready(make_client, monkeypatch) -> None:
    client = make_client(database_url="postgresql+psycopg://nobody@127.0.0.1:1/none")
    down = client.get("/v1/state", headers=bearer("gg_anything"))
    assert down.status_code == 503 and error(down)["code"] == "store_down"
    assert "127.0.0.1:1" in error(down)["message"]
    ready = client.get("/readyz")
    assert ready.status_code == 503
    body = ready.json()
    assert body["status"] == "unready" and not body["checks"]["database"]["ok"]
    assert body["checks"]["sessions"]["ok"] and body["checks"]["model"]["ok"]
    assert body["message"] == "Not ready: database."
    assert "127.0.0.1:1" in body["checks"]["database"]["detail"]
    assert client.get("/healthz").json() == {"status": "ok"}


def test_ready_on_the_embedded_defaults(client: TestClient) -> None:
    ready = client.get("/readyz")
    assert ready.status_code == 200
    assert {name: c["ok"] for name, c in ready.json()["checks"].items()} == {
        "database": True,
        "sessions": True,
        "model": True,
    }


def test_starlettes_own_refusals_join_the_tree() -> None:
    from starlette.exceptions import HTTPException
    from starlette.requests import Request

    from giftgenius.service.errors import InvalidRequest, MethodNotAllowed, from_http

    scope = {"type": "http", "method": "POST", "path": "/v1/x", "headers": [], "query_string": b""}
    request = Request(scope)
    unparsed = from_http(request, HTTPException(400, "There was an error parsing the body"))
    assert isinstance(unparsed, InvalidRequest) and status_of(unparsed).status == 422
    assert "error parsing the body" in str(unparsed)
    assert isinstance(from_http(request, HTTPException(405)), MethodNotAllowed)
    assert status_of(from_http(request, HTTPException(418))).status == 422
    assert status_of(from_http(request, HTTPException(502))).status == 500
