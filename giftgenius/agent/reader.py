"""Reading a user's runs without a model: what ``state``, ``checkpoints``, ``forget``… need.

``Agent`` is a ``RunReader`` that can also talk. Commands that only look at stored runs (or
erase them) build a ``RunReader`` (``app.build_reader``), so they never load the model
client, the offline model or the tokenizer — at every process start those cost more than
the command itself.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable
from dataclasses import dataclass, field

from giftgenius.agent import tools
from giftgenius.agent.restore import Loaded, load_session
from giftgenius.catalog import load_rates
from giftgenius.domain import RunInfo, Session, SessionState, check_user_id
from giftgenius.errors import StorageError
from giftgenius.language.detect import detect_locale
from giftgenius.messages import speak
from giftgenius.protocol import CandidateView
from giftgenius.settings import Settings
from giftgenius.storage.db import Database
from giftgenius.storage.memories import MemoryStore
from giftgenius.storage.session_store import SessionStore

log = logging.getLogger("giftgenius.agent")


@dataclass
class Opened:
    run: RunInfo
    loaded: Loaded
    continued: bool  # an unfinished run was picked up rather than a new one started
    notices: list[str] = field(default_factory=list)  # candidates today's catalog dropped
    # For the "welcome back" recap: the shortlist as today's catalog still allows it, and
    # the gift chosen (pending confirmation, or confirmed when the run is done).
    shortlist: list[CandidateView] = field(default_factory=list)
    selected: CandidateView | None = None


class RunReader:
    """The stores (database and session store) and what reading a run from them needs."""

    def __init__(
        self,
        *,
        settings: Settings,
        db: Database,
        sessions: SessionStore,
        clock: Callable[[], dt.datetime] | None = None,
        memories: MemoryStore | None = None,
    ) -> None:
        self.settings = settings
        self.db = db
        self.sessions = sessions
        self.memories = memories  # long-term notes (``agent/memory.py``); None: none kept
        self.clock = clock or settings.clock()  # the stated day (GIFTGENIUS_TODAY), else now
        self.rates = load_rates()

    def close(self) -> None:
        self.sessions.close()
        if self.memories is not None:
            self.memories.close()
        self.db.dispose()

    def forget(self, user_id: str) -> dict[str, int]:
        """Erase a user everywhere; what was deleted, per table. Erasure wins over any turn.

        Each run's session is erased with a tombstone (``SessionStore.erase``) before the
        rows go, so a session store that is down stops it before anything is erased, and a
        turn in flight can never save the session back (its save is refused, atomically).
        Runs started meanwhile are erased from the session store once the rows are gone.
        The long-term notes go last (the database's with the rows, the embedded file's
        after): a note written meanwhile is refused by the tombstones or taken back out.
        """
        check_user_id(user_id)
        with self.db.read() as repos:
            runs = repos.runs.list_for(user_id)
        for run in runs:
            self.sessions.erase(run.id)
        erased = {run.id for run in runs}
        try:
            with self.db.write() as repos:
                late = [r for r in repos.runs.list_for(user_id) if r.id not in erased]
                counts = repos.forget_user(user_id)
        except StorageError as exc:
            raise StorageError(speak("forget", "partial", user=user_id, said=exc)) from exc
        for run in late:
            self.sessions.erase(run.id)
        if self.memories is not None:
            try:
                notes = self.memories.erase_user(user_id)
            except StorageError as exc:
                raise StorageError(speak("forget", "partial", user=user_id, said=exc)) from exc
            counts["memories"] = counts.get("memories", 0) + notes
        try:  # no readable copy left in the database's own files
            self.db.reclaim(list(counts))
        except StorageError as exc:  # erased already: the next checkpoint or VACUUM reclaims
            log.warning("erased rows not reclaimed yet: %s", exc, extra={"event": "reclaim_failed"})
        return counts

    def inspect(self, user_id: str, *, shortlist: bool = False) -> Opened | None:
        """The unfinished run (else the latest) and its state, without taking the lease.

        ``selected`` is filled in, so a finished search can say which gift it ended with;
        with ``shortlist``, the shortlisted gifts too (the web page shows them again).
        """
        check_user_id(user_id)
        with self.db.read() as repos:
            run = repos.runs.active_for(user_id) or repos.runs.latest_for(user_id)
        if run is None:
            return None
        loaded = load_session(run, self.sessions, self.db)
        opened = Opened(run, loaded, True)
        ctx = self._turn_context(run, loaded.session, "")
        opened.selected = self._selected(ctx)
        if shortlist:
            opened.shortlist = self._candidates(ctx)
        return opened

    def _turn_context(self, run: RunInfo, session: Session, text: str) -> tools.TurnContext:
        """What the tools of this turn work on: a copy of the state, in the message's language."""
        # A copy through the validator: a third of ``deepcopy``'s time, and the same check
        # every load of the state makes.
        state = SessionState.model_validate(session.state.model_dump())
        settled = bool(session.summary.text) or any(m.role == "user" for m in session.messages)
        state.locale = detect_locale(text, default=state.locale, settled=settled)
        return tools.TurnContext(
            user_id=run.user_id,
            run_id=run.id,
            state=state,
            db=self.db,
            rates=self.rates,
            today=self.clock().date(),
            default_currency=self.settings.currency,
            summary=session.summary,
            next_seq=session.next_seq,
        )

    def _candidates(self, ctx: tools.TurnContext) -> list[CandidateView]:
        products = ctx.products(ctx.state.candidate_ids)
        return [ctx.candidate_view(products[i]) for i in ctx.state.candidate_ids if i in products]

    def _selected(self, ctx: tools.TurnContext) -> CandidateView | None:
        gift_id = ctx.state.selected_gift_id
        product = ctx.product(gift_id) if gift_id else None
        return ctx.candidate_view(product) if product is not None else None
