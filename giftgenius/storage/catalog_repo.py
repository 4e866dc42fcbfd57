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
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, cast

import sqlalchemy as sa
from pydantic import ValidationError
from sqlalchemy.orm import Session

from giftgenius.domain import utcnow
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
        from giftgenius.catalog.search import children_only, index_terms, young_only

        rows = [
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
            for p in products
        ]
        if not rows:
            return
        stmt = insert_for(self._s, ProductRow)
        stmt = stmt.on_conflict_do_update(
            index_elements=["id"], set_={k: getattr(stmt.excluded, k) for k in rows[0] if k != "id"}
        )
        self._s.execute(stmt, rows)
        ids = [p.id for p in products]
        for row_class in (ProductTermRow, ProductPostingRow):
            self._s.execute(
                sa.delete(row_class)
                .where(row_class.product_id.in_(ids))
                .execution_options(synchronize_session=False)
            )
        terms: list[dict[str, Any]] = []
        postings: list[dict[str, Any]] = []
        for p in products:
            found = index_terms(p)
            terms += (
                {"field": f, "term": t, "product_id": p.id, "position": i} for f, t, i in found
            )
            postings += posting_rows(p, found, rates)
        for table, rows_of in ((_TERMS, terms), (_POSTINGS, postings)):  # Core executemany
            for start in range(0, len(rows_of), 5 * _BATCH):
                self._s.execute(table.insert(), rows_of[start : start + 5 * _BATCH])

    def _meta(self, key: str) -> str | None:
        row = self._s.get(CatalogMetaRow, key, populate_existing=True)
        return None if row is None else row.value

    def _set_meta(self, key: str, value: str) -> None:
        meta = insert_for(self._s, CatalogMetaRow).values(key=key, value=value)
        self._s.execute(meta.on_conflict_do_update(index_elements=["key"], set_={"value": value}))
