"""Extractive summaries for summarization requests: the facts, decisions and latest words.

The request (laid out as ``giftgenius.protocol`` describes) holds the previous summary and
the folded messages as lines (``user: …``, ``assistant called NAME(ARGS)``, ``tool NAME
result: …``).
Facts come from the recorded ``update_profile`` calls — exact values, dates already
resolved — on top of the facts line of the previous summary, so folding twice loses
nothing. Deterministic: the same request gives the same summary.
"""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Any

from giftgenius.language.detect import detect_locale
from giftgenius.offline.wire import json_object
from giftgenius.protocol import MESSAGES_HEADER, NO_SUMMARY, PREVIOUS_HEADER
from giftgenius.tokens import TokenCounter

DEFAULT_MAX_TOKENS = 300
_CALL = re.compile(r"^assistant called (\w+)\((.*)\)\s*$")
_TOOL = re.compile(r"^tool (\w+) result: (.*)$")
_SAY = re.compile(r"^user: (.*)$")
_FACTS = re.compile(r"(?:Facts|Faits)\s*:\s*(.*?)(?:\n|$)")
_FIELD = re.compile(r"(\w+)=([^;]*)")
_GIFT_ID = re.compile(r'"id":\s*"([^"]+)"')
_SCALARS = ("recipient", "age", "country", "deadline")


def _previous_facts(previous: str) -> dict[str, Any]:
    """The facts line this module wrote last time, read back."""
    facts: dict[str, Any] = {"interests": [], "dislikes": []}
    m = _FACTS.search(previous)
    if not m:
        return facts
    for key, value in _FIELD.findall(m[1]):
        value = value.strip().rstrip(".")
        if key in ("interests", "dislikes"):
            facts[key] = [v.strip() for v in value.split(",") if v.strip()]
        elif key == "budget":
            parts = value.split()
            if parts:
                try:
                    facts["budget_max"] = float(parts[0].split("-")[-1])
                    if "-" in parts[0]:
                        facts["budget_min"] = float(parts[0].split("-")[0])
                except ValueError:
                    pass
                if len(parts) > 1:
                    facts["currency"] = parts[1]
        else:
            facts[key] = value
    return facts


def _apply(facts: dict[str, Any], args: dict[str, Any]) -> None:
    for key in (*_SCALARS, "budget_max", "budget_min", "currency"):
        if args.get(key) is not None:
            facts[key] = args[key]
    for key in ("interests", "dislikes"):
        for value in args.get(f"remove_{key}") or []:
            if value in facts[key]:
                facts[key].remove(value)
        for value in args.get(key) or []:
            if value not in facts[key]:
                facts[key].append(value)
    for key in args.get("clear") or []:
        facts[key] = [] if key == "dislikes" else None


def _facts_line(facts: dict[str, Any], locale: str) -> str:
    fields = []
    for key in ("recipient", "age"):
        if facts.get(key):
            fields.append(f"{key}={facts[key]}")
    if facts.get("budget_max"):
        low = f"{facts['budget_min']:g}-" if facts.get("budget_min") else ""
        fields.append(f"budget={low}{float(facts['budget_max']):g} {facts.get('currency') or ''}")
    for key in ("interests", "dislikes"):
        if facts.get(key):
            fields.append(f"{key}={', '.join(facts[key])}")
    for key in ("country", "deadline"):
        if facts.get(key):
            fields.append(f"{key}={facts[key]}")
    head = "Faits" if locale == "fr" else "Facts"
    return f"{head}: {'; '.join(f.strip() for f in fields) or '-'}."


# What each recorded call decided, in the summary's words (the arguments fill them in).
_DECISIONS = {
    "select_gift": "selected {gift_id}",
    "select_described_gift": "asked for the gift described as '{described}'",
    "confirm_choice": "confirmed the selected gift",
    "save_recipient_profile": "saved profile '{label}'",
    "load_recipient_profile": "loaded profile '{label}'",
}


def summarize(request_text: str, counter: TokenCounter, max_tokens: int | None) -> str:
    """The new running summary for one summarization request."""
    previous, _, folded = request_text.partition(MESSAGES_HEADER)
    previous = previous.replace(PREVIOUS_HEADER, "").strip()
    if previous == NO_SUMMARY:
        previous = ""
    facts = _previous_facts(previous)
    decisions: list[str] = [
        d.rstrip(".") for d in re.findall(r"Decisions\s*:\s*(.*?)(?:\n|$)", previous)
    ]
    said: list[str] = []
    proposed: list[str] = []
    for line in (line.strip() for line in folded.splitlines()[1:]):
        if m := _CALL.match(line):
            _record(m[1], json_object(m[2]), facts, decisions)
        elif m := _TOOL.match(line):
            if '"shortlist"' in m[2]:  # a tool that searched and filtered
                proposed = _GIFT_ID.findall(m[2]) or proposed
        elif m := _SAY.match(line):
            said.append(m[1])
    if proposed:
        decisions.append(f"proposed {', '.join(proposed)}")
    head = [_facts_line(facts, detect_locale(" ".join(said), default="en"))]
    if decisions:
        head.append(f"Decisions: {'; '.join(decisions[-6:])}.")
    return _fitted(head, said, counter, max_tokens or DEFAULT_MAX_TOKENS)


def _record(name: str, args: dict[str, Any], facts: dict[str, Any], decisions: list[str]) -> None:
    """One recorded call: its facts, or the decision it made."""
    if name == "update_profile":
        _apply(facts, args)
    elif name in _DECISIONS:
        # an argument left out reads "None", as the summary always wrote it
        decisions.append(_DECISIONS[name].format_map(defaultdict(lambda: None, args)))


def _fitted(head: list[str], said: list[str], counter: TokenCounter, budget: int) -> str:
    """The facts and decisions, then as many of the person's latest words as fit."""
    quotes = [f'"{" ".join(s.split())[:160]}"' for s in said]
    while True:
        text = "\n".join([*head, *([f"User said: {' | '.join(quotes)}"] if quotes else [])])
        if counter.count_text(text) <= budget or not quotes:
            break
        quotes.pop(0)  # the oldest words go first; facts and decisions stay
    if counter.count_text(text) > budget:
        text, _ = counter.truncate_text(text, budget)
    return text
