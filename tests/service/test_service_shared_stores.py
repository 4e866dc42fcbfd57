"""The service on Redis and Postgres: a conversation, readiness, and the same refusals."""

from __future__ import annotations

import pytest
from service_kit import SISTER, bearer, key_for

pytestmark = [pytest.mark.redis, pytest.mark.postgres]


@pytest.mark.slow
def test_a_conversation_on_redis_and_postgres(
    make_client, seeded_postgres_url, redis_url, redis_prefix
) -> None:
    client = make_client(
        database_url=seeded_postgres_url, redis_url=redis_url, redis_prefix=redis_prefix
    )
    assert client.get("/readyz").status_code == 200
    alice = bearer(key_for(client.app, "alice"))
    first = client.post("/v1/messages", json={"text": SISTER}, headers=alice).json()
    assert first["step"] == "finalizing" and first["shortlist"]
    client.post("/v1/messages", json={"text": "the first one"}, headers=alice)
    done = client.post("/v1/messages", json={"text": "yes"}, headers=alice).json()
    assert done["step"] == "done" and done["version"] == 3
    state = client.get("/v1/state", headers=alice).json()
    assert state["source"] == "live" and state["session_version"] == 3
    bob = bearer(key_for(client.app, "bob"))
    assert client.get(f"/v1/runs/{first['run_id']}", headers=bob).status_code == 404
    assert client.delete("/v1/user", headers=alice).json()["erased"]["api_keys"] == 1
    assert client.get("/v1/state", headers=alice).status_code == 401
