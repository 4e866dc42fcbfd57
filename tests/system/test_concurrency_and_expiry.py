"""Two terminals on one run, lapsed lease holders, expired and wiped sessions.

Turns are played by a scripted model (the ``script`` fixture), the same file in every
process and agent.
"""

from __future__ import annotations

import json
import os
import time
from collections import defaultdict

import pytest
import redis

from giftgenius.agent.runner import Agent
from giftgenius.app import build_agent
from giftgenius.errors import VersionConflict
from giftgenius.evaluate.forking import Forked, ForkServers
from giftgenius.settings import load_settings

pytestmark = [pytest.mark.postgres, pytest.mark.redis]


def _spawn(server: ForkServers, env: dict[str, str], user: str) -> Forked:
    """A ``chat`` process of its own, forked from the session's preloaded server."""
    return server.start(["chat", "--user", user], {**os.environ, **env}, os.getcwd())


@pytest.mark.slow
def test_two_chat_processes_on_one_user_apply_turns_one_at_a_time(
    prod_env, cli_in, command_server, database, script
) -> None:
    user = "twin"
    assert cli_in("chat", "--user", user, stdin="").code == 0  # create the run
    a_lines = [f"she loves hiking number {i}" for i in range(6)]
    b_lines = [f"she loves photography number {i}" for i in range(6)]
    for line in a_lines + b_lines:
        script.profile(line, interests=[line.split()[2]])  # the agent asks what is missing
    procs = [_spawn(command_server, prod_env, user) for _ in range(2)]
    outputs = [
        p.communicate("\n".join(lines) + "\n", timeout=180)
        for p, lines in zip(procs, (a_lines, b_lines), strict=True)
    ]
    assert all(p.returncode == 0 for p in procs), outputs
    with database.read() as repos:
        run = repos.runs.active_for(user)
        entries = repos.transcript.for_run(run.id)
    said = [e.content for e in entries if e.role == "user"]
    refused = "".join(err for _, err in outputs).count("not taken")
    for line in a_lines + b_lines:
        assert said.count(line) <= 1
    assert len(said) + refused == len(a_lines) + len(b_lines)  # none dropped silently
    assert "Scripted model" not in "".join(err for _, err in outputs)
    # each turn's entries are contiguous: turns never interleave
    positions: dict[str, list[int]] = defaultdict(list)
    for index, entry in enumerate(entries):
        positions[entry.turn_id].append(index)
    for index_list in positions.values():
        assert index_list == list(range(index_list[0], index_list[0] + len(index_list)))
    assert [e.seq for e in entries] == sorted(e.seq for e in entries)


@pytest.mark.slow
def test_a_busy_session_refuses_the_second_turn_with_a_message(prod_env, cli_in, script) -> None:
    """The script has no turn: the message must be refused before any model is asked."""
    settings = load_settings(lease_wait=0.2)
    holder = build_agent(settings)
    other = build_agent(settings)
    try:
        opened = holder.open("busy")
        with holder.sessions.lease(opened.run.id, "someone-else", wait=0):
            ran = cli_in(
                "chat",
                "--user",
                "busy",
                stdin="gift for my mum\n",
                env={"GIFTGENIUS_LEASE_WAIT": "0.2"},
            )
        assert ran.code == 0
        assert "not taken" in ran.err
        assert "Traceback" not in ran.err and "Scripted model" not in ran.err
        with other.db.read() as repos:
            assert repos.transcript.for_run(opened.run.id) == []
    finally:
        holder.close()
        other.close()


class _Interleaving:
    """A model that lets another holder run a whole turn while this one waits on it."""

    def __init__(self, inner, during) -> None:
        self.inner, self.during, self.name = inner, during, inner.name

    def complete(self, request, on_text=None):
        if self.during is not None:
            during, self.during = self.during, None
            during()
        return self.inner.complete(request, on_text)


@pytest.mark.slow
def test_a_holder_whose_lease_lapsed_cannot_commit(prod_env, script) -> None:
    # Each update leaves the budget missing: the agent asks for it, one model call a turn.
    script.profile("gift for my dad, he loves coffee", recipient="father", interests=["coffee"])
    script.profile("gift for my sister instead", recipient="sister")
    settings = load_settings()
    slow: Agent = build_agent(settings)
    fast: Agent = build_agent(settings)
    try:
        run = slow.open("lapsed").run
        stale = slow.inspect("lapsed")
        assert stale is not None
        # slow's lease "lapsed" mid-turn: fast takes the run and commits a whole turn.
        slow.model = _Interleaving(
            slow.model, lambda: fast.turn(run.id, "lapsed", "gift for my dad, he loves coffee")
        )
        with pytest.raises(VersionConflict, match="Another window changed this conversation"):
            slow._turn(run, stale.loaded, "gift for my sister instead", None)
        state = fast.inspect("lapsed")
        assert state is not None
        assert state.loaded.session.state.profile.recipient == "father"
        with fast.db.read() as repos:
            said = [e.content for e in repos.transcript.for_run(run.id) if e.role == "user"]
        assert sorted(said) == ["gift for my dad, he loves coffee", "gift for my sister instead"]
        assert fast.model.unconsumed() == [
            "turn 2 'gift for my sister instead' step 1 (tool calls update_profile)",
        ]
        assert slow.model.inner.failures == [] and len(slow.model.inner.requests) == 1
    finally:
        slow.close()
        fast.close()


def _wait_gone(client: redis.Redis, pattern: str, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while list(client.scan_iter(match=pattern)):
        assert time.monotonic() < deadline, "session keys never expired"
        time.sleep(0.1)


@pytest.mark.slow
def test_resume_rebuilds_an_expired_session_from_its_checkpoint(prod_env, cli_in, script) -> None:
    script.shortlist(
        "gift for my friend, loves tea and books, 35 EUR",
        recipient="friend",
        interests=["tea", "books"],
        budget_max=35,
        currency="EUR",
    )
    chat = cli_in(
        "chat",
        "--user",
        "ttl",
        stdin="gift for my friend, loves tea and books, 35 EUR\n",
        env={"GIFTGENIUS_SESSION_TTL": "1"},
    )
    assert chat.code == 0, chat.err
    before = cli_in("state", "--user", "ttl", "--json", env={"GIFTGENIUS_SESSION_TTL": "1"})
    client = redis.Redis.from_url(prod_env["GIFTGENIUS_REDIS_URL"])
    _wait_gone(client, prod_env["GIFTGENIUS_REDIS_PREFIX"] + "*session*")
    after = cli_in("state", "--user", "ttl", "--json")
    assert after.code == 0
    doc = json.loads(after.out)
    assert doc["source"] == "checkpoint"
    assert doc["state"] == json.loads(before.out)["state"]
    resumed = cli_in("resume", "--user", "ttl", stdin="/state\n")
    assert "Welcome back! You were looking for a gift for your friend" in resumed.out
    assert "from checkpoint" in resumed.out  # /state names where the state came from


@pytest.mark.slow
def test_a_wiped_redis_is_rebuilt_not_silently_empty(prod_env, cli_in, wipe_db, script) -> None:
    script.shortlist(
        "gift for my sister, she's into yoga, 60 USD",
        recipient="sister",
        interests=["yoga"],
        budget_max=60,
        currency="USD",
    )
    db = wipe_db.connection_pool.connection_kwargs["db"]
    env = {"GIFTGENIUS_REDIS_URL": prod_env["GIFTGENIUS_REDIS_URL"].rsplit("/", 1)[0] + f"/{db}"}
    cli_in("chat", "--user", "wipe", stdin="gift for my sister, she's into yoga, 60 USD\n", env=env)
    before = json.loads(cli_in("state", "--user", "wipe", "--json", env=env).out)
    assert before["source"] == "live" and wipe_db.dbsize() > 0
    wipe_db.flushdb()
    after = json.loads(cli_in("state", "--user", "wipe", "--json", env=env).out)
    assert after["source"] in ("checkpoint", "transcript")
    assert after["state"] == before["state"]
    assert after["session_version"] == before["session_version"]
