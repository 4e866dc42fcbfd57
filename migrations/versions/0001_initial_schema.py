"""Initial schema: users, runs, transcript, profiles, catalog, order drafts, checkpoints.

Revision ID: 0001
Revises:
Create Date: 2026-11-29

Frozen: later changes go in new revisions, never here. Written out by hand (not from the
ORM classes) so that changing ``tables.py`` cannot silently change what this revision does.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def _ts() -> sa.DateTime:
    return sa.DateTime(timezone=True)


def _fk(column: str, target: str, table: str) -> sa.ForeignKeyConstraint:
    ref_table = target.split(".")[0]
    return sa.ForeignKeyConstraint(
        [column], [target], ondelete="CASCADE", name=op.f(f"fk_{table}_{column}_{ref_table}")
    )


def upgrade() -> None:
    op.create_table(
        "users",
        sa.Column("id", sa.String(64), nullable=False),
        sa.Column("created_at", _ts(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_users")),
    )
    op.create_table(
        "runs",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("user_id", sa.String(64), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("step", sa.String(32), nullable=False),
        sa.Column("session_version", sa.Integer(), nullable=False),
        sa.Column("created_at", _ts(), nullable=False),
        sa.Column("updated_at", _ts(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_runs")),
        _fk("user_id", "users.id", "runs"),
    )
    op.create_index(
        "uq_runs_one_active_per_user",
        "runs",
        ["user_id"],
        unique=True,
        postgresql_where=sa.text("status = 'active'"),
        sqlite_where=sa.text("status = 'active'"),
    )
    op.create_index("ix_runs_user_updated", "runs", ["user_id", "updated_at"])
    op.create_table(
        "transcript",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("run_id", sa.String(32), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("turn_id", sa.String(64), nullable=False),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("content", sa.Text(), nullable=True),
        sa.Column("tool_calls", JSON, nullable=False),
        sa.Column("tool_call_id", sa.String(128), nullable=True),
        sa.Column("created_at", _ts(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_transcript")),
        _fk("run_id", "runs.id", "transcript"),
        sa.UniqueConstraint("run_id", "seq", name="uq_transcript_run_seq"),
    )
    op.create_table(
        "recipient_profiles",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("user_id", sa.String(64), nullable=False),
        sa.Column("label", sa.String(40), nullable=False),
        sa.Column("profile", JSON, nullable=False),
        sa.Column("updated_at", _ts(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_recipient_profiles")),
        _fk("user_id", "users.id", "recipient_profiles"),
        sa.UniqueConstraint("user_id", "label", name="uq_profiles_user_label"),
    )
    op.create_table(
        "products",
        sa.Column("id", sa.String(64), nullable=False),
        sa.Column("title", sa.String(200), nullable=False),
        sa.Column("description", sa.Text(), nullable=False),
        sa.Column("price", sa.Numeric(10, 2), nullable=False),
        sa.Column("currency", sa.String(3), nullable=False),
        sa.Column("tags", JSON, nullable=False),
        sa.Column("recipients", JSON, nullable=False),
        sa.Column("min_age", sa.Integer(), nullable=True),
        sa.Column("max_age", sa.Integer(), nullable=True),
        sa.Column("ships_to", JSON, nullable=False),
        sa.Column("delivery_days", sa.Integer(), nullable=False),
        sa.Column("in_stock", sa.Boolean(), nullable=False),
        sa.Column("updated_at", _ts(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_products")),
    )
    op.create_table(
        "catalog_meta",
        sa.Column("key", sa.String(64), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_catalog_meta")),
    )
    op.create_table(
        "order_drafts",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("run_id", sa.String(32), nullable=False),
        sa.Column("user_id", sa.String(64), nullable=False),
        sa.Column("gift_id", sa.String(64), nullable=False),
        sa.Column("price", sa.Numeric(10, 2), nullable=False),
        sa.Column("currency", sa.String(3), nullable=False),
        sa.Column("created_at", _ts(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_order_drafts")),
        _fk("run_id", "runs.id", "order_drafts"),
        sa.UniqueConstraint("run_id", name=op.f("uq_order_drafts_run_id")),
    )
    op.create_index(op.f("ix_order_drafts_user_id"), "order_drafts", ["user_id"])
    op.create_table(
        "checkpoints",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("run_id", sa.String(32), nullable=False),
        sa.Column("user_id", sa.String(64), nullable=False),
        sa.Column("step", sa.String(32), nullable=False),
        sa.Column("session_version", sa.Integer(), nullable=False),
        sa.Column("agent_version", sa.String(64), nullable=False),
        sa.Column("format_version", sa.Integer(), nullable=False),
        sa.Column("created_at", _ts(), nullable=False),
        sa.Column("payload", JSON, nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_checkpoints")),
        _fk("run_id", "runs.id", "checkpoints"),
    )
    op.create_index("ix_checkpoints_run_created", "checkpoints", ["run_id", "created_at"])
    op.create_index("ix_checkpoints_user_created", "checkpoints", ["user_id", "created_at"])


def downgrade() -> None:
    op.drop_table("checkpoints")
    op.drop_table("order_drafts")
    op.drop_table("catalog_meta")
    op.drop_table("products")
    op.drop_table("recipient_profiles")
    op.drop_table("transcript")
    op.drop_index("ix_runs_user_updated", table_name="runs")
    op.drop_index("uq_runs_one_active_per_user", table_name="runs")
    op.drop_table("runs")
    op.drop_table("users")
