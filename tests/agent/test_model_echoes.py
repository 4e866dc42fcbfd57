"""What a small model does to a turn: echo the state block, answer nothing. The person is
always told something, never shown the internal state, and every request keeps the layout
chat templates accept (one system message, first; the state in the newest user message)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from giftgenius.agent.runner import NO_ANSWER
from giftgenius.app import build_agent
from giftgenius.chatwire import ChatCompletionsTransport, Completion
from giftgenius.domain import Message
from giftgenius.llm.base import ChatRequest
from giftgenius.llm.openai_chat import OpenAIChatModel
from giftgenius.llm.scripted import FunctionModel
from giftgenius.llm.served import served
from giftgenius.protocol import STATE_BLOCK_PREFIX, split_state
from giftgenius.settings import load_settings

SEEN: list[ChatRequest] = []


def block_of(request: ChatRequest) -> str:
    return str(request.messages[-1]["content"]).partition("\n")[0]


ANSWERS = {
    "prefixed echo": lambda r: f"{block_of(r)}\nHello there.",
    "bare echo": lambda r: f"Hello there.\n{block_of(r)[len(STATE_BLOCK_PREFIX) :]}",
    "only the echo": lambda r: block_of(r),
}


@pytest.mark.parametrize("kind", ANSWERS)
def test_a_reply_never_shows_the_state_block(kind: str, tmp_path: Path, seeded_home) -> None:
    def answer(request: ChatRequest) -> Message:
        SEEN.append(request)
        return Message(role="assistant", content=ANSWERS[kind](request) or None)

    agent = build_agent(load_settings(home=tmp_path / "home"))
    agent.model = served(FunctionModel(answer, name="small"))
    try:
        run = agent.open("tiny").run
        result = agent.turn(run.id, "tiny", "hello")
    finally:
        agent.close()
    expected = NO_ANSWER["en"] if kind == "only the echo" else "Hello there."
    assert result.reply == expected
    request = SEEN[-1]
    roles = [m["role"] for m in request.messages]
    assert roles.count("system") == 1 and roles[0] == "system"
    state, said = split_state(str(request.messages[-1]["content"]))
    assert state is not None and state["step"] == "collecting_profile" and said == "hello"


class Silent(ChatCompletionsTransport):
    """An endpoint that answers with nothing at all (finish_reason stop, no content)."""

    model = "small"
    who = "The silent model"

    def answer(self, body: Any, purpose: str) -> Completion:
        return Completion(content=None)


def test_an_empty_answer_is_told_as_such(tmp_path: Path, seeded_home) -> None:
    agent = build_agent(load_settings(home=tmp_path / "home"))
    agent.model = OpenAIChatModel.connect(
        "small", api_key="k", base_url="http://local/v1", max_retries=0, timeout=10,
        transport=Silent(),
    )  # fmt: skip
    try:
        run = agent.open("quiet").run
        result = agent.turn(run.id, "quiet", "hello")
    finally:
        agent.close()
    assert result.reply == NO_ANSWER["en"]
