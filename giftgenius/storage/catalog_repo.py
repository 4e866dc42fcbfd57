"""The products table: writing products with their search index, and reading them by id.

Every write goes through ``_write``, which stores a product with what the database searches
and filters it by (``catalog.search.index_terms``, the price in the base currency, the age
flags), so the index can never disagree with the row. Searching lives in
``catalog_search.py``; nothing here reads the whole table except the one-off ``reindex``.

The catalog's version (``catalog_meta``) says where it came from: a bare sha256 is the
shipped catalog; ``import:…`` (``giftgenius catalog import``) or ``synthetic:N:SEED``
(benchmarks) are the deployment's own, and ``Database.ensure_catalog`` leaves them alone.

Rows are read back through ``Product``, the validation every write went through. A row it
refuses (one stored before a rule was added, or edited by hand) is skipped and logged
(``unreadable_product``), never raised: one bad row must not fail every search that reaches
it, for every user. ``get`` answers None for it, as for an unknown id.

A catalog file of any size is imported by ``import_catalog`` in bounded memory and short
write transactions, into staging tables swapped in at the end (see its docstring), so chats
go on during the import and every read sees one whole catalog, the old or the new.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import islice
from typing import TYPE_CHECKING, Any, cast

import sqlalchemy as sa
from pydantic import ValidationError
from sqlalchemy.orm import Session

from giftgenius.domain import utcnow
from giftgenius.errors import StorageError
from giftgenius.messages import speak
from giftgenius.storage.postings import posting_rows
from giftgenius.storage.tables import (
    CatalogMetaRow,
    ProductPostingRow,
    ProductRow,
    ProductTermRow,
)
from giftgenius.storage.upsert import by_code_point, insert_for, money

if TYPE_CHECKING:
    from giftgenius.catalog import Product, Rates
    from giftgenius.storage.catalog_search import DbCatalog
    from giftgenius.storage.db import Database

log = logging.getLogger(__name__)
Progress = Callable[[int], object]
CATALOG_VERSION_KEY = "catalog_version"
INDEX_VERSION_KEY = "index_version"
SHIPPED_SOURCE = "shipped"
_BATCH = 500
_TERMS = cast(sa.Table, ProductTermRow.__table__)  # Core: a plain executemany, no ORM work
_POSTINGS = cast(sa.Table, ProductPostingRow.__table__)


def catalog_source(version: str | None) -> str | None:
    """Where a catalog version came from: ``shipped`` for a bare digest, else its prefix."""
    if version is None:
        return None
    return version.split(":", 1)[0] if ":" in version else SHIPPED_SOURCE


def product_of(row: ProductRow) -> Product:
    from giftgenius.catalog import Product

    return Product(
        id=row.id,
        title=row.title,
        description=row.description,
        price=float(row.price),
        currency=row.currency,
        tags=list(row.tags),
        recipients=list(row.recipients),
        min_age=row.min_age,
        max_age=row.max_age,
        ships_to=list(row.ships_to),
        delivery_days=row.delivery_days,
        in_stock=row.in_stock,
    )


def readable(rows: Iterable[ProductRow]) -> Iterator[Product]:
    """The products of these rows, each row ``Product`` refuses skipped and logged."""
    for row in rows:
        try:
            yield product_of(row)
        except ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(map(str, e['loc'])) or 'row'}: {e['msg']}" for e in exc.errors()
            )
            log.warning(
                "product %s in the database cannot be read (%s); it is left out until it is "
                "imported again",
                row.id,
                problems,
                extra={"event": "unreadable_product", "gift_id": row.id},
            )


def _rates() -> Rates:
    from giftgenius.catalog import load_rates

    return load_rates()


class CatalogRepo:
    def __init__(self, session: Session) -> None:
        self._s = session

    def get(self, gift_id: str) -> Product | None:
        row = self._s.get(ProductRow, gift_id, populate_existing=True)
        return None if row is None else next(readable([row]), None)

    def by_ids(self, ids: Sequence[str]) -> dict[str, Product]:
        """The products with these ids (absent ones left out): one query, len(ids) rows."""
        wanted = sorted(set(ids))
        found: dict[str, Product] = {}
        for start in range(0, len(wanted), _BATCH):
            rows = self._s.scalars(
                sa.select(ProductRow)
                .where(ProductRow.id.in_(wanted[start : start + _BATCH]))
                .execution_options(populate_existing=True)
            )
            found.update((product.id, product) for product in readable(rows))
        return found

    def search(self, rates: Rates | None = None) -> DbCatalog:
        """The ``catalog.search.CatalogSource`` answered by SQL in this session."""
        from giftgenius.storage.catalog_search import DbCatalog

        return DbCatalog(self._s, rates or _rates())

    def count(self) -> int:
        return self._s.scalar(sa.select(sa.func.count()).select_from(ProductRow)) or 0

    def version(self) -> str | None:
        """The catalog version the table was last written from."""
        return self._meta(CATALOG_VERSION_KEY)

    def index_version(self) -> str | None:
        """The analysis (``catalog.search.index_version``) the term index was built with."""
        return self._meta(INDEX_VERSION_KEY)

    def sync(
        self, products: Sequence[Product], version: str, progress: Progress | None = None
    ) -> bool:
        """Make the table equal ``products`` (upsert; delete removed ones); False if current."""
        if self.version() == version:
            return False
        self.upsert(products, version, progress)
        keep = {p.id for p in products}
        existing = set(self._s.scalars(sa.select(ProductRow.id)))
        removed = sorted(existing - keep)
        for start in range(0, len(removed), _BATCH):
            self._s.execute(
                sa.delete(ProductRow)
                .where(ProductRow.id.in_(removed[start : start + _BATCH]))
                .execution_options(synchronize_session=False)
            )
        return True

    def upsert(
        self, products: Sequence[Product], version: str, progress: Progress | None = None
    ) -> int:
        """Insert or update these products (by id) with their index; record ``version``.

        ``progress`` is told how many products each written batch held.
        """
        from giftgenius.catalog.search import index_version

        rates, now = _rates(), utcnow()
        ordered = sorted(products, key=lambda p: p.id)
        for start in range(0, len(ordered), _BATCH):
            batch = ordered[start : start + _BATCH]
            self._write(batch, rates, now)
            if progress is not None:
                progress(len(batch))
        self._set_meta(CATALOG_VERSION_KEY, version)
        self._set_meta(INDEX_VERSION_KEY, index_version())
        self._analyze()
        return len(ordered)

    def reindex(self) -> int:
        """Rebuild every product's index with today's analysis (after the vocabulary changed).

        Reads the table in id-ordered pages, never all at once; run once, not per turn.
        """
        from giftgenius.catalog.search import index_version

        rates, now, done = _rates(), utcnow(), 0
        for page in self.pages():
            self._write(page, rates, now)
            done += len(page)
        self._set_meta(INDEX_VERSION_KEY, index_version())
        self._analyze()
        return done

    def _analyze(self) -> None:
        """Refresh the planner's statistics: without them SQLite reads a tag's whole index
        instead of the few products that hold a word (seconds instead of milliseconds)."""
        if self._s.get_bind().dialect.name == "sqlite":
            self._s.execute(sa.text("ANALYZE products"))
            self._s.execute(sa.text("ANALYZE product_terms"))
            self._s.execute(sa.text("ANALYZE product_postings"))
        else:
            self._s.execute(sa.text("ANALYZE products, product_terms, product_postings"))

    def pages(self) -> Iterator[list[Product]]:
        """Every product, by id, a page at a time (for re-indexing and export; never a turn)."""
        after = ""
        order = by_code_point(self._s, ProductRow.id)
        while True:
            rows = self._s.scalars(
                sa.select(ProductRow).where(order > after).order_by(order).limit(_BATCH)
            ).all()
            if not rows:
                return
            yield list(readable(rows))
            after = rows[-1].id

    def _write(self, products: Sequence[Product], rates: Rates, now: Any) -> None:
        rows = _rows_for(products, rates, now)
        if not rows.products:
            return
        stmt = insert_for(self._s, ProductRow)
        stmt = stmt.on_conflict_do_update(
            index_elements=["id"],
            set_={k: getattr(stmt.excluded, k) for k in rows.products[0] if k != "id"},
        )
        self._s.execute(stmt, rows.products)
        ids = [p.id for p in products]
        for row_class in (ProductTermRow, ProductPostingRow):
            self._s.execute(
                sa.delete(row_class)
                .where(row_class.product_id.in_(ids))
                .execution_options(synchronize_session=False)
            )
        rows.insert_index(self._s, _TERMS, _POSTINGS)

    def _meta(self, key: str) -> str | None:
        row = self._s.get(CatalogMetaRow, key, populate_existing=True)
        return None if row is None else row.value

    def _set_meta(self, key: str, value: str) -> None:
        meta = insert_for(self._s, CatalogMetaRow).values(key=key, value=value)
        self._s.execute(meta.on_conflict_do_update(index_elements=["key"], set_={"value": value}))


class _Rows:
    """The rows of some products in the three catalog tables, from one analysis."""

    def __init__(self) -> None:
        self.products: list[dict[str, Any]] = []
        self.terms: list[dict[str, Any]] = []
        self.postings: list[dict[str, Any]] = []

    def insert_index(self, session: Session, terms: sa.Table, postings: sa.Table) -> None:
        """The term and posting rows, inserted a slice at a time (Core executemany)."""
        for table, rows in ((terms, self.terms), (postings, self.postings)):
            for start in range(0, len(rows), 5 * _BATCH):
                session.execute(table.insert(), rows[start : start + 5 * _BATCH])


def _rows_for(products: Iterable[Product], rates: Rates, now: Any) -> _Rows:
    from giftgenius.catalog.search import children_only, index_terms, young_only

    rows = _Rows()
    for p in products:
        rows.products.append(
            {
                "id": p.id,
                "title": p.title,
                "description": p.description,
                "price": money(p.price),
                "currency": p.currency,
                "tags": list(p.tags),
                "recipients": list(p.recipients),
                "min_age": p.min_age,
                "max_age": p.max_age,
                "ships_to": list(p.ships_to),
                "delivery_days": p.delivery_days,
                "in_stock": p.in_stock,
                "updated_at": now,
                "price_base": rates.in_base(p.price, p.currency),
                "young_only": young_only(p),
                "children_only": children_only(p),
            }
        )
        found = index_terms(p)
        rows.terms += (
            {"field": f, "term": t, "product_id": p.id, "position": i} for f, t, i in found
        )
        rows.postings += posting_rows(p, found, rates)
    return rows


# -- importing a catalog file of any size ---------------------------------------------------

IMPORT_BATCH = 1_000  # products per write transaction of an import: well under a second
_STAGE, _OLD = "import_", "old_"  # table prefixes: the catalog being imported, the one replaced
_IMPORT_KEY = "import_in_progress"  # catalog_meta: the token of the import that owns the stage
_LIVE = (cast(sa.Table, ProductRow.__table__), _TERMS, _POSTINGS)


def import_catalog(
    db: Database,
    products: Iterable[Product],
    version: str,
    *,
    replace: bool,
    progress: Progress | None = None,
) -> bool:
    """Make the catalog ``products`` (``replace``) or add them to it, by id; False if the
    catalog already is ``version``. Memory and every write transaction stay small whatever
    the number of products, and every read sees the old catalog or the new one, whole.

    A write transaction holds SQLite's one write lock, so a long one makes every chat wait
    (and give up after the busy timeout). The products are therefore written
    ``IMPORT_BATCH`` at a time (their index rows computed before the transaction opens)
    into staging tables no search reads: ``import_products`` and its term and posting
    tables, the live tables' copies. Adding (no ``replace``) then copies the live products
    the file does not name, a page at a time. One short transaction swaps the tables by
    renaming them and records the version, so the new catalog appears at once. On SQLite
    the replaced tables are then emptied a batch at a time and dropped (dropping a big
    table frees every page in one transaction); Postgres drops them in the swap.

    Nothing is visible before the swap, so a failure (or Ctrl-C) at any point before it
    leaves the catalog as it was; the staging tables are dropped, and a later import drops
    any a killed one left. The stage belongs to one import (a token in ``catalog_meta``,
    checked by every write): an import started meanwhile takes it over, and the first one
    then stops with a StorageError rather than mix the two files.
    """
    with db.read() as repos:
        if repos.catalog.version() == version:
            return False
    token = uuid.uuid4().hex
    with db.write() as repos:
        stage = _Stage.create(repos.session, token)
    try:
        rates, now, items = _rates(), utcnow(), iter(products)
        while batch := list(islice(items, IMPORT_BATCH)):
            rows = _rows_for(batch, rates, now)
            with db.write() as repos:
                stage.fill(repos.session, token, rows)
            if progress is not None:
                progress(len(batch))
        if not replace:
            after: str | None = ""
            while after is not None:
                with db.write() as repos:
                    after = stage.keep_live(repos.session, token, after)
        with db.write() as repos:
            stage.swap(repos.session, token, version)
    except BaseException:
        try:
            with db.write() as repos:
                stage.drop(repos.session, token)
        except Exception:  # the first failure is the one to report
            log.warning("the staging tables of a failed import were left", exc_info=True)
        raise
    while True:  # after the swap: the replaced catalog goes, a batch at a time
        with db.write() as repos:
            if stage.clear_old(repos.session):
                return True


class _Stage:
    """The staging copies of the catalog tables, named for this database (see
    ``import_catalog``).

    Postgres renames their constraints and indexes to the live names in the swap. SQLite
    cannot rename an index, and index names are unique in a database: a staging index
    takes the live name when it is free (the table it was on has been dropped) and the
    ``import_`` name otherwise, so on SQLite the live catalog's indexes alternate between
    the two names from one import to the next. Constraint names need not be unique there
    and are always the live ones.
    """

    def __init__(self, session: Session) -> None:
        self.dialect = session.get_bind().dialect.name
        existing = set(sa.inspect(session.connection()).get_table_names())
        taken = {
            ix["name"]
            for table in existing
            for ix in sa.inspect(session.connection()).get_indexes(table)
            if ix["name"]
        }
        metadata = sa.MetaData()
        constraint = (lambda name: _STAGE + name) if self.dialect == "postgresql" else str
        self.index_names: dict[str, str] = {}
        self.tables: dict[str, sa.Table] = {}
        for live in _LIVE:
            indexes = []
            for ix in live.indexes:
                name = str(ix.name)
                staged = _STAGE + name if self.dialect == "postgresql" or name in taken else name
                self.index_names[staged] = name
                indexes.append(sa.Index(staged, *(c.name for c in ix.columns)))
            keys = [
                sa.ForeignKeyConstraint(
                    [c.parent.name for c in fk.elements],
                    [f"{_STAGE}products.{c.column.name}" for c in fk.elements],
                    ondelete="CASCADE",
                    name=constraint(str(fk.name)),
                )
                for fk in live.foreign_key_constraints
            ]
            self.tables[live.name] = sa.Table(
                _STAGE + live.name,
                metadata,
                *(sa.Column(c.name, c.type, nullable=c.nullable) for c in live.columns),
                sa.PrimaryKeyConstraint(
                    *(c.name for c in live.primary_key.columns),
                    name=constraint(str(live.primary_key.name)),
                ),
                *keys,
                *indexes,
                **live.kwargs,
            )

    @classmethod
    def create(cls, session: Session, token: str) -> _Stage:
        """Drop what an earlier import left, create the staging tables, take the stage."""
        for prefix in (_OLD, _STAGE):
            for live in reversed(_LIVE):
                session.execute(sa.text(f"DROP TABLE IF EXISTS {prefix}{live.name}"))
        stage = cls(session)
        for table in stage.tables.values():
            table.create(session.connection())
        _set_meta(session, _IMPORT_KEY, token)
        return stage

    def _own(self, session: Session, token: str) -> None:
        if CatalogRepo(session)._meta(_IMPORT_KEY) != token:
            raise StorageError(speak("storage", "import.overtaken"))

    def fill(self, session: Session, token: str, rows: _Rows) -> None:
        """One batch of the file's products, with their index, into the staging tables."""
        self._own(session, token)
        if rows.products:
            session.execute(self.tables["products"].insert(), rows.products)
        rows.insert_index(session, self.tables["product_terms"], self.tables["product_postings"])

    def keep_live(self, session: Session, token: str, after: str) -> str | None:
        """Copy the next page of live products (and their index) the file does not name;
        the last id looked at, or None when every live product was."""
        self._own(session, token)
        order = by_code_point(session, ProductRow.id)
        page = list(
            session.scalars(
                sa.select(ProductRow.id).where(order > after).order_by(order).limit(IMPORT_BATCH)
            )
        )
        if not page:
            return None
        staged = self.tables["products"]
        named = set(session.scalars(sa.select(staged.c.id).where(staged.c.id.in_(page))))
        kept = [gift_id for gift_id in page if gift_id not in named]
        if kept:
            for live in _LIVE:
                key = live.c.id if live.name == "products" else live.c.product_id
                columns = [c.name for c in live.columns]
                session.execute(
                    self.tables[live.name]
                    .insert()
                    .from_select(columns, sa.select(*live.c).where(key.in_(kept)))
                )
        return page[-1]

    def swap(self, session: Session, token: str, version: str) -> None:
        """Put the staging tables in the live ones' place and record the version: one
        short transaction, so a read sees the whole old catalog or the whole new one."""
        from giftgenius.catalog.search import index_version

        self._own(session, token)
        run = session.execute
        if self.dialect == "postgresql":
            run(sa.text(f"ANALYZE {', '.join(t.name for t in self.tables.values())}"))
            run(sa.text(f"DROP TABLE {', '.join(t.name for t in reversed(_LIVE))}"))
        else:
            for live in _LIVE:  # children follow a renamed parent: they keep to the old one
                run(sa.text(f"ALTER TABLE {live.name} RENAME TO {_OLD}{live.name}"))
        for live in _LIVE:
            run(sa.text(f"ALTER TABLE {_STAGE}{live.name} RENAME TO {live.name}"))
        if self.dialect == "postgresql":
            for staged, name in self.index_names.items():
                run(sa.text(f"ALTER INDEX {staged} RENAME TO {name}"))
            for live in _LIVE:
                names = [str(live.primary_key.name)]
                names += [str(fk.name) for fk in live.foreign_key_constraints]
                for name in names:
                    rename = f"RENAME CONSTRAINT {_STAGE}{name} TO {name}"
                    run(sa.text(f"ALTER TABLE {live.name} {rename}"))
        else:  # an estimate from a sample of each index: a full ANALYZE reads every row
            run(sa.text("PRAGMA analysis_limit = 1000"))
            for live in _LIVE:
                run(sa.text(f"ANALYZE {live.name}"))
            run(sa.text("PRAGMA analysis_limit = 0"))
        _set_meta(session, CATALOG_VERSION_KEY, version)
        _set_meta(session, INDEX_VERSION_KEY, index_version())
        session.execute(sa.delete(CatalogMetaRow).where(CatalogMetaRow.key == _IMPORT_KEY))

    def drop(self, session: Session, token: str) -> None:
        """Drop the staging tables of a failed import, if they are still this one's."""
        if CatalogRepo(session)._meta(_IMPORT_KEY) != token:
            return
        for live in reversed(_LIVE):
            session.execute(sa.text(f"DROP TABLE IF EXISTS {_STAGE}{live.name}"))
        session.execute(sa.delete(CatalogMetaRow).where(CatalogMetaRow.key == _IMPORT_KEY))

    def clear_old(self, session: Session) -> bool:
        """Delete a batch of the replaced catalog (SQLite); True once it is gone."""
        if self.dialect == "postgresql":
            return True
        old = f"{_OLD}products"
        if not sa.inspect(session.connection()).has_table(old):
            return True
        deleted = session.execute(
            sa.text(f"DELETE FROM {old} WHERE id IN (SELECT id FROM {old} LIMIT {IMPORT_BATCH})")
        )
        if deleted.rowcount:  # type: ignore[attr-defined]
            return False
        for live in reversed(_LIVE):
            session.execute(sa.text(f"DROP TABLE {_OLD}{live.name}"))
        return True


def _set_meta(session: Session, key: str, value: str) -> None:
    CatalogRepo(session)._set_meta(key, value)
