"""The run-cycle of one turn, and opening/resuming runs.

A turn is its steps, each a method of ``Agent`` named for what it does:

1. ``turn`` takes the session lease and loads the session;
2. ``_accept`` makes the user's message durable (the transcript write) before the model
   is called;
3. ``_summarize`` folds old history into the running summary if it has grown too big, and
   only then ``_turn_context`` builds what the tools see, so the checkpoints they take
   carry the summary the session carries (``_revalidate`` then drops shortlisted gifts
   today's catalog no longer allows);
4. ``_think`` runs the model and the tools with no transaction open;
5. ``_commit`` writes the turn's changes, transcript, checkpoints and the fence in one
   short transaction — fenced on the run's version *and* status, so nothing is committed
   to a run another window abandoned (``--new``, ``/restart``) or ``forget`` erased;
6. ``_publish`` saves the live session last, with check-and-set — refused for a run
   ``forget`` erased (its tombstone) — then makes sure its run still exists.

A crash at any point leaves a state ``resume`` can rebuild.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import logging
import os
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, cast

from giftgenius import messages as catalogue
from giftgenius import metrics
from giftgenius.agent import tools
from giftgenius.agent.memory import MemoryBook, recipient_key
from giftgenius.agent.prompt_window import build_context
from giftgenius.agent.reader import Opened, RunReader
from giftgenius.agent.restore import Loaded, load_session, restore
from giftgenius.agent.revalidate import revalidate
from giftgenius.agent.summary import maybe_summarize
from giftgenius.agent.timings import TimedModel, TurnTimings
from giftgenius.domain import (
    CheckpointStep,
    MemoryBlock,
    Message,
    ProfileDraft,
    RunInfo,
    RunStatus,
    Session,
    SessionState,
    Step,
    TranscriptEntry,
    Usage,
    check_user_id,
    new_id,
)
from giftgenius.errors import (
    ContextLengthExceeded,
    ModelError,
    NothingToResume,
    RunClosed,
    RunErased,
    SessionBusy,
    StorageError,
    UsageError,
    VersionConflict,
)
from giftgenius.faults import fault
from giftgenius.llm.base import ChatModel, ChatRequest, Embedder
from giftgenius.privacy import scrub, scrub_obj
from giftgenius.protocol import CandidateView, StateView, state_block, without_state
from giftgenius.replies.outcomes import Outcome, latest_state, present
from giftgenius.resources import prompt_text
from giftgenius.settings import Settings
from giftgenius.storage.db import Database
from giftgenius.storage.memories import MemoryStore
from giftgenius.storage.session_store import Lease, SessionStore
from giftgenius.storage.turn_rows import Fence
from giftgenius.tokens import TokenCounter, context_budget

log = logging.getLogger("giftgenius.agent")

MAX_SESSION_MESSAGES = 120
SHRINK_FACTOR = 0.6

# The agent's own words when the model could not answer (message catalogue, "turn").
TOOL_ROUNDS_EXHAUSTED = catalogue.by_language("turn", "tool_rounds_exhausted")
NO_ANSWER = catalogue.by_language("turn", "no_answer")
CONTEXT_TOO_LARGE = catalogue.by_language("turn", "context_too_large")


@dataclass
class Thought:
    """What ``_think`` produced: the reply and the turn's messages, the user's first."""

    messages: list[Message]
    reply: str = ""
    called: list[str] = field(default_factory=list)  # tool names, in call order


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
    timings: TurnTimings = field(default_factory=TurnTimings)  # where the turn's time went
    version: int = 0  # the session version this turn committed (the run's fence)


class Agent(RunReader):
    """Opens, resumes and plays runs: a ``RunReader`` with a model, a tokenizer and tools."""

    def __init__(
        self,
        *,
        settings: Settings,
        db: Database,
        sessions: SessionStore,
        model: ChatModel,
        window: int,
        clock: Callable[[], dt.datetime] | None = None,
        memories: MemoryStore | None = None,
        embedder: Embedder | None = None,
    ) -> None:
        super().__init__(
            settings=settings, db=db, sessions=sessions, clock=clock, memories=memories
        )
        self.memory = (
            MemoryBook(memories, embedder, self.clock)
            if memories is not None and embedder is not None
            else None
        )
        self.model = model
        self.counter = TokenCounter.for_model(model.name)
        self.budget = context_budget(
            model.name, context_window=window, completion_reserve=settings.completion_reserve_tokens
        )
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{new_id()[:8]}"
        self.system_prompt = prompt_text("system.md")
        self.tool_specs = tools.tool_specs()

    # -- opening runs -------------------------------------------------------------------

    def open(self, user_id: str, *, new: bool = False) -> Opened:
        """Continue the user's unfinished run, or start one (``new`` abandons it first).

        The session store is asked first: with it down, no empty run is started (which
        ``state`` would then show instead of the user's finished one) and none abandoned.
        """
        check_user_id(user_id)
        self.sessions.ping()
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
            key, named = ("resume.run", {"run": run_id}) if run_id else ("resume.none", {})
            raise NothingToResume(
                catalogue.say("errors", key, "en", quoted=repr(user_id), user=user_id, **named)
            )
        return self._opened(run, continued=True)

    def _opened(self, run: RunInfo, *, continued: bool) -> Opened:
        """Load the run and say which candidates today's catalog no longer allows.

        Only a preview on a copy: the state itself changes in the next turn's commit.
        """
        loaded = self._load_between_turns(run)
        opened = Opened(run, loaded, continued)
        if continued and loaded.session.state.step == Step.finalizing:
            preview = self._turn_context(run, loaded.session, "")
            opened.notices = self._revalidate(preview)
            opened.shortlist = self._candidates(preview)
            opened.selected = self._selected(preview)
        return opened

    def _load_between_turns(self, run: RunInfo) -> Loaded:
        """Load the run, taking its lease for a moment when it is free.

        A message accepted without a reply is *interrupted* only if no turn holds the
        lease; while another window is answering it, it is in flight, not interrupted.
        Loading under the lease also keeps that window from committing mid-load.
        """
        try:
            with self.sessions.lease(run.id, self._holder(), wait=0):
                return load_session(run, self.sessions, self.db)
        except SessionBusy:
            loaded = load_session(run, self.sessions, self.db)
            loaded.interrupted = None
            return loaded

    def _turn_context(self, run: RunInfo, session: Session, text: str) -> tools.TurnContext:
        ctx = super()._turn_context(run, session, text)
        ctx.memory = self.memory  # the ``recall`` tool's notes
        return ctx

    # -- one turn -----------------------------------------------------------------------

    def turn(
        self,
        run_id: str,
        user_id: str,
        text: str,
        *,
        on_text: Callable[[str], None] | None = None,
    ) -> TurnResult:
        try:
            result = self._timed_turn(run_id, user_id, text, on_text)
        except BaseException as exc:
            metrics.turn_finished(_outcome(exc))
            raise
        metrics.turn_finished("ok", result.timings.phases(), result.timings.total)
        return result

    def _timed_turn(
        self, run_id: str, user_id: str, text: str, on_text: Callable[[str], None] | None
    ) -> TurnResult:
        """The turn, timed phase by phase (``TurnTimings``); ``turn`` counts its outcome."""
        text = text.strip()
        if len(text) > self.settings.max_input_chars:
            limit = self.settings.max_input_chars
            raise UsageError(
                catalogue.say("errors", "too_long", "en", length=len(text), limit=limit)
            )
        timings = TurnTimings()
        start = time.perf_counter()
        # The lease serializes turns; correctness under a lapsed lease rests on the fence.
        # The session comes with the lease, and the save gives the lease back: one round
        # trip each (``SessionStore.lease(load=True)``, ``save(release=)``).
        holder = self._holder()
        with self.sessions.lease(run_id, holder, wait=self.settings.lease_wait, load=True) as lease:
            run, loaded = self._load_for_turn(run_id, user_id, lease.session)
            timings.load = time.perf_counter() - start
            result = self._turn(run, loaded, text, on_text, timings, lease)
            releasing = time.perf_counter()
        timings.save += time.perf_counter() - releasing  # the lease's release
        timings.total = time.perf_counter() - start
        return result

    def _holder(self) -> str:
        """A lease owner of this turn alone: one agent may serve turns on several threads
        (the HTTP service), and a holder whose lease lapsed must not renew or release the
        lease a later turn of the same agent took."""
        return f"{self.owner}:{new_id()[:8]}"

    def _load_for_turn(
        self, run_id: str, user_id: str, live: Session | None
    ) -> tuple[RunInfo, Loaded]:
        """The run and its session, under the lease, with one database statement.

        The live session (loaded with the lease) comes first, so the run row and the
        messages accepted after the live session's last one (by a turn that died before
        committing) are read together.
        """
        after = None if live is None else live.next_seq - 1
        run, uncommitted = self.db.turns.run_after(run_id, after)
        if run is None:  # this window's run was erased (forget) or pruned meanwhile
            raise RunClosed(_no_longer_stored(user_id))
        if run.user_id != user_id:
            raise NothingToResume(
                catalogue.say("errors", "resume.not_yours", "en", run=run_id, quoted=repr(user_id))
            )
        if run.status == RunStatus.abandoned:
            raise RunClosed(_abandoned(user_id))
        return run, restore(run, live, self.db, uncommitted)

    def _turn(
        self,
        run: RunInfo,
        loaded: Loaded,
        text: str,
        on_text: Callable[[str], None] | None,
        timings: TurnTimings | None = None,
        lease: Lease | None = None,
    ) -> TurnResult:
        """One turn under the lease: accept, summarize, think, commit, publish (which gives
        ``lease`` back with the session's save)."""
        timings = timings if timings is not None else TurnTimings()
        session = loaded.session
        # A finished run still takes a turn: "remember her as Mum for next time" is often
        # said after the yes. Its tools refuse every change but saving the profile
        # (``require_open``), and its commit keeps it finished (``_commit``).
        turn_id = new_id()
        with timings.phase("accept"):
            user_msg = self._accept(run, turn_id, session, text)
        with timings.phase("summarize"):
            summarized = self._summarize(session, TimedModel(self.model, timings))
        # Built after summarizing: the checkpoints it takes carry the summary as it now is.
        with timings.phase("context"):
            ctx = self._turn_context(run, session, text)
        with timings.phase("tools"):
            notices = self._revalidate(ctx)
        thought = self._think(session, ctx, user_msg, on_text, timings)
        finished = ctx.state.step == Step.done and session.state.step != Step.done
        with timings.phase("commit"):
            new_version = self._commit(run, turn_id, session, ctx, thought)
        with timings.phase("save"):
            self._publish(loaded, ctx, thought, new_version, lease)
            if finished or summarized:  # what the search taught, kept past the session
                self._remember(run, ctx)
        with timings.phase("tools"):
            filtered = any(c.step == CheckpointStep.filtered for c in ctx.checkpoints)
            shown = self._candidates(ctx) if filtered else []
        return TurnResult(
            reply=thought.reply,
            state=ctx.state,
            checkpoints=[c.step for c in ctx.checkpoints],
            candidates=shown,
            tools_called=thought.called,
            usage=session.usage,
            summarized=summarized,
            notices=notices,
            timings=timings,
            version=new_version,
        )

    def _accept(self, run: RunInfo, turn_id: str, session: Session, text: str) -> Message:
        """Step 2: the user's message is durable before anything else can fail."""
        user_msg = Message(role="user", content=scrub(text), seq=session.next_seq)
        try:
            self.db.turns.accept([_entry(run.id, turn_id, user_msg)])
        except VersionConflict as exc:
            self._unless_gone(run, exc)
            raise VersionConflict(catalogue.text("errors", "changed.on_arrival", "en")) from exc
        session.next_seq += 1
        log.info("turn accepted", extra={"event": "turn_accepted", "run_id": run.id})
        fault("before_model")
        return user_msg

    def _summarize(self, session: Session, model: ChatModel) -> bool:
        """Fold old history into the running summary if it has grown too big."""
        outcome = maybe_summarize(
            session, model, self.counter, budget=self.budget, settings=self.settings
        )
        return bool(outcome and outcome.folded)

    def _revalidate(self, ctx: tools.TurnContext) -> list[str]:
        """Drop shortlisted gifts today's catalog no longer allows; say which went."""
        if ctx.state.step != Step.finalizing:
            return []
        ids = [*ctx.state.candidate_ids, *ctx.state.search_pool]  # both capped: ids in state
        return revalidate(ctx.state, ctx.products(ids), self.rates, ctx.today)

    def _think(
        self,
        session: Session,
        ctx: tools.TurnContext,
        user_msg: Message,
        on_text: Callable[[str], None] | None,
        timings: TurnTimings,
    ) -> Thought:
        """Steps 3-4: model and tools, no transaction open, until the model answers in words
        or the tools settle the turn.

        A round of calls whose outcome is conclusive — a shortlist, a choice, a confirmed
        order, the next question about the recipient — is presented by the agent itself
        (``replies.outcomes``) after whatever words the model sent with the calls, and the
        turn ends without another model call. Every message gets its transcript seq as it
        is made; ``ctx.state`` (never a copy taken before a tool ran) is the state the turn
        ends with.
        """
        with timings.phase("context"):
            block = state_block(StateView.of(ctx.state, ctx.today))
        thought = Thought(messages=[user_msg])
        outcomes: list[Outcome] = []
        for _ in range(self.settings.max_tool_rounds):
            assistant = self._call_model(
                session, block, thought.messages, on_text, timings, ctx.state.profile
            )
            if assistant is None:
                return self._say(session, thought, CONTEXT_TOO_LARGE[ctx.state.locale])
            thought.messages.append(assistant)
            if not assistant.tool_calls:
                # Nothing, or only the state block echoed back (small models do): the person
                # is always told something, and never shown the internal state.
                reply = without_state(assistant.content or "") or NO_ANSWER[ctx.state.locale]
                assistant.content = thought.reply = reply
                return thought
            for call in assistant.tool_calls:
                thought.called.append(call.name)
                with timings.phase("tools"):
                    result = _as_sent(tools.execute(ctx, call.name, call.arguments))
                    content = json.dumps(result, ensure_ascii=False)
                metrics.tool_called(_tool_label(call.name), result.get("ok") is not False)
                answer = Message(role="tool", content=content, tool_call_id=call.id)
                thought.messages.append(self._numbered(session, answer))
                outcomes.append(Outcome(call.name, _arguments(call.arguments), result))
                ctx.next_seq = session.next_seq
                fault("after_tool_call")
            with timings.phase("tools"):
                shown = present(
                    outcomes,
                    latest_state(outcomes, {}),
                    ctx.state.locale,
                    latest=len(assistant.tool_calls),
                )
            if shown is not None:
                lead = without_state(assistant.content or "").strip()
                reply = "\n\n".join(part for part in (lead, shown) if part)
                if on_text is not None:  # the model's own words were streamed already
                    on_text(reply[len(lead) :])
                return self._say(session, thought, reply)
        return self._say(session, thought, TOOL_ROUNDS_EXHAUSTED[ctx.state.locale])

    def _say(self, session: Session, thought: Thought, reply: str) -> Thought:
        """End the turn with the agent's own words: a settled outcome, or a model that
        could not give an answer."""
        thought.reply = reply
        thought.messages.append(self._numbered(session, Message(role="assistant", content=reply)))
        return thought

    def _commit(
        self,
        run: RunInfo,
        turn_id: str,
        session: Session,
        ctx: tools.TurnContext,
        thought: Thought,
    ) -> int:
        """Step 5: one short transaction, fenced on the run's session version; the new one."""
        fault("before_commit")
        was_done = session.state.step == Step.done
        old_version, new_version = session.version, session.version + 1
        for checkpoint in ctx.checkpoints:
            checkpoint.session_version = new_version
        step = ctx.state.step
        fence = Fence(
            run.id,
            old_version,
            new_version,
            step=step,
            status=RunStatus.done if step == Step.done and not was_done else None,
            finished=was_done,
            agent_version=tools.agent_version(),
        )
        try:
            sizes = self.db.turns.commit(
                [_entry(run.id, turn_id, m) for m in thought.messages[1:]],
                ctx.checkpoints,
                fence,
                ctx.staged,
            )
        except RunClosed as exc:
            raise self._closed(run) from exc
        except VersionConflict as exc:
            self._unless_gone(run, exc)
            raise VersionConflict(
                catalogue.text("errors", "changed.while_answering", "en")
            ) from exc
        metrics.checkpoints_written(
            [(str(c.step), size) for c, size in zip(ctx.checkpoints, sizes, strict=True)]
        )
        fault("after_commit")
        log.info(
            "turn committed",
            extra={
                "event": "turn_committed",
                "run_id": run.id,
                "version": new_version,
                "step": str(step),
                "checkpoints": [str(c.step) for c in ctx.checkpoints],
            },
        )
        return new_version

    def _publish(
        self,
        loaded: Loaded,
        ctx: tools.TurnContext,
        thought: Thought,
        new_version: int,
        lease: Lease | None = None,
    ) -> None:
        """Step 6: save the live session, check-and-set on the version the store holds.

        The turn is already committed and the database is the truth: a live copy that
        cannot be saved (expired meanwhile, store unreachable) is rebuilt on the next load.
        A save the store refuses because ``forget`` erased the run meanwhile ends the turn
        like an erased run: nothing is written back, and the window is told why.
        """
        session = loaded.session
        session.version = new_version
        session.state = ctx.state
        session.messages = (session.messages + thought.messages)[-MAX_SESSION_MESSAGES:]
        session.updated_at = self.clock()
        fault("before_session_save")
        try:
            self.sessions.save(session, expected_version=loaded.stored_version, release=lease)
        except RunErased as exc:
            log.info(
                "session of an erased run not written back",
                extra={"event": "erased_session_refused", "run_id": session.run_id},
            )
            raise RunClosed(_erased(session.user_id)) from exc
        except StorageError as exc:
            log.warning(
                "live session not saved; it will be rebuilt from the database",
                extra={"event": "session_save_failed", "run_id": session.run_id, "error": str(exc)},
            )
        self._unless_erased(session)  # the database, not the session store, says if it went

    def _unless_erased(self, session: Session) -> None:
        """Take the saved session back out if its run is gone from the database.

        The tombstone ``forget`` leaves (``SessionStore.erase``) is what stops a turn in
        flight from writing an erased session back, killed or not. This look is the second
        line, for a tombstone that is no longer there when the save comes: a turn stalled
        between its commit and its save for longer than the max lifetime, a Redis restarted
        without persistence or flushed, a deleted ``sessions.db`` — whether the save then
        succeeded or failed. It also tells a window whose run was erased just after its
        save, rather than answering as if nothing happened.
        """
        try:
            gone = self._gone(session.run_id)
        except StorageError as exc:  # committed already; the database answers again later
            log.warning(
                "could not check the run after saving its session",
                extra={
                    "event": "erasure_check_failed",
                    "run_id": session.run_id,
                    "error": str(exc),
                },
            )
            return
        if gone:
            # A store that is down holds no session to take out.
            with contextlib.suppress(StorageError):
                self.sessions.delete(session.run_id)
            log.info(
                "session of an erased run removed",
                extra={"event": "erased_session_removed", "run_id": session.run_id},
            )
            raise RunClosed(_erased(session.user_id))

    def _remember(self, run: RunInfo, ctx: tools.TurnContext) -> None:
        """Keep the long-term note of a search that ended in this turn, or whose old history
        a summary folded in it (``agent/memory.py``): the run's one note, rewritten.

        After the commit and the save, and never at the turn's expense: a failing endpoint
        or store is logged, and a run erased meanwhile keeps no note (``RunErased``).
        """
        if self.memory is None:
            return
        try:
            confirmed = ctx.state.step == Step.done  # a gift only set aside was not chosen
            product = ctx.product(ctx.state.selected_gift_id or "") if confirmed else None
            chosen = ctx.candidate_view(product) if product is not None else None
            self.memory.remember(run.user_id, run.id, ctx.state, chosen)
        except RunErased:
            log.info(
                "no note for an erased run", extra={"event": "memory_refused", "run_id": run.id}
            )
        except (ModelError, StorageError, ValueError) as exc:
            log.warning(
                "long-term note not written",
                extra={"event": "memory_write_failed", "run_id": run.id, "error": str(exc)},
            )

    def _unless_gone(self, run: RunInfo, conflict: VersionConflict) -> None:
        """A write refused because ``forget`` erased the run meanwhile is told as an
        erasure: the message is not "kept in the transcript", there is none any more."""
        try:
            gone = self._gone(run.id)
        except StorageError:
            return  # cannot tell: the conflict's own message stands
        if gone:
            raise RunClosed(_erased(run.user_id)) from conflict

    def _closed(self, run: RunInfo) -> RunClosed:
        """The plain message for a turn whose run was erased or abandoned meanwhile."""
        gone = self._gone(run.id)
        return RunClosed(_erased(run.user_id) if gone else _abandoned(run.user_id))

    def _gone(self, run_id: str) -> bool:
        """Whether the run is no longer in the database (``forget`` erased it)."""
        return not self.db.turns.exists(run_id)

    def _numbered(self, session: Session, message: Message) -> Message:
        message.seq = session.next_seq
        session.next_seq += 1
        return message

    def _memories(self, session: Session, profile: ProfileDraft) -> str:
        """The recipient's notes from earlier searches, as the model is given them: read
        once a recipient (kept in the live session), none while nobody is named.

        A store or endpoint that fails costs the block, never the turn; it is asked again
        next round."""
        key = recipient_key(profile.recipient, profile.recipient_name)
        if self.memory is None or key is None:
            return ""
        if session.memory is None or session.memory.key != key:
            try:
                text = self.memory.block(
                    session.user_id, profile, run_id=session.run_id, count=self.counter.count_text
                )
            except (ModelError, StorageError) as exc:
                log.warning(
                    "recipient's notes not read",
                    extra={
                        "event": "memory_read_failed",
                        "run_id": session.run_id,
                        "error": str(exc),
                    },
                )
                return ""
            session.memory = MemoryBlock(key=key, text=text)
        return session.memory.text

    def _call_model(
        self,
        session: Session,
        block: str,
        turn_msgs: list[Message],
        on_text: Callable[[str], None] | None,
        timings: TurnTimings,
        profile: ProfileDraft,
    ) -> Message | None:
        """One model round; on ``context_length_exceeded`` shrink once and retry, else None."""
        model = TimedModel(self.model, timings)
        with timings.phase("context"):
            memories = self._memories(session, profile)
        for budget in (self.budget, int(self.budget * SHRINK_FACTOR)):
            try:
                with timings.phase("context"):
                    built = build_context(
                        counter=self.counter,
                        budget=budget,
                        system_prompt=self.system_prompt,
                        tools=self.tool_specs,
                        summary=session.summary,
                        history=session.messages,
                        state_block=block,
                        turn=turn_msgs,
                        memories=memories,
                    )
                if built.dropped or built.cut_tool_results:
                    session.usage.truncations += 1
                response = model.complete(
                    ChatRequest(
                        messages=built.messages,
                        tools=self.tool_specs,
                        max_tokens=self.settings.completion_reserve_tokens,
                    ),
                    on_text=on_text,
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
            for call in message.tool_calls:  # a model may copy what the user typed into them
                call.arguments = _scrubbed_arguments(call.arguments)
            return self._numbered(session, message)
        return None


def _outcome(exc: BaseException) -> str:
    """A failed turn's outcome label for ``metrics.turn_finished``."""
    if isinstance(exc, SessionBusy):
        return "busy"  # another window held the lease past the wait
    if isinstance(exc, RunClosed):
        return "closed"  # the run was abandoned or erased meanwhile
    if isinstance(exc, VersionConflict):
        return "conflict"
    if isinstance(exc, UsageError | NothingToResume):
        return "rejected"
    return "error" if isinstance(exc, Exception) else "interrupted"


def _tool_label(name: str) -> str:
    """A called tool's name as a metric label: a name the model made up is "unknown", so
    a model cannot grow the series without bound."""
    return name if name in tools.TOOLS else "unknown"


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


def _abandoned(user_id: str) -> str:
    return catalogue.say("errors", "abandoned", "en", user=user_id)


def _erased(user_id: str) -> str:
    return catalogue.say("errors", "erased", "en", user=user_id)


def _no_longer_stored(user_id: str) -> str:
    return catalogue.say("errors", "no_longer_stored", "en", user=user_id)


def _scrubbed_arguments(raw: str) -> str:
    """Tool-call arguments with PII replaced, still JSON when they were JSON.

    They are stored in the transcript and the session like any message, so they are
    scrubbed like one; a value is replaced inside its JSON string, never across the syntax.
    """
    try:
        value = json.loads(raw)
    except ValueError:
        return scrub(raw)  # not JSON: the tool will refuse it, but nothing leaks meanwhile
    cleaned = scrub_obj(value)
    return raw if cleaned == value else json.dumps(cleaned, ensure_ascii=False)


def _as_sent(result: dict[str, Any]) -> dict[str, Any]:
    """A tool result as the model is sent it: plain JSON values, PII scrubbed inside its
    strings, never across the JSON syntax (a long number is not a phone number)."""
    plain = json.loads(json.dumps(result, ensure_ascii=False, default=str))
    return cast(dict[str, Any], scrub_obj(plain))


def _arguments(raw: str) -> dict[str, Any]:
    """A call's arguments as an object (empty when they are not one: the tool refused)."""
    try:
        value = json.loads(raw or "{}")
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}
