"""maybe_summarize: threshold, keep-last, no refolding, failure keeps history, bounded size."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from giftgenius.agent.summary import bound_summary, maybe_summarize
from giftgenius.domain import MAX_SUMMARY_CHARS, Message, Session, Summary, ToolCall
from giftgenius.errors import ModelError
from giftgenius.llm.base import ChatRequest, ChatResponse, ChatUsage
from giftgenius.protocol import MESSAGES_HEADER
from giftgenius.resources import prompt_text
from giftgenius.settings import Settings, load_settings
from giftgenius.tokens import TokenCounter

COUNTER = TokenCounter.for_model("offline")


class FakeSummarizer:
    """Answers summary requests with a fixed text (or fails), recording what it was asked."""

    name = "fake"

    def __init__(self, answer: str = "The user wants a mug for their sister.", fail: bool = False):
        self.answer = answer
        self.fail = fail
        self.requests: list[ChatRequest] = []

    def complete(
        self, request: ChatRequest, on_text: Callable[[str], None] | None = None
    ) -> ChatResponse:
        self.requests.append(request)
        if self.fail:
            raise ModelError("the endpoint timed out; retry later")
        return ChatResponse(
            message=Message(role="assistant", content=self.answer),
            usage=ChatUsage(prompt_tokens=120, completion_tokens=15),
        )


def conversation(turns: int, start_seq: int = 1, size: int = 20) -> list[Message]:
    """user, assistant tool call, tool result, assistant reply — per turn, numbered."""
    out: list[Message] = []
    seq = start_seq
    for t in range(turns):
        call = ToolCall(id=f"call_{seq}", name="update_profile", arguments='{"interests":["tea"]}')
        for message in (
            Message(role="user", content=f"turn {seq}: " + "tea " * size),
            Message(role="assistant", tool_calls=[call]),
            Message(role="tool", tool_call_id=call.id, content='{"ok": true} ' + "x " * size),
            Message(role="assistant", content=f"reply {t}: " + "mug " * size),
        ):
            message.seq = seq
            seq += 1
            out.append(message)
    return out


def make_session(messages: list[Message], summary: Summary | None = None) -> Session:
    return Session(run_id="r1", user_id="u1", messages=messages, summary=summary or Summary())


@pytest.fixture
def settings() -> Settings:
    return load_settings(keep_recent_messages=6, summary_trigger_ratio=0.5)


def test_below_threshold_nothing_happens(settings: Settings) -> None:
    session = make_session(conversation(2))
    model = FakeSummarizer()
    assert maybe_summarize(session, model, COUNTER, budget=4000, settings=settings) is None
    assert not model.requests and len(session.messages) == 8


def test_over_threshold_folds_oldest_and_keeps_recent_groups_whole(settings: Settings) -> None:
    messages = conversation(10, size=40)
    session = make_session(list(messages))
    model = FakeSummarizer()
    outcome = maybe_summarize(session, model, COUNTER, budget=3000, settings=settings)
    assert outcome is not None and outcome.ok
    kept = session.messages
    assert len(kept) >= 6 and kept[0].role != "tool"
    assert kept == messages[-len(kept) :]
    assert outcome.folded == len(messages) - len(kept)
    assert session.summary.through_seq == messages[outcome.folded - 1].seq
    assert session.summary.text == model.answer
    assert session.summary.tokens == COUNTER.count_text(model.answer)
    request = model.requests[0]
    assert request.purpose == "summary" and request.tools == []
    assert request.max_tokens == settings.summary_max_tokens
    assert request.messages[0]["role"] == "system"
    assert request.messages[0]["content"] == prompt_text("summarize.md")
    user = request.messages[1]["content"]
    assert (
        MESSAGES_HEADER in user and "turn 1:" in user and "assistant called update_profile(" in user
    )
    assert "tool update_profile result:" in user
    assert "turn 37:" not in user  # the kept messages are not sent to the summarizer
    usage = session.usage
    assert (usage.summary_requests, usage.summarizations) == (1, 1)
    assert (usage.summary_prompt_tokens, usage.summary_completion_tokens) == (120, 15)


def test_message_count_alone_triggers(settings: Settings) -> None:
    session = make_session(conversation(12, size=1))  # 48 tiny messages
    outcome = maybe_summarize(session, FakeSummarizer(), COUNTER, budget=100_000, settings=settings)
    assert outcome is not None and outcome.ok and len(session.messages) >= 6


def test_keep_recent_never_splits_a_tool_group() -> None:
    settings = load_settings(keep_recent_messages=2, summary_trigger_ratio=0.1)
    messages = conversation(6, size=40)
    session = make_session(list(messages))
    messages_before_last = messages[:-1]  # ends on a tool result: keep 2 = call + result
    session.messages = list(messages_before_last)
    outcome = maybe_summarize(session, FakeSummarizer(), COUNTER, budget=2000, settings=settings)
    assert outcome is not None and outcome.ok
    assert [m.role for m in session.messages] == ["assistant", "tool"]
    assert session.messages[0].tool_calls


def test_folded_messages_are_never_refolded(settings: Settings) -> None:
    messages = conversation(10, size=40)
    session = make_session(list(messages))
    model = FakeSummarizer()
    first = maybe_summarize(session, model, COUNTER, budget=3000, settings=settings)
    assert first is not None and first.ok
    # A stale copy of already-folded messages comes back (a session restored from an old
    # checkpoint, say): they leave without being sent to the model again.
    session.messages = messages[: first.folded] + session.messages + conversation(8, 1000, 40)
    second = maybe_summarize(session, model, COUNTER, budget=3000, settings=settings)
    assert second is not None and second.ok
    assert second.through_seq > first.through_seq
    second_text = model.requests[1].messages[1]["content"]
    assert "turn 1:" not in second_text and model.answer in second_text  # previous summary
    assert all(m.seq is not None and m.seq > second.through_seq for m in session.messages)


def test_failure_keeps_history_untouched(settings: Settings) -> None:
    messages = conversation(10, size=40)
    session = make_session(list(messages), Summary(text="earlier", through_seq=0))
    before = session.model_copy(deep=True)
    outcome = maybe_summarize(
        session, FakeSummarizer(fail=True), COUNTER, budget=3000, settings=settings
    )
    assert outcome is not None and not outcome.ok and "timed out" in (outcome.error or "")

    def plain(messages: list[Message]) -> list[dict[str, object]]:
        return [m.model_dump(exclude={"tokens"}) for m in messages]  # counting is allowed

    assert plain(session.messages) == plain(before.messages)
    assert session.summary == before.summary
    assert session.usage == before.usage


def test_empty_answer_counts_as_failure(settings: Settings) -> None:
    session = make_session(conversation(10, size=40))
    outcome = maybe_summarize(
        session, FakeSummarizer(answer="  "), COUNTER, budget=3000, settings=settings
    )
    assert outcome is not None and not outcome.ok and len(session.messages) == 40


def test_summary_is_bounded(settings: Settings) -> None:
    session = make_session(conversation(10, size=40))
    rambling = "The user likes tea and mugs and candles. " * 400
    outcome = maybe_summarize(
        session, FakeSummarizer(rambling), COUNTER, budget=3000, settings=settings
    )
    assert outcome is not None and outcome.ok
    text = session.summary.text
    assert len(text) <= MAX_SUMMARY_CHARS
    assert COUNTER.count_text(text) <= settings.summary_max_tokens
    assert text.endswith("…")


def test_bound_summary_respects_chars_and_tokens() -> None:
    long_words = "x" * 30 + " "
    assert len(bound_summary(COUNTER, long_words * 500, 10_000)) <= MAX_SUMMARY_CHARS
    assert COUNTER.count_text(bound_summary(COUNTER, "word " * 500, 60)) <= 60
    assert bound_summary(COUNTER, " short ", 60) == "short"


def test_huge_backlog_folds_only_what_the_request_can_hold() -> None:
    settings = load_settings(keep_recent_messages=4, summary_trigger_ratio=0.5)
    session = make_session(conversation(60, size=60))  # far more than one request holds
    model = FakeSummarizer()
    outcome = maybe_summarize(session, model, COUNTER, budget=3000, settings=settings)
    assert outcome is not None and outcome.ok and 0 < outcome.folded < 236
    request = model.requests[0]
    assert COUNTER.count_request(request.messages) + settings.summary_max_tokens <= 3000
    assert session.messages[0].role != "tool"
