"""Load a run's session, rebuilding it when the live copy expired, was wiped or fell behind.

Precedence (the "Restore" paragraph of ``giftgenius/README.md``): the live session when it
is as new as the run's committed version; otherwise the newer of the live session and the
latest checkpoint (by session version), rolled forward with what the transcript recorded
after it — every tool result carries the state it left, so the transcript alone can rebuild
a run that never reached a checkpoint.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Literal

from giftgenius.domain import (
    Checkpoint,
    RunInfo,
    Session,
    SessionState,
    Step,
    Summary,
    TranscriptEntry,
    Usage,
)
from giftgenius.protocol import StateView
from giftgenius.storage.db import Database
from giftgenius.storage.session_store import SessionStore

Source = Literal["live", "checkpoint", "transcript", "new"]
MAX_RESTORED_MESSAGES = 60


@dataclass
class Loaded:
    session: Session
    source: Source
    stored_version: int | None  # the version the session store holds, for check-and-set
    interrupted: TranscriptEntry | None = None  # an accepted message that got no reply


def state_from_tool_result(entry: TranscriptEntry) -> SessionState | None:
    if entry.role != "tool" or not entry.content:
        return None
    try:
        payload = json.loads(entry.content)
    except json.JSONDecodeError:
        return None
    if not isinstance(payload, dict) or not payload.get("ok") or "state" not in payload:
        return None
    return StateView.model_validate(payload["state"]).to_state()


def load_session(run: RunInfo, sessions: SessionStore, db: Database) -> Loaded:
    return restore(run, sessions.load(run.id), db)


def restore(
    run: RunInfo,
    live: Session | None,
    db: Database,
    uncommitted: list[TranscriptEntry] | None = None,
) -> Loaded:
    """The session of ``run``, from ``live`` (the store's copy, or None) and the database.

    ``uncommitted`` is the transcript after ``live``'s last message when the caller read
    it already, with the run row (``Agent.turn`` does, in one statement); None reads it.
    """
    stored = live.version if live is not None else None
    if live is not None and live.version >= run.session_version:
        return _with_uncommitted(live, db, stored, uncommitted)
    with db.read() as repos:
        state, summary, next_seq, source = _starting_point(live, repos.checkpoints.latest(run.id))
        entries = repos.transcript.for_run(run.id, after_seq=summary.through_seq)
    state, source = _rolled_forward(state, source, entries, next_seq)
    messages = [e.to_message() for e in entries[-MAX_RESTORED_MESSAGES:]]
    session = Session(
        run_id=run.id,
        user_id=run.user_id,
        version=run.session_version,
        state=state,
        messages=messages,
        summary=summary,
        usage=live.usage if live is not None else Usage(),
        next_seq=(entries[-1].seq + 1) if entries else max(next_seq, summary.through_seq + 1),
        created_at=live.created_at if live is not None else run.created_at,
    )
    interrupted = entries[-1] if entries and entries[-1].role == "user" else None
    return Loaded(session, source, stored, interrupted)


def _starting_point(
    live: Session | None, checkpoint: Checkpoint | None
) -> tuple[SessionState, Summary, int, Source]:
    """State, summary and next transcript seq to roll forward from, and where they came from:
    the newer of the latest checkpoint and the live session (a tie goes to the live one),
    or a new state when there is neither."""
    if checkpoint is not None and (live is None or checkpoint.session_version > live.version):
        return checkpoint.state, checkpoint.summary, checkpoint.next_seq, "checkpoint"
    if live is not None:
        return live.state, live.summary, live.next_seq, "live"
    return SessionState(), Summary(), 1, "new"


def _rolled_forward(
    state: SessionState, source: Source, entries: list[TranscriptEntry], next_seq: int
) -> tuple[SessionState, Source]:
    """``state`` moved to the last state the tool results from ``next_seq`` on carry.

    A run rebuilt from nothing ("new") that has any transcript is told as rebuilt from it.
    """
    for entry in entries:
        if entry.seq >= next_seq:
            rolled = state_from_tool_result(entry)
            if rolled is not None:
                # The model's view omits the search pool and the gifts shown; every search
                # writes a checkpoint, so the base's are the latest while candidates are in
                # play.
                if rolled.step in (Step.filtering, Step.finalizing):
                    rolled.search_pool = state.search_pool or list(rolled.candidate_ids)
                    rolled.shown_ids = state.shown_ids or list(rolled.candidate_ids)
                state, source = rolled, "transcript" if source == "new" else source
    if source == "new" and entries:
        source = "transcript"
    return state, source


def _with_uncommitted(
    live: Session, db: Database, stored: int | None, extra: list[TranscriptEntry] | None
) -> Loaded:
    """Pick up messages a turn accepted (transcript first) but died before committing."""
    if extra is None:
        with db.read() as repos:
            extra = repos.transcript.for_run(live.run_id, after_seq=live.next_seq - 1)
    if extra:
        live.messages.extend(e.to_message() for e in extra)
        live.next_seq = extra[-1].seq + 1
    interrupted = extra[-1] if extra and extra[-1].role == "user" else None
    return Loaded(live, "live", stored, interrupted)
