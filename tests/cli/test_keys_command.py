"""``giftgenius keys``: a key is printed once, stored hashed, listed by id, revoked by id."""

from __future__ import annotations

import pytest

from giftgenius.settings import load_settings
from giftgenius.storage.db import Database


def _user_for(key: str) -> str | None:
    db = Database.from_settings(load_settings())
    try:
        with db.read() as repos:
            return repos.keys.user_for(key)
    finally:
        db.dispose()


@pytest.mark.slow
def test_create_prints_the_key_last_list_never_shows_it_revoke_ends_it(cli) -> None:
    made = cli("keys", "create", "--user", "alice")
    assert made.code == 0, made.err
    *said, key = made.out.strip().splitlines()
    assert key.startswith("gg_") and len(key) > 40 and "alice" in said[0]
    assert _user_for(key) == "alice"
    listed = cli("keys", "list", "--json").json()["keys"]
    assert [k["user_id"] for k in listed] == ["alice"] and listed[0]["revoked_at"] is None
    assert key not in cli("keys", "list").out
    assert cli("keys", "revoke", listed[0]["id"]).code == 0
    assert _user_for(key) is None
    assert cli("keys", "list", "--user", "alice", "--json").json()["keys"][0]["revoked_at"]


@pytest.mark.slow
def test_an_unknown_key_id_and_a_bad_user_are_plain_errors(cli) -> None:
    unknown = cli("keys", "revoke", "nope")
    assert unknown.code == 1 and "No API key has id 'nope'" in unknown.err
    assert cli("keys", "create", "--user", "not a user!").code == 2
    assert "No API keys yet" in cli("keys", "list").out


@pytest.mark.slow
def test_forget_erases_the_users_keys(cli) -> None:
    key = cli("keys", "create", "--user", "alice").out.strip().splitlines()[-1]
    forgot = cli("forget", "--user", "alice")
    assert forgot.code == 0 and "1 API key" in forgot.out
    assert _user_for(key) is None
