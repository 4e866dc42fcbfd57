"""The agent presents a settled outcome itself: one model call for a line that searches,
chooses or confirms, and the model asked again only when its words are needed.

The model here is a plain function (no language understanding): it makes the calls each
test names and counts how often it is asked.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from giftgenius.app import build_agent
from giftgenius.domain import Message
from giftgenius.llm.base import ChatRequest
from giftgenius.llm.scripted import FunctionModel, call, latest_state, reply
from giftgenius.settings import load_settings

PROFILE = {"recipient": "my sister", "interests": ["tea"], "budget_max": 60, "currency": "EUR"}


class Counting:
    """Answers each request with the next move of ``moves`` for the line being played."""

    def __init__(self) -> None:
        self.requests: list[ChatRequest] = []
        self.moves: list = []

    def __call__(self, request: ChatRequest) -> Message | str:
        self.requests.append(request)
        move = self.moves.pop(0)
        return move(request) if callable(move) else move


@pytest.fixture
def talk(tmp_path: Path, seeded_home):
    model = Counting()
    agent = build_agent(load_settings(home=tmp_path / "home"))
    agent.model = FunctionModel(model, name="function")
    run = agent.open("presented").run
    try:
        yield agent, run, model
    finally:
        agent.close()


def _with_words(message: Message, words: str) -> Message:
    return message.model_copy(update={"content": words})


@pytest.mark.slow
def test_a_complete_profile_is_shown_as_a_shortlist_after_one_call(talk) -> None:
    agent, run, model = talk
    model.moves = [_with_words(call("update_profile", **PROFILE), "Tea it is.")]
    result = agent.turn(run.id, "presented", "for my sister, tea, 60 euros")
    assert len(model.requests) == 1 and model.moves == []
    assert result.state.step == "finalizing" and result.state.candidate_ids
    first, _, rest = result.reply.partition("\n\n")
    assert first == "Tea it is."  # the model's words come first
    assert "ideas that fit" in rest and "1." in rest
    with agent.db.read() as repos:
        entries = repos.transcript.for_run(run.id)
    assert [e.role for e in entries] == ["user", "assistant", "tool", "assistant"]
    assert entries[-1].content == result.reply and not entries[-1].tool_calls


@pytest.mark.slow
def test_choosing_and_confirming_in_one_round_records_the_order_after_one_call(talk) -> None:
    agent, run, model = talk
    model.moves = [call("update_profile", **PROFILE)]
    agent.turn(run.id, "presented", "for my sister, tea, 60 euros")

    def choose_and_confirm(request: ChatRequest) -> Message:
        gift_id = (latest_state(request) or {})["candidate_ids"][1]
        chosen = call("select_gift", gift_id=gift_id)
        confirmed = call("confirm_choice")
        return chosen.model_copy(update={"tool_calls": chosen.tool_calls + confirmed.tool_calls})

    model.moves = [choose_and_confirm]
    result = agent.turn(run.id, "presented", "the second one, confirm it")
    assert len(model.requests) == 2
    assert result.state.order_draft_id and result.state.step == "done"
    assert "is confirmed" in result.reply and "ref." in result.reply


def test_the_model_is_asked_again_when_its_words_are_needed(talk) -> None:
    agent, run, model = talk
    model.moves = [call("update_profile", **PROFILE)]
    agent.turn(run.id, "presented", "for my sister, tea, 60 euros")
    details = lambda r: call("get_gift_details", gift_ids=latest_state(r)["candidate_ids"][:1])  # noqa: E731
    model.moves = [details, reply("It ships in two days.")]
    result = agent.turn(run.id, "presented", "when does the first one ship?")
    assert len(model.requests) == 3 and result.reply == "It ships in two days."
    assert result.state.selected_gift_id is None  # a question never selects


@pytest.mark.slow
def test_a_refused_call_goes_back_to_the_model(talk) -> None:
    agent, run, model = talk
    model.moves = [call("update_profile", **PROFILE)]
    agent.turn(run.id, "presented", "for my sister, tea, 60 euros")
    model.moves = [call("select_gift", gift_id="made-up-id"), reply("That is not on the list.")]
    result = agent.turn(run.id, "presented", "the tenth one")
    assert len(model.requests) == 3 and result.reply == "That is not on the list."


def test_an_incomplete_profile_gets_the_next_question_without_a_second_call(talk) -> None:
    agent, run, model = talk
    model.moves = [call("update_profile", recipient="my sister")]
    result = agent.turn(run.id, "presented", "a gift for my sister")
    assert len(model.requests) == 1
    assert result.reply.startswith("Noted:") and "budget" in result.reply
