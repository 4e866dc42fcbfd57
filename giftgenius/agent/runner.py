"""The run-cycle of one turn (DESIGN.md, seven steps) and opening/resuming runs.

The order is the point: the user's message is durable before the model is called; the
model and tools run with no transaction open; the turn's persistent changes, transcript,
checkpoints and the version fence commit in one short transaction; the session is saved
last with check-and-set. A crash at any point leaves a state ``resume`` can rebuild.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import os
import socket
from collections.abc import Callable
from dataclasses import dataclass, field

from giftgenius.agent import tools
from giftgenius.agent.context import build_context
from giftgenius.agent.restore import Loaded, load_session
from giftgenius.agent.revalidate import revalidate
from giftgenius.agent.summary import maybe_summarize
from giftgenius.agent.tools import tool_specs
from giftgenius.catalog import load_rates
from giftgenius.domain import (
    CheckpointStep,
    Message,
    RunInfo,
    RunStatus,
    Session,
    SessionState,
    Step,
    TranscriptEntry,
    Usage,
    check_user_id,
    new_id,
    utcnow,
)
from giftgenius.errors import (
    ContextLengthExceeded,
    NothingToResume,
    StorageError,
    UsageError,
    VersionConflict,
)
from giftgenius.faults import fault
from giftgenius.lang import detect_locale
from giftgenius.llm.base import ChatModel, ChatRequest
from giftgenius.privacy import scrub
from giftgenius.protocol import CandidateView, StateView, state_block
from giftgenius.resources import prompt_text
from giftgenius.settings import Settings
from giftgenius.storage.db import Database
from giftgenius.storage.session_store import SessionStore
from giftgenius.tokens import TokenCounter

log = logging.getLogger("giftgenius.agent")

MAX_SESSION_MESSAGES = 120
SHRINK_FACTOR = 0.6

TOOL_ROUNDS_EXHAUSTED = {
    "en": "I could not finish that step just now. Could you say it again, perhaps more simply?",
    "fr": "Je n'ai pas pu terminer cette étape. Pouvez-vous reformuler plus simplement ?",
}
CONTEXT_TOO_LARGE = {
    "en": "This conversation is too long for the model right now, even shortened. "
    "Your message is saved; try a shorter message or /restart.",
    "fr": "Cette conversation est trop longue pour le modèle, même raccourcie. "
    "Votre message est enregistré ; essayez un message plus court ou /restart.",
}


@dataclass
class Opened:
    run: RunInfo
    loaded: Loaded
    continued: bool  # an unfinished run was picked up rather than a new one started
    notices: list[str] = field(default_factory=list)  # candidates today's catalog dropped


@dataclass
class TurnResult:
    reply: str
    state: SessionState
    checkpoints: list[CheckpointStep] = field(default_factory=list)
    candidates: list[CandidateView] = field(default_factory=list)
    tools_called: list[str] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)
    summarized: bool = False
    notices: list[str] = field(default_factory=list)


class Agent:
    def __init__(
        self,
        *,
        settings: Settings,
        db: Database,
        sessions: SessionStore,
        model: ChatModel,
        window: int,
        clock: Callable[[], dt.datetime] = utcnow,
    ) -> None:
        self.settings = settings
        self.db = db
        self.sessions = sessions
        self.model = model
        self.counter = TokenCounter.for_model(model.name)
        self.budget = window - settings.completion_reserve_tokens
        self.clock = clock
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{new_id()[:8]}"
        self.system_prompt = prompt_text("system.md")
        self.tool_specs = tool_specs()
        self.rates = load_rates()

    def close(self) -> None:
        self.sessions.close()
        self.db.dispose()

    # -- opening runs -------------------------------------------------------------------

    def open(self, user_id: str, *, new: bool = False) -> Opened:
        """Continue the user's unfinished run, or start one (``new`` abandons it first)."""
        check_user_id(user_id)
        proposed = new_id()
        with self.db.write() as repos:
            repos.users.ensure(user_id)
            active = repos.runs.active_for(user_id)
            if new and active is not None:
                repos.runs.set_status(active.id, RunStatus.abandoned)
            run = repos.runs.start(user_id, proposed)
        if new and active is not None:
            self.sessions.delete(active.id)
        return self._opened(run, continued=run.id != proposed)

    def resume(self, user_id: str, run_id: str | None = None) -> Opened:
        check_user_id(user_id)
        with self.db.read() as repos:
            run = repos.runs.get(run_id) if run_id else repos.runs.active_for(user_id)
        if run is None or run.user_id != user_id or run.status != RunStatus.active:
            what = f"run {run_id}" if run_id else "unfinished run"
            raise NothingToResume(
                f"No {what} to resume for user {user_id!r}. "
                f"Start one with: giftgenius chat --user {user_id}"
            )
        return self._opened(run, continued=True)

    def _opened(self, run: RunInfo, *, continued: bool) -> Opened:
        """Load the run and say which candidates today's catalog no longer allows.

        Only a preview on a copy: the state itself changes in the next turn's commit.
        """
        loaded = load_session(run, self.sessions, self.db)
        notices: list[str] = []
        if continued and loaded.session.state.step == Step.finalizing:
            with self.db.read() as repos:
                products = {p.id: p for p in repos.catalog.all()}
            preview = loaded.session.state.model_copy(deep=True)
            notices = revalidate(preview, products, self.rates, self.clock().date())
        return Opened(run, loaded, continued, notices)

    def inspect(self, user_id: str) -> Opened | None:
        """The unfinished run (else the latest) and its state, without taking the lease."""
        check_user_id(user_id)
        with self.db.read() as repos:
            run = repos.runs.active_for(user_id) or repos.runs.latest_for(user_id)
        if run is None:
            return None
        return Opened(run, load_session(run, self.sessions, self.db), True)

    # -- one turn -----------------------------------------------------------------------

    def turn(
        self,
        run_id: str,
        user_id: str,
        text: str,
        *,
        on_text: Callable[[str], None] | None = None,
    ) -> TurnResult:
        text = text.strip()
        if len(text) > self.settings.max_input_chars:
            raise UsageError(
                f"Your message is {len(text)} characters long; the limit is "
                f"{self.settings.max_input_chars} (GIFTGENIUS_MAX_INPUT_CHARS). "
                "It was not taken: please shorten it."
            )
        # The lease serializes turns; correctness under a lapsed lease rests on the fence.
        with self.sessions.lease(run_id, self.owner, wait=self.settings.lease_wait):
            with self.db.read() as repos:
                run = repos.runs.get(run_id)
            if run is None or run.user_id != user_id:
                raise NothingToResume(f"Run {run_id} does not belong to user {user_id!r}.")
            loaded = load_session(run, self.sessions, self.db)
            return self._turn(run, loaded, text, on_text)

    def _turn(
        self,
        run: RunInfo,
        loaded: Loaded,
        text: str,
        on_text: Callable[[str], None] | None,
    ) -> TurnResult:
        session = loaded.session
        if session.state.step == Step.done:
            return TurnResult(reply=_done_reply(session), state=session.state, usage=session.usage)
        turn_id = new_id()
        user_msg = Message(role="user", content=scrub(text), seq=session.next_seq)
        # Step 2: the accepted message is durable before anything else can fail.
        try:
            with self.db.write() as repos:
                repos.transcript.append([_entry(run.id, turn_id, user_msg)])
        except VersionConflict as exc:
            raise VersionConflict(
                "Another window changed this conversation just as your message arrived, so "
                "it was not taken. Send it again."
            ) from exc
        session.next_seq += 1
        log.info("turn accepted", extra={"event": "turn_accepted", "run_id": run.id})
        fault("before_model")

        state = session.state.model_copy(deep=True)
        state.locale = detect_locale(text, default=state.locale)
        today = self.clock().date()
        ctx = tools.TurnContext(
            user_id=run.user_id,
            run_id=run.id,
            state=state,
            db=self.db,
            rates=self.rates,
            today=today,
            default_currency=self.settings.currency,
            summary=session.summary,
            next_seq=session.next_seq,
        )
        notices = (
            revalidate(ctx.state, ctx.products(), self.rates, today)
            if state.step == Step.finalizing
            else []
        )
        summarized = self._summarize(session)
        block = state_block(StateView.of(state, today))
        turn_msgs: list[Message] = [user_msg]
        called: list[str] = []
        reply: str | None = None
        for _ in range(self.settings.max_tool_rounds):
            assistant = self._call_model(session, block, turn_msgs, on_text)
            if assistant is None:
                reply = CONTEXT_TOO_LARGE[state.locale]
                turn_msgs.append(self._numbered(session, Message(role="assistant", content=reply)))
                break
            turn_msgs.append(assistant)
            if not assistant.tool_calls:
                reply = assistant.content or ""
                break
            for call in assistant.tool_calls:
                called.append(call.name)
                result = tools.execute(ctx, call.name, call.arguments)
                content = scrub(json.dumps(result, ensure_ascii=False, default=str))
                turn_msgs.append(
                    self._numbered(
                        session, Message(role="tool", content=content, tool_call_id=call.id)
                    )
                )
                ctx.next_seq = session.next_seq
                fault("after_tool_call")
        if reply is None:
            reply = TOOL_ROUNDS_EXHAUSTED[state.locale]
            turn_msgs.append(self._numbered(session, Message(role="assistant", content=reply)))

        # Step 5: one short transaction, fenced on the run's session version.
        fault("before_commit")
        old_version, new_version = session.version, session.version + 1
        for checkpoint in ctx.checkpoints:
            checkpoint.session_version = new_version
        try:
            with self.db.write() as repos:
                for change in ctx.staged:
                    change(repos)
                repos.transcript.append([_entry(run.id, turn_id, m) for m in turn_msgs[1:]])
                for checkpoint in ctx.checkpoints:
                    repos.checkpoints.add(checkpoint)
                repos.runs.fence(
                    run.id,
                    old_version,
                    new_version,
                    step=state.step,
                    status=RunStatus.done if state.step == Step.done else None,
                )
        except VersionConflict as exc:
            raise VersionConflict(
                "Another window changed this conversation while your message was being "
                "answered, so this answer was discarded. Your message is kept in the "
                "transcript; send it again to apply it."
            ) from exc
        fault("after_commit")

        # Step 6: the live session, check-and-set on the version the store holds.
        session.version = new_version
        session.state = state
        session.messages = (session.messages + turn_msgs)[-MAX_SESSION_MESSAGES:]
        session.updated_at = self.clock()
        fault("before_session_save")
        try:
            self.sessions.save(session, expected_version=loaded.stored_version)
        except StorageError as exc:
            # The turn is committed; the database is the truth. A live copy that could not
            # be saved (expired meanwhile, store unreachable) is rebuilt on the next load.
            log.warning(
                "live session not saved; it will be rebuilt from the database",
                extra={"event": "session_save_failed", "run_id": run.id, "error": str(exc)},
            )
        log.info(
            "turn committed",
            extra={
                "event": "turn_committed",
                "run_id": run.id,
                "version": new_version,
                "step": str(state.step),
                "checkpoints": [str(c.step) for c in ctx.checkpoints],
            },
        )
        return TurnResult(
            reply=reply,
            state=state,
            checkpoints=[c.step for c in ctx.checkpoints],
            candidates=self._candidates(ctx) if "filter_candidates" in called else [],
            tools_called=called,
            usage=session.usage,
            summarized=summarized,
            notices=notices,
        )

    def _numbered(self, session: Session, message: Message) -> Message:
        message.seq = session.next_seq
        session.next_seq += 1
        return message

    def _summarize(self, session: Session) -> bool:
        outcome = maybe_summarize(
            session, self.model, self.counter, budget=self.budget, settings=self.settings
        )
        return bool(outcome and outcome.folded)

    def _call_model(
        self,
        session: Session,
        block: str,
        turn_msgs: list[Message],
        on_text: Callable[[str], None] | None,
    ) -> Message | None:
        """One model round; on ``context_length_exceeded`` shrink once and retry, else None."""
        for budget in (self.budget, int(self.budget * SHRINK_FACTOR)):
            try:
                built = build_context(
                    counter=self.counter,
                    budget=budget,
                    system_prompt=self.system_prompt,
                    tools=self.tool_specs,
                    summary=session.summary,
                    history=session.messages,
                    state_block=block,
                    turn=turn_msgs,
                )
                if built.dropped or built.cut_tool_results:
                    session.usage.truncations += 1
                response = self.model.complete(
                    ChatRequest(messages=built.messages, tools=self.tool_specs), on_text=on_text
                )
            except ContextLengthExceeded:
                session.usage.refusals += 1
                log.warning("context too long, shrinking", extra={"event": "context_shrink"})
                continue
            usage = session.usage
            usage.requests += 1
            usage.prompt_tokens += response.usage.prompt_tokens
            usage.completion_tokens += response.usage.completion_tokens
            usage.last_prompt_tokens = response.usage.prompt_tokens
            usage.last_completion_tokens = response.usage.completion_tokens
            message = response.message
            message.content = scrub(message.content) if message.content else message.content
            return self._numbered(session, message)
        return None

    def _candidates(self, ctx: tools.TurnContext) -> list[CandidateView]:
        products = ctx.products()
        return [ctx.candidate_view(products[i]) for i in ctx.state.candidate_ids if i in products]


def _entry(run_id: str, turn_id: str, message: Message) -> TranscriptEntry:
    assert message.seq is not None and message.role != "system"
    return TranscriptEntry(
        run_id=run_id,
        seq=message.seq,
        turn_id=turn_id,
        role=message.role,
        content=message.content,
        tool_calls=message.tool_calls,
        tool_call_id=message.tool_call_id,
    )


def _done_reply(session: Session) -> str:
    if session.state.locale == "fr":
        return "Cette recherche est terminée. Tapez /restart pour en commencer une nouvelle."
    return "This gift search is finished. Type /restart to start a new one."
