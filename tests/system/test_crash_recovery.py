"""SIGKILL a real chat process at each named fault point; resume in a fresh process.

Every process plays the same scripted model (the ``script`` fixture): it keeps no state, so
the resumed process answers the resent message from the start of its turn.
"""

from __future__ import annotations

import signal

import pytest

from giftgenius.faults import FAULT_POINTS

pytestmark = [pytest.mark.slow, pytest.mark.postgres, pytest.mark.redis]

# A SIGKILLed holder cannot release its lease; it lapses after the lease TTL.
FAST_LEASE = {"GIFTGENIUS_LEASE_TTL": "1", "GIFTGENIUS_LEASE_WAIT": "3"}
SETUP = [
    "Gift for my colleague, he loves board games and coffee, budget 50 dollars",
    "the first one",
]
CONFIRM = "yes, confirm it"
SAVE = "Save this profile as boss"


@pytest.fixture(autouse=True)
def _scripted(script) -> None:
    script.shortlist(
        SETUP[0],
        recipient="colleague",
        interests=["board games", "coffee"],
        budget_max=50,
        currency="USD",
    )
    script.pick(SETUP[1]).confirm(CONFIRM)
    script.turn(
        SAVE,
        script.call("save_recipient_profile", label="boss"),
        script.reply("Saved as boss."),
    )


def _counts(database, user: str) -> tuple[str, int, int, list[str]]:
    with database.read() as repos:
        run = repos.runs.latest_for(user)
        orders = [o for o in repos.orders.list_for(user)]
        profiles = repos.profiles.list(user)
        transcript = repos.transcript.for_run(run.id)
    users_msgs = [e.content for e in transcript if e.role == "user"]
    return run.step, len(orders), len(profiles), users_msgs


@pytest.mark.parametrize("fault", sorted(FAULT_POINTS))
def test_confirming_turn_killed_then_resumed(fault: str, cli_in, database) -> None:
    user = f"crash-{fault}".replace("_", "-")
    ready = cli_in("chat", "--user", user, stdin="\n".join(SETUP) + "\n")
    assert ready.code == 0, ready.err
    killed = cli_in(
        "chat", "--user", user, stdin=CONFIRM + "\n", env={"GIFTGENIUS_FAULT": fault, **FAST_LEASE}
    )
    assert killed.code == -signal.SIGKILL, (killed.code, killed.err)
    step, orders, _, said = _counts(database, user)
    assert said.count(CONFIRM) == 1  # the accepted message was kept, once
    assert step in ("finalizing", "done") and orders <= 1

    state = cli_in("state", "--user", user, "--json")
    assert state.code == 0, state.err
    resumed = cli_in("resume", "--user", user, stdin=CONFIRM + "\n", env=FAST_LEASE)
    if step == "done":  # the commit landed before the kill: nothing left to resume
        assert resumed.code == 3
        assert "ended on" in resumed.out or "terminée le" in resumed.out
    else:
        assert resumed.code == 0, resumed.err
        assert "Welcome back!" in resumed.out or "Bon retour !" in resumed.out
    step, orders, _, said = _counts(database, user)
    assert step == "done" and orders == 1  # never duplicated
    assert said.count(CONFIRM) in (1, 2)  # once per time the user sent it


@pytest.mark.parametrize("fault", ["after_commit", "before_session_save", "after_tool_call"])
def test_saving_a_profile_twice_after_a_crash_keeps_one(fault: str, cli_in, database) -> None:
    user = f"save-{fault}".replace("_", "-")
    cli_in("chat", "--user", user, stdin=SETUP[0] + "\n")
    killed = cli_in(
        "chat", "--user", user, stdin=SAVE + "\n", env={"GIFTGENIUS_FAULT": fault, **FAST_LEASE}
    )
    assert killed.code == -signal.SIGKILL
    again = cli_in("resume", "--user", user, stdin=SAVE + "\n", env=FAST_LEASE)
    assert again.code == 0, again.err
    _, _, profiles, _ = _counts(database, user)
    assert profiles == 1


@pytest.mark.parametrize("sig", ["TERM", "INT"])
def test_sigterm_or_ctrl_c_mid_turn_releases_the_run_at_once(sig: str, cli_in, database) -> None:
    user = f"term-{sig.lower()}"
    cli_in("chat", "--user", user, stdin=SETUP[0] + "\n")
    stopped = cli_in(
        "chat",
        "--user",
        user,
        stdin="the first one\n",
        env={"GIFTGENIUS_FAULT": "after_tool_call", "GIFTGENIUS_FAULT_SIGNAL": sig},
    )
    assert stopped.code == 130, stopped.err
    assert "Interrupted" in stopped.err and "Traceback" not in stopped.err
    # The lease was released on the way out: no waiting for it to lapse.
    resumed = cli_in(
        "resume", "--user", user, stdin="the first one\n", env={"GIFTGENIUS_LEASE_WAIT": "0"}
    )
    assert resumed.code == 0, resumed.err
    assert "interrupted before it was answered" in resumed.out
    assert "busy" not in resumed.out + resumed.err
    with database.read() as repos:
        run = repos.runs.latest_for(user)
        said = [e.content for e in repos.transcript.for_run(run.id) if e.role == "user"]
    assert said.count("the first one") == 2  # kept when interrupted, and once more when resent
