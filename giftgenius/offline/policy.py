"""What the offline model does next: one tool call or one reply, from the visible request.

It reads only what any model would see: the latest state (the state block, or the
``state`` inside the newest tool result), this turn's tool results and the last user
message — never old history, so it works however much history was cut or summarized.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass, field
from typing import Any

from giftgenius.catalog.vocabulary import canonical_recipient
from giftgenius.lang import detect_locale
from giftgenius.offline import replies as r
from giftgenius.offline.nlu import Extraction, extract
from giftgenius.offline.wire import message_text
from giftgenius.protocol import STATE_BLOCK_PREFIX
from giftgenius.text import fold

MAX_SAME_TOOL_PER_TURN = 2  # a loop guard: the workflow never needs a tool thrice a turn
_FUNNEL = ("search_candidates", "filter_candidates")


@dataclass
class Decision:
    """Either tool calls (name, arguments) or a reply text."""

    content: str | None = None
    calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)


@dataclass
class ToolResult:
    name: str
    arguments: dict[str, Any]
    result: dict[str, Any]

    @property
    def ok(self) -> bool:
        return self.result.get("ok") is True


@dataclass
class Turn:
    """Everything the policy reads from one request."""

    user_text: str
    state: dict[str, Any]  # StateView as JSON: latest known
    start_state: dict[str, Any]  # the state block: state before this turn's tools
    results: list[ToolResult]
    seen_candidates: list[dict[str, Any]]  # the latest candidate views anywhere in view
    locale: str
    ext: Extraction
    tools: set[str]

    def called(self, name: str) -> int:
        return sum(1 for res in self.results if res.name == name)

    @property
    def step(self) -> str:
        return str(self.state.get("step", "collecting_profile"))


def _json(text: str) -> dict[str, Any] | None:
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def read_turn(messages: list[dict[str, Any]], tools: set[str], dollar: str) -> Turn | None:
    """Split a request into the parts the policy needs; None if there is no user message."""
    last_user = max((i for i, m in enumerate(messages) if m.get("role") == "user"), default=None)
    if last_user is None:
        return None
    start_state: dict[str, Any] = {}
    seen: list[dict[str, Any]] = []
    names: dict[str, tuple[str, dict[str, Any]]] = {}
    results: list[ToolResult] = []
    for i, message in enumerate(messages):
        role = message.get("role")
        text = message_text(message)
        if role == "system" and text.startswith(STATE_BLOCK_PREFIX):
            start_state = _json(text[len(STATE_BLOCK_PREFIX) :]) or start_state
        elif role == "assistant":
            for call in message.get("tool_calls") or []:
                function = call.get("function", {})
                names[call.get("id", "")] = (
                    function.get("name", ""),
                    _json(function.get("arguments") or "{}") or {},
                )
        elif role == "tool":
            result = _json(text) or {"ok": False, "error": text}
            if isinstance(result.get("candidates"), list) and result["candidates"]:
                seen = result["candidates"]
            if i > last_user:
                name, args = names.get(message.get("tool_call_id", ""), ("", {}))
                results.append(ToolResult(name, args, result))
    state = start_state
    for res in results:
        if isinstance(res.result.get("state"), dict):
            state = res.result["state"]
    user_text = message_text(messages[last_user])
    # Under way (earlier words, or facts the state already holds): its language is settled.
    settled = any(m.get("role") == "user" for m in messages[:last_user]) or any(
        (start_state.get("profile") or {}).get(key) for key in ("recipient", "budget")
    )
    locale = detect_locale(user_text, default=state.get("locale") or "en", settled=settled)
    today = _today(state)
    titles = [c.get("title", "") for c in seen if c.get("id") in state.get("candidate_ids", [])]
    ext = extract(
        user_text,
        today=today,
        dollar=dollar,
        profile=start_state.get("profile") or {},
        candidate_titles=titles,
    )
    return Turn(user_text, state, start_state, results, seen, locale, ext, tools)


def _today(state: dict[str, Any]) -> dt.date:
    try:
        return dt.date.fromisoformat(str(state["today"]))
    except (KeyError, ValueError):
        return dt.date.today()


def decide(messages: list[dict[str, Any]], *, tools: set[str], dollar: str = "USD") -> Decision:
    turn = read_turn(messages, tools, dollar)
    if turn is None:
        return Decision(content=r.say("hello", "en"))
    decision = _next_call(turn) if turn.results else _first_call(turn)
    if decision is None:
        return Decision(content=compose_reply(turn))
    if decision.calls and not all(
        name in tools and turn.called(name) < MAX_SAME_TOOL_PER_TURN for name, _ in decision.calls
    ):
        return Decision(content=compose_reply(turn))
    return decision


def _call(name: str, args: dict[str, Any] | None = None) -> Decision:
    return Decision(calls=[(name, args or {})])


# --- the first move after a user message -------------------------------------------------


def _first_call(turn: Turn) -> Decision | None:
    ext = turn.ext
    if ext.load_label is not None:
        return _call("list_recipient_profiles")
    if ext.has_facts:
        return _call("update_profile", _jsonable(ext.facts))
    pending = _pending(turn)
    if pending is not None:
        return pending
    if ext.leave:
        return Decision(content=r.say("goodbye", turn.locale))
    if not turn.state.get("missing") and turn.step == "generating_candidates":
        return _call("search_candidates")
    if turn.step == "filtering" and turn.state.get("candidate_ids"):
        return _call("filter_candidates")
    return None


def _jsonable(facts: dict[str, Any]) -> dict[str, Any]:
    return {k: (v.isoformat() if isinstance(v, dt.date) else v) for k, v in facts.items()}


def _pending(turn: Turn) -> Decision | None:
    """The user's own requests still to carry out this turn: choose, confirm, save."""
    ext = turn.ext
    funnel_ran = any(turn.called(name) for name in _FUNNEL)
    if turn.step == "finalizing" and not funnel_ran:
        if not turn.called("select_gift"):
            gift_id = _chosen_id(turn)
            if gift_id is not None and gift_id != turn.state.get("selected_gift_id"):
                return _call("select_gift", {"gift_id": gift_id})
            if gift_id is not None and not ext.confirm:
                return None
        if ext.confirm and turn.state.get("selected_gift_id") and not turn.called("confirm_choice"):
            return _call("confirm_choice")
    recipient_known = bool((turn.state.get("profile") or {}).get("recipient"))
    if ext.save_label and recipient_known and not turn.called("save_recipient_profile"):
        return _call("save_recipient_profile", {"label": ext.save_label})
    return None


def _chosen_id(turn: Turn) -> str | None:
    ids: list[str] = list(turn.state.get("candidate_ids") or [])
    choice = turn.ext.choice
    if choice is not None and ids:
        if choice == -1:
            return ids[-1]
        if 1 <= choice <= len(ids):
            return ids[choice - 1]
        return None
    title = turn.ext.choice_title
    if title and not turn.ext.has_facts:
        for c in turn.seen_candidates:
            if c.get("title") == title and c.get("id") in ids:
                return str(c["id"])
    return None


# --- after tool results --------------------------------------------------------------------


def _next_call(turn: Turn) -> Decision | None:
    last = turn.results[-1]
    if not last.ok:
        return _recover(turn, last)
    if last.name == "list_recipient_profiles":
        label = _match_label(turn.ext.load_label or "", last.result.get("profiles") or [])
        return _call("load_recipient_profile", {"label": label}) if label else None
    if last.name == "load_recipient_profile":
        facts = {k: v for k, v in turn.ext.facts.items() if k != "recipient"}
        if facts and not turn.called("update_profile"):
            return _call("update_profile", _jsonable(facts))
        return _advance(turn)
    if last.name == "update_profile":
        return _advance(turn)
    if last.name == "search_candidates":
        return _call("filter_candidates")
    return _pending(turn)


def _advance(turn: Turn) -> Decision | None:
    """Follow the step the tools put the workflow in."""
    if turn.state.get("missing"):
        return _pending(turn)
    if turn.step == "generating_candidates":
        return _call("search_candidates")
    if turn.step == "filtering":
        return _call("filter_candidates")
    return _pending(turn)


def _recover(turn: Turn, failed: ToolResult) -> Decision | None:
    """Correct a call once when the state says what was wrong; else explain (None)."""
    if sum(1 for res in turn.results if not res.ok) > 1:
        return None
    if failed.name == "filter_candidates" and turn.step == "generating_candidates":
        return _call("search_candidates")
    return None


def _match_label(wanted: str, profiles: list[Any]) -> str | None:
    """The saved label meaning the same as ``wanted`` (exact, same recipient, or contained)."""
    labels = [str(p.get("label", "")) if isinstance(p, dict) else str(p) for p in profiles]
    want = fold(wanted).strip()
    if not labels:
        return None
    if not want:
        return labels[0] if len(labels) == 1 else None
    for label in labels:
        if fold(label).strip() == want:
            return label
    kind = canonical_recipient(wanted)
    for p, label in zip(profiles, labels, strict=True):
        saved_kind = canonical_recipient(label) or (
            (p.get("profile") or {}).get("recipient") if isinstance(p, dict) else None
        )
        if kind and saved_kind == kind:
            return label
    for label in labels:
        if want in fold(label) or fold(label) in want:
            return label
    return None


# --- the reply -------------------------------------------------------------------------------


def compose_reply(turn: Turn) -> str:
    loc = turn.locale
    parts: list[str] = []
    by_name = {res.name: res for res in turn.results}
    last = turn.results[-1] if turn.results else None
    saved = by_name.get("save_recipient_profile")
    if saved and saved.ok:
        parts.append(r.say("saved", loc, label=saved.result.get("saved_label", "")))
    loaded = by_name.get("load_recipient_profile")
    if loaded and loaded.ok:
        parts.append(r.say("loaded", loc, label=loaded.result.get("loaded_label", "")))
    listed = by_name.get("list_recipient_profiles")
    if listed and listed.ok and not loaded:
        labels = [
            str(p.get("label", p)) if isinstance(p, dict) else str(p)
            for p in listed.result.get("profiles") or []
        ]
        parts.append(
            r.say(
                "no_profile",
                loc,
                label=turn.ext.load_label or "?",
                labels=", ".join(labels) or r.say("none_saved", loc),
            )
        )
    if last is not None and not last.ok:
        parts.append(r.say("error", loc, error=last.result.get("error", "?")))
    parts.append(_main_reply(turn, by_name))
    if turn.ext.leave and not any("goodbye" in p for p in parts):
        parts.append(r.say("goodbye", loc))
    return "\n\n".join(p for p in parts if p)


def _main_reply(turn: Turn, by_name: dict[str, ToolResult]) -> str:
    loc = turn.locale
    state = turn.state
    confirmed = by_name.get("confirm_choice")
    if confirmed and confirmed.ok:
        gift = confirmed.result.get("gift") or {}
        return r.say(
            "confirmed", loc, title=gift.get("title", state.get("selected_gift_id")),
            draft=str(confirmed.result.get("order_draft_id", state.get("order_draft_id")))[:8],
        )  # fmt: skip
    selected = by_name.get("select_gift")
    if selected and selected.ok:
        gift = selected.result.get("selected") or {}
        return r.say(
            "selected", loc, title=gift.get("title", state.get("selected_gift_id")),
            price=r.money(gift.get("price", 0), gift.get("currency", ""), loc),
        )  # fmt: skip
    filtered = by_name.get("filter_candidates")
    if filtered and filtered.ok:
        candidates = filtered.result.get("candidates") or []
        budget = (state.get("profile") or {}).get("budget")
        unserved = r.unserved_note(filtered.result.get("unserved") or [], loc)
        note = unserved + "\n\n" if unserved else ""
        if candidates:
            return _noted(turn) + note + r.candidate_list(candidates, budget, loc)
        rejected = filtered.result.get("rejected") or {}
        if unserved and not rejected:  # nothing was found at all: offer the alternatives
            return unserved + " " + r.say("unserved.ask", loc)
        return note + r.say("none", loc, reasons=r.rejection_reasons(rejected, loc) or "—")
    if turn.ext.leave:
        return r.say("goodbye", loc)
    return _next_step(turn)


def _noted(turn: Turn) -> str:
    """Echo the recorded profile after an update, so the user sees what was understood."""
    profile = turn.state.get("profile") or {}
    if profile and any(res.name == "update_profile" and res.ok for res in turn.results):
        return r.say("noted", turn.locale, facts=r.profile_facts(profile, turn.locale)) + " "
    return ""


def _next_step(turn: Turn) -> str:
    """What to say when nothing else happened: ask what is missing, or what comes next."""
    loc = turn.locale
    state = turn.state
    profile = state.get("profile") or {}
    missing = state.get("missing") or []
    step = turn.step
    noted = _noted(turn)
    if step == "done":
        return r.say("next.done", loc)
    if missing:
        return noted + r.ask_missing(missing, loc)
    if step == "finalizing":
        if state.get("selected_gift_id"):
            return noted + r.say("next.confirm", loc)
        ids = state.get("candidate_ids") or []
        shown = [c for c in turn.seen_candidates if c.get("id") in ids]
        if shown and len(shown) == len(ids):
            return noted + r.candidate_list(shown, profile.get("budget"), loc)
        return noted + r.choose_prompt(len(ids), loc)
    return noted + r.say("next.more", loc)
