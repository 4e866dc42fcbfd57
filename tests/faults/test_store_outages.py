"""Store outages mid-turn: Redis and Postgres taken away at each point.

A real chat process is stopped (SIGSTOP) at each named fault point of its turn; meanwhile
the test kills, restarts or flushes its own ``redis-server``, or stops its own Postgres
cluster (``pg_ctl stop -m fast`` and ``-m immediate``) and either starts it again before
the turn goes on or only after; then the turn is continued (SIGCONT). Every case must end
with a normal answer or one plain message, and once the dust settles — the store back, one
more turn taken in a fresh process — nothing accepted is lost or duplicated: each line
the user sent is in the transcript exactly once, no reply twice, the transcript's numbers
run without a gap, the run's committed version counts the committed turns, and the live
session holds that same version.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable

import pytest

from giftgenius.app import build_agent
from giftgenius.domain import TranscriptEntry
from giftgenius.faults import FAULT_POINTS
from giftgenius.settings import load_settings

pytestmark = [pytest.mark.slow, pytest.mark.redis, pytest.mark.postgres]

POINTS = sorted(FAULT_POINTS)
# Points a turn reaches only after its commit: an outage there cannot undo the turn.
COMMITTED_BY = {"after_commit", "before_session_save"}

PICK = "the first one"
NEXT = "what do you think?"
PICKED = "Shall I confirm it and record the order draft?"  # the agent asks it
SHORTLISTED = "ideas that fit"  # the agent presents the shortlist
NEXT_REPLY = "It is a fine choice."
DB_DOWN = "Cannot reach the database"


@pytest.fixture(autouse=True)
def _scripted(script) -> None:
    script.pick(PICK).says(NEXT, NEXT_REPLY)


def _user(kind: str, point: str, how: str) -> str:
    return f"{kind}-{how}-{point}".replace("_", "-")


def _turns(entries: list[TranscriptEntry]) -> list[list[TranscriptEntry]]:
    by_turn: dict[str, list[TranscriptEntry]] = defaultdict(list)
    for entry in entries:
        by_turn[entry.turn_id].append(entry)
    return sorted(by_turn.values(), key=lambda turn: turn[0].seq)


def _settled(env, user: str, said: list[str]) -> int:
    """Check the run once the dust settled; returns how many turns committed."""
    agent = build_agent(load_settings())
    try:
        opened = agent.inspect(user)
        assert opened is not None
        run = opened.run
        with agent.db.read() as repos:
            assert len(repos.runs.list_for(user)) == 1  # no stray run was started
            entries = repos.transcript.for_run(run.id)
            checkpoints = repos.checkpoints.list(user, run.id)
        live = agent.sessions.load(run.id)
    finally:
        agent.close()
    # Every line accepted exactly once, in the order sent; numbers without a gap.
    assert [e.content for e in entries if e.role == "user"] == said
    assert [e.seq for e in entries] == list(range(1, len(entries) + 1))
    turns = _turns(entries)
    assert [turn[0].role for turn in turns] == ["user"] * len(said)
    committed = [turn for turn in turns if len(turn) > 1]
    for turn in committed:  # a committed turn ends with its one reply, never two
        replies = [e for e in turn if e.role == "assistant" and not e.tool_calls]
        assert replies == [turn[-1]], [e.content for e in turn]
    assert run.session_version == len(committed)
    assert all(cp.session_version <= run.session_version for cp in checkpoints)
    steps = [(cp.step, cp.session_version) for cp in checkpoints]
    assert len(steps) == len(set(steps))  # no checkpoint written twice
    # The session validates, and the live copy the last turn saved has the run's version.
    assert live is not None and live.version == run.session_version
    assert opened.loaded.session.version == run.session_version
    return len(committed)


def _answered(done, reply: str) -> None:
    assert done.code == 0, done.err
    assert reply in done.out
    assert "Traceback" not in done.err


@pytest.mark.parametrize("outage", ["killed", "restarted", "flushed"])
@pytest.mark.parametrize("point", POINTS)
def test_redis_outage_mid_turn(point: str, outage: str, pg_env) -> None:
    """Redis holds only the live copy and the lease: a turn in flight is answered as usual.

    Killed (and left down until the turn ended), restarted empty, or flushed: the lease
    cannot be renewed or released and the live session cannot be saved (both logged); the
    turn commits in Postgres on its version fence and the next turn rebuilds the session
    from the database.
    """
    env, _ = pg_env
    user = _user("redis", point, outage)
    _answered(env.chat_here(user, env.setup), SHORTLISTED)
    stopped = env.stopped_chat(point, "--user", user).feed(PICK).wait_stopped()
    take_away: dict[str, Callable[[], None]] = {
        "killed": env.redis.kill,
        "restarted": env.redis.restart,
        "flushed": env.redis.flush,
    }
    take_away[outage]()
    _answered(stopped.resume(), PICKED)
    if outage == "killed":
        env.redis.start()  # empty, as after any restart without persistence
    _answered(env.chat_here(user, NEXT), NEXT_REPLY)
    assert _settled(env, user, [env.setup, PICK, NEXT]) == 3


@pytest.mark.parametrize("mode", ["fast", "immediate"])
@pytest.mark.parametrize("point", POINTS)
def test_postgres_down_mid_turn(point: str, mode: str, pg_env) -> None:
    """Postgres stops and stays down while the turn goes on.

    Before the commit, the turn cannot be committed: one plain line says the database
    cannot be reached (exit 1), and the message the user sent stays accepted. After it, the
    turn is answered. Either way the next turn, once Postgres is back, works.
    """
    env, cluster = pg_env
    user = _user("pg-down", point, mode)
    _answered(env.chat_here(user, env.setup), SHORTLISTED)
    stopped = env.stopped_chat(point, "--user", user).feed(PICK).wait_stopped()
    cluster.stop(mode)
    went_on = stopped.resume()
    assert "Traceback" not in went_on.err
    if point in COMMITTED_BY:
        _answered(went_on, PICKED)
    else:
        assert went_on.code == 1, went_on
        assert DB_DOWN in went_on.err and PICKED not in went_on.out
        (told,) = [line for line in went_on.err.splitlines() if DB_DOWN in line]
        assert told.endswith("(or unset it to use the embedded SQLite file).")  # one line
    cluster.start()
    later = env.chat_here(user, NEXT)
    _answered(later, NEXT_REPLY)
    if point not in COMMITTED_BY:  # told that the message in the failed turn got no answer
        assert "was interrupted" in later.out and PICK in later.out
    committed = _settled(env, user, [env.setup, PICK, NEXT])
    assert committed == (3 if point in COMMITTED_BY else 2)


@pytest.mark.parametrize("mode", ["fast", "immediate"])
@pytest.mark.parametrize("point", POINTS)
def test_postgres_restarted_mid_turn(point: str, mode: str, pg_env) -> None:
    """Postgres stops and starts again while the turn is stopped: the turn is answered.

    The process's pooled connections died with the server; they are replaced on checkout
    (``pool_pre_ping``), so the turn goes on as if nothing happened.
    """
    env, cluster = pg_env
    user = _user("pg-restart", point, mode)
    _answered(env.chat_here(user, env.setup), SHORTLISTED)
    stopped = env.stopped_chat(point, "--user", user).feed(PICK).wait_stopped()
    cluster.stop(mode)
    cluster.start()
    _answered(stopped.resume(), PICKED)
    _answered(env.chat_here(user, NEXT), NEXT_REPLY)
    assert _settled(env, user, [env.setup, PICK, NEXT]) == 3
