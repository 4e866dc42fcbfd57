"""Tool outcomes told to the person: what the agent says itself when a turn's tools settled it.

A shortlist that passes, a choice, a confirmed order and the next question about the
recipient need no model to phrase them: the tool result holds everything the person must
read. The agent presents these *conclusive* outcomes itself and ends the turn without
another model call (``present``), as openai-agents' ``StopAtTools`` does — about one model
call per line instead of two. What is not conclusive (a refusal, a dead end, a saved
profile alone) goes back to the model, which explains it in its own words; the offline
model builds those replies from the same parts (``notes``, ``main``).

Everything here reads tool results as the model sees them: JSON objects with ``ok`` and,
on success, the ``state`` after the call.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from giftgenius.replies import refusals
from giftgenius.replies import texts as r
from giftgenius.replies.given import given_note, known_note, recalled_note

RECALL = "recall_memories"  # notes of earlier searches, said when a search starts from one
# The tool that answers a question about the listed gifts: its result is facts for the
# model to answer with, never an outcome the agent presents.
ANSWERED_BY_THE_MODEL = "get_gift_details"


@dataclass(frozen=True)
class Outcome:
    """One tool call of this turn and its result, as the model sees them."""

    name: str
    arguments: dict[str, Any]
    result: dict[str, Any]

    @property
    def ok(self) -> bool:
        return self.result.get("ok") is True


def latest_state(outcomes: Sequence[Outcome], default: dict[str, Any]) -> dict[str, Any]:
    """The state after the last call that returned one (every successful call does)."""
    for outcome in reversed(outcomes):
        state = outcome.result.get("state")
        if isinstance(state, dict):
            return state
    return default


def found(outcomes: Sequence[Outcome]) -> Outcome | None:
    """This turn's last search-and-filter result: the tools that move the workflow
    (update_profile, load_recipient_profile, search_candidates) return a ``shortlist``
    when they searched."""
    searched = [o for o in outcomes if o.ok and "shortlist" in o.result]
    return searched[-1] if searched else None


def present(
    outcomes: Sequence[Outcome], state: dict[str, Any], locale: str, *, latest: int
) -> str | None:
    """The reply for a turn whose last ``latest`` calls all succeeded and settled it, or
    None when the model has more to say or do."""
    if not outcomes or latest < 1 or not all(o.ok for o in outcomes[-latest:]):
        return None
    if any(o.name == ANSWERED_BY_THE_MODEL for o in outcomes[-latest:]):
        return None  # a question was asked: the model answers it, with whatever else it did
    settled = main(outcomes, state, locale)
    if settled is None or not settled[1]:
        return None
    return "\n\n".join(p for p in [*notes(outcomes, locale), settled[0]] if p)


def notes(outcomes: Sequence[Outcome], locale: str) -> list[str]:
    """What else the turn did, said before its main outcome: a profile saved or loaded, a
    refused field when the rest of the message was recorded."""
    by_name = {o.name: o for o in outcomes}
    parts: list[str] = []
    saved = by_name.get("save_recipient_profile")
    if saved and saved.ok:
        parts.append(r.say("saved", locale, label=saved.result.get("saved_label", "")))
    loaded = by_name.get("load_recipient_profile")
    if loaded and loaded.ok:
        parts.append(r.say("loaded", locale, label=loaded.result.get("loaded_label", "")))
    recalled = by_name.get(RECALL)
    if recalled and recalled.ok:
        state = latest_state(outcomes, {})
        parts.append(recalled_note(recalled.result.get("memories"), state, locale))
    updated = by_name.get("update_profile")
    refused = next((o for o in outcomes if o.name == "update_profile" and not o.ok), None)
    if outcomes and outcomes[-1].ok and refused and updated and updated.ok:
        parts.append(refusals.render(refused.result, locale))
    return parts


def main(
    outcomes: Sequence[Outcome], state: dict[str, Any], locale: str
) -> tuple[str, bool] | None:
    """The turn's main outcome in words, and whether it settles the turn; None when the
    tools left nothing to present (the model says what comes next)."""
    by_name = {o.name: o for o in outcomes}
    confirmed = by_name.get("confirm_choice")
    if confirmed and confirmed.ok:
        gift = confirmed.result.get("gift") or {}
        draft = str(confirmed.result.get("order_draft_id", state.get("order_draft_id")))[:8]
        title = gift.get("title", state.get("selected_gift_id"))
        return r.say("confirmed", locale, title=title, draft=draft), True
    described = by_name.get("select_described_gift")
    if described and described.ok:
        return _described(described, state, locale), True
    selected = by_name.get("select_gift")
    if selected and selected.ok:
        gift = selected.result.get("selected") or {}
        price = r.money(gift.get("price", 0), gift.get("currency", ""), locale)
        title = gift.get("title", state.get("selected_gift_id"))
        return r.say("selected", locale, title=title, price=price), True
    searched = found(outcomes)
    if searched is not None:
        return _shortlist(outcomes, searched, state, locale)
    missing = state.get("missing") or []
    updates = [o for o in outcomes if o.name == "update_profile" and o.ok]
    if missing and updates:
        offer = known_note(updates[-1].result.get("known_before"), state, locale)
        return noted(outcomes, state, locale) + offer + r.ask_missing(missing, locale), True
    return None


def noted(outcomes: Sequence[Outcome], state: dict[str, Any], locale: str) -> str:
    """The recorded profile echoed after an update, so the person sees what was understood."""
    profile = state.get("profile") or {}
    facts = r.profile_facts(profile, locale) if profile else ""
    if facts and any(o.name == "update_profile" and o.ok for o in outcomes):
        return r.say("noted", locale, facts=facts) + " "
    return ""


def _shortlist(
    outcomes: Sequence[Outcome], searched: Outcome, state: dict[str, Any], locale: str
) -> tuple[str, bool]:
    """The ideas that passed; or, when none did, why, with what would bring some back.
    Gifts left out because the recipient was given them before are said first."""
    given = given_note(searched.result.get("given_before"), state, locale)
    text, settles = _found(outcomes, searched, state, locale)
    if not given:
        return text, settles
    echo = noted(outcomes, state, locale)
    if echo and text.startswith(echo):  # what was understood, then what was left out
        return echo + given + "\n\n" + text[len(echo) :], settles
    return given + "\n\n" + text, settles


def _found(
    outcomes: Sequence[Outcome], searched: Outcome, state: dict[str, Any], locale: str
) -> tuple[str, bool]:
    result = searched.result
    candidates = result.get("shortlist") or []
    budget = (state.get("profile") or {}).get("budget")
    gaps = result.get("unserved") or []
    unserved = r.unserved_note(gaps, locale)
    note = unserved + "\n\n" if unserved else ""
    if candidates:
        listed = r.candidate_list(candidates, budget, locale, others=bool(result.get("others")))
        if result.get("no_others"):  # nothing new fits: the list on show, said so
            return r.say("others.none", locale) + "\n\n" + listed, True
        popular = r.popular_note(result.get("popular"), state, locale)
        note = popular + "\n\n" + note if popular else note
        return noted(outcomes, state, locale) + note + listed, True
    rejected = result.get("rejected") or {}
    if unserved and not rejected:  # nothing was found at all: offer the alternatives
        offered = any(u.get("suggestions") for u in gaps)
        return unserved + " " + r.say(
            "unserved.ask" if offered else "unserved.ask_other", locale
        ), False
    relax = result.get("relax") or []
    if relax:  # what the filters removed is said with what would bring it back
        unserved = r.unserved_note([u for u in gaps if not u.get("in_catalog")], locale)
        note = unserved + "\n\n" if unserved else ""
    return note + r.dead_end(rejected, relax, locale), False


def _described(res: Outcome, state: dict[str, Any], locale: str) -> str:
    """A gift named in words: selected from the shortlist as any choice is; found in the
    catalog instead, said so; or nothing within the constraints, said plainly, with the
    closest thing and why it does not fit, the list kept."""
    gift = res.result.get("selected")
    if isinstance(gift, dict):
        title = gift.get("title", "")
        if res.result.get("found") == "catalog":  # not seen in the list: its price as there
            budget = (state.get("profile") or {}).get("budget") or {}
            price = r.price(
                gift.get("price", 0), gift.get("currency", ""), locale,
                converted=gift.get("price_in_budget_currency"),
                budget_currency=budget.get("currency"),
            )  # fmt: skip
            return r.say("selected.catalog", locale, title=title, price=price)
        price = r.money(gift.get("price", 0), gift.get("currency", ""), locale)
        return r.say("selected", locale, title=title, price=price)
    words = str(res.arguments.get("described") or "").strip()
    text = r.say("described.none", locale, words=words)
    closest = res.result.get("closest")
    if isinstance(closest, dict) and closest.get("reasons"):
        reasons = r.join([r.reason(str(x), locale) for x in closest["reasons"]], locale)
        text += " " + r.say(
            "described.closest", locale, title=closest.get("title", ""), why=reasons
        )
    ids = state.get("candidate_ids") or []
    return text + " " + r.choose_prompt(len(ids), locale)
