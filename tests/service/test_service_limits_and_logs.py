"""Per-user rate limits (memory embedded, Redis shared) and access lines without PII."""

from __future__ import annotations

import logging

import pytest
from service_kit import SISTER, bearer, key_for

from giftgenius.errors import StorageError
from giftgenius.service.observe import RequestRecord
from giftgenius.settings import load_settings
from giftgenius.storage.rate_limits import RateLimiter, user_key


@pytest.mark.slow
def test_past_the_limit_a_user_gets_429_with_retry_after(make_client) -> None:
    client = make_client(rate_limit="3/minute")
    alice = bearer(key_for(client.app, "alice"))
    bob = bearer(key_for(client.app, "bob"))
    assert [client.get("/v1/state", headers=alice).status_code for _ in range(3)] == [200] * 3
    refused = client.get("/v1/state", headers=alice)
    assert refused.status_code == 429
    assert 1 <= int(refused.headers["retry-after"]) <= 60
    assert refused.json()["error"]["code"] == "rate_limited"
    assert "3/minute" in refused.json()["error"]["message"]
    assert client.get("/v1/state", headers=bob).status_code == 200  # his own count
    assert client.get("/healthz").status_code == 200  # no key, no count


def test_a_rate_limit_that_cannot_be_read_is_refused_at_start() -> None:
    from giftgenius.errors import ConfigError

    with pytest.raises(ConfigError, match="GIFTGENIUS_RATE_LIMIT"):
        load_settings(rate_limit="lots")
    assert load_settings(rate_limit="10 per second").rate_limit == "10 per second"


@pytest.mark.redis
def test_on_redis_the_count_is_shared_and_keyed_by_a_hash(redis_url, redis_prefix) -> None:
    import redis

    settings = load_settings(redis_url=redis_url, redis_prefix=redis_prefix, rate_limit="2/hour")
    one, two = RateLimiter.from_settings(settings), RateLimiter.from_settings(settings)
    assert one.hit("alice").allowed and two.hit("alice").allowed  # two workers, one count
    third = one.hit("alice")
    assert not third.allowed and 1 <= third.retry_after <= 3600
    keys = [k.decode() for k in redis.Redis.from_url(redis_url).scan_iter(f"{redis_prefix}*")]
    assert keys and all("alice" not in k and user_key("alice") in k for k in keys)


def test_redis_down_is_a_store_error() -> None:
    settings = load_settings(redis_url="redis://127.0.0.1:1/0")
    with pytest.raises(StorageError, match="Redis"):
        RateLimiter.from_settings(settings).hit("alice")


@pytest.mark.slow
def test_each_request_is_one_line_and_one_record_without_pii(
    make_client, caplog: pytest.LogCaptureFixture
) -> None:
    client = make_client()
    seen: list[RequestRecord] = []
    client.app.state.request_hooks.append(seen.append)
    key = key_for(client.app, "alice")
    alice = bearer(key)
    with caplog.at_level(logging.INFO, logger="giftgenius.service.access"):
        run_id = client.post("/v1/messages", json={"text": SISTER}, headers=alice).json()["run_id"]
        client.get(f"/v1/runs/{run_id}", headers=alice)
        client.get("/v1/catalog/search", params={"q": "secret words"}, headers=alice)
        client.get("/v1/nowhere/at-all")
        client.get("/v1/state")
    assert [(r.method, r.route, r.status) for r in seen] == [
        ("POST", "/v1/messages", 200),
        ("GET", "/v1/runs/{run_id}", 200),
        ("GET", "/v1/catalog/search", 200),
        ("GET", "unmatched", 404),
        ("GET", "/v1/state", 401),
    ]
    assert {r.user for r in seen[:3]} == {user_key("alice")} and seen[4].user is None
    assert all(r.duration > 0 for r in seen)
    logged = [r for r in caplog.records if r.name == "giftgenius.service.access"]
    assert len(logged) == 5
    text = "\n".join(r.getMessage() + repr(r.__dict__) for r in logged)
    for secret in ("alice", key, run_id, "sister", "secret words", "nowhere"):
        assert secret not in text
