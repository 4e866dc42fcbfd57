"""What the offline model does next: one tool call or one reply, from the visible request.

It reads only what any model would see: the latest state (the state block, or the
``state`` inside the newest tool result), this turn's tool results and the last user
message — never old history, so it works however much history was cut or summarized.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from typing import Any

from giftgenius.domain import Locale
from giftgenius.language.detect import detect_locale
from giftgenius.language.folding import fold
from giftgenius.language.relations import resolve_relation
from giftgenius.offline.asking import (
    DETAILS_TOOL,
    Question,
    gift_ids,
    meant_before,
    points_at_one,
    read_question,
)
from giftgenius.offline.intents import Choice
from giftgenius.offline.nlu import Extraction, extract
from giftgenius.offline.wire import json_object, message_text
from giftgenius.protocol import split_state
from giftgenius.replies import answers, refusals
from giftgenius.replies import texts as r
from giftgenius.replies.outcomes import Outcome, found, latest_state
from giftgenius.replies.outcomes import main as outcomes_main
from giftgenius.replies.outcomes import noted as outcomes_noted
from giftgenius.replies.outcomes import notes as outcomes_notes

MAX_SAME_TOOL_PER_TURN = 2  # a loop guard: the workflow never needs a tool thrice a turn
RECALL_TOOL = "recall_memories"
CHEAPER_SHARE = 0.8  # "cheaper than last time": at most this share of what was paid
# The facts of an earlier search a new one starts from (update_profile's names).
_RECALLED_FACTS = ("recipient", "age", "interests", "dislikes", "country", "budget_max", "currency")


@dataclass
class Decision:
    """Either tool calls (name, arguments) or a reply text."""

    content: str | None = None
    calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)


@dataclass
class Turn:
    """Everything the policy reads from one request."""

    user_text: str
    state: dict[str, Any]  # StateView as JSON: latest known
    start_state: dict[str, Any]  # the state block: state before this turn's tools
    results: list[Outcome]
    seen_candidates: list[dict[str, Any]]  # the latest candidate views anywhere in view
    locale: Locale
    ext: Extraction
    tools: set[str]
    currency: str = "USD"  # the budget's currency when the person names none
    question: Question | None = None  # a question about the gifts on show (``asking``)
    meant: list[str] = field(default_factory=list)  # the gifts discussed last, or selected
    offered_known: bool = False  # the last turn offered an earlier search's facts

    def called(self, name: str) -> int:
        return sum(1 for res in self.results if res.name == name)

    @property
    def found(self) -> Outcome | None:
        return found(self.results)

    @property
    def step(self) -> str:
        return str(self.state.get("step", "collecting_profile"))


def read_turn(messages: list[dict[str, Any]], tools: set[str], dollar: str) -> Turn | None:
    """Split a request into the parts the policy needs; None if there is no user message."""
    last_user = max((i for i, m in enumerate(messages) if m.get("role") == "user"), default=None)
    if last_user is None:
        return None
    start_state, seen, results, before = _scan(messages, last_user)
    state = latest_state(results, start_state)
    _, user_text = split_state(message_text(messages[last_user]))
    # Under way (earlier words, or facts the state already holds): its language is settled.
    settled = any(m.get("role") == "user" for m in messages[:last_user]) or any(
        (start_state.get("profile") or {}).get(key) for key in ("recipient", "budget")
    )
    locale = detect_locale(user_text, default=state.get("locale") or "en", settled=settled)
    ids = start_state.get("candidate_ids") or []
    shown = _shown(start_state, seen)
    ext = extract(
        user_text,
        today=_today(state),
        dollar=dollar,
        profile=start_state.get("profile") or {},
        candidate_titles=[str(c.get("title", "")) for c in shown],
        candidate_answers=[[str(a) for a in c.get("answers") or []] for c in shown],
        locale=locale,
        choosing=start_state.get("step") == "finalizing" and bool(ids),
    )
    turn = Turn(user_text, state, start_state, results, seen, locale, ext, tools, dollar)
    turn.offered_known = bool(before.get("known_before"))
    if start_state.get("step") in ("finalizing", "done") and ids:
        _read_question(turn, messages, last_user, shown)
    return turn


def _read_question(
    turn: Turn, messages: list[dict[str, Any]], last_user: int, shown: list[dict[str, Any]]
) -> None:
    """A question about the gifts on show (``asking``), and the gifts meant before it."""
    ids = [str(i) for i in turn.start_state.get("candidate_ids") or []]
    turn.question = read_question(
        turn.user_text,
        today=_today(turn.state),
        locale=turn.locale,
        listed=len(ids),
        titles=[str(c.get("title", "")) for c in shown],
        answers=[[str(a) for a in c.get("answers") or []] for c in shown],
    )
    selected = turn.start_state.get("selected_gift_id")
    turn.meant = meant_before(messages, last_user, ids) or ([selected] if selected else [])


def _scan(
    messages: list[dict[str, Any]], last_user: int
) -> tuple[dict[str, Any], list[dict[str, Any]], list[Outcome], dict[str, Any]]:
    """The state block of the last user message, the latest candidates listed anywhere, the
    outcomes of the tools called after the last user message, and the last tool result
    before it."""
    start_state: dict[str, Any] = {}
    before: dict[str, Any] = {}
    seen: list[dict[str, Any]] = []
    names: dict[str, tuple[str, dict[str, Any]]] = {}
    results: list[Outcome] = []
    for i, message in enumerate(messages):
        role = message.get("role")
        text = message_text(message)
        if role == "user" and i == last_user:
            start_state = split_state(text)[0] or start_state
        elif role == "assistant":
            names.update(_call_names(message))
        elif role == "tool":
            result = json_object(text) or {"ok": False, "error": text}
            listed = result.get("shortlist") or result.get("candidates")
            if isinstance(listed, list) and listed:
                seen = listed
            if i > last_user:
                name, args = names.get(message.get("tool_call_id", ""), ("", {}))
                results.append(Outcome(name, args, result))
            else:
                before = result
    return start_state, seen, results, before


def _call_names(message: dict[str, Any]) -> dict[str, tuple[str, dict[str, Any]]]:
    """Each tool call of an assistant message: its id → its name and arguments."""
    functions = [(c.get("id", ""), c.get("function", {})) for c in message.get("tool_calls") or []]
    return {i: (f.get("name", ""), json_object(f.get("arguments"))) for i, f in functions}


def _shown(start_state: dict[str, Any], seen: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The shortlist the person chooses from: every candidate of the state's list, in view,
    while the run is finalizing; else none."""
    ids = start_state.get("candidate_ids") or []
    shown = [c for c in seen if c.get("id") in ids]
    if start_state.get("step") != "finalizing" or len(shown) != len(ids):
        return []
    return shown


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
    if decision.calls:
        # Said with the calls: when their outcome settles the turn, the agent presents it
        # after these words and asks nothing more of the model.
        names = {name for name, _ in decision.calls}
        lead = _lead(
            turn,
            updating="update_profile" in names or _updated(turn),
            selecting="select_gift" in names,
        )
        if turn.ext.leave:
            lead = "\n\n".join(p for p in (lead, r.say("goodbye", turn.locale)) if p)
        decision.content = lead or None
    return decision


def _call(name: str, args: dict[str, Any] | None = None) -> Decision:
    return Decision(calls=[(name, args or {})])


def _calls(*calls: tuple[str, dict[str, Any]] | None) -> Decision | None:
    """Several calls in one message, as models make parallel calls: the agent runs them in
    order and presents their joint outcome."""
    made = [call for call in calls if call is not None]
    return Decision(calls=made) if made else None


# --- the first move after a user message -------------------------------------------------


def _first_call(turn: Turn) -> Decision | None:
    ext = turn.ext
    if ext.others and not ext.has_facts and turn.step in ("filtering", "finalizing"):
        return _call("search_candidates")  # other ideas than those on show: the tool's rule
    if turn.question is not None:  # answered from the tool's facts; nothing changes
        return _ask(turn, turn.question)
    if turn.step == "done":  # after the choice only keeping the profile is left to do
        return _pending(turn)
    if ext.cheaper and RECALL_TOOL in turn.tools:  # the last gift's price is in the notes
        return _call(RECALL_TOOL, _recall_args(turn))
    if ext.load or _probe(turn):
        return _call("list_recipient_profiles")
    if ext.has_facts:
        return _calls(("update_profile", _jsonable(ext.facts)), _save(turn, ext.facts))
    pending = _pending(turn)
    if pending is not None:
        return pending
    if _takes_known(turn):
        return _call(RECALL_TOOL, _recall_args(turn))
    if ext.leave:
        return Decision(content=r.say("goodbye", turn.locale))
    if not turn.state.get("missing") and turn.step in ("generating_candidates", "filtering"):
        # Also after a dead end: searching again brings back what to relax, and a yes to it
        # applies the first change (``_relax``) instead of asking for more facts.
        return _call("search_candidates")
    return None


def _ask(turn: Turn, question: Question) -> Decision:
    """The call that answers a question about the gifts on show, with the gifts it means
    and the date it asks about (never a new deadline)."""
    ids = [str(i) for i in turn.start_state.get("candidate_ids") or []]
    by_date = question.by_date.isoformat() if question.by_date else None
    return _call(
        DETAILS_TOOL, {"gift_ids": gift_ids(question, ids, turn.meant), "by_date": by_date}
    )


def _probe(turn: Turn) -> bool:
    """A first mention of the recipient may name a saved profile ("c'est pour filleul Noé"):
    look at the saved ones before recording a new recipient."""
    profile = turn.start_state.get("profile") or {}
    return (
        "recipient" in turn.ext.facts
        and turn.ext.labelled
        and not profile.get("recipient")
        and "list_recipient_profiles" in turn.tools
    )


def _jsonable(facts: dict[str, Any]) -> dict[str, Any]:
    return {k: (v.isoformat() if isinstance(v, dt.date) else v) for k, v in facts.items()}


def _pending(turn: Turn) -> Decision | None:
    """The user's own requests still to carry out this turn: choose, confirm, save — in one
    message, so their joint outcome is presented at once."""
    calls: list[tuple[str, dict[str, Any]]] = []
    if turn.step == "finalizing" and turn.found is None:
        selected = turn.state.get("selected_gift_id")
        gift_id = _chosen_id(turn)
        already = any(turn.called(n) for n in ("select_gift", "select_described_gift"))
        described = _described_args(turn)
        if not already and gift_id is not None and gift_id != selected:
            calls.append(("select_gift", {"gift_id": gift_id}))
        elif described is not None and not already:
            # What the words matched is shown before anything is confirmed.
            return _call("select_described_gift", described)
        if _confirming(turn, gift_id, chose_now=bool(calls), already=already):
            calls.append(("confirm_choice", {}))
    return _calls(*calls, _save(turn, {}))


def _confirming(turn: Turn, gift_id: str | None, *, chose_now: bool, already: bool) -> bool:
    """Whether the message confirms the choice. Every choice is confirmed by an explicit
    yes: a later "yes" (one that names the gift already selected too: "yes, the second
    one"), or "confirm it" in the message that chose ("let's go with the tripod" alone only
    selects it)."""
    ext = turn.ext
    selected = turn.state.get("selected_gift_id")
    chose = (ext.choice is not None or gift_id is not None) and not (
        gift_id == selected and not already
    )
    # The only idea shown is offered with the confirmation's own question ("Shall I record
    # the order draft for it?"), so a plain yes to it chooses *and* confirms.
    only_one = ext.choice is None and len(turn.state.get("candidate_ids") or []) == 1
    return (
        ext.confirm
        and (not chose or ext.explicit_confirm or only_one)
        and bool(selected or chose_now)
        and not turn.called("confirm_choice")
    )


def _save(turn: Turn, facts: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """Saving the recipient's profile when the message asks, with the recipient this
    message's ``facts`` give (the call runs after theirs)."""
    profile = dict(turn.state.get("profile") or {})
    if facts.get("recipient"):
        profile["recipient"] = facts["recipient"]
    label = _save_label(turn.ext.save_label, profile)
    if label and profile.get("recipient") and not turn.called("save_recipient_profile"):
        return ("save_recipient_profile", {"label": label})
    return None


def _save_label(label: str | None, profile: dict[str, Any]) -> str | None:
    """The label to save under; "under her name" takes the name the recipient was given."""
    if label is None or label:
        return label
    recipient = str(profile.get("recipient") or "")
    names = [w for w in recipient.split() if w[:1].isupper()]
    return names[-1] if names else recipient or None


def _described_args(turn: Turn) -> dict[str, Any] | None:
    """The arguments of ``select_described_gift`` when the message names the gift by what it
    is ("the moka pot", "le moins cher des doudous"): the tool matches the words against the
    products themselves, and looks in the catalog when the shortlist has no such thing."""
    choice = turn.ext.choice
    if choice is None or choice.described is None:
        return None
    args: dict[str, Any] = {"described": choice.described}
    if choice.price is not None:
        args["price_end"] = "cheapest" if choice.price == "min" else "priciest"
    return args


def _chosen_id(turn: Turn) -> str | None:
    """The shortlist id the message picks (by position, price end or title), if any."""
    ids: list[str] = list(turn.state.get("candidate_ids") or [])
    choice = turn.ext.choice
    if choice is not None and choice.described is not None:
        return None  # the tool reads the products' own words (``_described_args``)
    if choice is None and len(ids) == 1 and turn.ext.confirm and not turn.ext.decline:
        return ids[0]  # a yes to the one idea shown ("Shall I record…?") chooses it
    if choice is None:
        return _pointed_at(turn)
    if not ids:
        return None
    shown = [c for c in turn.seen_candidates if c.get("id") in ids]
    # A choice is one of these: the first reader that applies answers, even with None.
    if choice.position is not None:
        return _at_position(ids, choice.position)
    if choice.price is not None and shown:
        return _at_price_end(ids, shown, choice)
    return next((str(c["id"]) for c in shown if c.get("title") == choice.words), None)


def _pointed_at(turn: Turn) -> str | None:
    """The gift the last question was about, when the message picks with no number ("great,
    I'll take it", "celui-là alors"): only one gift talked about can be meant."""
    if len(turn.meant) != 1 or turn.ext.decline or not points_at_one(fold(turn.user_text)):
        return None
    return turn.meant[0]


def _at_position(ids: list[str], position: int) -> str | None:
    """The id at a 1-based position, or counted from the end when negative."""
    if position < 0:
        return ids[position] if -position <= len(ids) else None
    return ids[position - 1] if 1 <= position <= len(ids) else None


def _at_price_end(ids: list[str], shown: list[dict[str, Any]], choice: Choice) -> str:
    """The cheapest or priciest of the shown gifts, within the part of the list it names."""
    pick = min if choice.price == "min" else max
    if choice.among is not None:  # "the cheaper of the first two"
        order = {gift_id: i for i, gift_id in enumerate(ids)}
        shown = sorted(shown, key=lambda c: order[c["id"]])
        shown = shown[: choice.among] if choice.among > 0 else shown[choice.among :]
    best = pick(shown, key=lambda c: c.get("price_in_budget_currency") or c.get("price", 0))
    return str(best["id"])


def _out_of_range(turn: Turn) -> int | None:
    """The shortlist's length when the message picks a position it does not have."""
    ids = turn.state.get("candidate_ids") or []
    choice = turn.ext.choice
    if turn.step != "finalizing" or choice is None or choice.position is None or not ids:
        return None
    return len(ids) if choice.position > len(ids) else None


# --- after tool results --------------------------------------------------------------------


def _next_call(turn: Turn) -> Decision | None:
    last = turn.results[-1]
    if not last.ok:
        return _recover(turn, last)
    if last.name == DETAILS_TOOL:
        return None  # the answer is the reply (``compose_reply``)
    if last.name == "list_recipient_profiles":
        return _after_profiles(turn, last.result.get("profiles") or [])
    if last.name == RECALL_TOOL:
        return _from_memory(turn, last)
    if last.name == "load_recipient_profile":
        facts = {k: v for k, v in turn.ext.facts.items() if k != "recipient"}
        if facts and not turn.called("update_profile"):
            return _call("update_profile", _jsonable(facts))
    if "shortlist" in last.result and not last.result["shortlist"]:
        return _relax(turn, last)
    return _advance(turn)


def _after_profiles(turn: Turn, profiles: list[Any]) -> Decision | None:
    """After the saved profiles are listed: load the one the message means, with what else
    it says; else look in the notes of earlier searches ("like last time"); else record
    what a probe found no profile for."""
    label = _match_label(turn, profiles)
    if label:  # with what else the message says of the recipient, in the same message
        facts = {k: v for k, v in turn.ext.facts.items() if k != "recipient"}
        lacking = _lacking(turn, profiles, label)
        if lacking is not None:  # already this search's person: keep what it was told
            facts = lacking | facts
            return _call("update_profile", _jsonable(facts)) if facts else _advance(turn)
        update = ("update_profile", _jsonable(facts)) if facts else None
        return _calls(("load_recipient_profile", {"label": label}), update)
    if turn.ext.load and RECALL_TOOL in turn.tools and not turn.called(RECALL_TOOL):
        return _call(RECALL_TOOL, _recall_args(turn))  # no profile kept: the notes may tell
    if not turn.ext.load and turn.ext.has_facts and not turn.called("update_profile"):
        facts = turn.ext.facts  # a probe found none
        return _calls(("update_profile", _jsonable(facts)), _save(turn, facts))
    return None


def _takes_known(turn: Turn) -> bool:
    """A yes to the offer the last turn made ("Say yes to start from there"), while the
    profile still misses facts: the earlier search's facts are taken."""
    profile = turn.state.get("profile") or {}
    return (
        turn.offered_known
        and turn.ext.confirm
        and not turn.ext.decline
        and turn.step == "collecting_profile"
        and bool(profile.get("recipient"))
        and bool(turn.state.get("missing"))
        and RECALL_TOOL in turn.tools
    )


def _recall_args(turn: Turn) -> dict[str, Any]:
    """The newest notes, about the recipient the message names, else the search's own."""
    named = turn.ext.facts.get("recipient") or (turn.state.get("profile") or {}).get("recipient")
    return {"about": None, "recipient": named}


def _from_memory(turn: Turn, recalled: Outcome) -> Decision | None:
    """The newest note's facts, as this message changes them, for a new search: what is
    said now wins, tastes said now come first (the others stay), and "cheaper" is a budget
    under the price of the gift chosen then."""
    if turn.called("update_profile"):
        return None
    memories = recalled.result.get("memories") or []
    known = dict(memories[0].get("facts") or {}) if memories else {}
    chosen = known.pop("chosen", None)
    facts = {k: v for k, v in known.items() if k in _RECALLED_FACTS}
    if (turn.state.get("profile") or {}).get("recipient"):
        facts.pop("recipient", None)  # named already in this search, as the person put it
    said = dict(turn.ext.facts)
    for key in ("interests", "dislikes"):  # a taste said now comes first; the others stay
        if isinstance(said.get(key), list) and isinstance(facts.get(key), list):
            said[key] = list(dict.fromkeys([*said[key], *facts[key]]))
    facts.update(said)
    if turn.ext.cheaper and isinstance(chosen, dict) and "budget_max" not in turn.ext.facts:
        facts.update(_under(chosen, facts.get("currency")))
    if not facts:
        return None  # nothing kept: the reply says so and asks
    return _calls(("update_profile", _jsonable(facts)), _save(turn, facts))


def _under(chosen: dict[str, Any], budget_currency: Any) -> dict[str, Any]:
    """A budget under what was paid for the gift chosen then, in the budget's currency
    when the note gives that price, else in the gift's ("cheaper than last time")."""
    converted = chosen.get("price_in_budget_currency")
    paid = converted or chosen.get("price")
    if not isinstance(paid, int | float) or paid <= 1:
        return {}
    currency = budget_currency if converted else chosen.get("currency")
    return {"budget_max": float(max(1, int(paid * CHEAPER_SHARE))), "currency": currency}


def _relax(turn: Turn, found: Outcome) -> Decision | None:
    """A yes after a dead end ("ok", "d'accord, vas-y") applies the first change the filters
    offered: the budget they named, the date the first gift can arrive, no delivery country,
    or a dislike taken back."""
    offers = found.result.get("relax") or []
    if not offers or not turn.ext.confirm or turn.ext.has_facts or turn.called("update_profile"):
        return None
    first = offers[0]
    kind = first.get("constraint")
    if kind == "budget":
        args: dict[str, Any] = {"budget_max": first["budget_max"]}
    elif kind == "deadline":
        args = {"deadline": first["deadline"]}
    elif kind == "country":
        args = {"clear": ["country"]}
    else:
        args = {"remove_dislikes": [first["dislike"]]}
    return _call("update_profile", args)


def _advance(turn: Turn) -> Decision | None:
    """Follow the step the tools put the workflow in."""
    if not turn.state.get("missing") and turn.step == "generating_candidates":
        return _call("search_candidates")  # a search the tools left undone (none should)
    return _pending(turn)


def _recover(turn: Turn, failed: Outcome) -> Decision | None:
    """Correct a call once when the state says what was wrong; else explain (None)."""
    if sum(1 for res in turn.results if not res.ok) > 1:
        return None
    if failed.name == "update_profile":
        # One refused field must not lose the rest of the message ("c'est pour Hélène, ma
        # belle-mère, elle adore le thé, budget 5000 yens"): record the others, then ask.
        dropped = _FIELDS_OF.get(str(failed.result.get("code", "")).split(".")[0], ())
        kept = {k: v for k, v in turn.ext.facts.items() if k not in dropped}
        if dropped and kept and kept != turn.ext.facts:
            return _call("update_profile", _jsonable(kept))
    return None


# The facts a refused update_profile names by its code's first part, left out of the retry.
_FIELDS_OF: dict[str, tuple[str, ...]] = {
    "currency": ("budget_max", "budget_min", "currency"),
    "budget": ("budget_max", "budget_min", "currency"),
    "country": ("country",),
    "deadline": ("deadline",),
    "recipient": ("recipient",),
}


def _said_score(label: str, said: list[str]) -> float:
    """How closely some run of the message's words spells ``label`` (0 when not close
    enough: short labels must be near exact, "sam" is not "same")."""
    from rapidfuzz import fuzz

    words = re.findall(r"[^\W_]+", fold(label))
    if not words or not said:
        return 0.0
    n = len(words)
    target = " ".join(words)
    best = max(
        fuzz.ratio(target, " ".join(said[i : i + size]))
        for size in {max(1, n - 1), n, n + 1}
        for i in range(0, max(1, len(said) - size + 1))
    )
    return best if best >= (80 if len(target) >= 6 else 90) else 0.0


def _match_label(turn: Turn, profiles: list[Any]) -> str | None:
    """The saved profile the message means: its label or name in the message (fuzzy), or
    the one saved for the same relation ("same friend as last time")."""
    entries = [
        (str(p.get("label", "")), str((p.get("profile") or {}).get("recipient") or ""))
        if isinstance(p, dict)
        else (str(p), "")
        for p in profiles
    ]
    if not entries:
        return None
    named = _named_label(turn, entries)
    if named is not None or not turn.ext.load:
        return named  # a probe loads only a profile the message names
    same = _same_relation_label(turn, entries)
    if same is not None:
        return same
    return entries[0][0] if len(entries) == 1 else None


def _lacking(turn: Turn, profiles: list[Any], label: str) -> dict[str, Any] | None:
    """When the search is already about the saved profile's person (it was loaded earlier,
    or the same person was named again: "même chose que l'an dernier niveau budget"), the
    saved facts this search lacks; None when it is about someone else. Loading it again
    would put back what this search has since been told otherwise ("il a eu 11 ans")."""
    saved = next(
        (
            p.get("profile") or {}
            for p in profiles
            if isinstance(p, dict) and p.get("label") == label
        ),
        None,
    )
    held = turn.state.get("profile") or {}
    if not saved or not held.get("recipient"):
        return None
    if any(fold(str(held.get(k) or "")) != fold(str(saved.get(k) or "")) for k in _PERSON):
        return None
    lacking: dict[str, Any] = {}
    budget = saved.get("budget") or {}
    if not held.get("budget") and budget.get("amount"):
        lacking.update(budget_max=budget["amount"], currency=budget.get("currency"))
        if budget.get("min_amount"):
            lacking["budget_min"] = budget["min_amount"]
    # A deadline saved with an earlier search is that search's date, never carried over.
    for key in ("age", "country", "interests", "dislikes"):
        if not held.get(key) and saved.get(key):
            lacking[key] = saved[key]
    return lacking


_PERSON = ("recipient", "recipient_name")  # who a profile is about


def _named_label(turn: Turn, entries: list[tuple[str, str]]) -> str | None:
    """The one label whose words, or its recipient's name, the message spells best."""
    said = re.findall(r"[^\W_]+", fold(turn.ext.text))
    scored = []
    for label, recipient in entries:
        names = [w for w in recipient.split() if w[:1].isupper() and len(w) >= 3]
        score = max([_said_score(label, said)] + [_said_score(n, said) - 5 for n in names])
        scored.append((score, label))
    scored.sort(reverse=True)
    if scored[0][0] > 0 and (len(scored) == 1 or scored[1][0] < scored[0][0]):
        return scored[0][1]
    return None


def _same_relation_label(turn: Turn, entries: list[tuple[str, str]]) -> str | None:
    """The first profile saved for the relation the message names ("same friend as…")."""
    wanted = resolve_relation(turn.ext.text, turn.locale)
    if wanted is None or not wanted.known:
        return None
    for label, recipient in entries:
        saved = resolve_relation(recipient or label, turn.locale)
        if saved is not None and (
            fold(saved.said or "") == fold(wanted.said or "")
            or (saved.audience == wanted.audience and wanted.audience != "anyone")
        ):
            return label
    return None


# --- the reply -------------------------------------------------------------------------------


def compose_reply(turn: Turn) -> str:
    """The reply when the model has the last word: the outcome parts the agent would present
    (``replies.outcomes``), then what only words read from the message add."""
    loc = turn.locale
    outcomes = turn.results
    asked = _answered(turn)
    if asked is not None:
        return asked
    parts = [_about(turn), _no_profile(turn), *outcomes_notes(outcomes, loc)]
    if outcomes and not outcomes[-1].ok:
        parts.append(refusals.render(outcomes[-1].result, loc))
    parts.append(_lead(turn, updating=_updated(turn), selecting=False))
    parts.append(_settled(turn))
    if turn.ext.leave and not any("goodbye" in p for p in parts):
        parts.append(r.say("goodbye", loc))
    return "\n\n".join(p for p in parts if p)


def _about(turn: Turn) -> str:
    """What the assistant does, when asked before anything was said of the gift."""
    ext = turn.ext
    asked = ext.about and not ext.has_facts and not turn.results
    return r.say("about", turn.locale) if asked and turn.step == "collecting_profile" else ""


def _answered(turn: Turn) -> str | None:
    """The answer to a question about the gifts on show, then what the person can do next;
    None when no question was answered this turn."""
    details = next((o for o in turn.results if o.name == DETAILS_TOOL and o.ok), None)
    if details is None or turn.question is None:
        return None
    text = answers.answer(details.result, turn.question.asks, turn.locale)
    if turn.step == "done":
        return text
    selected = turn.state.get("selected_gift_id")
    titles = {str(c.get("id")): str(c.get("title", "")) for c in turn.seen_candidates}
    title = titles.get(str(selected)) if selected else None
    return text + "\n\n" + answers.then(title or None, turn.locale)


def _no_profile(turn: Turn) -> str:
    """When the message asked to load a profile and none of the saved ones is it: say so,
    with the labels there are."""
    by_name = {res.name: res for res in turn.results}
    listed = by_name.get("list_recipient_profiles")
    if not (listed and listed.ok and "load_recipient_profile" not in by_name and turn.ext.load):
        return ""
    if RECALL_TOOL in by_name:
        return ""  # the notes were looked in too: the reply says what they held
    profiles = listed.result.get("profiles") or []
    if _match_label(turn, profiles):
        return ""  # the search already holds that profile's person (``_lacking``)
    labels = [str(p.get("label", p)) if isinstance(p, dict) else str(p) for p in profiles]
    return r.say(
        "no_profile",
        turn.locale,
        label=turn.ext.text.strip()[:60] or "?",
        labels=", ".join(labels) or r.say("none_saved", turn.locale),
    )


def _settled(turn: Turn) -> str:
    """The main outcome of the tools (after the other gifts the words fitted, when a gift
    was only selected), else goodbye, else what comes next."""
    settled = outcomes_main(turn.results, turn.state, turn.locale)
    if settled is None:
        return r.say("goodbye", turn.locale) if turn.ext.leave else _next_step(turn)
    by_name = {res.name: res for res in turn.results}
    chose = by_name.get("select_gift")
    went_on = any(
        by_name.get(n) and by_name[n].ok for n in ("confirm_choice", "select_described_gift")
    )
    return _also(turn) + settled[0] if chose and chose.ok and not went_on else settled[0]


def _updated(turn: Turn) -> bool:
    return any(res.name == "update_profile" and res.ok for res in turn.results)


def _lead(turn: Turn, *, updating: bool, selecting: bool) -> str:
    """What only the message's own words add before the outcome: the budget read from
    "about 50", a position the list does not have, the other gifts the words fitted. Sent
    with a tool call, the agent shows it before the outcome it presents."""
    loc = turn.locale
    parts: list[str] = []
    if turn.question is not None:
        return ""  # a question changes nothing, and its words pick nothing
    if turn.ext.approximate is not None and updating:
        budget = (turn.state.get("profile") or {}).get("budget") or {}
        currency = turn.ext.facts.get("currency") or budget.get("currency") or turn.currency
        parts.append(r.say("budget.about", loc, v=r.money(turn.ext.approximate, currency, loc)))
    size = _out_of_range(turn)
    if size is not None:
        parts.append(r.count("choice.range", size, loc))
    if selecting:
        parts.append(_also(turn).strip())
    return "\n\n".join(p for p in parts if p)


def _also(turn: Turn) -> str:
    """When the words fitted several gifts, name the others by number before the choice."""
    choice = turn.ext.choice
    if choice is None or not choice.also:
        return ""
    ids = turn.state.get("candidate_ids") or []
    numbers = {
        c.get("title"): ids.index(c["id"]) + 1 for c in turn.seen_candidates if c.get("id") in ids
    }
    others = [
        r.say("choice.number", turn.locale, i=numbers[t], title=t)
        for t in choice.also
        if t in numbers
    ]
    if not others:
        return ""
    return (
        r.count("choice.also", len(others), turn.locale, others=r.join(others, turn.locale)) + " "
    )


def _next_step(turn: Turn) -> str:
    """What to say when nothing else happened: ask what is missing, or what comes next."""
    loc = turn.locale
    state = turn.state
    profile = state.get("profile") or {}
    missing = state.get("missing") or []
    step = turn.step
    noted = outcomes_noted(turn.results, turn.state, turn.locale)
    if step == "done":
        return r.say("next.done", loc)
    if missing:
        return noted + r.ask_missing(missing, loc)
    if step == "finalizing":
        if state.get("selected_gift_id") and not turn.ext.decline:
            return noted + r.say("next.confirm", loc)
        ids = state.get("candidate_ids") or []
        shown = [c for c in turn.seen_candidates if c.get("id") in ids]
        if shown and len(shown) == len(ids):
            return noted + r.candidate_list(shown, profile.get("budget"), loc)
        return noted + r.choose_prompt(len(ids), loc)
    return noted + r.say("next.more", loc)
