"""ORM tables of the persistent layer; nothing outside ``giftgenius.storage`` imports them.

Alembic owns the schema (``migrations/versions``); these classes mirror it for queries, and a
test compares the two so they cannot drift apart.
"""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

JSONType = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


class UTCDateTime(sa.TypeDecorator[datetime]):
    """Timezone-aware in Python, UTC in the database (SQLite keeps no offset, so we add it)."""

    impl = sa.DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("Refusing a naive datetime: pass a timezone-aware (UTC) value.")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


NAMING = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    """Named constraints (``NAMING``) so SQLite batch migrations can address them later."""

    metadata = sa.MetaData(naming_convention=NAMING)
    type_annotation_map = {datetime: UTCDateTime(), dict[str, Any]: JSONType, list[Any]: JSONType}


def _fk(target: str) -> sa.ForeignKey:
    return sa.ForeignKey(target, ondelete="CASCADE")


class UserRow(Base):
    __tablename__ = "users"

    id: Mapped[str] = mapped_column(sa.String(64), primary_key=True)
    created_at: Mapped[datetime]


class RunRow(Base):
    __tablename__ = "runs"
    __table_args__ = (
        sa.Index(
            "uq_runs_one_active_per_user",
            "user_id",
            unique=True,
            postgresql_where=sa.text("status = 'active'"),
            sqlite_where=sa.text("status = 'active'"),
        ),
        sa.Index("ix_runs_user_updated", "user_id", "updated_at"),
    )

    id: Mapped[str] = mapped_column(sa.String(32), primary_key=True)
    user_id: Mapped[str] = mapped_column(sa.String(64), _fk("users.id"))
    status: Mapped[str] = mapped_column(sa.String(16))
    step: Mapped[str] = mapped_column(sa.String(32))
    session_version: Mapped[int]
    created_at: Mapped[datetime]
    updated_at: Mapped[datetime]
    # The agent and prompt of the last committed turn (``giftgenius/0.1.0+prompt.<hash>``).
    agent_version: Mapped[str | None] = mapped_column(sa.String(64), nullable=True)


class TranscriptRow(Base):
    __tablename__ = "transcript"
    __table_args__ = (sa.UniqueConstraint("run_id", "seq", name="uq_transcript_run_seq"),)

    id: Mapped[int] = mapped_column(sa.Integer, primary_key=True, autoincrement=True)
    run_id: Mapped[str] = mapped_column(sa.String(32), _fk("runs.id"))
    seq: Mapped[int]
    turn_id: Mapped[str] = mapped_column(sa.String(64))
    role: Mapped[str] = mapped_column(sa.String(16))
    content: Mapped[str | None] = mapped_column(sa.Text)
    tool_calls: Mapped[list[Any]]
    tool_call_id: Mapped[str | None] = mapped_column(sa.String(128))
    created_at: Mapped[datetime]


class RecipientProfileRow(Base):
    __tablename__ = "recipient_profiles"
    __table_args__ = (sa.UniqueConstraint("user_id", "label", name="uq_profiles_user_label"),)

    id: Mapped[str] = mapped_column(sa.String(32), primary_key=True)
    user_id: Mapped[str] = mapped_column(sa.String(64), _fk("users.id"))
    label: Mapped[str] = mapped_column(sa.String(40))
    profile: Mapped[dict[str, Any]]
    updated_at: Mapped[datetime]


class ProductRow(Base):
    __tablename__ = "products"

    id: Mapped[str] = mapped_column(sa.String(64), primary_key=True)
    title: Mapped[str] = mapped_column(sa.String(200))
    description: Mapped[str] = mapped_column(sa.Text)
    price: Mapped[Decimal] = mapped_column(sa.Numeric(10, 2))
    currency: Mapped[str] = mapped_column(sa.String(3))
    tags: Mapped[list[Any]]
    recipients: Mapped[list[Any]]
    min_age: Mapped[int | None]
    max_age: Mapped[int | None]
    ships_to: Mapped[list[Any]]
    delivery_days: Mapped[int]
    in_stock: Mapped[bool]
    updated_at: Mapped[datetime]
    # Written with the product (migration 0002), for filtering in SQL (storage/catalog_search.py).
    price_base: Mapped[float] = mapped_column(sa.Float, index=True)
    young_only: Mapped[bool]
    children_only: Mapped[bool]


class ProductTermRow(Base):
    """The term index: one row per (field, term) of a product (``catalog.search.index_terms``)."""

    __tablename__ = "product_terms"
    __table_args__ = (sa.Index("ix_product_terms_product_id", "product_id"),)

    field: Mapped[str] = mapped_column(sa.String(8), primary_key=True)
    term: Mapped[str] = mapped_column(sa.String(200), primary_key=True)
    product_id: Mapped[str] = mapped_column(sa.String(64), _fk("products.id"), primary_key=True)
    position: Mapped[int]


# Product ids compare by code point on both backends (Postgres' locale collation does not),
# so an index on them gives ``rank_key``'s last tie-break.
CODE_POINT_ID = sa.String(64).with_variant(sa.String(64, collation="C"), "postgresql")


class ProductPostingRow(Base):
    """The ranking index (``storage/postings.py``): one row per product and tag, word or
    audience it is found by, keyed in rank order, with the columns every filter reads."""

    __tablename__ = "product_postings"
    __table_args__ = (
        sa.Index("ix_product_postings_product_id", "product_id"),
        {"sqlite_with_rowid": False},
    )

    kind: Mapped[str] = mapped_column(sa.String(4), primary_key=True)
    term: Mapped[str] = mapped_column(sa.String(200), primary_key=True)
    position: Mapped[int] = mapped_column(primary_key=True)
    text_miss: Mapped[int] = mapped_column(sa.SmallInteger, primary_key=True)
    product_id: Mapped[str] = mapped_column(CODE_POINT_ID, _fk("products.id"), primary_key=True)
    price_base: Mapped[float] = mapped_column(sa.Float)
    in_stock: Mapped[bool]
    delivery_days: Mapped[int]
    min_age: Mapped[int | None]
    max_age: Mapped[int | None]
    young_only: Mapped[bool]
    children_only: Mapped[bool]
    audience: Mapped[int]
    ships: Mapped[str] = mapped_column(sa.Text)


class CatalogMetaRow(Base):
    __tablename__ = "catalog_meta"

    key: Mapped[str] = mapped_column(sa.String(64), primary_key=True)
    value: Mapped[str] = mapped_column(sa.Text)


class OrderDraftRow(Base):
    __tablename__ = "order_drafts"

    id: Mapped[str] = mapped_column(sa.String(32), primary_key=True)
    run_id: Mapped[str] = mapped_column(sa.String(32), _fk("runs.id"), unique=True)  # one per run
    user_id: Mapped[str] = mapped_column(sa.String(64), index=True)
    gift_id: Mapped[str] = mapped_column(sa.String(64))
    price: Mapped[Decimal] = mapped_column(sa.Numeric(10, 2))
    currency: Mapped[str] = mapped_column(sa.String(3))
    created_at: Mapped[datetime]


class GiftHistoryRow(Base):
    """A gift confirmed for a recipient (migration 0006_gift_history): one per run, written
    with its order draft; only ``forget`` deletes it."""

    __tablename__ = "gift_history"
    __table_args__ = (sa.Index("ix_gift_history_user_confirmed", "user_id", "confirmed_at"),)

    id: Mapped[str] = mapped_column(sa.String(32), primary_key=True)
    user_id: Mapped[str] = mapped_column(sa.String(64), _fk("users.id"))
    run_id: Mapped[str] = mapped_column(sa.String(32), _fk("runs.id"), unique=True)
    recipient: Mapped[str] = mapped_column(sa.String(60))
    recipient_name: Mapped[str | None] = mapped_column(sa.String(60))
    gift_id: Mapped[str] = mapped_column(sa.String(64))
    title: Mapped[str] = mapped_column(sa.String(200))
    price: Mapped[Decimal] = mapped_column(sa.Numeric(10, 2))
    currency: Mapped[str] = mapped_column(sa.String(3))
    confirmed_at: Mapped[datetime]


class MemoryRow(Base):
    """A long-term note (migrations 0007_memories, 0008_memories_by_recipient), ranked by
    ``storage/memory_db.py``."""

    __tablename__ = "memories"
    __table_args__ = (
        sa.Index("ix_memories_user_model_seq", "user_id", "model", "seq"),
        sa.Index(
            "ix_memories_user_model_recipient_seq", "user_id", "model", "recipient_key", "seq"
        ),
        sa.Index("ix_memories_created_at", "created_at"),
    )

    seq: Mapped[int] = mapped_column(sa.Integer, primary_key=True, autoincrement=True)
    id: Mapped[str] = mapped_column(sa.String(32), unique=True)
    user_id: Mapped[str] = mapped_column(sa.String(64))
    run_id: Mapped[str] = mapped_column(sa.String(32))
    recipient: Mapped[str | None] = mapped_column(sa.String(60))
    recipient_key: Mapped[str | None] = mapped_column(sa.String(120))
    model: Mapped[str] = mapped_column(sa.String(100))
    created_at: Mapped[datetime]
    text: Mapped[str] = mapped_column(sa.Text)
    embedding: Mapped[bytes] = mapped_column(sa.LargeBinary)


class MemoryTallyRow(Base):
    """Per user and embedding space: notes kept, the last seq written, notes ever deleted
    (migration 0009_memory_tallies). Written in the same transaction as the notes, so one
    primary-key lookup tells a process whether its copy of the vectors is still true
    (``storage/memory_matrix.py``)."""

    __tablename__ = "memory_tallies"

    user_id: Mapped[str] = mapped_column(sa.String(64), primary_key=True)
    model: Mapped[str] = mapped_column(sa.String(100), primary_key=True)
    notes: Mapped[int] = mapped_column(sa.Integer)
    last_seq: Mapped[int] = mapped_column(sa.Integer)
    removed: Mapped[int] = mapped_column(sa.Integer)


class CheckpointRow(Base):
    __tablename__ = "checkpoints"
    __table_args__ = (
        sa.Index("ix_checkpoints_run_created", "run_id", "created_at"),
        sa.Index("ix_checkpoints_user_created", "user_id", "created_at"),
    )

    id: Mapped[str] = mapped_column(sa.String(32), primary_key=True)
    run_id: Mapped[str] = mapped_column(sa.String(32), _fk("runs.id"))
    user_id: Mapped[str] = mapped_column(sa.String(64))
    step: Mapped[str] = mapped_column(sa.String(32))
    session_version: Mapped[int]
    agent_version: Mapped[str] = mapped_column(sa.String(64))
    format_version: Mapped[int]
    created_at: Mapped[datetime]
    payload: Mapped[dict[str, Any]]


class ApiKeyRow(Base):
    """A key of the HTTP service (migration 0005): its SHA-256, never the key itself."""

    __tablename__ = "api_keys"
    __table_args__ = (sa.UniqueConstraint("key_hash", name="uq_api_keys_key_hash"),)

    id: Mapped[str] = mapped_column(sa.String(32), primary_key=True)
    user_id: Mapped[str] = mapped_column(sa.String(64), _fk("users.id"), index=True)
    key_hash: Mapped[str] = mapped_column(sa.String(64))
    created_at: Mapped[datetime]
    revoked_at: Mapped[datetime | None]
