"""Catalog search in the database: the term index, base-currency prices, audience flags.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01

Adds what the catalog is searched and filtered by in SQL (``storage/catalog_search.py``):
``products.price_base`` (the price in ``catalog.models.BASE_CURRENCY``), ``young_only`` and
``children_only`` (the age rules), and ``product_terms``, one row per (field, term) a
product is found by — canonical tags with their rank, tags and lemmas of title and
description, shipping countries — computed by the app's own analysis
(``catalog.search.index_terms``). Existing rows are backfilled here.

Frozen: later changes go in new revisions, never here.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("products") as batch:
        batch.add_column(sa.Column("price_base", sa.Float(), nullable=False, server_default="0"))
        batch.add_column(
            sa.Column("young_only", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch.add_column(
            sa.Column("children_only", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    op.create_index(op.f("ix_products_price_base"), "products", ["price_base"])
    op.create_table(
        "product_terms",
        sa.Column("field", sa.String(8), nullable=False),
        sa.Column("term", sa.String(200), nullable=False),
        sa.Column("product_id", sa.String(64), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("field", "term", "product_id", name=op.f("pk_product_terms")),
        sa.ForeignKeyConstraint(
            ["product_id"],
            ["products.id"],
            ondelete="CASCADE",
            name=op.f("fk_product_terms_product_id_products"),
        ),
    )
    op.create_index("ix_product_terms_product_id", "product_terms", ["product_id"])
    _backfill()


def _backfill() -> None:
    """Index the rows already there with the app's analysis (the same as on every write)."""
    from giftgenius.catalog import load_rates
    from giftgenius.catalog.models import Product
    from giftgenius.catalog.search import children_only, index_terms, young_only

    products = sa.table(
        "products",
        *(sa.column(name) for name in ("id", "title", "description", "price", "currency")),
        *(sa.column(name) for name in ("min_age", "max_age", "delivery_days", "in_stock")),
        sa.column("tags", sa.JSON()),
        sa.column("recipients", sa.JSON()),
        sa.column("ships_to", sa.JSON()),
        sa.column("price_base"),
        sa.column("young_only"),
        sa.column("children_only"),
    )
    terms = sa.table(
        "product_terms",
        sa.column("field"),
        sa.column("term"),
        sa.column("product_id"),
        sa.column("position"),
    )
    conn = op.get_bind()
    rates = load_rates()
    fields = ("id", "title", "description", "price", "currency", "tags", "recipients")
    fields += ("min_age", "max_age", "ships_to", "delivery_days", "in_stock")
    rows = conn.execute(sa.select(*(products.c[f] for f in fields))).mappings().all()
    for row in rows:
        product = Product.model_validate({**row, "price": float(row["price"])})
        conn.execute(
            products.update()
            .where(products.c.id == product.id)
            .values(
                price_base=rates.in_base(product.price, product.currency),
                young_only=young_only(product),
                children_only=children_only(product),
            )
        )
        conn.execute(
            terms.insert(),
            [
                {"field": f, "term": t, "product_id": product.id, "position": p}
                for f, t, p in index_terms(product)
            ],
        )


def downgrade() -> None:
    op.drop_index("ix_product_terms_product_id", table_name="product_terms")
    op.drop_table("product_terms")
    op.drop_index(op.f("ix_products_price_base"), table_name="products")
    with op.batch_alter_table("products") as batch:
        batch.drop_column("children_only")
        batch.drop_column("young_only")
        batch.drop_column("price_base")
