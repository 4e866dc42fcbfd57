"""Repositories over one SQLAlchemy session; they take and return domain models only.

They never commit: ``Database.read()``/``write()`` own the transaction, so a whole turn lands
at once. Reads that take an id from outside accept the caller's ``user_id`` to check that
the row is theirs; a row of another user is treated as absent. Checkpoint rows have their
repository beside their format, in ``storage/checkpoints.py``; ``Repos`` holds it too.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from giftgenius.domain import (
    GiftGiven,
    OrderDraft,
    ProfileDraft,
    RecipientProfile,
    RunInfo,
    RunStatus,
    Step,
    ToolCall,
    TranscriptEntry,
    check_user_id,
    utcnow,
)
from giftgenius.errors import NotFound, StorageError
from giftgenius.messages import speak
from giftgenius.privacy import strip_controls
from giftgenius.storage.api_keys import ApiKeyRepo
from giftgenius.storage.catalog_repo import CatalogRepo
from giftgenius.storage.checkpoints import CheckpointRepo, upgrade_profile_v2
from giftgenius.storage.tables import (
    ApiKeyRow,
    CheckpointRow,
    GiftHistoryRow,
    MemoryRow,
    MemoryTallyRow,
    OrderDraftRow,
    RecipientProfileRow,
    RunRow,
    TranscriptRow,
    UserRow,
)
from giftgenius.storage.upsert import insert_for, money

_T = TypeVar("_T")
# What every turn reads and writes goes through the tables, not the mapped classes: a Core
# statement skips the ORM's identity map and bulk-persistence layers (a turn with an
# instant model went from 4.6 to 4.0 ms embedded: the README's ``bench turn`` figures).
_RUNS = cast(sa.Table, RunRow.__table__)
_TRANSCRIPT = cast(sa.Table, TranscriptRow.__table__)
# The transcript's columns joined to a run's row, labelled apart from the run's own.
_AFTER = {f"t_{c.name}": c.name for c in _TRANSCRIPT.c}
_AFTER_COLUMNS = [_TRANSCRIPT.c[name].label(label) for label, name in _AFTER.items()]


def _written(value: _T | None, unreadable: str) -> _T:
    """The row just upserted in this transaction; missing means the database misbehaved
    (``unreadable``: the ``storage`` sentence that says so)."""
    if value is None:
        raise StorageError(speak("storage", unreadable))
    return value


def _rowcount(result: sa.Result[Any]) -> int:
    """Rows an UPDATE or DELETE touched (its result is a ``CursorResult`` at run time)."""
    return cast("sa.CursorResult[Any]", result).rowcount


def _require_own_run(session: Session, run_id: str, user_id: str) -> None:
    """Refuse a row for a run that is not ``user_id``'s: an order or a gift never crosses
    from one person's run to another's, whatever id a caller passes."""
    owner = session.scalar(sa.select(RunRow.user_id).where(RunRow.id == run_id))
    if owner != user_id:
        raise NotFound(speak("storage", "run.not_users", run=repr(run_id), user=repr(user_id)))


class _Repo:
    def __init__(self, session: Session) -> None:
        self._s = session


class UserRepo(_Repo):
    def ensure(self, user_id: str) -> None:
        """Create the user row if missing (idempotent, race-free)."""
        check_user_id(user_id)
        stmt = insert_for(self._s, UserRow).values(id=user_id, created_at=utcnow())
        self._s.execute(stmt.on_conflict_do_nothing(index_elements=["id"]))

    def exists(self, user_id: str) -> bool:
        """Whether anything was ever stored for this user (``forget`` says so when not)."""
        return self._s.get(UserRow, user_id) is not None


def _run_info(row: RunRow | sa.Row[Any]) -> RunInfo:
    return RunInfo(
        id=row.id,
        user_id=row.user_id,
        status=RunStatus(row.status),
        step=Step(row.step),
        session_version=row.session_version,
        created_at=row.created_at,
        updated_at=row.updated_at,
        agent_version=getattr(row, "agent_version", None),
    )


class RunRepo(_Repo):
    def get(self, run_id: str, *, user_id: str | None = None) -> RunInfo | None:
        """The run, or None; with ``user_id``, None too when it is another user's."""
        row = self._s.execute(sa.select(_RUNS).where(_RUNS.c.id == run_id)).first()
        if row is None or (user_id is not None and row.user_id != user_id):
            return None
        return _run_info(row)

    def get_with_transcript(
        self, run_id: str, after_seq: int
    ) -> tuple[RunInfo | None, list[TranscriptEntry]]:
        """The run and its transcript entries after ``after_seq``, in ONE statement.

        What a turn reads before it starts (``Agent.turn``): the run row (its version, its
        status, whose it is) and any message accepted after the live session's last one
        (a turn that died before committing). An outer join, so a run with nothing after
        ``after_seq`` is still one row; no run, no row.
        """
        rows = self._s.execute(
            sa.select(_RUNS, *_AFTER_COLUMNS)
            .select_from(
                _RUNS.outerjoin(
                    _TRANSCRIPT,
                    sa.and_(_TRANSCRIPT.c.run_id == _RUNS.c.id, _TRANSCRIPT.c.seq > after_seq),
                )
            )
            .where(_RUNS.c.id == run_id)
            .order_by(_TRANSCRIPT.c.seq)
        ).all()
        if not rows:
            return None, []
        entries = [
            _entry({name: row._mapping[label] for label, name in _AFTER.items()})
            for row in rows
            if row.t_id is not None
        ]
        return _run_info(rows[0]), entries

    def active_for(self, user_id: str) -> RunInfo | None:
        """The user's unfinished run (the partial unique index allows at most one)."""
        row = self._s.scalars(
            sa.select(RunRow)
            .where(RunRow.user_id == user_id, RunRow.status == RunStatus.active.value)
            .execution_options(populate_existing=True)
        ).first()
        return None if row is None else _run_info(row)

    def latest_for(self, user_id: str) -> RunInfo | None:
        row = self._s.scalars(
            sa.select(RunRow)
            .where(RunRow.user_id == user_id)
            .order_by(RunRow.updated_at.desc(), RunRow.created_at.desc(), RunRow.id.desc())
            .limit(1)
            .execution_options(populate_existing=True)
        ).first()
        return None if row is None else _run_info(row)

    def list_for(self, user_id: str) -> list[RunInfo]:
        """The user's runs, oldest first."""
        rows = self._s.scalars(
            sa.select(RunRow)
            .where(RunRow.user_id == user_id)
            .order_by(RunRow.created_at, RunRow.id)
            .execution_options(populate_existing=True)
        )
        return [_run_info(r) for r in rows]

    def start(self, user_id: str, run_id: str) -> RunInfo:
        """Create the user's active run, or return the one that already exists.

        Two processes starting at once both get the same run: the insert is guarded by the
        one-active-run-per-user index and does nothing when it would violate it.
        """
        UserRepo(self._s).ensure(user_id)
        now = utcnow()
        stmt = insert_for(self._s, RunRow).values(
            id=run_id,
            user_id=user_id,
            status=RunStatus.active.value,
            step=Step.collecting_profile.value,
            session_version=0,
            created_at=now,
            updated_at=now,
        )
        self._s.execute(stmt.on_conflict_do_nothing())
        run = self.active_for(user_id)
        if run is None:
            raise StorageError(speak("storage", "run.id_taken", run=repr(run_id)))
        return run

    def set_status(self, run_id: str, status: RunStatus | str) -> None:
        status = RunStatus(status)
        try:
            result = self._s.execute(
                sa.update(RunRow)
                .where(RunRow.id == run_id)
                .values(status=status.value, updated_at=utcnow())
                .execution_options(synchronize_session=False)
            )
        except IntegrityError as exc:
            raise StorageError(speak("storage", "run.cannot_reactivate", run=run_id)) from exc
        if _rowcount(result) != 1:
            raise NotFound(speak("storage", "run.none", run=repr(run_id)))


def _entry(row: Mapping[Any, Any]) -> TranscriptEntry:
    """A transcript row's columns, by name, as an entry."""
    return TranscriptEntry(
        run_id=row["run_id"],
        seq=row["seq"],
        turn_id=row["turn_id"],
        role=row["role"],
        content=row["content"],
        tool_calls=[ToolCall.model_validate(c) for c in row["tool_calls"] or []],
        tool_call_id=row["tool_call_id"],
        created_at=row["created_at"],
    )


class TranscriptRepo(_Repo):
    def for_run(self, run_id: str, after_seq: int = 0) -> list[TranscriptEntry]:
        rows = self._s.execute(
            sa.select(_TRANSCRIPT)
            .where(_TRANSCRIPT.c.run_id == run_id, _TRANSCRIPT.c.seq > after_seq)
            .order_by(_TRANSCRIPT.c.seq)
        )
        return [_entry(row._mapping) for row in rows]


def _profile(row: RecipientProfileRow) -> RecipientProfile:
    """A saved profile as the current ``ProfileDraft``.

    The row's JSON has no version of its own; one saved before the recipient's name and
    audience existed lacks ``audience`` and is upgraded on read (the row is left as it is
    until the profile is saved again).
    """
    stored = row.profile if "audience" in row.profile else upgrade_profile_v2(row.profile)
    return RecipientProfile(
        id=row.id,
        user_id=row.user_id,
        label=row.label,
        profile=ProfileDraft.model_validate(stored),
        updated_at=row.updated_at,
    )


def normalize_label(label: str) -> str:
    """Labels are matched without regard to case or surrounding spaces ("Sister" = "sister").

    A label is shown back in later runs, so terminal escapes are removed before it is stored.
    """
    return " ".join(strip_controls(label).split()).lower()


class ProfileRepo(_Repo):
    def list(self, user_id: str) -> list[RecipientProfile]:
        rows = self._s.scalars(
            sa.select(RecipientProfileRow)
            .where(RecipientProfileRow.user_id == user_id)
            .order_by(RecipientProfileRow.label)
            .execution_options(populate_existing=True)
        )
        return [_profile(r) for r in rows]

    def get(self, user_id: str, label: str) -> RecipientProfile | None:
        row = self._s.scalars(
            sa.select(RecipientProfileRow)
            .where(
                RecipientProfileRow.user_id == user_id,
                RecipientProfileRow.label == normalize_label(label),
            )
            .execution_options(populate_existing=True)
        ).first()
        return None if row is None else _profile(row)

    def upsert(self, profile: RecipientProfile) -> RecipientProfile:
        """Save under (user, label): saving the same label again updates it, never duplicates."""
        UserRepo(self._s).ensure(profile.user_id)
        label = normalize_label(profile.label)
        stmt = insert_for(self._s, RecipientProfileRow).values(
            id=profile.id,
            user_id=profile.user_id,
            label=label,
            profile=profile.profile.model_dump(mode="json"),
            updated_at=profile.updated_at,
        )
        stmt = stmt.on_conflict_do_update(
            index_elements=["user_id", "label"],
            set_={"profile": stmt.excluded.profile, "updated_at": stmt.excluded.updated_at},
        )
        self._s.execute(stmt)
        return _written(self.get(profile.user_id, label), "written.recipient_profile")


def _order(row: OrderDraftRow) -> OrderDraft:
    return OrderDraft(
        id=row.id,
        run_id=row.run_id,
        user_id=row.user_id,
        gift_id=row.gift_id,
        price=float(row.price),
        currency=row.currency,
        created_at=row.created_at,
    )


class OrderRepo(_Repo):
    def for_run(self, run_id: str, *, user_id: str | None = None) -> OrderDraft | None:
        query = sa.select(OrderDraftRow).where(OrderDraftRow.run_id == run_id)
        if user_id is not None:
            query = query.where(OrderDraftRow.user_id == user_id)
        row = self._s.scalars(query.execution_options(populate_existing=True)).first()
        return None if row is None else _order(row)

    def upsert(self, draft: OrderDraft) -> OrderDraft:
        """The run's one order draft: a re-run replaces it (and takes the new draft's id, so
        the id the state holds always resolves)."""
        _require_own_run(self._s, draft.run_id, draft.user_id)
        stmt = insert_for(self._s, OrderDraftRow).values(
            id=draft.id,
            run_id=draft.run_id,
            user_id=draft.user_id,
            gift_id=draft.gift_id,
            price=money(draft.price),
            currency=draft.currency,
            created_at=draft.created_at,
        )
        stmt = stmt.on_conflict_do_update(
            index_elements=["run_id"],
            set_={
                name: getattr(stmt.excluded, name)
                for name in ("id", "gift_id", "price", "currency", "created_at")
            },
        )
        self._s.execute(stmt)
        return _written(self.for_run(draft.run_id), "written.order_draft")

    def list_for(self, user_id: str) -> list[OrderDraft]:
        rows = self._s.scalars(
            sa.select(OrderDraftRow)
            .where(OrderDraftRow.user_id == user_id)
            .order_by(OrderDraftRow.created_at, OrderDraftRow.id)
            .execution_options(populate_existing=True)
        )
        return [_order(r) for r in rows]


def _given(row: GiftHistoryRow) -> GiftGiven:
    return GiftGiven(
        id=row.id,
        run_id=row.run_id,
        user_id=row.user_id,
        recipient=row.recipient,
        recipient_name=row.recipient_name,
        gift_id=row.gift_id,
        title=row.title,
        price=float(row.price),
        currency=row.currency,
        confirmed_at=row.confirmed_at,
    )


# The most gifts one read of a person's history returns, newest first: a lifetime of
# birthdays and holidays for a household, and a bound on what a search turn reads.
MAX_GIFTS_READ = 500


class GiftHistoryRepo(_Repo):
    """The gifts a person confirmed, one per run; ``forget`` erases them, ``prune`` never."""

    def record(self, gift: GiftGiven) -> GiftGiven:
        """Keep the run's confirmed gift; confirming again in the same run replaces it."""
        _require_own_run(self._s, gift.run_id, gift.user_id)
        stmt = insert_for(self._s, GiftHistoryRow).values(
            id=gift.id,
            user_id=gift.user_id,
            run_id=gift.run_id,
            recipient=gift.recipient,
            recipient_name=gift.recipient_name,
            gift_id=gift.gift_id,
            title=gift.title,
            price=money(gift.price),
            currency=gift.currency,
            confirmed_at=gift.confirmed_at,
        )
        changed = ("id", "recipient", "recipient_name", "gift_id", "title", "price")
        stmt = stmt.on_conflict_do_update(
            index_elements=["run_id"],
            set_={
                name: getattr(stmt.excluded, name)
                for name in (*changed, "currency", "confirmed_at")
            },
        )
        self._s.execute(stmt)
        row = self._s.scalars(
            sa.select(GiftHistoryRow)
            .where(GiftHistoryRow.run_id == gift.run_id)
            .execution_options(populate_existing=True)
        ).first()
        if row is None:
            raise StorageError(speak("history", "unreadable"))
        return _given(row)

    def list_for(self, user_id: str, *, limit: int = MAX_GIFTS_READ) -> list[GiftGiven]:
        """The user's gifts, newest first (at most ``limit``)."""
        rows = self._s.scalars(
            sa.select(GiftHistoryRow)
            .where(GiftHistoryRow.user_id == user_id)
            .order_by(GiftHistoryRow.confirmed_at.desc(), GiftHistoryRow.id.desc())
            .limit(limit)
            .execution_options(populate_existing=True)
        )
        return [_given(r) for r in rows]


class Repos:
    """Every repository, sharing one session (and so one transaction)."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.users = UserRepo(session)
        self.runs = RunRepo(session)
        self.transcript = TranscriptRepo(session)
        self.checkpoints = CheckpointRepo(session)
        self.profiles = ProfileRepo(session)
        self.orders = OrderRepo(session)
        self.gifts = GiftHistoryRepo(session)
        self.catalog = CatalogRepo(session)
        self.keys = ApiKeyRepo(session)

    def forget_user(self, user_id: str) -> dict[str, int]:
        """Erase the user and everything of theirs; returns rows deleted per table."""
        run_ids = sa.select(RunRow.id).where(RunRow.user_id == user_id).scalar_subquery()
        steps: list[tuple[str, Any]] = [
            ("transcript", sa.delete(TranscriptRow).where(TranscriptRow.run_id.in_(run_ids))),
            (
                "checkpoints",
                sa.delete(CheckpointRow).where(
                    sa.or_(CheckpointRow.user_id == user_id, CheckpointRow.run_id.in_(run_ids))
                ),
            ),
            (
                "order_drafts",
                sa.delete(OrderDraftRow).where(
                    sa.or_(OrderDraftRow.user_id == user_id, OrderDraftRow.run_id.in_(run_ids))
                ),
            ),
            (
                "gift_history",
                sa.delete(GiftHistoryRow).where(
                    sa.or_(GiftHistoryRow.user_id == user_id, GiftHistoryRow.run_id.in_(run_ids))
                ),
            ),
            (
                "memories",
                sa.delete(MemoryRow).where(
                    sa.or_(MemoryRow.user_id == user_id, MemoryRow.run_id.in_(run_ids))
                ),
            ),
            # the memory store's bookkeeping of their notes (how many, the last written)
            (
                "memory_tallies",
                sa.delete(MemoryTallyRow).where(MemoryTallyRow.user_id == user_id),
            ),
            (
                "recipient_profiles",
                sa.delete(RecipientProfileRow).where(RecipientProfileRow.user_id == user_id),
            ),
            ("runs", sa.delete(RunRow).where(RunRow.user_id == user_id)),
            # the service's keys go with the user: a key names its user, and a key left
            # behind would bring an erased user id back at its next request
            ("api_keys", sa.delete(ApiKeyRow).where(ApiKeyRow.user_id == user_id)),
            ("users", sa.delete(UserRow).where(UserRow.id == user_id)),
        ]
        counts: dict[str, int] = {}
        for table, stmt in steps:
            result = self.session.execute(stmt.execution_options(synchronize_session=False))
            counts[table] = _rowcount(result)
        return counts
