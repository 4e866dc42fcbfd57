"""A turn's own reads and writes, on the driver's connection (``Database.turns``).

Every turn reads its run (and any message accepted after the live session's last one),
writes the accepted message, commits its transcript, checkpoints and the fence, and looks
for its run after the save: four short transactions. Through an ORM ``Session`` each cost
more in SQLAlchemy's machinery (unit of work, statement compilation and caching, result
objects, pool events) than in the database itself, so they are written here once in plain
SQL — the same text on SQLite and Postgres but for the parameter marker — and sent on the
pooled connection's driver (sqlite3, psycopg). Values go through the columns' own SQLAlchemy
types (``UTCDateTime``, JSON), so a row written here reads back through the repositories
exactly like one they wrote, and the other way round.

What stays the same: one transaction per step (``BEGIN IMMEDIATE`` on SQLite, as
``db.write()`` takes it), the fence ``UPDATE runs … WHERE session_version = v AND status = s``
that rolls the whole commit back, a seq already taken told as ``VersionConflict``, and
driver errors turned into the same ``StorageError``s (``Database._errors``). A commit whose
tools staged changes through the repositories runs them first in a ``db.write()``
transaction, then these statements on its connection.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, cast

import sqlalchemy as sa
from sqlalchemy.exc import DBAPIError

from giftgenius.domain import RunInfo, RunStatus, Step, ToolCall, TranscriptEntry, utcnow
from giftgenius.errors import RunClosed, VersionConflict
from giftgenius.messages import speak
from giftgenius.storage.checkpoints import encode_checkpoint
from giftgenius.storage.tables import CheckpointRow, RunRow, TranscriptRow

if TYPE_CHECKING:
    from giftgenius.domain import Checkpoint
    from giftgenius.storage.db import Database
    from giftgenius.storage.repositories import Repos

_RUNS = cast(sa.Table, RunRow.__table__)
_TRANSCRIPT = cast(sa.Table, TranscriptRow.__table__)
_CHECKPOINTS = cast(sa.Table, CheckpointRow.__table__)

_RUN_COLUMNS = (
    "id",
    "user_id",
    "status",
    "step",
    "session_version",
    "created_at",
    "updated_at",
    "agent_version",
)
_ENTRY_COLUMNS = ("run_id", "seq", "turn_id", "role", "content", "tool_calls", "tool_call_id")
_ENTRY_WRITE = (*_ENTRY_COLUMNS, "created_at")
_CHECKPOINT_WRITE = tuple(c.name for c in _CHECKPOINTS.c)  # encode_checkpoint's keys

_SELECT_RUN = f"SELECT {', '.join(_RUN_COLUMNS)} FROM runs WHERE id = ?"
_SELECT_RUN_AFTER = (
    f"SELECT {', '.join(f'r.{c}' for c in _RUN_COLUMNS)}, t.id,"
    f" {', '.join(f't.{c}' for c in _ENTRY_WRITE)}"
    " FROM runs AS r LEFT OUTER JOIN transcript AS t ON t.run_id = r.id AND t.seq > ?"
    " WHERE r.id = ? ORDER BY t.seq"
)
_EXISTS = "SELECT 1 FROM runs WHERE id = ?"
_INSERT_ENTRY = (
    f"INSERT INTO transcript ({', '.join(_ENTRY_WRITE)})"
    f" VALUES ({', '.join('?' for _ in _ENTRY_WRITE)})"
)
_INSERT_CHECKPOINT = (
    f"INSERT INTO checkpoints ({', '.join(_CHECKPOINT_WRITE)})"
    f" VALUES ({', '.join('?' for _ in _CHECKPOINT_WRITE)})"
)
_FENCE = (
    "UPDATE runs SET session_version = ?, step = ?, updated_at = ?,"
    " status = COALESCE(?, status), agent_version = COALESCE(?, agent_version)"
    " WHERE id = ? AND session_version = ? AND status = ?"
)

Processor = Callable[[Any], Any]


def _same(value: Any) -> Any:
    return value


class TurnRows:
    """The turn's statements for one ``Database`` (its engines, its dialect)."""

    def __init__(self, db: Database) -> None:
        self._db = db
        dialect = db.engine.dialect
        self._dialect = dialect
        self._sqlite = dialect.name == "sqlite"
        self._dbapi = dialect.loaded_dbapi
        marker = "?" if self._sqlite else "%s"
        self._sql: dict[str, str] = {
            name: text.replace("?", marker)
            for name, text in (
                ("run", _SELECT_RUN),
                ("run_after", _SELECT_RUN_AFTER),
                ("exists", _EXISTS),
                ("entry", _INSERT_ENTRY),
                ("checkpoint", _INSERT_CHECKPOINT),
                ("fence", _FENCE),
            )
        }
        self._run_out = [self._result(_RUNS.c[name]) for name in _RUN_COLUMNS]
        self._entry_out = [self._result(_TRANSCRIPT.c[name]) for name in _ENTRY_WRITE]
        self._entry_in = [self._bind(_TRANSCRIPT.c[name]) for name in _ENTRY_WRITE]
        self._checkpoint_in = [self._bind(_CHECKPOINTS.c[name]) for name in _CHECKPOINT_WRITE]
        self._time_in = self._bind(_RUNS.c.updated_at)
        # What was sent, for ``bench turn``'s counts (``bench/statements.py``): a statement
        # per execute, a transaction per write and per read on SQLite (a statement on its
        # own is its own transaction there; on Postgres a read opens none).
        self.statements = 0
        self.transactions = 0

    def _bind(self, column: sa.Column[Any]) -> Processor:
        processor = column.type._cached_bind_processor(self._dialect)
        return processor or _same

    def _result(self, column: sa.Column[Any]) -> Processor:
        processor = column.type._cached_result_processor(self._dialect, None)
        return processor or _same

    # -- reads -----------------------------------------------------------------------------

    def run_after(
        self, run_id: str, after_seq: int | None
    ) -> tuple[RunInfo | None, list[TranscriptEntry] | None]:
        """The run and, unless ``after_seq`` is None, its transcript entries after it, in
        ONE statement (``RunRepo.get_with_transcript``); no run: ``(None, …)``."""
        with self._reading() as cursor:
            self.statements += 1
            if after_seq is None:
                cursor.execute(self._sql["run"], (run_id,))
                row = cursor.fetchone()
                return (None if row is None else self._run(row)), None
            cursor.execute(self._sql["run_after"], (after_seq, run_id))
            rows = cursor.fetchall()
        if not rows:
            return None, []
        width = len(_RUN_COLUMNS)
        entries = [self._entry(row[width + 1 :]) for row in rows if row[width] is not None]
        return self._run(rows[0]), entries

    def exists(self, run_id: str) -> bool:
        """Whether the run is still in the database (``forget`` did not erase it)."""
        with self._reading() as cursor:
            self.statements += 1
            cursor.execute(self._sql["exists"], (run_id,))
            return cursor.fetchone() is not None

    # -- writes ----------------------------------------------------------------------------

    def accept(self, entries: Sequence[TranscriptEntry]) -> None:
        """Append the accepted message(s) in a transaction of their own: one statement,
        so on its own (autocommit) — one round trip on Postgres, not BEGIN, INSERT and
        COMMIT."""
        with self._writing(single=True) as cursor, self._taken(entries):
            self._append(cursor, entries)

    def commit(
        self,
        entries: Sequence[TranscriptEntry],
        checkpoints: Sequence[Checkpoint],
        fence: Fence,
        staged: Sequence[Callable[[Repos], object]] = (),
    ) -> list[int]:
        """The turn's ONE transaction: ``staged`` repository changes (tools'), the
        transcript entries, the checkpoints and the fence; the checkpoints' payload sizes.

        Aborted whole — nothing committed — when the fence does not match
        (``VersionConflict``; ``RunClosed`` for a run abandoned or erased meanwhile).
        """
        if not staged:
            with self._writing() as cursor:
                return self._commit(cursor, entries, checkpoints, fence)
        with self._db.write() as repos:
            for change in staged:
                change(repos)
            connection = repos.session.connection().connection
            with self._driver_errors(connection) as cursor:
                return self._commit(cursor, entries, checkpoints, fence)

    def _commit(
        self,
        cursor: Any,
        entries: Sequence[TranscriptEntry],
        checkpoints: Sequence[Checkpoint],
        fence: Fence,
    ) -> list[int]:
        sizes: list[int] = []
        rows = []
        for cp in checkpoints:
            text = cp.payload_json()
            sizes.append(len(text.encode()))
            rows.append(self._checkpoint_row(cp, text))
        with self._taken(entries), self._pipelined(cursor):
            self._append(cursor, entries)
            if rows:
                cursor.executemany(self._sql["checkpoint"], rows)
                self.statements += 1
            self._send_fence(cursor, fence)
        self._check_fence(cursor, fence)
        return sizes

    def _append(self, cursor: Any, entries: Sequence[TranscriptEntry]) -> None:
        """Send the entries' rows; under ``_taken``, which tells a seq already taken."""
        if not entries:
            return
        rows = [self._entry_row(e) for e in entries]
        self.statements += 1
        if len(rows) == 1:
            cursor.execute(self._sql["entry"], rows[0])
        else:
            cursor.executemany(self._sql["entry"], rows)

    @contextmanager
    def _taken(self, entries: Sequence[TranscriptEntry]) -> Iterator[None]:
        """A transcript position already taken (or a run gone) as ``VersionConflict``."""
        try:
            yield
        except self._dbapi.IntegrityError as exc:
            if not entries:
                raise
            first, last = entries[0], entries[-1]
            raise VersionConflict(
                speak(
                    "storage", "transcript.taken", first=first.seq, last=last.seq, run=first.run_id
                )
            ) from exc

    @contextmanager
    def _pipelined(self, cursor: Any) -> Iterator[None]:
        """On Postgres, the statements sent together (psycopg's pipeline mode): the
        transaction's BEGIN, the inserts and the fence in one round trip, their results
        (and errors) read when the block ends. SQLite has no round trips to save."""
        if self._sqlite:
            yield
            return
        with cursor.connection.pipeline():
            yield

    def _send_fence(self, cursor: Any, fence: Fence) -> None:
        """The fence in one statement (``_check_fence`` reads its outcome)."""
        expected = (RunStatus.done if fence.finished else RunStatus.active).value
        self.statements += 1
        cursor.execute(
            self._sql["fence"],
            (
                fence.new_version,
                Step(fence.step).value,
                self._time_in(utcnow()),
                None if fence.status is None else RunStatus(fence.status).value,
                fence.agent_version,
                fence.run_id,
                fence.expected_version,
                expected,
            ),
        )

    def _check_fence(self, cursor: Any, fence: Fence) -> None:
        """The fence moved the run, or a miss says why (read on the same cursor)."""
        if cursor.rowcount == 1:
            return
        expected = (RunStatus.done if fence.finished else RunStatus.active).value
        self.statements += 1
        cursor.execute(self._sql["run"], (fence.run_id,))
        row = cursor.fetchone()
        if row is None:
            raise RunClosed(speak("storage", "run.gone", run=fence.run_id))
        run = self._run(row)
        if run.status != expected:
            raise RunClosed(speak("storage", "run.closed", run=fence.run_id, status=run.status))
        raise VersionConflict(
            speak("storage", "run.moved_on", run=fence.run_id, version=fence.expected_version)
        )

    # -- rows ------------------------------------------------------------------------------

    def _run(self, row: Sequence[Any]) -> RunInfo:
        out = self._run_out
        return RunInfo(
            id=row[0],
            user_id=row[1],
            status=RunStatus(row[2]),
            step=Step(row[3]),
            session_version=row[4],
            created_at=out[5](row[5]),
            updated_at=out[6](row[6]),
            agent_version=row[7],
        )

    def _entry(self, row: Sequence[Any]) -> TranscriptEntry:
        out = self._entry_out
        return TranscriptEntry(
            run_id=row[0],
            seq=row[1],
            turn_id=row[2],
            role=row[3],
            content=row[4],
            tool_calls=[ToolCall.model_validate(c) for c in out[5](row[5]) or []],
            tool_call_id=row[6],
            created_at=out[7](row[7]),
        )

    def _entry_row(self, e: TranscriptEntry) -> tuple[Any, ...]:
        values = (
            e.run_id,
            e.seq,
            e.turn_id,
            e.role,
            e.content,
            [c.model_dump() for c in e.tool_calls],
            e.tool_call_id,
            e.created_at,
        )
        return tuple(bind(v) for bind, v in zip(self._entry_in, values, strict=True))

    def _checkpoint_row(self, cp: Checkpoint, payload_json: str) -> tuple[Any, ...]:
        columns = encode_checkpoint(cp, json.loads(payload_json))
        return tuple(
            bind(columns[name])
            for bind, name in zip(self._checkpoint_in, _CHECKPOINT_WRITE, strict=True)
        )

    # -- connections -----------------------------------------------------------------------

    @contextmanager
    def _reading(self) -> Iterator[Any]:
        """A cursor for one read statement: on Postgres the read pool's autocommit,
        read-only connection (``db.read()``'s); on SQLite a statement on its own is its
        own transaction."""
        self._db.prepare()
        engine = self._db.engine if self._sqlite else self._db.read_engine
        self.transactions += self._sqlite
        with self._db.errors():
            pooled = self._checkout(engine)
            try:
                with self._driver_errors(pooled) as cursor:
                    yield cursor
            finally:
                pooled.close()

    @contextmanager
    def _writing(self, *, single: bool = False) -> Iterator[Any]:
        """A cursor in one write transaction on the write pool's connection: ``BEGIN
        IMMEDIATE`` on SQLite (its ``query_only`` off, as ``db.write()`` leaves it),
        committed on exit, rolled back on any error. ``single``: the caller sends one
        statement, its own transaction (autocommit; ``query_only`` off all the same)."""
        self._db.prepare()
        self.transactions += 1
        with self._db.errors():
            pooled = self._checkout(self._db.engine)
            try:
                driver: Any = pooled.driver_connection
                with self._driver_errors(pooled) as cursor:
                    if single:
                        with self._autocommit(pooled):
                            yield cursor
                        return
                    if self._sqlite:
                        self._db.begin_write(pooled)
                    try:
                        yield cursor
                    except BaseException:
                        _rollback(driver)
                        raise
                    driver.commit()
            finally:
                pooled.close()

    @contextmanager
    def _autocommit(self, pooled: Any) -> Iterator[None]:
        """Statements on their own: SQLite's connections always are (``BEGIN`` is ours to
        send), a psycopg connection only while this lasts (set between transactions, the
        switch costs no round trip)."""
        if self._sqlite:
            self._db.writable(pooled)
            yield
            return
        driver = pooled.driver_connection
        driver.autocommit = True
        try:
            yield
        finally:
            try:
                driver.autocommit = False
            except self._dbapi.Error:  # a connection gone: never handed out again
                pooled.invalidate()

    def _checkout(self, engine: sa.Engine) -> Any:
        """A connection from ``engine``'s pool (pinged first on Postgres, as every
        checkout); the driver's error on connecting raised as SQLAlchemy's, as a
        ``Connection`` would (``Engine.raw_connection`` leaves it bare)."""
        try:
            return engine.raw_connection()
        except self._dbapi.Error as exc:
            raise DBAPIError.instance(
                "", None, exc, self._dbapi.Error, connection_invalidated=True, dialect=self._dialect
            ) from exc

    @contextmanager
    def _driver_errors(self, pooled: Any) -> Iterator[Any]:
        """A cursor on ``pooled`` (a pool's connection); the driver's errors raised as
        SQLAlchemy's (for ``Database._errors``), a connection that died invalidated so the
        pool never hands it out again."""
        cursor = None
        try:
            cursor = pooled.driver_connection.cursor()
            yield cursor
        except self._dbapi.Error as exc:
            dead = self._dialect.is_disconnect(exc, pooled.driver_connection, cursor)
            if dead:
                pooled.invalidate(exc)
            raise DBAPIError.instance(
                "", None, exc, self._dbapi.Error, connection_invalidated=dead, dialect=self._dialect
            ) from exc
        finally:
            if cursor is not None:
                with contextlib.suppress(self._dbapi.Error):
                    cursor.close()


class Fence:
    """A turn's claim on its run: the run moves from ``expected_version`` to
    ``new_version`` iff it is still active (still done, with ``finished``: a turn after the
    choice, which changes no step); ``agent_version`` records which agent and prompt
    answered. Otherwise ``VersionConflict`` (``RunClosed`` when the run was abandoned or
    erased meanwhile) aborts the turn's whole transaction: the turn that lost the race
    commits nothing — not over a newer turn, and not to a run another window abandoned
    with ``--new`` or ``/restart``."""

    __slots__ = (
        "agent_version",
        "expected_version",
        "finished",
        "new_version",
        "run_id",
        "status",
        "step",
    )

    def __init__(
        self,
        run_id: str,
        expected_version: int,
        new_version: int,
        *,
        step: Step | str,
        status: RunStatus | str | None = None,
        finished: bool = False,
        agent_version: str | None = None,
    ) -> None:
        self.run_id = run_id
        self.expected_version = expected_version
        self.new_version = new_version
        self.step = step
        self.status = status
        self.finished = finished
        self.agent_version = agent_version


def _rollback(driver: Any) -> None:
    """Roll back what the connection holds; a connection already gone has nothing to roll
    back (the pool invalidates it)."""
    with contextlib.suppress(Exception):  # the error that made us roll back is raised
        if isinstance(driver, sqlite3.Connection):
            if driver.in_transaction:
                driver.execute("ROLLBACK")
        else:
            driver.rollback()
