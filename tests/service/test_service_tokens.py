"""Signed tokens: a JWT signed with ``GIFTGENIUS_TOKEN_SECRET`` acts for the user its ``sub``
names, and for nobody else; without the secret, badly signed or expired, it is a 401."""

from __future__ import annotations

import base64
import datetime as dt
import io
import json

import pytest
from fastapi.testclient import TestClient
from service_kit import SISTER, bearer

from giftgenius.cli.main import main
from giftgenius.domain import utcnow
from giftgenius.errors import ConfigError
from giftgenius.settings import load_settings
from giftgenius.signed_tokens import mint, user_of

SECRET = "s3cret-" + "x" * 40
HOUR = dt.timedelta(hours=1)


def token(user: str, *, secret: str = SECRET, ttl: dt.timedelta = HOUR, **when: dt.datetime) -> str:
    return mint(secret, user, ttl, **when)


def refused(client: TestClient, headers: dict[str, str]) -> str:
    answer = client.get("/v1/state", headers=headers)
    assert answer.status_code == 401
    assert answer.headers["www-authenticate"].startswith("Bearer")
    body = answer.json()["error"]
    assert body["code"] == "unauthorized"
    message: str = body["message"]
    return message


def _segment(part: dict[str, object]) -> str:
    raw = json.dumps(part).encode()
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


@pytest.mark.slow
def test_a_signed_token_acts_for_its_user(make_client) -> None:
    client = make_client(token_secret=SECRET)
    alice = bearer(token("alice"))
    first = client.post("/v1/messages", json={"text": SISTER}, headers=alice)
    assert first.status_code == 200 and first.json()["shortlist"]
    state = client.get("/v1/state", headers=alice).json()
    assert state["user_id"] == "alice" and state["run_id"] == first.json()["run_id"]
    bob = bearer(token("bob"))
    assert client.get(f"/v1/runs/{first.json()['run_id']}", headers=bob).status_code == 404
    assert client.get("/v1/state", headers=bob).json()["run_id"] is None


def test_without_a_secret_no_token_is_taken(client: TestClient) -> None:
    assert "signed tokens" in refused(client, bearer(token("alice")))


def test_a_wrong_signature_an_expired_or_a_malformed_token_is_401(make_client) -> None:
    client = make_client(token_secret=SECRET)
    assert "not valid" in refused(client, bearer(token("alice", secret="another-" + "y" * 40)))
    long_ago = utcnow() - dt.timedelta(days=2)
    assert "expired" in refused(client, bearer(token("alice", now=long_ago)))
    unsigned = f"{_segment({'alg': 'none', 'typ': 'JWT'})}.{_segment({'sub': 'alice'})}."
    assert "not valid" in refused(client, bearer(unsigned))
    assert "not valid" in refused(client, bearer(token("../etc")))
    assert "not valid" in refused(client, bearer("a.b.c"))
    # what the refusal says never holds the token or the secret
    message = refused(client, bearer(token("alice", secret="another-" + "y" * 40)))
    assert SECRET not in message and "another" not in message


def test_a_token_without_an_expiry_is_refused(make_client) -> None:
    import jwt

    client = make_client(token_secret=SECRET)
    forever = jwt.encode({"sub": "alice"}, SECRET, algorithm="HS256")
    assert "not valid" in refused(client, bearer(forever))


def test_a_short_secret_is_refused_without_being_shown() -> None:
    with pytest.raises(ConfigError) as caught:
        load_settings(token_secret="tooshort-secret")
    assert "at least 32" in str(caught.value) and "tooshort" not in str(caught.value)


def keys_token(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["keys", "token", *argv], stdin=io.StringIO(""), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.slow
def test_keys_token_mints_what_the_service_takes(make_client, monkeypatch) -> None:
    code, _, err = keys_token("--user", "alice")
    assert code == 1 and "GIFTGENIUS_TOKEN_SECRET" in err
    monkeypatch.setenv("GIFTGENIUS_TOKEN_SECRET", SECRET)
    code, out, _ = keys_token("--user", "alice", "--ttl", "2h")
    assert code == 0 and "alice" in out.splitlines()[0]
    minted = out.splitlines()[-1]
    assert user_of(minted, SECRET) == "alice"
    client = make_client(token_secret=SECRET)
    assert client.get("/v1/state", headers=bearer(minted)).json()["user_id"] == "alice"
    code, _, err = keys_token("--user", "alice", "--ttl", "soon")
    assert code == 2 and "--ttl" in err
