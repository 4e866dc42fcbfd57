"""Profiles stored before the recipient's name and audience existed read as current profiles.

Three stores held the old one-word profile: checkpoints (format 2), session blobs (schema 1)
and saved recipient profiles (no version). Each is read here from a frozen fixture of what
GiftGenius wrote then, through the code path that reads it in production.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from giftgenius.domain import (
    CHECKPOINT_FORMAT_VERSION,
    SESSION_SCHEMA_VERSION,
    Budget,
    CheckpointStep,
    ProfileDraft,
    Step,
    utcnow,
)
from giftgenius.storage.checkpoints import decode_checkpoint, decode_session
from giftgenius.storage.checkpoints import upgrade_profile_v2 as upgrade_profile
from giftgenius.storage.db import Database
from giftgenius.storage.sqlite_sessions import SqliteSessionStore
from giftgenius.storage.tables import CheckpointRow, RecipientProfileRow

FIXTURES = Path(__file__).parent / "fixtures"


def _fixture(name: str) -> dict[str, Any]:
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


def _v2() -> tuple[dict[str, Any], dict[str, Any]]:
    data = _fixture("checkpoint_v2.json")
    row = dict(data["row"])
    row["created_at"] = datetime.fromisoformat(row["created_at"])
    return row, data["payload"]


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    url = (
        f"sqlite:///{tmp_path / 'gg.db'}"
        if request.param == "sqlite"
        else request.getfixturevalue("postgres_url")
    )
    database = Database(url, auto_migrate=True)
    yield database
    database.dispose()


# -- checkpoints ----------------------------------------------------------------------------


def test_v2_checkpoint_gains_the_audience_of_its_recipient_word() -> None:
    row, payload = _v2()
    cp = decode_checkpoint(row, payload)
    assert cp.format_version == CHECKPOINT_FORMAT_VERSION == 3
    assert cp.step is CheckpointStep.filtered and cp.state.step is Step.finalizing
    assert cp.state.profile == ProfileDraft(
        recipient="mother",
        recipient_name=None,
        audience="mother",
        age=62,
        budget=Budget(amount=60, currency="EUR"),
        interests=["gardening"],
        dislikes=["mug"],
        country="FR",
    )
    assert cp.state.search_pool == ["g-0101", "g-0203", "g-0250"]
    assert cp.summary.text == "cherche un cadeau pour sa belle-mère" and cp.next_seq == 9


@pytest.mark.slow
def test_v2_checkpoint_row_in_the_database_reads_as_current(db: Database) -> None:
    row, payload = _v2()
    with db.write() as repos:
        repos.runs.start("legacy-user", row["run_id"])
        repos.session.add(CheckpointRow(**row, payload=payload))
    with db.read() as repos:
        latest = repos.checkpoints.latest(row["run_id"])
    assert latest == decode_checkpoint(row, payload)
    assert latest is not None and latest.state.profile.audience == "mother"


def test_v1_checkpoint_goes_through_every_later_step() -> None:
    """The course's format-1 step labels its result with the constant of its day; it is
    relabelled 2, so the format-3 step still runs on it."""
    data = _fixture("checkpoint_v1.json")
    row = dict(data["row"]) | {"created_at": datetime.fromisoformat(data["row"]["created_at"])}
    profile = decode_checkpoint(row, data["payload"]).state.profile
    assert (profile.recipient, profile.recipient_name, profile.audience) == (
        "colleague",
        None,
        "colleague",
    )


@pytest.mark.parametrize(
    ("recipient", "locale", "audience"),
    [
        ("colleague", "en", "colleague"),  # the catalog's own word
        ("grandparent", "fr", "grandparent"),
        ("tante", "fr", "anyone"),  # a relation that tells no age or tastes
        ("coloc", "fr", "friend"),  # the old vocabulary missed it; the lexicon knows it
        ("belle-soeur", "fr", "sister"),
        ("my hairdresser", "en", "anyone"),  # unknown: kept, audience anyone
        ("someone special", "en", "anyone"),  # describes nobody the lexicon can read
        (None, "en", "anyone"),
    ],
)
def test_a_one_word_profile_is_upgraded(recipient: str | None, locale: str, audience: str) -> None:
    old = {"recipient": recipient, "age": None, "budget": None, "interests": ["tea"]}
    upgraded = upgrade_profile(old, locale)
    assert upgraded == old | {"recipient_name": None, "audience": audience}
    assert ProfileDraft.model_validate(upgraded).audience == audience


# -- session blobs --------------------------------------------------------------------------


def _session_v1() -> dict[str, Any]:
    return _fixture("session_v1.json")["blob"]


def _check_upgraded_session(session: Any) -> None:
    assert session is not None
    assert session.schema_version == SESSION_SCHEMA_VERSION == 2
    assert session.version == 3 and session.state.locale == "fr"
    profile = session.state.profile
    assert profile.recipient == "tante" and profile.recipient_name is None
    assert profile.audience == "anyone"
    assert profile.budget == Budget(amount=40, currency="EUR")
    assert [m.content for m in session.messages] == ["un cadeau pour ma tante, 40 euros"]
    assert session.usage.prompt_tokens == 820 and session.next_seq == 2


def test_v1_session_blob_is_upgraded() -> None:
    _check_upgraded_session(decode_session(_session_v1()))


def test_a_newer_or_broken_session_blob_is_refused() -> None:
    with pytest.raises(ValueError, match="newer than this GiftGenius"):
        decode_session(_session_v1() | {"schema_version": SESSION_SCHEMA_VERSION + 1})
    with pytest.raises(ValueError, match="not valid"):
        decode_session(_session_v1() | {"schema_version": "one"})


def _sqlite_store(path: Path) -> SqliteSessionStore:
    return SqliteSessionStore(path, session_ttl=600, max_lifetime=3600, lease_ttl=5)


def _write_raw_sqlite(path: Path, blob: dict[str, Any]) -> None:
    now = time.time()
    with sqlite3.connect(path) as conn:
        conn.execute(
            "INSERT INTO sessions (run_id, version, data, created_at, expires_at) "
            "VALUES (?, ?, ?, ?, ?)",
            (blob["run_id"], blob["version"], json.dumps(blob), now, now + 600),
        )
    conn.close()


def test_v1_session_in_the_sqlite_store_loads_upgraded(tmp_path: Path) -> None:
    path = tmp_path / "sessions.db"
    store = _sqlite_store(path)
    blob = _session_v1()
    _write_raw_sqlite(path, blob)
    _check_upgraded_session(store.load(blob["run_id"]))


def test_a_newer_session_in_the_sqlite_store_is_dropped_for_a_rebuild(tmp_path: Path) -> None:
    path = tmp_path / "sessions.db"
    store = _sqlite_store(path)
    blob = _session_v1() | {"schema_version": SESSION_SCHEMA_VERSION + 1}
    _write_raw_sqlite(path, blob)
    assert store.load(blob["run_id"]) is None


@pytest.mark.redis
def test_v1_session_in_the_redis_store_loads_upgraded(redis_url: str, redis_prefix: str) -> None:
    from giftgenius.storage.redis_sessions import RedisSessionStore

    store = RedisSessionStore.from_url(
        redis_url, prefix=redis_prefix, session_ttl=600, max_lifetime=3600, lease_ttl=5
    )
    blob = _session_v1()
    keys = store.keys(blob["run_id"])
    client = store._client  # written raw: the store itself only writes the current schema
    state = {k: v for k, v in blob.items() if k not in ("messages", "summary")}
    cap = int((time.time() + 3600) * 1000)
    client.hset(keys.state, mapping={"version": 3, "data": json.dumps(state), "cap": cap})
    client.set(keys.messages, json.dumps(blob["messages"]))
    client.set(keys.summary, json.dumps(blob["summary"]))
    try:
        _check_upgraded_session(store.load(blob["run_id"]))
    finally:
        store.close()


# -- saved recipient profiles ---------------------------------------------------------------


@pytest.mark.slow
def test_saved_profiles_without_an_audience_are_upgraded_on_read(db: Database) -> None:
    saved = _fixture("saved_profiles_v1.json")["profiles"]
    with db.write() as repos:
        repos.users.ensure("legacy-user")
        for n, (label, profile) in enumerate(saved.items()):
            repos.session.add(
                RecipientProfileRow(
                    id=f"p{n:031d}",
                    user_id="legacy-user",
                    label=label,
                    profile=profile,
                    updated_at=utcnow(),
                )
            )
    with db.read() as repos:
        listed = {p.label: p.profile for p in repos.profiles.list("legacy-user")}
        coloc = repos.profiles.get("legacy-user", "coloc")
    audiences = {label: p.audience for label, p in listed.items()}
    assert audiences == {"coloc": "friend", "hairdresser": "anyone", "sister": "sister"}
    assert listed["hairdresser"].recipient == "my hairdresser"  # kept as it was stored
    assert coloc is not None and coloc.profile == listed["coloc"]
    assert coloc.profile.interests == ["board-game"] and coloc.profile.recipient_name is None
