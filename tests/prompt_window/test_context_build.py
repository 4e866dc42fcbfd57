"""build_context: protocol-valid, within budget, stable parts kept, each message counted once."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from giftgenius.agent.prompt_window import SUMMARY_PREFIX, BuiltContext, build_context
from giftgenius.agent.tools import tool_specs
from giftgenius.domain import Message, Summary, ToolCall
from giftgenius.errors import ContextLengthExceeded
from giftgenius.protocol import split_state, with_state
from giftgenius.tokens import TokenCounter

COUNTER = TokenCounter.for_model("offline")
TOOLS = tool_specs()
# The budgets below are this much room on top of the tool schemas, which every request pays.
TOOLS_COST = COUNTER.count_tools(TOOLS)
SYSTEM = "You are GiftGenius, a helpful gift-finding assistant. " * 8
STATE = '[giftgenius-state] {"step":"collecting_profile","missing":["budget"]}'


def words(n: int, word: str = "gift") -> str:
    return " ".join([word] * n)


class _Ids:
    def __init__(self) -> None:
        self.n = 0

    def __call__(self) -> str:
        self.n += 1
        return f"call_{self.n}"


def tool_group(ids: _Ids, results: list[int]) -> list[Message]:
    calls = [ToolCall(id=ids(), name="search_candidates", arguments="{}") for _ in results]
    out = [Message(role="assistant", tool_calls=calls)]
    out += [
        Message(role="tool", tool_call_id=c.id, content=words(size, "result"))
        for c, size in zip(calls, results, strict=True)
    ]
    return out


def joined(msgs: list[dict[str, Any]]) -> bool:
    return any(m["role"] == "user" and "\n\n" in str(m["content"]) for m in msgs[1:-1]) or (
        str(msgs[-1].get("content", "")).count("\n\n") > 1
    )


def assert_valid(built: BuiltContext, budget: int, user_text: str) -> None:
    msgs = built.messages
    assert msgs[0]["role"] == "system" and msgs[0]["content"].startswith(SYSTEM)
    assert [m["role"] for m in msgs].count("system") == 1  # templates refuse a later one
    newest = [m for m in msgs if m["role"] == "user"][-1]
    block, said = split_state(newest["content"])
    assert newest["content"].startswith(STATE) and block is not None  # the state rides with it
    assert said == user_text or said.endswith("\n\n" + user_text)  # an unanswered one before
    assert all(STATE not in str(m.get("content")) for m in msgs if m is not newest)
    pending: set[str] = set()
    for index, m in enumerate(msgs):
        if m["role"] == "tool":
            assert m["tool_call_id"] in pending, f"orphan tool message at {index}"
            pending.discard(m["tool_call_id"])
            continue
        assert not pending, f"unanswered tool calls before message {index}"
        if m["role"] == "assistant" and m.get("tool_calls"):
            pending = {c["id"] for c in m["tool_calls"]}
    assert not pending
    assert built.prompt_tokens <= budget
    # Exact, or an upper bound where two user messages in a row were joined into one.
    exact = COUNTER.count_request(msgs, TOOLS)
    assert built.prompt_tokens == exact or (joined(msgs) and exact <= built.prompt_tokens)
    roles = [m["role"] for m in msgs]
    assert all(a != b or a != "user" for a, b in itertools.pairwise(roles))


@st.composite
def scenario(draw: st.DrawFn) -> dict[str, Any]:
    ids = _Ids()
    sizes = st.one_of(st.integers(1, 120), st.integers(1500, 5000))
    history: list[Message] = []
    if draw(st.booleans()):  # history cut in the middle of a group by an earlier fold
        history.append(Message(role="tool", tool_call_id="call_gone", content="stale"))
    for _ in range(draw(st.integers(0, 25))):
        kind = draw(st.sampled_from(["user", "assistant", "tools", "tools", "broken"]))
        if kind == "user":
            history.append(Message(role="user", content=words(draw(st.integers(1, 80)), "mug")))
        elif kind == "assistant":
            history.append(Message(role="assistant", content=words(draw(st.integers(1, 150)))))
        elif kind == "tools":
            history += tool_group(ids, draw(st.lists(sizes, min_size=1, max_size=3)))
        else:  # a call whose result never arrived (crash mid-turn): must not be sent
            history += tool_group(ids, [draw(st.integers(1, 50)), 10])[:-1]
    user_text = words(draw(st.integers(1, 200)), "budget")
    turn = [Message(role="user", content=user_text)]
    for _ in range(draw(st.integers(0, 2))):
        turn += tool_group(ids, draw(st.lists(sizes, min_size=1, max_size=3)))
    summary = Summary(text=words(draw(st.integers(0, 290)), "summary"))
    return {
        "history": history,
        "turn": turn,
        "summary": summary,
        "budget": draw(st.integers(2500, 9000)),
        "user_text": user_text,
    }


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenario())
def test_any_history_gives_a_valid_context_within_budget(case: dict[str, Any]) -> None:
    built = build_context(
        counter=COUNTER,
        budget=case["budget"],
        system_prompt=SYSTEM,
        tools=TOOLS,
        summary=case["summary"],
        history=case["history"],
        state_block=STATE,
        turn=case["turn"],
    )
    assert_valid(built, case["budget"], case["user_text"])
    sent_history = built.history_kept
    assert built.dropped == len(case["history"]) - sent_history
    if built.dropped or built.cut_tool_results:
        assert built.truncated
    if any("…[truncated" in (m.get("content") or "") for m in built.messages):
        assert built.cut_tool_results > 0


def build(
    history: list[Message], turn: list[Message], budget: int = 4000, **kw: Any
) -> BuiltContext:
    return build_context(
        counter=COUNTER,
        budget=budget,
        system_prompt=SYSTEM,
        tools=TOOLS,
        summary=kw.pop("summary", Summary()),
        history=history,
        state_block=STATE,
        turn=turn,
        **kw,
    )


def test_order_is_stable_parts_first() -> None:
    history = [Message(role="user", content="hi"), Message(role="assistant", content="hello")]
    turn = [Message(role="user", content="a mug for my sister")]
    built = build(history, turn, summary=Summary(text="User wants a gift.", through_seq=4))
    assert [m["content"] for m in built.messages] == [
        SYSTEM + "\n\n" + SUMMARY_PREFIX + "User wants a gift.",
        "hi",
        "hello",
        with_state("a mug for my sister", STATE),
    ]
    assert not built.truncated and built.dropped == 0 and built.summary_included


def test_history_is_dropped_oldest_first_in_whole_groups() -> None:
    ids = _Ids()
    old = [Message(role="user", content=words(600, "old"))]
    group = tool_group(ids, [300, 300])
    recent = [Message(role="assistant", content="recent answer")]
    turn = [Message(role="user", content="next")]
    built = build(old + group + recent, turn, budget=TOOLS_COST + 820)
    contents = [m["content"] for m in built.messages]
    assert words(600, "old") not in contents
    assert built.messages[1]["role"] == "assistant" and built.messages[1]["tool_calls"]
    assert built.dropped == 1 and built.truncated
    tight = build(old + group + recent, turn, budget=TOOLS_COST + 320)
    assert tight.dropped == 4 and "recent answer" in [m["content"] for m in tight.messages]
    assert not any(m["role"] == "tool" for m in tight.messages)


def test_orphan_and_unanswered_tool_messages_are_never_sent() -> None:
    ids = _Ids()
    orphan = Message(role="tool", tool_call_id="call_lost", content="{}")
    unanswered = tool_group(ids, [5, 5])[:-1]
    history = [orphan, Message(role="user", content="hi"), *unanswered]
    built = build(history, [Message(role="user", content="well?")])
    assert [m["role"] for m in built.messages] == ["system", "user"]  # "hi" joins "well?"
    assert built.messages[1]["content"] == with_state("hi\n\nwell?", STATE)
    assert built.dropped == 3


def test_oversized_tool_result_is_cut_with_a_marker_not_dropped() -> None:
    ids = _Ids()
    group = tool_group(ids, [6000])
    built = build(
        [Message(role="user", content="find mugs"), *group], [Message(role="user", content="ok")]
    )
    tool_msgs = [m for m in built.messages if m["role"] == "tool"]
    assert len(tool_msgs) == 1 and tool_msgs[0]["content"].endswith(" tokens]")
    assert "…[truncated " in tool_msgs[0]["content"]
    assert built.cut_tool_results == 1 and built.dropped == 0 and built.prompt_tokens <= 4000
    assert group[1].content == words(6000, "result")  # the stored message is untouched


def test_turn_tool_results_shrink_to_fit_and_summary_goes_last() -> None:
    ids = _Ids()
    turn = [Message(role="user", content="search"), *tool_group(ids, [900, 900, 900])]
    summary = Summary(text=words(290, "summary"))
    built = build([], turn, budget=TOOLS_COST + 1920, summary=summary)
    assert built.prompt_tokens <= TOOLS_COST + 1920 and built.cut_tool_results == 3
    assert built.summary_included
    squeezed = build([], turn, budget=TOOLS_COST + 320, summary=summary)
    assert not squeezed.summary_included and squeezed.truncated
    assert squeezed.prompt_tokens <= TOOLS_COST + 320


def test_impossible_budget_says_what_to_do() -> None:
    with pytest.raises(ContextLengthExceeded, match="GIFTGENIUS_CONTEXT_WINDOW"):
        build([], [Message(role="user", content=words(3000))], budget=2000)


class SpyCounter(TokenCounter):
    def __init__(self) -> None:
        super().__init__(COUNTER._encoding)
        self.counted: list[Any] = []

    def count_message(self, msg: Any) -> int:
        self.counted.append(msg.get("content"))
        return super().count_message(msg)


def test_each_message_is_counted_once() -> None:
    spy = SpyCounter()
    history = [Message(role="user", content=f"message {i}") for i in range(30)]
    history[0].tokens = 7  # already counted: must be trusted, not recounted
    turn = [Message(role="user", content="now")]
    kwargs: dict[str, Any] = dict(
        counter=spy,
        budget=4000,
        system_prompt=SYSTEM,
        tools=TOOLS,
        summary=Summary(),
        state_block=STATE,
        turn=turn,
    )
    first = build_context(history=history, **kwargs)
    assert "message 0" not in spy.counted and "message 1" in spy.counted
    assert history[0].tokens == 7 and all(m.tokens for m in history)
    spy.counted.clear()
    second = build_context(history=history, **kwargs)
    assert not any(str(c).startswith("message") for c in spy.counted)
    assert second.messages == first.messages
