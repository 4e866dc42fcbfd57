"""The scripted and function models: strict about the script, stateless over the request."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest

from giftgenius.agent.tools import tool_specs
from giftgenius.domain import Message, SessionState, ToolCall
from giftgenius.errors import ConfigError, ContextLengthExceeded, ModelError
from giftgenius.llm.base import ChatRequest
from giftgenius.llm.factory import make_model, model_context_window
from giftgenius.llm.scripted import (
    SCRIPTED_CONTEXT_WINDOW,
    FunctionModel,
    ScriptedModel,
    call,
    position,
    reply,
)
from giftgenius.protocol import StateView, state_block, with_state
from giftgenius.settings import load_settings

TOOLS = tool_specs()
SCRIPT: dict[str, Any] = {
    "turns": [
        {
            "user": "gift for my dad",
            "steps": [
                {"tool_calls": [{"name": "update_profile", "arguments": {"recipient": "father"}}]},
                {"reply": "Noted: your father."},
            ],
        },
        {
            "user": "the first one",
            "steps": [
                {
                    "tool_calls": [
                        {
                            "name": "select_gift",
                            "arguments": {"gift_id": {"$state": "/candidate_ids/0"}},
                        }
                    ]
                },
                {"reply": "Good choice."},
            ],
        },
        {
            "user": "save it",
            "steps": [{"tool_calls": [{"name": "save_recipient_profile", "arguments": {}}]}],
        },
    ],
    "summary": "The user wants a gift for their father.",
}


def _block(**state: Any) -> dict[str, Any]:
    view = StateView.of(SessionState(**state), dt.date(2026, 11, 29))
    return {"role": "system", "content": state_block(view)}


def _request(*messages: dict[str, Any], tools: list | None = None, **options: Any) -> ChatRequest:
    """A request as the agent sends it: a state block rides in the user message after it."""
    sent: list[dict[str, Any]] = []
    block: str | None = None
    for message in messages:
        if message["role"] == "system":
            block = message["content"]
            continue
        if message["role"] == "user" and block is not None:
            message = {**message, "content": with_state(message["content"], block)}
            block = None
        sent.append(message)
    return ChatRequest(
        messages=[{"role": "system", "content": "You help."}, *sent],
        tools=TOOLS if tools is None else tools,
        **options,
    )


def _user(text: str) -> dict[str, Any]:
    return {"role": "user", "content": text}


def _answered(message: Message, result: dict[str, Any]) -> list[dict[str, Any]]:
    """The assistant message as the agent sends it back, each call answered by ``result``."""
    wire = message.to_openai()
    return [wire] + [
        {"role": "tool", "tool_call_id": c["id"], "content": json.dumps(result)}
        for c in wire["tool_calls"]
    ]


def _write(tmp_path: Path, data: object) -> Path:
    path = tmp_path / "script.json"
    path.write_text(json.dumps(data))
    return path


def test_steps_follow_the_request_and_a_new_instance_carries_on(tmp_path: Path) -> None:
    path = _write(tmp_path, SCRIPT)
    first = ScriptedModel.from_file(path)
    out = first.complete(_request(_block(), _user("gift for my dad")))
    assert [c.name for c in out.message.tool_calls] == ["update_profile"]
    assert json.loads(out.message.tool_calls[0].arguments) == {"recipient": "father"}
    assert out.finish_reason == "tool_calls" and out.usage.prompt_tokens > 0
    so_far = [_block(), _user("gift for my dad"), *_answered(out.message, {"ok": True})]
    # Another process with the same file: the request alone says where the turn is.
    second = ScriptedModel.from_file(path)
    streamed: list[str] = []
    done = second.complete(_request(*so_far), on_text=streamed.append)
    assert done.message.content == "Noted: your father." == "".join(streamed)
    assert done.finish_reason == "stop" and done.usage.completion_tokens > 0
    assert second.unconsumed() == [
        "turn 1 'gift for my dad' step 1 (tool calls update_profile)",
        "turn 2 'the first one' step 1 (tool calls select_gift)",
        "turn 2 'the first one' step 2 (reply 'Good choice.')",
        "turn 3 'save it' step 1 (tool calls save_recipient_profile)",
        "summary",
    ]


def test_a_message_sent_again_replays_its_turn_from_the_start() -> None:
    model = ScriptedModel.from_data(SCRIPT)
    first = model.complete(_request(_block(), _user("gift for my dad")))
    convo = [_block(), _user("gift for my dad"), *_answered(first.message, {"ok": True})]
    model.complete(_request(*convo))
    again = model.complete(
        _request(
            *convo[1:],
            {"role": "assistant", "content": "Noted."},
            _block(),
            _user("gift for my dad"),
        )
    )
    assert [c.name for c in again.message.tool_calls] == ["update_profile"]
    assert position(_request(_user("gift for my dad"))) == ("gift for my dad", 0)


def test_state_references_read_the_newest_state_the_request_shows() -> None:
    model = ScriptedModel.from_data(SCRIPT)
    shortlist = _block(step="finalizing", candidate_ids=["g-0002", "g-0007"])
    out = model.complete(_request(shortlist, _user("the first one")))
    assert json.loads(out.message.tool_calls[0].arguments) == {"gift_id": "g-0002"}
    with pytest.raises(ModelError, match=r"turn 2 'the first one', step 1, select_gift: .*nothing"):
        model.complete(_request(_block(), _user("the first one")))
    # Within a turn, a tool result's state is newer than the state block.
    search_then_pick = {
        "turns": [
            {
                "user": "search and pick",
                "steps": [
                    {"tool_calls": [{"name": "search_candidates"}]},
                    {
                        "tool_calls": [
                            {
                                "name": "get_gift_details",
                                "arguments": {"gift_id": {"$state": "/candidate_ids/1"}},
                            }
                        ]
                    },
                ],
            }
        ]
    }
    model = ScriptedModel.from_data(search_then_pick)
    convo = [shortlist, _user("search and pick")]
    searched = model.complete(_request(*convo))
    newer = {"ok": True, "state": {"candidate_ids": ["g-0009", "g-0010"]}}
    picked = model.complete(_request(*convo, *_answered(searched.message, newer)))
    assert json.loads(picked.message.tool_calls[0].arguments) == {"gift_id": "g-0010"}


def test_every_step_played_and_the_summary_make_the_script_consumed() -> None:
    model = ScriptedModel.from_data({**SCRIPT, "turns": SCRIPT["turns"][:2]})
    for text in ("gift for my dad", "the first one"):
        convo = [_block(step="finalizing", candidate_ids=["g-0002"]), _user(text)]
        first = model.complete(_request(*convo))
        model.complete(_request(*convo, *_answered(first.message, {"ok": True})))
    with pytest.raises(AssertionError, match="never played: summary"):
        model.assert_consumed()
    summary = model.complete(
        _request(_user("Previous summary: (none)"), tools=[], purpose="summary")
    )
    assert summary.message.content == SCRIPT["summary"]
    model.assert_consumed()


def test_running_out_fails_naming_the_file_turn_and_step(tmp_path: Path) -> None:
    path = _write(tmp_path, SCRIPT)
    model = ScriptedModel.from_file(path)
    convo = [_block(), _user("save it")]
    saved = model.complete(_request(*convo))
    with pytest.raises(ModelError, match=rf"{path}\), turn 3 'save it', step 2: .*ran out"):
        model.complete(_request(*convo, *_answered(saved.message, {"ok": True})))
    with pytest.raises(AssertionError, match=r"failed: .*ran out"):
        model.assert_consumed()


def test_an_unknown_message_names_the_closest_keys() -> None:
    model = ScriptedModel.from_data(SCRIPT)
    with pytest.raises(ModelError, match=r"no turn answers.*Close keys: \['gift for my dad'\]"):
        model.complete(_request(_user("gift for my mum")))
    assert len(model.failures) == 1


def test_a_failed_tool_call_stops_the_script_unless_the_step_expects_it() -> None:
    failed = {"ok": False, "error": "Unknown gift id 'g-nope'."}
    model = ScriptedModel.from_data(SCRIPT)
    convo = [_block(), _user("gift for my dad")]
    first = model.complete(_request(*convo))
    with pytest.raises(ModelError, match=r"step 2: a tool call before this step failed: Unknown"):
        model.complete(_request(*convo, *_answered(first.message, failed)))
    expecting = json.loads(json.dumps(SCRIPT))
    expecting["turns"][0]["steps"][1]["expect_tool_error"] = True
    model = ScriptedModel.from_data(expecting)
    first = model.complete(_request(*convo))
    out = model.complete(_request(*convo, *_answered(first.message, failed)))
    assert out.message.content == "Noted: your father."
    with pytest.raises(ModelError, match="expects a failed tool call"):
        model.complete(_request(*convo, *_answered(first.message, {"ok": True})))


def test_tools_not_offered_and_summaries_not_scripted_are_refused() -> None:
    model = ScriptedModel.from_data({"turns": SCRIPT["turns"]})
    offered = [t for t in TOOLS if t["function"]["name"] != "update_profile"]
    with pytest.raises(ModelError, match=r"step 1 calls the tool 'update_profile', which the"):
        model.complete(_request(_user("gift for my dad"), tools=offered))
    with pytest.raises(ModelError, match="no 'summary'"):
        model.complete(_request(_user("Previous summary: (none)"), tools=[], purpose="summary"))


def test_a_request_that_breaks_the_protocol_is_refused() -> None:
    model = ScriptedModel.from_data(SCRIPT)
    unanswered = call("search_candidates").to_openai()
    with pytest.raises(ModelError, match=r"^Scripted model \(<inline script>\): .*never answered"):
        model.complete(_request(_user("gift for my dad"), unanswered))
    orphan = {"role": "tool", "tool_call_id": "call_x", "content": "{}"}
    with pytest.raises(ModelError, match="'call_x', which is not open"):
        model.complete(_request(_user("gift for my dad"), orphan))


def test_a_request_over_the_window_is_refused_as_too_long() -> None:
    model = ScriptedModel.from_data(SCRIPT, context_window=50)
    with pytest.raises(
        ContextLengthExceeded, match="maximum context length is 50 tokens; the request has"
    ):
        model.complete(_request(_user("gift for my dad")))


@pytest.mark.parametrize(
    ("step", "problem"),
    [
        ({"reply": "  "}, "reply must not be empty"),
        ({"reply": "hi", "tool_calls": [{"name": "x"}]}, "exactly one of"),
        ({}, "exactly one of"),
        ({"tool_calls": []}, "at least 1 item"),
        ({"tool_calls": [{"name": "x", "arguments": "{}"}]}, "should be an object"),
        ({"tool_calls": [{"name": "x", "arguments": [1]}]}, "should be an object"),
        ({"tool_calls": [{"name": "no spaces"}]}, "match pattern"),
        ({"say": "hi"}, "Extra inputs"),
    ],
)
def test_a_malformed_script_is_refused_before_the_first_turn(
    tmp_path: Path, step: dict, problem: str
) -> None:
    path = _write(tmp_path, {"turns": [{"user": "hi", "steps": [step]}]})
    with pytest.raises(ConfigError, match=rf"script {path} is not valid — .*{problem}"):
        ScriptedModel.from_file(path)


def test_two_turns_for_one_message_or_an_untrimmed_one_are_refused() -> None:
    turn = {"user": "hi", "steps": [{"reply": "hello"}]}
    with pytest.raises(ConfigError, match="two turns answer the user message 'hi'"):
        ScriptedModel.from_data({"turns": [turn, turn]})
    with pytest.raises(ConfigError, match="could never be chosen"):
        ScriptedModel.from_data({"turns": [{**turn, "user": "hi "}]})


def test_the_factory_makes_it_from_the_model_setting(tmp_path: Path) -> None:
    path = _write(tmp_path, SCRIPT)
    settings = load_settings(model=f"scripted:{path}")
    model = make_model(settings)
    assert isinstance(model, ScriptedModel) and model.source == str(path)
    assert model_context_window(settings) == model.context_window == SCRIPTED_CONTEXT_WINDOW
    assert (
        make_model(load_settings(model=f"scripted:{path}", context_window=4000)).context_window
        == 4000
    )
    with pytest.raises(ConfigError, match=r"Cannot read the model script .*missing\.json"):
        make_model(load_settings(model=f"scripted:{tmp_path / 'missing.json'}"))
    with pytest.raises(ConfigError, match="scripted:<path"):
        make_model(load_settings(model="scripted:"))


def test_a_function_model_answers_under_the_same_checks() -> None:
    seen: list[tuple[str, int]] = []

    def fn(request: ChatRequest) -> Message | str:
        seen.append(position(request))
        text, step = position(request)
        if text == "bad arguments":
            listed = ToolCall(id="call_1", name="search_candidates", arguments="[1]")
            return Message(role="assistant", tool_calls=[listed])
        if text == "empty":
            return reply(" ")
        if text == "unknown tool":
            return call("buy_now")
        return call("search_candidates", limit=3) if step == 0 else "Here you are."

    model = FunctionModel(fn)
    first = model.complete(_request(_user("ideas")))
    assert json.loads(first.message.tool_calls[0].arguments) == {"limit": 3}
    done = model.complete(_request(_user("ideas"), *_answered(first.message, {"ok": True})))
    assert done.message.content == "Here you are."
    assert seen == [("ideas", 0), ("ideas", 1)] and len(model.requests) == 2
    with pytest.raises(ModelError, match="not a JSON object"):
        model.complete(_request(_user("bad arguments")))
    with pytest.raises(ModelError, match="empty reply"):
        model.complete(_request(_user("empty")))
    with pytest.raises(ModelError, match="'buy_now', which the request did not offer"):
        model.complete(_request(_user("unknown tool")))
