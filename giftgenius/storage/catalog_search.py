"""Catalog search and filters in SQL: the database answers ``catalog.search.RankQuery``.

Matching runs on the term index (``product_terms``: one row per field and term of a
product, keyed by (field, term), written by ``catalog.search.index_terms``): a query's tags
and words select the matching rows through that primary key, one GROUP BY gives each product
the same features ``catalog.search.rank_key`` computes in Python (the interest's strength,
tag hits, text hits), the audience fit and age rules come from the row (``recipients``,
two flags), and every filter of ``FilterSpec`` (stock, budget in the base currency, country,
deadline, dislikes) is a WHERE clause — all before the LIMIT, so a top-k is never short. Only
ids are ranked; product rows are read for the k that win. The in-memory ``ProductList`` is
the reference, and ``tests/catalog/test_catalog_in_db.py`` shows both give the same answers.

Budgets are prefiltered with a cent of slack on the base-currency price and then checked
exactly with ``catalog.search.check`` (the one definition of a rejection), so rounding can
never drop a product that passes.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from sqlalchemy.orm import Session

from giftgenius.catalog.materials import material_of
from giftgenius.catalog.search import (
    ADULT_AGE,
    DESC_TAG,
    DESC_WORD,
    GROWN_UP,
    MATERIAL,
    MENTION_TAGS,
    SHIPS_TO,
    TAG,
    TITLE_TAG,
    TITLE_WORD,
    YOUNG,
    FilterSpec,
    RankQuery,
    check,
    dislike_terms,
)
from giftgenius.storage.catalog_repo import CatalogRepo

if TYPE_CHECKING:
    from giftgenius.catalog import Product, Rates

_TEXT_TAGS = f"('{TITLE_TAG}', '{DESC_TAG}')"
_TEXT_WORDS = f"('{TITLE_WORD}', '{DESC_WORD}')"
_RANKED_FIELDS = f"('{TAG}', '{TITLE_TAG}', '{DESC_TAG}', '{TITLE_WORD}', '{DESC_WORD}')"
_SLACK = 0.01  # a cent, in the budget's currency: rounding never drops a passing product


class _Sql:
    """One statement being written: its SQL text and its parameters (lists expand)."""

    def __init__(self) -> None:
        self.params: dict[str, Any] = {}
        self._lists: list[str] = []

    def bind(self, value: Any, *, prefix: str = "p") -> str:
        name = f"{prefix}{len(self.params)}"
        self.params[name] = sorted(value) if isinstance(value, (set, frozenset)) else value
        if isinstance(value, (list, tuple, set, frozenset)):
            self._lists.append(name)
        return f":{name}"

    def distinct_terms(self, fields: str, terms: Collection[str]) -> str:
        """How many of ``terms`` the product has in ``fields`` ("0" for no terms)."""
        if not terms:
            return "0"
        return (
            f"COUNT(DISTINCT CASE WHEN t.field IN {fields} AND t.term IN {self.bind(terms)} "
            "THEN t.term END)"
        )

    def has(self, field: str, terms: Collection[str]) -> str:
        return (
            "EXISTS (SELECT 1 FROM product_terms a WHERE a.product_id = p.id "
            f"AND a.field = '{field}' AND a.term IN {self.bind(terms)})"
        )

    def statement(self, sql: str) -> sa.TextClause:
        return sa.text(sql).bindparams(*(sa.bindparam(n, expanding=True) for n in self._lists))


def _fit(sql: _Sql, kind: str | None) -> str:
    """``rank_key``'s recipient fit: 2 made for the kind, 1 for anyone, 0 not for it.

    Read from the row's own ``recipients`` JSON text (``["mother", "anyone"]`` on both
    backends): a per-row test on the row already read, where a lookup in ``product_terms``
    per matched product cost more than the whole match at 100,000 products.
    """
    if kind is None:
        return "0"
    if kind == "anyone":
        return "CASE WHEN p.young_only THEN 0 ELSE 1 END"
    escaped = kind.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    pattern = sql.bind('%"' + escaped + '"%')
    made_for = f"CAST(p.recipients AS TEXT) LIKE {pattern} ESCAPE '\\'"
    return (
        f"CASE WHEN {made_for} THEN 2 "
        "WHEN CAST(p.recipients AS TEXT) LIKE '%\"anyone\"%' THEN 1 ELSE 0 END"
    )


def _age_allows(sql: _Sql, age: int | None, kind: str | None) -> list[str]:
    """``catalog.search._age_allows`` as WHERE clauses."""
    if age is not None:
        at = sql.bind(age)
        clauses = [f"(p.min_age IS NULL OR p.min_age <= {at})"]
        clauses.append(f"(p.max_age IS NULL OR p.max_age >= {at})")
        return clauses + (["NOT p.children_only"] if age >= ADULT_AGE else [])
    if kind in YOUNG:
        return [f"COALESCE(p.min_age, 0) < {ADULT_AGE}"]
    if kind in GROWN_UP:
        return ["NOT p.children_only"]
    return []


def _passes(sql: _Sql, spec: FilterSpec, rates: Rates) -> list[str]:
    """Every filter of ``check`` as WHERE clauses (the budget with a cent of slack)."""
    rate = rates.in_base(1.0, spec.currency)  # base units per unit of the budget currency
    clauses = [
        "p.in_stock",
        f"p.price_base <= {sql.bind((round(spec.budget_max, 2) + _SLACK) * rate)}",
    ]
    if spec.budget_min is not None:
        low = (round(spec.budget_min, 2) - _SLACK) * rate
        clauses.append(f"p.price_base >= {sql.bind(low)}")
    if spec.country is not None:
        clauses.append(sql.has(SHIPS_TO, [spec.country.upper(), "*"]))
    if spec.deadline is not None:
        clauses.append(f"p.delivery_days <= {sql.bind((spec.deadline - spec.today).days)}")
    for dislike in spec.dislikes:
        if not dislike.strip():
            continue
        material = material_of(dislike)
        if material is not None:
            clauses.append(
                "NOT EXISTS (SELECT 1 FROM product_terms d WHERE d.product_id = p.id AND "
                f"d.field = '{MATERIAL}' AND d.term = {sql.bind(material)})"
            )
        terms = dislike_terms(dislike)
        if terms.tags:
            clauses.append(
                "NOT EXISTS (SELECT 1 FROM product_terms d WHERE d.product_id = p.id AND "
                f"d.field IN ('{TAG}', '{TITLE_TAG}') AND d.term IN {sql.bind(terms.tags)})"
            )
        if terms.tastes:
            clauses.append(
                "NOT EXISTS (SELECT 1 FROM product_terms d WHERE d.product_id = p.id AND "
                f"d.field = '{DESC_TAG}' AND d.term IN {sql.bind(terms.tastes)})"
            )
        if terms.words:
            clauses.append(
                "(SELECT COUNT(*) FROM product_terms d WHERE d.product_id = p.id AND "
                f"d.field = '{TITLE_WORD}' AND d.term IN {sql.bind(terms.words)}) "
                f"< {len(terms.words)}"
            )
    return clauses


class DbCatalog:
    """A ``catalog.search.CatalogSource`` over the products table of one session.

    Statements are written as SQL text (the same on both backends, bound parameters for
    every value): building them from expression objects cost more than running them.
    """

    def __init__(self, session: Session, rates: Rates) -> None:
        self._s = session
        self._rates = rates
        self._repo = CatalogRepo(session)
        self._by_id = ' COLLATE "C"' if session.get_bind().dialect.name == "postgresql" else ""

    def _ranked(
        self,
        query: RankQuery,
        spec: FilterSpec | None,
        exclude: Collection[str],
        limit: int,
        offset: int = 0,
    ) -> list[str]:
        """Ids of the matches in rank order, ``limit`` of them from ``offset``."""
        if limit <= 0 or (query.must_answer and not (query.answer_tags or query.answer_words)):
            return []
        sql = _Sql()
        terms = query.tags | query.words | query.answer_tags | query.answer_words
        where: list[str] = []
        order: list[str] = []
        source = "products p"
        if terms:
            tag_hits = sql.distinct_terms(f"('{TAG}')", query.tags)
            text_hits = (
                f"{sql.distinct_terms(_TEXT_TAGS, query.tags)} + "
                f"{sql.distinct_terms(_TEXT_WORDS, query.words)}"
            )
            having = [f"{tag_hits} + {text_hits} > 0"] if query.tags or query.words else []
            strength = "0"
            if query.must_answer and query.answer_tags:
                strength = (
                    f"MIN(CASE WHEN t.field = '{TAG}' AND t.term IN "
                    f"{sql.bind(query.answer_tags)} THEN t.position END)"
                )
                having.append(f"{strength} IS NOT NULL")
            elif query.must_answer:
                wanted = len(query.answer_words)
                in_text = sql.distinct_terms(_TEXT_WORDS, query.answer_words)
                in_title = sql.distinct_terms(f"('{TITLE_WORD}')", query.answer_words)
                strength = f"CASE WHEN {in_title} = {wanted} THEN 0 ELSE 1 END"
                having.append(f"{in_text} = {wanted}")
            source = (
                f"products p JOIN (SELECT t.product_id, {tag_hits} AS tag_hits, "
                f"{text_hits} AS text_hits, {strength} AS strength FROM product_terms t "
                f"WHERE t.field IN {_RANKED_FIELDS} AND t.term IN {sql.bind(terms)} "
                f"GROUP BY t.product_id HAVING {' AND '.join(having) or '1 = 1'}) f "
                "ON f.product_id = p.id"
            )
            order = ["f.strength"] if query.by_strength else []
            order += ["f.tag_hits DESC", "f.text_hits DESC"]
        fit = _fit(sql, query.kind)
        if not terms and query.kind is not None:
            where.append(f"{fit} > 0")
        where += _age_allows(sql, query.age, query.kind)
        if spec is not None:
            where += _passes(sql, spec, self._rates)
        if exclude:
            where.append(f"p.id NOT IN {sql.bind(list(exclude))}")
        order += [] if fit == "0" else [f"{fit} DESC"]  # a bare 0 would mean "column 0"
        order.append(f"p.id{self._by_id}")
        text = (
            f"SELECT p.id FROM {source} WHERE {' AND '.join(where) or '1 = 1'} "
            f"ORDER BY {', '.join(order)} LIMIT {sql.bind(limit)} OFFSET {sql.bind(offset)}"
        )
        return list(self._s.scalars(sql.statement(text), sql.params))

    def ranked_ids(
        self, query: RankQuery, *, limit: int, exclude: Collection[str] = ()
    ) -> list[str]:
        return self._ranked(query, None, exclude, limit)

    def ranked(
        self,
        query: RankQuery,
        *,
        limit: int,
        spec: FilterSpec | None = None,
        exclude: Collection[str] = (),
    ) -> list[Product]:
        """The first ``limit`` matches passing ``spec``, each checked exactly by ``check``."""
        found: list[Product] = []
        offset, page = 0, limit  # SQL filters exactly but for a cent: the first page passes
        while len(found) < limit:
            ids = self._ranked(query, spec, exclude, page, offset)
            products = self._repo.by_ids(ids)
            for gift_id in ids:
                product = products.get(gift_id)
                if product is not None and (spec is None or not check(product, spec, self._rates)):
                    found.append(product)
                    if len(found) == limit:
                        break
            if len(ids) < page:
                break
            offset += page
        return found

    def products(self, ids: Sequence[str]) -> dict[str, Product]:
        return self._repo.by_ids(ids)

    def any_match(self, query: RankQuery) -> bool:
        return bool(self.ranked_ids(query, limit=1))

    def stocked(self, tags: Collection[str]) -> set[str]:
        if not tags:
            return set()
        sql = _Sql()
        text = f"SELECT DISTINCT t.term FROM product_terms t WHERE t.field = '{TAG}' AND "
        text += f"t.term IN {sql.bind(set(tags))}"
        return set(self._s.scalars(sql.statement(text), sql.params))

    def mentioned(self, words: frozenset[str], *, limit: int = 20) -> list[str]:
        if not words:
            return []
        sql = _Sql()
        # Ties in the order first met: products by id, then their tags in order.
        first_met = f"MIN((t.product_id || ' ' || CAST(t.position AS VARCHAR)){self._by_id})"
        text = (
            "SELECT t.term FROM product_terms t WHERE t.product_id IN (SELECT w.product_id "
            f"FROM product_terms w WHERE w.field IN {_TEXT_WORDS} AND w.term IN "
            f"{sql.bind(words)} GROUP BY w.product_id HAVING COUNT(DISTINCT w.term) = "
            f"{len(words)}) AND t.field = '{TAG}' AND t.position < {MENTION_TAGS} "
            f"GROUP BY t.term ORDER BY COUNT(*) DESC, {first_met} LIMIT {sql.bind(limit)}"
        )
        return list(self._s.scalars(sql.statement(text), sql.params))
