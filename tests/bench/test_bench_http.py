"""``giftgenius bench http``: its counts, its refusal, and a small run on Redis and Postgres."""

from __future__ import annotations

import io

import pytest

from giftgenius.bench.over_http import User, count, marker, markers_in, run_http
from giftgenius.bench.players import configured_stores
from giftgenius.cli.main import main
from giftgenius.settings import load_settings


def _user(number: int, turns: int) -> User:
    user = User(number, f"u-{number}", "key", sent=list(range(1, turns + 1)))
    user.replies = [f"reply {turn}" for turn in user.sent]
    user.run_ids = {f"run-{number}"}
    return user


def _stored(user: User, *, turns: list[int], replies: list[str]) -> dict:
    said = [{"role": "user", "text": f"(ref {marker(user.number, t)}) hi", "seq": t} for t in turns]
    answered = [{"role": "assistant", "text": r, "seq": 0} for r in replies]
    return {"run_id": f"run-{user.number}", "messages": said + answered}


def test_markers_name_the_user_and_the_turn() -> None:
    text = f"(ref {marker(12, 3)}) a gift, (ref {marker(7, 140)})"
    assert markers_in(text) == [(12, 3), (7, 140)]
    assert not any(ch.isdigit() for ch in marker(12, 3))


def test_counts_lost_duplicated_and_cross_user() -> None:
    alice, bob = _user(1, 3), _user(2, 3)
    state = {"user_id": "u-1", "run_id": "run-1"}
    whole = _stored(alice, turns=[1, 2, 3], replies=alice.replies)
    assert count(alice, [alice, bob], whole, state) == (0, 0, 0, ())
    missing = _stored(alice, turns=[1, 3], replies=alice.replies[:2])
    assert count(alice, [alice, bob], missing, state)[:3] == (2, 0, 0)
    twice = _stored(alice, turns=[1, 2, 2, 3], replies=[*alice.replies, "reply 3"])
    assert count(alice, [alice, bob], twice, state)[:3] == (0, 2, 0)
    leaked = _stored(alice, turns=[1, 2, 3], replies=alice.replies)
    leaked["messages"].append({"role": "user", "text": f"(ref {marker(2, 1)}) hi", "seq": 9})
    assert count(alice, [alice, bob], leaked, state)[:3] == (0, 0, 1)
    assert count(alice, [alice, bob], whole, {"user_id": "u-2", "run_id": "run-2"})[2] == 2


def test_several_workers_on_embedded_stores_are_refused() -> None:
    out, err = io.StringIO(), io.StringIO()
    code = main(["bench", "http", "--workers", "2"], stdin=io.StringIO(""), stdout=out, stderr=err)
    assert code == 1 and "needs shared stores" in err.getvalue()


@pytest.mark.slow
@pytest.mark.redis
@pytest.mark.postgres
def test_two_service_processes_lose_double_and_leak_nothing(
    migrated_postgres_url: str, redis_url: str, redis_prefix: str
) -> None:
    settings = load_settings(
        database_url=migrated_postgres_url, redis_url=redis_url, redis_prefix=redis_prefix
    )
    report = run_http(configured_stores(settings), workers=2, users=3, turns=5)
    assert report.first_failure is None
    assert report.turns == report.sent == 15
    assert (report.lost, report.duplicated, report.cross_user, report.failed) == (0, 0, 0, 0)
    assert len(report.per_worker) == 2 and min(report.per_worker) > 0
    assert report.turns_per_second > 0 and report.turn_p99_ms >= report.turn_p50_ms > 0
