"""Fold the oldest session messages into the running summary with one model call.

History grows every turn; past a share of the budget (or a message count) the oldest
messages are summarized and leave the session (the transcript still holds them). The last
few messages stay verbatim, whole tool groups never split. ``Summary.through_seq`` is the
last folded transcript seq, so nothing is summarized twice. A failed call changes nothing:
history is never dropped because a summary could not be written.

The request: the system message is ``prompts/summarize.md``; the user message is laid out
as ``giftgenius.protocol`` describes (plain lines any model reads), then the word limit line.
The request's ``purpose`` is "summary", which the model client sends as a header.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from giftgenius.agent.prompt_window import ensure_tokens
from giftgenius.domain import MAX_SUMMARY_CHARS, Message, Session, Summary
from giftgenius.errors import ModelError
from giftgenius.llm.base import ChatModel, ChatRequest, ChatUsage
from giftgenius.protocol import MESSAGES_HEADER, NO_SUMMARY, PREVIOUS_HEADER
from giftgenius.resources import prompt_text
from giftgenius.settings import Settings
from giftgenius.tokens import REPLY_PRIMING_TOKENS, TokenCounter

PROMPT_FILE = "summarize.md"
# Fold when history holds more messages than this, whatever their size.
MAX_HISTORY_MESSAGES = 40
# One folded line is clipped to this many characters: a summary needs the gist, not a dump.
MAX_LINE_CHARS = 600
ELLIPSIS = "…"


@dataclass
class SummaryOutcome:
    """What a summarization attempt did; ``ok=False`` means history was left untouched."""

    ok: bool
    folded: int = 0  # messages removed from the session into the summary
    through_seq: int = 0
    summary_tokens: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    error: str | None = None


def _line(message: Message, tool_names: dict[str, str]) -> list[str]:
    """Plain-text lines for one message (the model needs no JSON framing to summarize)."""
    lines: list[str] = []
    text = " ".join((message.content or "").split())
    if message.role == "tool":
        name = tool_names.get(message.tool_call_id or "", "unknown")
        lines.append(f"tool {name} result: {text}")
    elif text:
        lines.append(f"{message.role}: {text}")
    for call in message.tool_calls:
        lines.append(f"assistant called {call.name}({' '.join(call.arguments.split())})")
    return [_clip(line, MAX_LINE_CHARS) for line in lines]


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + ELLIPSIS


def _group_starts(messages: Sequence[Message]) -> list[int]:
    """Indices where a message may be split off: never just before a tool result."""
    return [i for i, m in enumerate(messages) if m.role != "tool"] + [len(messages)]


def fold_boundary(messages: Sequence[Message], keep_recent: int) -> int:
    """Index of the first kept message: at least ``keep_recent`` kept, groups whole."""
    wanted = max(len(messages) - keep_recent, 0)
    starts = [i for i in _group_starts(messages) if i <= wanted]
    return starts[-1] if starts else 0


def _request_text(previous: str, lines: list[str], max_words: int) -> str:
    return "\n".join(
        [
            PREVIOUS_HEADER,
            previous or NO_SUMMARY,
            "",
            MESSAGES_HEADER,
            *lines,
            "",
            f"Write the new summary in at most {max_words} words.",
        ]
    )


def bound_summary(counter: TokenCounter, text: str, max_tokens: int) -> str:
    """Clip a summary to ``max_tokens`` and ``MAX_SUMMARY_CHARS``, at a word if possible."""
    text = text.strip()
    head, removed = counter.truncate_text(text, max_tokens)
    if removed:  # leave room for the ellipsis and a re-tokenized word edge
        head, removed = counter.truncate_text(text, max_tokens - 2)
    clipped = removed > 0 or len(head) > MAX_SUMMARY_CHARS
    head = head[: MAX_SUMMARY_CHARS - len(ELLIPSIS)] if clipped else head
    if clipped:
        cut = head.rfind(" ")
        head = (head[:cut] if cut > len(head) // 2 else head).rstrip() + ELLIPSIS
    return head


def needs_summary(history_tokens: int, history_len: int, budget: int, ratio: float) -> bool:
    return history_tokens > ratio * budget or history_len > MAX_HISTORY_MESSAGES


def maybe_summarize(
    session: Session,
    model: ChatModel,
    counter: TokenCounter,
    *,
    budget: int,
    settings: Settings,
) -> SummaryOutcome | None:
    """Fold old messages into ``session.summary`` if history is too big; None if not needed.

    Mutates ``session`` (summary, messages, usage) only when the model answered.
    """
    _drop_summarized(session)
    messages = session.messages
    ensure_tokens(counter, messages)
    history_tokens = sum(m.tokens or 0 for m in messages)
    if not needs_summary(history_tokens, len(messages), budget, settings.summary_trigger_ratio):
        return None
    boundary = fold_boundary(messages, settings.keep_recent_messages)
    if boundary == 0:
        return None

    system = prompt_text(PROMPT_FILE)
    max_words = max(settings.summary_max_tokens * 3 // 4, 20)
    # The request must fit too: fold the oldest whole groups that do, leave the rest.
    fixed = (
        counter.count_message({"role": "system", "content": system})
        + counter.count_message(
            {"role": "user", "content": _request_text(session.summary.text, [], max_words)}
        )
        + REPLY_PRIMING_TOKENS
    )
    room = budget - settings.summary_max_tokens - fixed
    lines, end = _lines_that_fit(messages, boundary, room, counter)

    request = ChatRequest(
        messages=[
            {"role": "system", "content": system},
            {"role": "user", "content": _request_text(session.summary.text, lines, max_words)},
        ],
        max_tokens=settings.summary_max_tokens,
        temperature=0,
        purpose="summary",
    )
    try:
        response = model.complete(request)
    except ModelError as exc:
        return SummaryOutcome(ok=False, error=f"summary request failed: {exc}")
    text = (response.message.content or "").strip()
    if not text:
        return SummaryOutcome(ok=False, error="the model returned an empty summary")
    text = bound_summary(counter, text, settings.summary_max_tokens)
    return _fold(session, end, text, response.usage, counter)


def _drop_summarized(session: Session) -> None:
    """Anything already covered by the summary leaves without being folded again."""
    through = session.summary.through_seq
    stale = [m for m in session.messages if m.seq is not None and m.seq <= through]
    if stale:
        session.messages = [m for m in session.messages if m.seq is None or m.seq > through]


def _lines_that_fit(
    messages: Sequence[Message], boundary: int, room: int, counter: TokenCounter
) -> tuple[list[str], int]:
    """The lines of the oldest whole tool groups before ``boundary`` that fit in ``room``
    tokens (the first group always, so a fold always makes progress), and the index of the
    first message left out."""
    tool_names = {c.id: c.name for m in messages for c in m.tool_calls}
    starts = [i for i in _group_starts(messages) if 0 < i <= boundary]
    lines: list[str] = []
    end = 0
    for stop in starts:
        group_lines = [line for m in messages[end:stop] for line in _line(m, tool_names)]
        cost = counter.count_text("\n".join(group_lines)) + len(group_lines)
        if cost > room and end > 0:
            break
        lines.extend(group_lines)
        room -= cost
        end = stop
    return lines, end


def _fold(
    session: Session, end: int, text: str, usage: ChatUsage, counter: TokenCounter
) -> SummaryOutcome:
    """Replace the session's first ``end`` messages by the summary ``text``, and count the
    summary request in the session's usage."""
    folded = session.messages[:end]
    seqs = [m.seq for m in folded if m.seq is not None]
    through_seq = max([session.summary.through_seq, *seqs])
    session.summary = Summary(text=text, through_seq=through_seq, tokens=counter.count_text(text))
    session.messages = list(session.messages[end:])
    totals = session.usage
    totals.summary_requests += 1
    totals.summary_prompt_tokens += usage.prompt_tokens
    totals.summary_completion_tokens += usage.completion_tokens
    totals.summarizations += 1
    return SummaryOutcome(
        ok=True,
        folded=len(folded),
        through_seq=through_seq,
        summary_tokens=session.summary.tokens,
        prompt_tokens=usage.prompt_tokens,
        completion_tokens=usage.completion_tokens,
    )
