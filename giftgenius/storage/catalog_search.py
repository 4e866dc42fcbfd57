"""Catalog search and filters in SQL: the database answers ``catalog.search.RankQuery``.

Ranking reads the postings (``storage/postings.py``: one row per product and tag or word,
keyed in rank order, carrying the product's filter columns). A query of one term — every
known interest — reads its posting list in key order (strength, text hit, id), sorts the
audience fit within each run of equal keys, and stops at the LIMIT: the work is the first
runs of the list, not every product that matches. A query of several terms sums the same
features (``catalog.search.rank_key``: strength, tag hits, text hits, fit) in one GROUP BY
over its postings. Every filter of ``FilterSpec`` (stock, budget in the base currency,
country, deadline, age and audience on the row; dislikes through the term index
``product_terms``) is a WHERE clause — all before the LIMIT, so a top-k is never short.
Only ids are ranked; product rows are read for the k that win. The in-memory
``ProductList`` is the reference, and ``tests/catalog/test_catalog_in_db.py`` shows both
give the same answers.

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
    DESC_TAG,
    DESC_WORD,
    GROWN_UP,
    MATERIAL,
    MENTION_TAGS,
    PET_TAG,
    TAG,
    TITLE_TAG,
    TITLE_WORD,
    YOUNG,
    AgeRange,
    FilterSpec,
    RankQuery,
    check,
    dislike_terms,
    grown_up_range,
    presumed_young,
    young_range,
)
from giftgenius.language.materials import material_of
from giftgenius.storage.catalog_repo import CatalogRepo
from giftgenius.storage.postings import AUDIENCE_BITS, KIND_ALL, KIND_TAG, KIND_WORD, NOT_OWN

if TYPE_CHECKING:
    from giftgenius.catalog import Product, Rates

_TEXT_WORDS = f"('{TITLE_WORD}', '{DESC_WORD}')"
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

    def statement(self, sql: str) -> sa.TextClause:
        return sa.text(sql).bindparams(*(sa.bindparam(n, expanding=True) for n in self._lists))


def _fit(kind: str | None) -> str:
    """``rank_key``'s recipient fit on a posting row: 2 made for the kind, 1 for anyone, 0 not
    for it — read from the row's audience bits (literal constants: no user text)."""
    if kind is None:
        return "0"
    if kind == "anyone":
        return "CASE WHEN s.young_only THEN 0 ELSE 1 END"
    anyone = AUDIENCE_BITS["anyone"]
    made_for = AUDIENCE_BITS.get(kind)
    first = "" if made_for is None else f"WHEN (s.audience & {made_for}) <> 0 THEN 2 "
    return f"CASE {first}WHEN (s.audience & {anyone}) <> 0 THEN 1 ELSE 0 END"


def _age_allows(
    sql: _Sql, age: int | None, kind: str | None, ages: AgeRange | None = None
) -> list[str]:
    """``catalog.search._age_allows`` as WHERE clauses on a posting row."""
    clauses = _not_for_pets() if presumed_young(age, kind, ages) else []
    if age is not None:
        at = sql.bind(age)
        clauses.append(f"(s.min_age IS NULL OR s.min_age <= {at})")
        clauses.append(f"(s.max_age IS NULL OR s.max_age >= {at})")
        return clauses + (["NOT s.children_only"] if age >= ADULT_AGE else [])
    if ages is not None and (grown_up_range(ages) or young_range(ages)):
        clauses.append(f"(s.min_age IS NULL OR s.min_age <= {sql.bind(ages[1])})")
        clauses.append(f"(s.max_age IS NULL OR s.max_age >= {sql.bind(ages[0])})")
        clauses += ["NOT s.children_only"] if grown_up_range(ages) else []
    if kind in YOUNG:
        return [*clauses, f"COALESCE(s.min_age, 0) < {ADULT_AGE}"]
    if kind in GROWN_UP:
        return [*clauses, "NOT s.children_only"]
    return clauses


def _not_for_pets() -> list[str]:
    """``catalog.search.for_pets`` left out: tagged for pets and offered to no child or teen
    (the audience bits; the tag through the term index)."""
    young = sum(AUDIENCE_BITS[kind] for kind in sorted(YOUNG))
    return [
        f"NOT ((s.audience & {young}) = 0 AND EXISTS (SELECT 1 FROM product_terms d "
        f"WHERE d.product_id = s.product_id AND d.field = '{TAG}' AND d.term = '{PET_TAG}'))"
    ]


def _passes(sql: _Sql, spec: FilterSpec, rates: Rates) -> list[str]:
    """Every filter of ``check`` as WHERE clauses on a posting row (the budget with a cent
    of slack); dislikes look the product up in the term index."""
    rate = rates.in_base(1.0, spec.currency)  # base units per unit of the budget currency
    clauses = [
        "s.in_stock",
        f"s.price_base <= {sql.bind((round(spec.budget_max, 2) + _SLACK) * rate)}",
    ]
    if spec.budget_min is not None:
        low = (round(spec.budget_min, 2) - _SLACK) * rate
        clauses.append(f"s.price_base >= {sql.bind(low)}")
    if spec.country is not None:
        country = sql.bind(f"% {spec.country.upper()} %")
        clauses.append(f"(s.ships LIKE '% * %' OR s.ships LIKE {country})")
    if spec.deadline is not None:
        clauses.append(f"s.delivery_days <= {sql.bind((spec.deadline - spec.today).days)}")
    for dislike in spec.dislikes:
        if not dislike.strip():
            continue
        material = material_of(dislike)
        if material is not None:
            clauses.append(
                "NOT EXISTS (SELECT 1 FROM product_terms d WHERE d.product_id = s.product_id "
                f"AND d.field = '{MATERIAL}' AND d.term = {sql.bind(material)})"
            )
        terms = dislike_terms(dislike)
        if terms.tags:
            clauses.append(
                "NOT EXISTS (SELECT 1 FROM product_terms d WHERE d.product_id = s.product_id AND "
                f"d.field IN ('{TAG}', '{TITLE_TAG}') AND d.term IN {sql.bind(terms.tags)})"
            )
        if terms.tastes:
            clauses.append(
                "NOT EXISTS (SELECT 1 FROM product_terms d WHERE d.product_id = s.product_id AND "
                f"d.field = '{DESC_TAG}' AND d.term IN {sql.bind(terms.tastes)})"
            )
        if terms.words:
            clauses.append(
                "(SELECT COUNT(*) FROM product_terms d WHERE d.product_id = s.product_id AND "
                f"d.field = '{TITLE_WORD}' AND d.term IN {sql.bind(terms.words)}) "
                f"< {len(terms.words)}"
            )
    return clauses


def _one_term(query: RankQuery) -> tuple[str, str] | None:
    """The (kind, term) of a query that names exactly one term and matches by it, else None.

    Every known interest is one tag, so this is the usual lookup: its posting list is
    already in rank order (but for the fit), and no GROUP BY is needed.
    """
    named = {(KIND_TAG, t) for t in query.tags | query.answer_tags}
    named |= {(KIND_WORD, w) for w in query.words | query.answer_words}
    if len(named) != 1:
        return None
    kind, term = next(iter(named))
    matched_by = query.tags if kind == KIND_TAG else query.words
    return (kind, term) if term in matched_by else None


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
        fit = _fit(query.kind)
        where = _age_allows(sql, query.age, query.kind, query.ages)
        if spec is not None:
            where += _passes(sql, spec, self._rates)
        if exclude:
            where.append(f"s.product_id NOT IN {sql.bind(list(exclude))}")
        one = _one_term(query)
        if one is not None:
            source, order = self._single(sql, query, one, fit, where)
        elif query.tags or query.words or query.answer_tags or query.answer_words:
            source, order = self._grouped(sql, query, fit, where)
        else:  # no words: every product, by fit alone
            where += [f"s.kind = '{KIND_ALL}'"] + ([f"{fit} > 0"] if query.kind else [])
            source = f"product_postings s WHERE {' AND '.join(where)}"
            order = [] if fit == "0" else [f"{fit} DESC"]  # a bare 0 would mean "column 0"
            order.append("s.product_id")
        text = (
            f"SELECT s.product_id FROM {source} ORDER BY {', '.join(order)} "
            f"LIMIT {sql.bind(limit)} OFFSET {sql.bind(offset)}"
        )
        return list(self._s.scalars(sql.statement(text), sql.params))

    @staticmethod
    def _single(
        sql: _Sql, query: RankQuery, one: tuple[str, str], fit: str, where: list[str]
    ) -> tuple[str, list[str]]:
        """One term: its posting list, read in key order (strength, text hit, id) with the
        fit sorted within each run of equal keys — the LIMIT stops the scan."""
        kind, term = one
        where = [f"s.kind = '{kind}'", f"s.term = {sql.bind(term)}", *where]
        order: list[str] = []
        if query.must_answer and kind == KIND_TAG:
            where.append(f"s.position < {NOT_OWN}")  # answers: one of its own tags
        elif kind == KIND_TAG:  # tag hits: its own tag, or only named in its text
            order.append(f"CASE WHEN s.position < {NOT_OWN} THEN 0 ELSE 1 END")
        if query.must_answer and query.by_strength:
            order.insert(0, "s.position")
        order.append("s.text_miss")
        order += [] if fit == "0" else [f"{fit} DESC"]
        order.append("s.product_id")
        return f"product_postings s WHERE {' AND '.join(where)}", order

    @staticmethod
    def _grouped(sql: _Sql, query: RankQuery, fit: str, where: list[str]) -> tuple[str, list[str]]:
        """Several terms: ``rank_key``'s features summed over the product's postings."""
        tags, words = query.tags | query.answer_tags, query.words | query.answer_words
        own = f"s.position < {NOT_OWN}"

        def count(kind: str, terms: Collection[str], extra: str = "") -> str:
            if not terms:
                return "0"
            test = f"s.kind = '{kind}' AND s.term IN {sql.bind(terms)}{extra}"
            return f"SUM(CASE WHEN {test} THEN 1 ELSE 0 END)"

        matched = []
        if tags:
            matched.append(f"(s.kind = '{KIND_TAG}' AND s.term IN {sql.bind(tags)})")
        if words:
            matched.append(f"(s.kind = '{KIND_WORD}' AND s.term IN {sql.bind(words)})")
        tag_hits = count(KIND_TAG, query.tags, f" AND {own}")
        text_hits = (
            f"{count(KIND_TAG, query.tags, ' AND s.text_miss = 0')} + "
            f"{count(KIND_WORD, query.words)}"
        )
        having = [f"{tag_hits} + {text_hits} > 0"] if query.tags or query.words else []
        if not (query.tags or query.words) and query.kind is not None:
            having.append(f"MAX({fit}) > 0")
        strength = "0"
        if query.must_answer and query.answer_tags:
            terms = sql.bind(query.answer_tags)
            strength = (
                f"MIN(CASE WHEN s.kind = '{KIND_TAG}' AND s.term IN {terms} AND {own} "
                "THEN s.position END)"
            )
            having.append(f"{strength} IS NOT NULL")
        elif query.must_answer:
            wanted = len(query.answer_words)
            in_title = count(KIND_WORD, query.answer_words, " AND s.position = 0")
            strength = f"CASE WHEN {in_title} = {wanted} THEN 0 ELSE 1 END"
            having.append(f"{count(KIND_WORD, query.answer_words)} = {wanted}")
        group = (
            f"(SELECT s.product_id, {tag_hits} AS tag_hits, {text_hits} AS text_hits, "
            f"{strength} AS strength, MAX({fit}) AS fit FROM product_postings s "
            f"WHERE ({' OR '.join(matched)}){''.join(' AND ' + w for w in where)} "
            f"GROUP BY s.product_id HAVING {' AND '.join(having) or '1 = 1'}) s"
        )
        order = ["s.strength"] if query.by_strength else []
        order += ["s.tag_hits DESC", "s.text_hits DESC", "s.fit DESC", "s.product_id"]
        return group, order

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
