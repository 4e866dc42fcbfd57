"""Catalog search and filters in SQL: the database answers ``catalog.search.RankQuery``.

Matching runs on the term index (``product_terms``: one row per field and term of a
product, keyed by (field, term), written by ``catalog.search.index_terms``): a query's tags
and words select the matching rows through that primary key, one GROUP BY gives each product
the same features ``catalog.search.rank_key`` computes in Python (the interest's strength,
tag hits, text hits), the audience fit and age rules come from ``product_terms`` rows and two
flags, and every filter of ``FilterSpec`` (stock, budget in the base currency, country,
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

from giftgenius.catalog.search import (
    ADULT_AGE,
    AUDIENCE,
    DESC_TAG,
    DESC_WORD,
    GROWN_UP,
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
from giftgenius.storage.tables import ProductRow, ProductTermRow
from giftgenius.storage.upsert import by_code_point

if TYPE_CHECKING:
    from giftgenius.catalog import Product, Rates

P = ProductRow.__table__
T = ProductTermRow.__table__
_TEXT_TAGS = (TITLE_TAG, DESC_TAG)
_TEXT_WORDS = (TITLE_WORD, DESC_WORD)
_RANKED_FIELDS = (TAG, *_TEXT_TAGS, *_TEXT_WORDS)
_SLACK = 0.01  # a cent, in the budget's currency: rounding never drops a passing product


def _distinct_terms(fields: Sequence[str], terms: Collection[str]) -> Any:
    """How many of ``terms`` the product has in ``fields`` (0 when ``terms`` is empty)."""
    if not terms:
        return sa.literal(0)
    hit = sa.and_(T.c.field.in_(fields), T.c.term.in_(sorted(terms)))
    return sa.func.count(sa.distinct(sa.case((hit, T.c.term))))


def _has(field: str, terms: Collection[str]) -> sa.Exists:
    return sa.exists().where(
        T.c.product_id == P.c.id, T.c.field == field, T.c.term.in_(sorted(terms))
    )


def _fit(kind: str | None) -> Any:
    """``rank_key``'s recipient fit: 2 made for the kind, 1 for anyone, 0 not for it."""
    if kind is None:
        return sa.literal(0)
    if kind == "anyone":
        return sa.case((P.c.young_only, 0), else_=1)
    return sa.case((_has(AUDIENCE, [kind]), 2), (_has(AUDIENCE, ["anyone"]), 1), else_=0)


def _age_allows(age: int | None, kind: str | None) -> sa.ColumnElement[bool] | None:
    """``catalog.search._age_allows`` as a WHERE clause (None: no condition)."""
    if age is not None:
        clause = sa.and_(
            sa.or_(P.c.min_age.is_(None), P.c.min_age <= age),
            sa.or_(P.c.max_age.is_(None), P.c.max_age >= age),
        )
        return sa.and_(clause, sa.not_(P.c.children_only)) if age >= ADULT_AGE else clause
    if kind in YOUNG:
        return sa.func.coalesce(P.c.min_age, 0) < ADULT_AGE
    if kind in GROWN_UP:
        return sa.not_(P.c.children_only)
    return None


def _passes(spec: FilterSpec, rates: Rates) -> list[sa.ColumnElement[bool]]:
    """Every filter of ``check`` as WHERE clauses (the budget with a cent of slack)."""
    rate = rates.in_base(1.0, spec.currency)  # base units per unit of the budget currency
    clauses: list[sa.ColumnElement[bool]] = [P.c.in_stock.is_(True)]
    clauses.append(P.c.price_base <= (round(spec.budget_max, 2) + _SLACK) * rate)
    if spec.budget_min is not None:
        clauses.append(P.c.price_base >= (round(spec.budget_min, 2) - _SLACK) * rate)
    if spec.country is not None:
        clauses.append(_has(SHIPS_TO, [spec.country.upper(), "*"]))
    if spec.deadline is not None:
        clauses.append(P.c.delivery_days <= (spec.deadline - spec.today).days)
    for dislike in spec.dislikes:
        if not dislike.strip():
            continue
        tags, words = dislike_terms(dislike)
        if tags:
            clauses.append(
                sa.not_(
                    sa.exists().where(
                        T.c.product_id == P.c.id,
                        T.c.field.in_((TAG, TITLE_TAG)),
                        T.c.term.in_(sorted(tags)),
                    )
                )
            )
        if words:
            in_title = (
                sa.select(sa.func.count())
                .where(
                    T.c.product_id == P.c.id,
                    T.c.field == TITLE_WORD,
                    T.c.term.in_(sorted(words)),
                )
                .scalar_subquery()
            )
            clauses.append(in_title < len(words))
    return clauses


class DbCatalog:
    """A ``catalog.search.CatalogSource`` over the products table of one session."""

    def __init__(self, session: Session, rates: Rates) -> None:
        self._s = session
        self._rates = rates
        self._repo = CatalogRepo(session)

    def _ranking(
        self,
        query: RankQuery,
        spec: FilterSpec | None,
        exclude: Collection[str],
    ) -> tuple[sa.Select[Any], list[Any]] | None:
        """FROM/WHERE of the ranked lookup and its ORDER BY; None when nothing can match."""
        terms = query.tags | query.words | query.answer_tags | query.answer_words
        if query.must_answer and not (query.answer_tags or query.answer_words):
            return None
        order: list[Any] = []
        if terms:
            tag_hits = _distinct_terms([TAG], query.tags)
            text_hits = _distinct_terms(_TEXT_TAGS, query.tags) + _distinct_terms(
                _TEXT_WORDS, query.words
            )
            columns = [T.c.product_id, tag_hits.label("tag_hits"), text_hits.label("text_hits")]
            having: list[Any] = []
            if query.tags or query.words:
                having.append(tag_hits + text_hits > 0)
            strength: Any = sa.literal(0)
            if query.must_answer and query.answer_tags:
                hit = sa.and_(T.c.field == TAG, T.c.term.in_(sorted(query.answer_tags)))
                strength = sa.func.min(sa.case((hit, T.c.position)))
                having.append(strength.is_not(None))
            elif query.must_answer:
                wanted = len(query.answer_words)
                in_text = _distinct_terms(_TEXT_WORDS, query.answer_words)
                in_title = _distinct_terms([TITLE_WORD], query.answer_words)
                strength = sa.case((in_title == wanted, 0), else_=1)
                having.append(in_text == wanted)
            features = (
                sa.select(*columns, strength.label("strength"))
                .where(T.c.field.in_(_RANKED_FIELDS), T.c.term.in_(sorted(terms)))
                .group_by(T.c.product_id)
                .having(sa.and_(sa.true(), *having))
                .subquery("features")
            )
            base = sa.select(P.c.id).join_from(P, features, features.c.product_id == P.c.id)
            if query.by_strength:
                order.append(features.c.strength)
            order += [features.c.tag_hits.desc(), features.c.text_hits.desc()]
        else:
            base = sa.select(P.c.id)
        fit = _fit(query.kind)
        if not terms and query.kind is not None:
            base = base.where(fit > 0)
        age = _age_allows(query.age, query.kind)
        if age is not None:
            base = base.where(age)
        if spec is not None:
            base = base.where(*_passes(spec, self._rates))
        if exclude:
            base = base.where(P.c.id.not_in(sorted(exclude)))
        order += [fit.desc(), by_code_point(self._s, P.c.id)]
        return base, order

    def ranked_ids(
        self, query: RankQuery, *, limit: int, exclude: Collection[str] = ()
    ) -> list[str]:
        built = self._ranking(query, None, exclude)
        if built is None or limit <= 0:
            return []
        base, order = built
        return list(self._s.scalars(base.order_by(*order).limit(limit)))

    def ranked(
        self,
        query: RankQuery,
        *,
        limit: int,
        spec: FilterSpec | None = None,
        exclude: Collection[str] = (),
    ) -> list[Product]:
        """The first ``limit`` matches passing ``spec``, each checked exactly by ``check``."""
        built = self._ranking(query, spec, exclude)
        if built is None or limit <= 0:
            return []
        base, order = built
        found: list[Product] = []
        offset, page = 0, limit  # SQL filters exactly but for a cent: the first page passes
        while len(found) < limit:
            ids = list(self._s.scalars(base.order_by(*order).offset(offset).limit(page)))
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
        stmt = sa.select(T.c.term).where(T.c.field == TAG, T.c.term.in_(sorted(tags))).distinct()
        return set(self._s.scalars(stmt))

    def mentioned(self, words: frozenset[str], *, limit: int = 20) -> list[str]:
        if not words:
            return []
        holders = (
            sa.select(T.c.product_id)
            .where(T.c.field.in_(_TEXT_WORDS), T.c.term.in_(sorted(words)))
            .group_by(T.c.product_id)
            .having(sa.func.count(sa.distinct(T.c.term)) == len(words))
            .subquery("holders")
        )
        first_met = T.c.product_id + " " + sa.cast(T.c.position, sa.String)
        stmt = (
            sa.select(T.c.term)
            .join_from(T, holders, holders.c.product_id == T.c.product_id)
            .where(T.c.field == TAG, T.c.position < MENTION_TAGS)
            .group_by(T.c.term)
            .order_by(sa.func.count().desc(), sa.func.min(by_code_point(self._s, first_met)))
            .limit(limit)
        )
        return list(self._s.scalars(stmt))
