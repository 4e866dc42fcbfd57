"""The tools and the gift history: a confirmed gift is kept for its recipient, and a later
search for the same person leaves it out and says which and when (``given_before``)."""

from __future__ import annotations

import json

import pytest

from giftgenius.agent.tools import TurnContext, execute
from giftgenius.domain import ProfileDraft, RecipientProfile, RunStatus
from giftgenius.replies.outcomes import Outcome, present
from giftgenius.storage.db import Database

COFFEE = {"interests": ["coffee"], "budget_max": 60, "currency": "EUR"}


def call(ctx: TurnContext, name: str, **args: object) -> dict:
    return execute(ctx, name, json.dumps(args))


def _commit(ctx: TurnContext, db: Database) -> None:
    """What the run-cycle does at the end of the turn: the staged changes land at once."""
    with db.write() as repos:
        for change in ctx.staged:
            change(repos)
        repos.runs.set_status(ctx.run_id, RunStatus.done)
    ctx.staged.clear()


def _give(make_ctx, db: Database, recipient: str, run_id: str = "run-1") -> tuple[str, str]:
    ctx = make_ctx(run_id=run_id)
    found = call(ctx, "update_profile", recipient=recipient, **COFFEE)
    first = found["shortlist"][0]
    assert "given_before" not in found  # nothing was given yet
    assert call(ctx, "select_gift", gift_id=first["id"])["ok"]
    assert call(ctx, "confirm_choice")["ok"]
    _commit(ctx, db)
    return first["id"], first["title"]


@pytest.mark.slow
def test_the_same_mother_is_not_offered_the_same_gift(make_ctx, db: Database) -> None:
    gift_id, title = _give(make_ctx, db, "my mum")
    with db.read() as repos:
        [kept] = repos.gifts.list_for("alice")
    assert (kept.gift_id, kept.title, kept.recipient, kept.run_id) == (
        gift_id,
        title,
        "mum",
        "run-1",
    )
    assert kept.confirmed_at.date().isoformat() == "2026-11-29"  # the agent's day, not now

    ctx = make_ctx(run_id="run-2")
    found = call(ctx, "update_profile", recipient="my mother", **COFFEE)
    assert gift_id not in [c["id"] for c in found["shortlist"]]
    assert gift_id not in ctx.state.candidate_ids and found["shortlist"]
    assert found["given_before"] == [
        {
            "gift_id": gift_id,
            "title": title,
            "recipient": "mum",
            "recipient_name": None,
            "given_on": "2026-11-29",
        }
    ]
    outcome = [Outcome("update_profile", {}, found)]
    reply = present(outcome, found["state"], "en", latest=1)
    assert reply is not None
    assert f"You gave your mother **{title}** in November 2026, so I left it out." in reply
    # a new search for her leaves it out as well, and says so again
    again = call(ctx, "search_candidates", extra_keywords=[])
    assert gift_id not in [c["id"] for c in again["shortlist"]] and again["given_before"]


def test_someone_else_is_still_offered_it(make_ctx, db: Database) -> None:
    gift_id, _ = _give(make_ctx, db, "my mum")
    ctx = make_ctx(run_id="run-2")
    found = call(ctx, "update_profile", recipient="my sister", **COFFEE)
    assert "given_before" not in found
    assert gift_id in [c["id"] for c in found["shortlist"]]


@pytest.mark.slow
def test_a_gift_is_kept_under_the_saved_profile_of_the_same_person(make_ctx, db: Database) -> None:
    with db.write() as repos:
        repos.profiles.upsert(
            RecipientProfile(
                user_id="alice",
                label="clara",
                profile=ProfileDraft(recipient="sister", recipient_name="Clara", audience="sister"),
            )
        )
    gift_id, _ = _give(make_ctx, db, "Clara")  # her name alone
    with db.read() as repos:
        [kept] = repos.gifts.list_for("alice")
    assert (kept.recipient, kept.recipient_name) == ("sister", "Clara")
    ctx = make_ctx(run_id="run-2")
    assert call(ctx, "load_recipient_profile", label="Clara")["ok"]
    found = call(ctx, "update_profile", **COFFEE)
    assert [g["gift_id"] for g in found["given_before"]] == [gift_id]


def test_a_described_gift_is_never_one_given_before(make_ctx, db: Database) -> None:
    gift_id, title = _give(make_ctx, db, "my mum")
    ctx = make_ctx(run_id="run-2")
    call(ctx, "update_profile", recipient="my mum", **COFFEE)
    chosen = call(ctx, "select_described_gift", described=title, price_end=None)
    assert chosen["ok"] and ctx.state.selected_gift_id != gift_id
