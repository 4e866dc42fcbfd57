"""The persistent database: engine setup, schema check on first use, short sessions.

SQLite is the embedded default and many processes share its file, so every connection turns
on foreign keys and gets the file setup both SQLite stores share (``sqlite_file``: WAL,
busy timeout), and write transactions start with ``BEGIN IMMEDIATE`` (a deferred one that
reads first and writes later can fail at once instead of waiting). Postgres never migrates
itself: an old schema is refused with the command to run.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, InterfaceError, OperationalError
from sqlalchemy.orm import Session
from sqlalchemy.pool import StaticPool

from giftgenius.errors import ConfigError, SchemaOutdated, StorageError
from giftgenius.messages import speak
from giftgenius.storage.repositories import Repos
from giftgenius.storage.sqlite_file import configure_file_connection

if TYPE_CHECKING:
    from giftgenius.catalog import Product
    from giftgenius.settings import Settings
    from giftgenius.storage.turn_rows import TurnRows

SQLITE_BUSY_TIMEOUT_MS = 15_000
_BEGIN_OPTION = "giftgenius_sqlite_begin"
_QUERY_ONLY = {True: "PRAGMA query_only = ON", False: "PRAGMA query_only = OFF"}


def normalize_url(url: str) -> str:
    """Send plain ``postgresql://`` (and ``postgres://``) URLs to the psycopg 3 driver."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def mask_url(url: str) -> str:
    """The URL with its password hidden, for messages and logs."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return "<unparsable database URL>"


def _sqlite_file(url: sa.URL) -> Path | None:
    database = url.database
    if not database or database == ":memory:" or database.startswith("file:"):
        return None
    return Path(database)


def create_db_engine(url: str, *, read_only: bool = False) -> Engine:
    """An engine with the settings every GiftGenius process must agree on.

    ``read_only`` (Postgres) gives the engine ``Database.read`` uses: its connections run
    each statement on its own (autocommit) and the server refuses any write on them
    (``default_transaction_read_only``). Postgres's default isolation, read committed,
    takes a new snapshot for every statement even inside a transaction, so a read
    transaction gave no more consistency than this — only a BEGIN and a ROLLBACK, two
    round trips, around every read.
    """
    url = normalize_url(url)
    try:
        parsed = make_url(url)
    except ArgumentError as exc:
        raise StorageError(speak("storage", "db.url_invalid", reason=exc)) from exc
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        return _sqlite_engine(parsed)
    if backend == "postgresql":
        connect_args: dict[str, Any] = {"connect_timeout": 5}
        options: dict[str, Any] = {}
        if read_only:
            connect_args["options"] = "-c default_transaction_read_only=on"
            options["isolation_level"] = "AUTOCOMMIT"
        try:
            return sa.create_engine(
                parsed, pool_pre_ping=True, connect_args=connect_args, **options
            )
        except (ArgumentError, ImportError) as exc:
            raise StorageError(
                speak("storage", "db.driver", url=mask_url(url), reason=exc)
            ) from exc
    raise StorageError(speak("storage", "db.unsupported", url=mask_url(url)))


def _sqlite_engine(url: sa.URL) -> Engine:
    path = _sqlite_file(url)
    if path is not None:
        _require_folder(path)
        engine = sa.create_engine(url, connect_args={"timeout": SQLITE_BUSY_TIMEOUT_MS / 1000})
    else:  # one in-memory database shared by every session of this engine
        engine = sa.create_engine(
            url, poolclass=StaticPool, connect_args={"check_same_thread": False}
        )

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: sqlite3.Connection, _record: Any) -> None:
        # Autocommit: SQLAlchemy's "begin" event below issues BEGIN, not the sqlite3 module.
        if path is not None:
            configure_file_connection(dbapi_conn, busy_timeout=SQLITE_BUSY_TIMEOUT_MS / 1000)
        else:
            dbapi_conn.isolation_level = None
            dbapi_conn.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_MS}")
        dbapi_conn.execute("PRAGMA foreign_keys = ON")

    @event.listens_for(engine, "begin")
    def _on_begin(conn: sa.Connection) -> None:
        # Reads run with query_only (a write inside db.read() fails), writes take the write
        # lock at BEGIN. Sent on the driver's connection: SQLAlchemy's statement machinery
        # costs more than these statements, and a turn begins four transactions. The pragma
        # is sent only when the pooled connection's mode changes (kept in its ``info``).
        read = conn.get_execution_options().get(_BEGIN_OPTION) == "READ"
        sqlite_begin(conn.connection, read=read)

    return engine


def sqlite_begin(pooled: Any, *, read: bool) -> None:
    """Begin a transaction on a pooled SQLite connection's driver: reads with
    ``query_only`` on (``BEGIN``), writes with it off and the write lock taken at once
    (``BEGIN IMMEDIATE``). The pragma is sent only when the connection's mode changes
    (kept in the pool record's ``info``)."""
    statements = [] if pooled.info.get(_BEGIN_OPTION, False) == read else [_QUERY_ONLY[read]]
    statements.append("BEGIN" if read else "BEGIN IMMEDIATE")
    driver = cast(sqlite3.Connection, pooled.driver_connection)
    for statement in statements:
        try:
            driver.execute(statement)
        except sqlite3.Error as exc:  # as SQLAlchemy would raise it, for ``_errors``
            raise DBAPIError.instance(statement, None, exc, sqlite3.Error) from exc
    pooled.info[_BEGIN_OPTION] = read


def _require_folder(path: Path) -> None:
    """A database file's folder must already exist: a mistyped URL must not grow directories.

    Only the default file's folder, GIFTGENIUS_HOME, is created (by ``Database.from_settings``).
    """
    if not path.parent.is_dir():
        raise ConfigError(speak("storage", "db.no_folder", folder=path.parent, file=path.name))


_CORRUPT = ("file is not a database", "database disk image is malformed")
_DISK_FULL = ("database or disk is full", "no space left on device", "could not extend file")
_TOO_MANY_VALUES = ("too many sql variables", "number of parameters must be between")
"""How SQLite and Postgres (psycopg) word the faults ``Database._fault`` names."""


def _one_line(exc: BaseException) -> str:
    """The driver's own words on one line, each part ending in a stop.

    Drivers write several lines (psycopg: "...refused", then "Is the server running...?"),
    and SQLAlchemy's own text adds the statement; the driver's words alone are what help.
    """
    reason = getattr(exc, "orig", None) or exc
    parts = [line.strip() for line in str(reason).splitlines() if line.strip()]
    said = " ".join(p if p[-1] in ".?!" else p + "." for p in parts) or type(reason).__name__ + "."
    return said


def connection_error(url: str, exc: BaseException) -> StorageError:
    """The StorageError for an unreachable database, naming it (password masked).

    A SQLite file has no server to be down: what fails is opening the file.
    """
    said = _one_line(exc)
    try:
        parsed = make_url(url)
    except ArgumentError:
        parsed = None
    path = _sqlite_file(parsed) if parsed and parsed.get_backend_name() == "sqlite" else None
    if path is not None:
        return StorageError(speak("storage", "db.cannot_open", path=path, said=said))
    return StorageError(speak("storage", "db.unreachable", url=mask_url(url), said=said))


def _stamped_revision(conn: sa.Connection) -> str | None:
    """The one revision alembic stamped in this database; None when there is not exactly one.

    Plain SQL: importing alembic costs a third of a second at every process start, and a
    database at head (every start but the first) needs nothing else from it.
    """
    try:
        rows = conn.exec_driver_sql("SELECT version_num FROM alembic_version").all()
    except DBAPIError:  # no such table: an empty database (alembic then says so)
        conn.rollback()
        return None
    return str(rows[0][0]) if len(rows) == 1 else None


def _head_revision() -> str:
    """The head revision of the bundled migrations, as alembic computes it.

    Kept in the disk cache under the migration files' fingerprint, so only the first start
    after a new migration imports alembic for it.
    """
    from giftgenius.diskcache import cached, fingerprint
    from giftgenius.resources import resource_dir

    folder = resource_dir("migrations")
    files = sorted(folder.rglob("*.py"))

    def head() -> str:
        from giftgenius.storage import migrate

        return migrate.head()

    return cached("migrations-head", fingerprint(["alembic"], files), head)


class Database:
    """One process's handle on the persistent store; cheap to create, connects on first use."""

    def __init__(self, url: str, *, auto_migrate: bool | None = None) -> None:
        self.url = normalize_url(url)
        self.engine = create_db_engine(self.url)
        self.dialect = self.engine.dialect.name
        self.auto_migrate = self.dialect == "sqlite" if auto_migrate is None else auto_migrate
        self._read_engine: Engine
        if self.dialect == "sqlite":
            self._read_engine = self.engine.execution_options(**{_BEGIN_OPTION: "READ"})
        else:  # a pool of its own: its connections are read-only at the server
            self._read_engine = create_db_engine(self.url, read_only=True)
        self._write_engine = self.engine
        self._ready = False
        self._lock = threading.Lock()
        self._turns: TurnRows | None = None

    @classmethod
    def from_settings(cls, settings: Settings) -> Database:
        if settings.database_url is None:  # the default file lives in GIFTGENIUS_HOME: ours
            try:
                settings.home.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StorageError(
                    speak("storage", "db.no_home", home=settings.home, reason=exc)
                ) from exc
        return cls(settings.effective_database_url)

    @property
    def engines(self) -> tuple[Engine, ...]:
        """The engines whose events see every statement this handle sends (for counting):
        on SQLite the read engine is a view of the one engine, on Postgres a pool of its own."""
        return (self.engine,) if self.dialect == "sqlite" else (self.engine, self._read_engine)

    @property
    def read_engine(self) -> Engine:
        """The engine ``read()`` uses (on Postgres, a pool of read-only connections)."""
        return self._read_engine

    @property
    def turns(self) -> TurnRows:
        """A turn's own statements on the driver's connection (``storage/turn_rows.py``)."""
        if self._turns is None:
            from giftgenius.storage.turn_rows import TurnRows

            self._turns = TurnRows(self)
        return self._turns

    def writable(self, pooled: Any) -> None:
        """Turn ``query_only`` off on a pooled SQLite connection of this engine if a read
        left it on (a statement then runs on its own, as its own transaction)."""
        if pooled.info.get(_BEGIN_OPTION, False):
            pooled.driver_connection.execute(_QUERY_ONLY[False])
            pooled.info[_BEGIN_OPTION] = False

    def begin_write(self, pooled: Any) -> None:
        """``BEGIN IMMEDIATE`` on a pooled SQLite connection of this engine, as ``write()``
        begins (``query_only`` off)."""
        sqlite_begin(pooled, read=False)

    def errors(self) -> AbstractContextManager[None]:
        """The driver errors a user can act on, as StorageErrors (``_errors``)."""
        return self._errors()

    @property
    def display_url(self) -> str:
        return mask_url(self.url)

    def prepare(self) -> None:
        """Connect and check the schema (migrating SQLite to head); done once, on first use."""
        if self._ready:
            return
        with self._lock:
            if self._ready:
                return
            with self._errors():
                with self._read_engine.connect() as conn:  # no write lock just to look
                    if _stamped_revision(conn) == _head_revision():
                        self._ready = True  # the usual case, decided without alembic
                        return
                from giftgenius.storage import migrate

                with self._read_engine.connect() as conn:
                    current = migrate.current_on(conn)
                head = migrate.head()
                if current != head:
                    if current is not None and not migrate.is_known(current):
                        raise SchemaOutdated(
                            speak("storage", "schema.unknown", current=current, head=head)
                        )
                    if not self.auto_migrate:
                        at = current or speak("storage", "schema.empty")
                        raise SchemaOutdated(
                            speak("storage", "schema.outdated", current=at, head=head)
                        )
                    migrate.upgrade(self.engine, "head")
            self._ready = True

    def check(self) -> None:
        """Ask the database now, on a new statement: ``StorageError`` unless it answers,
        ``SchemaOutdated`` unless its schema is this code's (the service's readiness)."""
        with self._errors(), self._read_engine.connect() as conn:
            current = _stamped_revision(conn)
        head = _head_revision()
        if current != head:
            at = current or speak("storage", "schema.empty")
            raise SchemaOutdated(speak("storage", "schema.outdated", current=at, head=head))

    @contextmanager
    def read(self) -> Iterator[Repos]:
        """Repositories over a short read-only session; nothing it does is ever committed."""
        self.prepare()
        with self._errors(), Session(self._read_engine, autoflush=False) as session:
            try:
                yield Repos(session)
            finally:
                session.rollback()

    @contextmanager
    def write(self) -> Iterator[Repos]:
        """Repositories in ONE short transaction: committed on exit, rolled back on error."""
        self.prepare()
        with (
            self._errors(),
            Session(self._write_engine, autoflush=False, expire_on_commit=False) as session,
            session.begin(),
        ):
            yield Repos(session)

    def reclaim(self, tables: Sequence[str]) -> bool:
        """Leave no readable copy of rows just deleted from ``tables`` (after ``forget``);
        whether everything could be reclaimed now.

        SQLite zeroes deleted content itself (``secure_delete``); what remains is the
        write-ahead log, emptied here (a reader mid-transaction can hold part of it back:
        False, and the next checkpoint empties it). On Postgres a deleted row stays a dead
        tuple, readable with page tools, until a VACUUM removes it: the tables are
        vacuumed here, outside any transaction. Copies the database keeps for recovery —
        WAL segments until recycled, base backups and replicas — are the operator's
        retention (README, "Production").
        """
        from giftgenius.storage.sqlite_file import truncate_wal

        self.prepare()
        with self._errors():
            if self.dialect == "sqlite":
                raw = self.engine.raw_connection()
                try:
                    return truncate_wal(cast(sqlite3.Connection, raw.driver_connection))
                finally:
                    raw.close()
            known = set(sa.inspect(self.engine).get_table_names())
            names = [name for name in tables if name in known]  # never a name from outside
            with self.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
                if names:
                    conn.exec_driver_sql("VACUUM " + ", ".join(names))
            return True

    def ensure_catalog(
        self, products: Sequence[Product] | None = None, version: str | None = None
    ) -> bool:
        """Seed or refresh the shipped catalog when its files changed; True if it did.

        Products missing from the catalog are deleted from the table. A catalog of the
        deployment's own (imported, or generated for a benchmark: a version with a
        ``source:`` prefix) is never replaced; its index is rebuilt if the analysis changed.
        """
        from giftgenius.catalog.search import index_version
        from giftgenius.storage.catalog_repo import SHIPPED_SOURCE, catalog_source

        if version is None:
            from giftgenius.catalog import catalog_version

            version = catalog_version()
        with self.read() as repos:
            current = repos.catalog.version()
            indexed = repos.catalog.index_version()
        if current != version and catalog_source(current) in (None, SHIPPED_SOURCE):
            if products is None:  # read and validated only when they are to be written
                from giftgenius.catalog import load_products

                products = load_products()
            with self.write() as repos:
                return repos.catalog.sync(products, version)
        if indexed != index_version():
            with self.write() as repos:
                repos.catalog.reindex()
        return False

    def dispose(self) -> None:
        """Close pooled connections (at process end, or before forking)."""
        self.engine.dispose()
        if self.dialect != "sqlite":  # reads have a pool of their own there
            self._read_engine.dispose()

    @contextmanager
    def _errors(self) -> Iterator[None]:
        """Turn driver errors a user can act on into StorageErrors that say what to do."""
        try:
            yield
        except DBAPIError as exc:
            reason = str(exc.orig).lower()
            if "read-only" in reason or "readonly" in reason:
                raise StorageError(
                    "A write was attempted inside db.read(); make it inside db.write()."
                ) from exc
            if "database is locked" in reason:
                seconds = SQLITE_BUSY_TIMEOUT_MS // 1000
                raise StorageError(
                    speak("storage", "db.locked", url=self.display_url, seconds=seconds)
                ) from exc
            fault = self._fault(reason, exc)
            if fault is not None:
                raise fault from exc
            if exc.connection_invalidated or isinstance(exc, (OperationalError, InterfaceError)):
                raise connection_error(self.url, exc) from exc
            raise

    def _fault(self, reason: str, exc: DBAPIError) -> StorageError | None:
        """A database that answered but cannot do the work: say which fault, not "cannot
        reach", whose advice (is the server running?) sends the person the wrong way.

        ``reason`` is the driver's message, lowercased.
        """
        said = _one_line(exc).rstrip(".")
        if any(sign in reason for sign in _CORRUPT):
            where = _sqlite_file(self.engine.url) or self.display_url
            return StorageError(speak("storage", "db.corrupt", path=where, said=said))
        if any(sign in reason for sign in _DISK_FULL):
            return StorageError(speak("storage", "db.disk_full", url=self.display_url, said=said))
        if any(sign in reason for sign in _TOO_MANY_VALUES):
            return StorageError(
                speak("storage", "db.too_many_values", url=self.display_url, said=said)
            )
        return None
