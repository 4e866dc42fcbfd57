"""Which tool outcomes settle a turn, and how the agent words them (from JSON results, as
the model sees them)."""

from __future__ import annotations

from typing import Any

from giftgenius.replies.outcomes import Outcome, present

PROFILE = {
    "recipient": "my sister",
    "interests": ["tea"],
    "budget": {"amount": 60, "currency": "EUR"},
}
GIFT = {"id": "tea-1", "title": "Tea Sampler", "price": 24.0, "currency": "EUR"}


def _state(**changes: Any) -> dict[str, Any]:
    state = {
        "step": "finalizing",
        "missing": [],
        "profile": PROFILE,
        "candidate_ids": ["tea-1"],
        "selected_gift_id": None,
        "locale": "en",
        "today": "2026-12-01",
    }
    return {**state, **changes}


def _ok(name: str, args: dict[str, Any] | None = None, **result: Any) -> Outcome:
    return Outcome(name, args or {}, {"ok": True, **result, "state": _state()})


def _shortlist(**extra: Any) -> dict[str, Any]:
    return {"shortlist": [{**GIFT, "delivery_days": 3, "matched": ["tea"]}], **extra}


def test_a_shortlist_that_passes_settles_the_turn() -> None:
    shown = present([_ok("update_profile", **_shortlist())], _state(), "en", latest=1)
    assert shown is not None
    assert shown.startswith("Noted: ") and "Here is 1 idea that fits" in shown
    assert "Tea Sampler" in shown


def test_it_is_said_in_the_person_s_language() -> None:
    shown = present([_ok("search_candidates", **_shortlist())], _state(), "fr", latest=1)
    assert shown is not None and "Voici 1 idée qui convient" in shown


def test_a_dead_end_goes_back_to_the_model() -> None:
    dead = _ok("update_profile", shortlist=[], rejected={"over_budget": 3}, relax=[])
    assert present([dead], _state(candidate_ids=[]), "en", latest=1) is None


def test_a_refusal_in_the_last_round_goes_back_to_the_model() -> None:
    refused = Outcome("confirm_choice", {}, {"ok": False, "error": "select a gift first"})
    outcomes = [_ok("select_gift", selected=GIFT), refused]
    assert present(outcomes, _state(), "en", latest=2) is None
    assert present(outcomes, _state(), "en", latest=1) is None


def test_a_refusal_mended_in_a_later_round_is_told_before_the_outcome() -> None:
    refused = Outcome(
        "update_profile", {}, {"ok": False, "error": "…", "code": "recipient.empty", "params": {}}
    )
    shown = present([refused, _ok("update_profile", **_shortlist())], _state(), "en", latest=1)
    assert shown is not None and shown.startswith("Who is the gift for?")


def test_a_choice_and_a_confirmation() -> None:
    chosen = present([_ok("select_gift", selected=GIFT)], _state(), "en", latest=1)
    assert chosen == (
        "Good choice: **Tea Sampler** (€24). Shall I confirm it and record the order draft?"
    )
    done = _ok("confirm_choice", gift=GIFT, order_draft_id="0123456789abcdef")
    confirmed = present([done], _state(), "en", latest=1)
    assert confirmed is not None and "(ref. 01234567)" in confirmed


def test_a_saved_profile_is_told_before_the_outcome_and_is_not_one_alone() -> None:
    saved = _ok("save_recipient_profile", saved_label="Sis")
    assert present([saved], _state(), "en", latest=1) is None
    shown = present([_ok("confirm_choice", gift=GIFT), saved], _state(), "en", latest=2)
    assert shown is not None and shown.startswith('I saved this recipient\'s profile as "Sis".')


def test_an_incomplete_profile_gets_the_next_question() -> None:
    state = _state(step="collecting_profile", missing=["budget"], candidate_ids=[])
    update = Outcome("update_profile", {}, {"ok": True, "state": state})
    shown = present([update], state, "en", latest=1)
    assert shown is not None and "budget" in shown and shown.endswith("?")


def test_an_update_that_settles_nothing_goes_back_to_the_model() -> None:
    assert present([_ok("update_profile")], _state(), "en", latest=1) is None
    assert present([_ok("get_gift_details", gift=GIFT)], _state(), "en", latest=1) is None
