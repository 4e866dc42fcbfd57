"""Build the model context of one request within a token budget: pure, no I/O.

Order is cache-friendly, stable parts first: system prompt (with the recipient's notes
from earlier searches and the running summary, in the one system message), as much recent
history as fits, then this turn's messages, the state block at the head of the newest user
message (``protocol.with_state``): one system message, first, and tool messages only after
their call, which every common chat template accepts. History is dropped oldest first in
whole groups (an assistant message with tool calls travels with all its tool results), so
the sequence sent is always protocol-valid. Each ``Message.tokens`` is counted once and
reused, so the cost of a turn does not grow with the history.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from giftgenius.domain import Message, Summary
from giftgenius.errors import ContextLengthExceeded
from giftgenius.messages import speak
from giftgenius.protocol import with_state
from giftgenius.tokens import REPLY_PRIMING_TOKENS, TokenCounter

SUMMARY_PREFIX = "Summary of the earlier conversation: "
MEMORY_PREFIX = (
    "Notes from this person's earlier searches for this recipient, newest first "
    "(`recall_memories` finds more):\n"
)
TRUNCATION_MARKER = "…[truncated {n} tokens]"
# A tool result larger than this share of the budget is cut, whether in history or turn.
TOOL_RESULT_BUDGET_SHARE = 4
# Never cut a tool result below this many tokens: the model must still see its head.
MIN_TOOL_RESULT_TOKENS = 48


@dataclass
class BuiltContext:
    messages: list[dict[str, Any]]
    prompt_tokens: int  # messages + tools + reply priming
    dropped: int = 0  # history messages left out
    truncated: bool = False  # anything dropped, cut or omitted
    cut_tool_results: int = 0
    summary_included: bool = False
    history_kept: int = 0
    notes: list[str] = field(default_factory=list)


def ensure_tokens(counter: TokenCounter, messages: Sequence[Message]) -> None:
    """Count each message once; a message already counted is never recounted."""
    for message in messages:
        if message.tokens is None:
            message.tokens = counter.count_message(message.to_openai())


@dataclass
class _Item:
    """One message on its way out: its wire dict and its token cost."""

    wire: dict[str, Any]
    tokens: int
    is_tool: bool
    cut: bool = False


def _item(message: Message) -> _Item:
    assert message.tokens is not None
    return _Item(message.to_openai(), message.tokens, message.role == "tool")


def _with_parts(
    counter: TokenCounter,
    head: _Item,
    summary: _Item | None,
    history: list[_Item],
    turn: list[_Item],
    block: str,
) -> list[_Item]:
    """The messages in order: the summary folded into the one system message, two user
    messages in a row joined, and the state block at the head of the newest user message
    (a message of its own when this turn has none)."""
    if summary is not None:
        wire = {"role": "system", "content": f"{head.wire['content']}\n\n{summary.wire['content']}"}
        head = _Item(wire, counter.count_message(wire), False)
    items = _alternating([*history, *turn])
    if not any(it.wire.get("role") == "user" for it in turn):
        wire = {"role": "user", "content": block}
        return [head, *items, _Item(wire, counter.count_message(wire), False)]
    at = max(i for i, it in enumerate(items) if it.wire.get("role") == "user")
    wire = {**items[at].wire, "content": with_state(str(items[at].wire["content"]), block)}
    items[at] = _Item(wire, counter.count_message(wire), False, items[at].cut)
    return [head, *items]


def _alternating(items: list[_Item]) -> list[_Item]:
    """Two user messages in a row (a turn that failed before any answer, then the next)
    become one, the earlier words first: Gemma's and Llama's templates require the roles to
    alternate. Costed as the two were (an upper bound: one message's overhead less, a blank
    line more), so nothing is counted again however long the history."""
    out: list[_Item] = []
    for item in items:
        before = out[-1] if out else None
        if before is not None and before.wire.get("role") == item.wire.get("role") == "user":
            text = f"{before.wire['content']}\n\n{item.wire['content']}"
            wire = {**item.wire, "content": text}
            out[-1] = _Item(wire, before.tokens + item.tokens, False, before.cut or item.cut)
            continue
        out.append(item)
    return out


def _cut_tool_item(counter: TokenCounter, item: _Item, cap: int) -> _Item:
    """Cut a tool result's content so the whole message costs at most ``cap`` tokens."""
    if item.tokens <= cap:
        return item
    content = str(item.wire.get("content") or "")
    overhead = counter.count_message({**item.wire, "content": ""})
    marker_cost = counter.count_text(TRUNCATION_MARKER.format(n=10**6))
    keep = max(cap - overhead - marker_cost, 0)
    wire = dict(item.wire)
    for _ in range(8):  # re-tokenizing a cut text can shift by a token or two
        head, removed = counter.truncate_text(content, keep)
        wire["content"] = head + TRUNCATION_MARKER.format(n=removed)
        tokens = counter.count_message(wire)
        if tokens <= cap or keep == 0:
            break
        keep = max(keep - (tokens - cap), 0)
    return _Item(wire, tokens, True, cut=True)


def _groups(history: Sequence[Message]) -> tuple[list[list[Message]], int]:
    """Split history into sendable groups; returns (groups, messages left out as invalid).

    A group is one plain message, or an assistant message with tool calls followed by a
    result for every call. Orphan tool results and unanswered calls cannot be sent.
    """
    groups: list[list[Message]] = []
    invalid = 0
    i = 0
    while i < len(history):
        message = history[i]
        if message.role == "tool":
            invalid += 1  # no preceding call in history: an orphan
            i += 1
            continue
        if message.role != "assistant" or not message.tool_calls:
            groups.append([message])
            i += 1
            continue
        pending = {call.id for call in message.tool_calls}
        group = [message]
        i += 1
        while i < len(history) and history[i].role == "tool" and pending:
            if history[i].tool_call_id not in pending:
                break
            pending.discard(history[i].tool_call_id)
            group.append(history[i])
            i += 1
        if pending:
            invalid += len(group)  # an unanswered call would be refused by the API
        else:
            groups.append(group)
    return groups, invalid


def _shrink_turn(counter: TokenCounter, items: list[_Item], excess: int) -> list[_Item]:
    """Cut this turn's tool results evenly (largest first) until ``excess`` tokens go."""
    tool_sizes = [it.tokens for it in items if it.is_tool]
    if not tool_sizes or excess <= 0:
        return items
    target_total = sum(tool_sizes) - excess
    low, high = MIN_TOOL_RESULT_TOKENS, max(tool_sizes)
    while low < high:  # the largest common cap whose total fits
        mid = (low + high + 1) // 2
        if sum(min(t, mid) for t in tool_sizes) <= target_total:
            low = mid
        else:
            high = mid - 1
    return [_cut_tool_item(counter, it, low) if it.is_tool else it for it in items]


def _fit_turn(
    counter: TokenCounter,
    turn_items: list[_Item],
    summary_item: _Item | None,
    fixed: int,
    budget: int,
) -> tuple[list[_Item], _Item | None, list[str]]:
    """This turn and the summary within what ``fixed`` leaves of ``budget``: this turn's
    tool results are cut first, then the summary is left out (said in the notes).

    Raises ``ContextLengthExceeded`` when this turn does not fit even so.
    """
    summary_cost = summary_item.tokens if summary_item else 0
    turn_cost = sum(it.tokens for it in turn_items)
    if fixed + summary_cost + turn_cost > budget:
        turn_items = _shrink_turn(counter, turn_items, fixed + summary_cost + turn_cost - budget)
        turn_cost = sum(it.tokens for it in turn_items)
    notes: list[str] = []
    if summary_item is not None and fixed + summary_cost + turn_cost > budget:
        summary_item, summary_cost = None, 0
        notes.append("summary omitted: this turn needs the room")
    if fixed + summary_cost + turn_cost > budget:
        raise ContextLengthExceeded(
            speak("context", "over_budget", tokens=fixed + turn_cost, budget=budget)
        )
    return turn_items, summary_item, notes


def _history_within(
    counter: TokenCounter, history: list[Message], room: int, cap: int
) -> tuple[list[_Item], int]:
    """The newest whole groups of ``history`` that fit in ``room`` tokens, their tool
    results cut to ``cap``, and how many history messages are left out."""
    groups, dropped = _groups(history)
    kept: list[list[_Item]] = []
    for index in range(len(groups) - 1, -1, -1):
        items = [
            _cut_tool_item(counter, it, cap) if it.is_tool else it
            for it in map(_item, groups[index])
        ]
        cost = sum(it.tokens for it in items)
        if cost > room:
            dropped += sum(len(g) for g in groups[: index + 1])
            break
        room -= cost
        kept.append(items)
    kept.reverse()
    return [it for items in kept for it in items], dropped


def build_context(
    *,
    counter: TokenCounter,
    budget: int,
    system_prompt: str,
    tools: list[dict[str, Any]],
    summary: Summary,
    history: list[Message],
    state_block: str,
    turn: list[Message],
    memories: str = "",
    max_tool_result_tokens: int | None = None,
) -> BuiltContext:
    """The messages of one request, within ``budget`` prompt tokens (tools included).

    ``memories`` (the recipient's notes, already bounded) travel with the summary: both are
    left out, together, before this turn is cut to nothing.

    Raises ``ContextLengthExceeded`` only when the parts that must stay (system prompt,
    state block, this turn with its tool results cut to a minimum) cannot fit at all.
    """
    ensure_tokens(counter, history)
    ensure_tokens(counter, turn)
    cap = max_tool_result_tokens or max(budget // TOOL_RESULT_BUDGET_SHARE, MIN_TOOL_RESULT_TOKENS)

    def msg(role: str, content: str) -> _Item:
        wire = {"role": role, "content": content}
        return _Item(wire, counter.count_message(wire), False)

    head = msg("system", system_prompt)
    # Costed on its own here, sent inside the newest user message (``_with_parts``).
    state = msg("user", state_block)
    extra = [MEMORY_PREFIX + memories] if memories else []
    extra += [SUMMARY_PREFIX + summary.text] if summary.text else []
    summary_item = msg("system", "\n\n".join(extra)) if extra else None
    turn_items = [_cut_tool_item(counter, it, cap) if it.is_tool else it for it in map(_item, turn)]
    tools_cost = counter.count_tools(tools)
    fixed = REPLY_PRIMING_TOKENS + tools_cost + head.tokens + state.tokens

    turn_items, summary_item, notes = _fit_turn(counter, turn_items, summary_item, fixed, budget)
    summary_cost = summary_item.tokens if summary_item else 0
    room = budget - fixed - summary_cost - sum(it.tokens for it in turn_items)
    history_items, dropped = _history_within(counter, history, room, cap)

    cut = sum(1 for it in [*history_items, *turn_items] if it.cut)
    ordered = _with_parts(counter, head, summary_item, history_items, turn_items, state_block)
    prompt_tokens = sum(it.tokens for it in ordered) + tools_cost + REPLY_PRIMING_TOKENS
    return BuiltContext(
        messages=[it.wire for it in ordered],
        prompt_tokens=prompt_tokens,
        dropped=dropped,
        truncated=bool(dropped or cut or (summary.text and summary_item is None)),
        cut_tool_results=cut,
        summary_included=summary_item is not None and bool(summary.text),
        history_kept=len(history_items),
        notes=notes,
    )
