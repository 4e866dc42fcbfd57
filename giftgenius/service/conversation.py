"""One message over HTTP: the terminal chat's run-cycle, one turn at a time.

A message goes to the user's *current run*: the unfinished one, else the latest finished
one (a finished search still takes turns — "remember her as Mum for next time" — as the
terminal's chat window does after the yes), else a new one. ``/restart``, as in the chat,
or ``POST /v1/runs``, starts a new search; the chat's other commands are requests of
their own (``GET /v1/state``, ``GET /v1/checkpoints``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from giftgenius import messages as catalogue
from giftgenius.agent.reader import Opened
from giftgenius.agent.runner import Agent, TurnResult
from giftgenius.domain import RunInfo, RunStatus
from giftgenius.errors import UsageError
from giftgenius.protocol import without_state


def current_run(agent: Agent, user_id: str) -> RunInfo:
    with agent.db.read() as repos:
        run = repos.runs.active_for(user_id) or repos.runs.latest_for(user_id)
    if run is None or run.status == RunStatus.abandoned:
        return agent.open(user_id).run
    return run


def send(
    agent: Agent,
    user_id: str,
    text: str,
    lang: str,
    on_text: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Play one message; the document ``POST /v1/messages`` answers."""
    words = text.strip()
    if not words:
        raise UsageError(catalogue.text("service", "blank", lang))
    if words.startswith("/"):
        if words.split()[0].lower() != "/restart":
            raise UsageError(catalogue.text("service", "commands", lang))
        opened = agent.open(user_id, new=True)
        reply = catalogue.text("chat", "restarted", lang)
        if on_text is not None:
            on_text(reply)
        return restarted_document(opened, reply)
    run = current_run(agent, user_id)
    return turn_document(run.id, agent.turn(run.id, user_id, words, on_text=on_text))


def turn_document(run_id: str, result: TurnResult) -> dict[str, Any]:
    state = result.state
    return {
        "run_id": run_id,
        "reply": result.reply,
        "step": str(state.step),
        "shortlist": [c.model_dump(mode="json") for c in result.candidates],
        "selected_gift_id": state.selected_gift_id,
        "order_draft_id": state.order_draft_id,
        "checkpoints": [str(c) for c in result.checkpoints],
        "notices": result.notices,
        "locale": state.locale,
        "version": result.version,
    }


def restarted_document(opened: Opened, reply: str) -> dict[str, Any]:
    session = opened.loaded.session
    return {
        "run_id": opened.run.id,
        "reply": reply,
        "step": str(session.state.step),
        "shortlist": [],
        "selected_gift_id": None,
        "order_draft_id": None,
        "checkpoints": [],
        "notices": [],
        "locale": session.state.locale,
        "version": session.version,
    }


def run_document(run: RunInfo) -> dict[str, Any]:
    """``GET /v1/runs/{id}`` and ``POST /v1/runs``: the run's row (no user id: it is the
    caller's own)."""
    return {
        "run_id": run.id,
        "status": str(run.status),
        "step": str(run.step),
        "version": run.session_version,
        "agent_version": run.agent_version,
        "created_at": run.created_at.isoformat(),
        "updated_at": run.updated_at.isoformat(),
    }


def conversation_document(agent: Agent, user_id: str) -> dict[str, Any]:
    """``GET /v1/conversation``: the current run as the person saw it — their messages and
    the replies, in order (no tool calls or results, no state block) — with its shortlist
    and the gift chosen, so a page can show the conversation again. The run is the one a
    message would go to; an abandoned one (a new search is next) shows nothing."""
    opened = agent.inspect(user_id, shortlist=True)
    if opened is None or opened.run.status == RunStatus.abandoned:
        return {"run_id": None, "step": None, "locale": None, "messages": [], "shortlist": []}
    with agent.db.read() as repos:
        entries = repos.transcript.for_run(opened.run.id)
    messages = []
    for entry in entries:
        if entry.role == "tool" or entry.tool_calls:
            continue
        words = without_state(entry.content or "") if entry.role == "assistant" else entry.content
        if words and words.strip():
            messages.append({"role": entry.role, "text": words, "seq": entry.seq})
    state = opened.loaded.session.state
    selected = opened.selected
    return {
        "run_id": opened.run.id,
        "status": str(opened.run.status),
        "step": str(state.step),
        "locale": state.locale,
        "messages": messages,
        "shortlist": [c.model_dump(mode="json") for c in opened.shortlist],
        "selected_gift_id": state.selected_gift_id,
        "selected": selected.model_dump(mode="json") if selected is not None else None,
        "order_draft_id": state.order_draft_id,
        "version": opened.loaded.session.version,
    }
