"""What a turn in flight meets and must not undo: erasure, a store going away, a new run.

Each test stops a real chat process at a fault point (``GIFTGENIUS_FAULT_SIGNAL=STOP``),
does something to it from outside (forget the user, kill Redis or Postgres, ``--new`` in
another window, start a second window), then lets it go on. The set-up is production's: a fresh
Postgres database after ``giftgenius db upgrade`` and a Redis server of the test's own on a
free port, which the test may kill and restart without disturbing anyone else (both
from ``conftest.py`` here, shared with the store-outage tests).
"""

from __future__ import annotations

import json
import os
import signal
import time

import pytest

pytestmark = [pytest.mark.slow, pytest.mark.postgres, pytest.mark.redis]

PICK = "the first one"
CONFIRM = "yes, confirm it"
ANOTHER = "another gift please"
LONG_LEASE = {"GIFTGENIUS_LEASE_TTL": "60"}  # a stopped holder keeps its lease meanwhile


@pytest.fixture(autouse=True)
def _scripted(script) -> None:
    """Every chat process plays this script (the conftest's ``script`` sets GIFTGENIUS_MODEL)."""
    script.pick(PICK).confirm(CONFIRM).says(ANOTHER, "This search is finished.")


def _runs(env, user: str) -> list:
    with env.db.read() as repos:
        return repos.runs.list_for(user)


def test_forget_wins_over_a_turn_that_is_running(env) -> None:
    """The stopped turn must not write the erased session back to Redis."""
    stopped = env.stopped_chat("before_session_save", "--user", "erase-me").feed(env.setup)
    stopped.wait_stopped()
    forgot = env.run("forget", "--user", "erase-me")
    assert forgot.code == 0, forgot.err
    assert "Forgot user erase-me" in forgot.out
    went_on = stopped.resume()
    assert "Traceback" not in went_on.err
    assert "erased" in went_on.err  # the window is told why its answer is gone
    assert env.redis.session_keys() == []  # nothing written back, no fresh TTL
    assert _runs(env, "erase-me") == []
    again = env.run("forget", "--user", "erase-me")
    assert again.code == 0 and "Nothing is stored for user erase-me" in again.out
    assert env.redis.session_keys() == []


def test_forget_wins_when_the_turn_cannot_reach_postgres_after_its_save(pg_env) -> None:
    """As above, but the turn's look for its run after the save fails (Postgres is
    down), so only forget's tombstone in Redis keeps the erased session from coming back."""
    env, cluster = pg_env
    user = "erase-me-pg-down"
    stopped = env.stopped_chat("before_session_save", "--user", user).feed(env.setup)
    stopped.wait_stopped()
    forgot = env.run("forget", "--user", user)
    assert forgot.code == 0, forgot.err
    cluster.stop("immediate")
    went_on = stopped.resume()
    assert "Traceback" not in went_on.err
    assert "erased" in went_on.err  # told by the refused save, without the database
    assert env.redis.session_keys() == []  # nothing written back
    assert len(list(env.redis.client().scan_iter(match="*:erased:*"))) == 1  # the tombstone
    assert "erased_session_refused" in env.log_events()
    cluster.start()
    assert _runs(env, user) == []


def test_a_committed_turn_is_answered_when_redis_goes_away(env) -> None:
    """The lease cannot be released, but the turn is committed: answer it."""
    stopped = env.stopped_chat("before_model", "--user", "no-redis").feed(env.setup)
    stopped.wait_stopped()
    env.redis.kill()
    went_on = stopped.resume()
    assert went_on.code == 0, went_on.err
    assert "Redis session store" not in went_on.err
    assert went_on.out.strip()  # the reply was printed
    (run,) = _runs(env, "no-redis")
    assert run.session_version == 1  # committed in Postgres
    with env.db.read() as repos:
        roles = [e.role for e in repos.transcript.for_run(run.id)]
    assert roles[0] == "user" and roles[-1] == "assistant"
    events = env.log_events()
    assert "lease_release_failed" in events and "session_save_failed" in events


def test_a_window_whose_run_was_abandoned_by_new_is_refused(env) -> None:
    """``--new`` elsewhere abandons the run; this window's turns are refused."""
    first = env.run("chat", "--user", "two-windows", stdin=env.setup + "\n")
    assert first.code == 0, first.err
    (old,) = _runs(env, "two-windows")
    window_a = env.stopped_chat("before_model", "--user", "two-windows").feed(PICK, CONFIRM)
    window_a.wait_stopped()
    window_b = env.run("chat", "--user", "two-windows", "--new", stdin=env.setup + "\n")
    assert window_b.code == 0, window_b.err
    went_on = window_a.resume()
    assert "Traceback" not in went_on.err
    assert went_on.err.count("abandoned") == 2, went_on.err  # both of its messages refused
    runs = {r.id: r for r in _runs(env, "two-windows")}
    assert str(runs[old.id].status) == "abandoned"
    assert runs[old.id].session_version == old.session_version  # nothing committed to it
    with env.db.read() as repos:
        said = [e.content for e in repos.transcript.for_run(old.id) if e.role == "user"]
        drafts = repos.orders.list_for("two-windows")
    assert CONFIRM not in said  # refused before it was accepted
    assert drafts == []


def test_a_failed_chat_with_redis_down_leaves_no_empty_run(env) -> None:
    """With Redis unreachable, ``chat`` fails before creating a run."""
    done = env.run("chat", "--user", "finished", stdin=f"{env.setup}\n{PICK}\n{CONFIRM}\n")
    assert done.code == 0, done.err
    (finished,) = _runs(env, "finished")
    assert str(finished.status) == "done"
    env.redis.kill()
    failed = env.run("chat", "--user", "finished", stdin=ANOTHER + "\n")
    assert failed.code == 1
    assert "Redis session store" in failed.err and "Traceback" not in failed.err
    assert [r.id for r in _runs(env, "finished")] == [finished.id]
    env.redis.start()
    state = env.run("state", "--user", "finished", "--json")
    assert state.code == 0, state.err
    shown = json.loads(state.out)
    assert (shown["run_id"], shown["run_status"]) == (finished.id, "done")


def test_a_second_window_does_not_call_a_turn_in_flight_interrupted(env) -> None:
    """Another process mid-turn is not an interrupted message."""
    first = env.run("chat", "--user", "in-flight", stdin=env.setup + "\n")
    assert first.code == 0, first.err
    busy = env.stopped_chat("before_model", "--user", "in-flight", env=LONG_LEASE).feed(PICK)
    busy.wait_stopped()
    second = env.run("chat", "--user", "in-flight", stdin="")
    assert second.code == 0, second.err
    assert "Welcome back" in second.out  # the recap of the run it continues, on stdout
    assert "interrupted" not in second.out + second.err
    assert busy.resume().code == 0
    # Once nobody answers it, an accepted message with no reply IS interrupted.
    short_lease = {"GIFTGENIUS_LEASE_TTL": "1"}
    crashed = env.stopped_chat("before_model", "--user", "in-flight", env=short_lease)
    crashed.feed(CONFIRM).wait_stopped()
    os.kill(crashed.proc.pid, signal.SIGKILL)
    crashed.proc.wait()
    time.sleep(1.5)  # the dead holder's lease lapses
    later = env.run("chat", "--user", "in-flight", stdin="")
    assert later.code == 0, later.err
    assert "Your last message" in later.out and "was interrupted" in later.out
    assert CONFIRM in later.out
