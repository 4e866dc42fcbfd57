"""Gifts given, per recipient: ``gift_history``.

Revision ID: 0006_gift_history
Revises: 0005
Create Date: 2026-12-03

One row per confirmed gift, written with the run's order draft: whose it is, the run, the
recipient as the run named them (the relation as said and a name), the product's id, its
title as it was, its price and currency, and when it was confirmed. A later search for the
same recipient leaves these products out and says so. Like order drafts, the rows are kept
by ``prune`` (it deletes checkpoints only) and deleted by ``forget``; both foreign keys
cascade too.

Frozen: later changes go in new revisions, never here.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006_gift_history"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "gift_history",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("user_id", sa.String(64), nullable=False),
        sa.Column("run_id", sa.String(32), nullable=False),
        sa.Column("recipient", sa.String(60), nullable=False),
        sa.Column("recipient_name", sa.String(60), nullable=True),
        sa.Column("gift_id", sa.String(64), nullable=False),
        sa.Column("title", sa.String(200), nullable=False),
        sa.Column("price", sa.Numeric(10, 2), nullable=False),
        sa.Column("currency", sa.String(3), nullable=False),
        sa.Column("confirmed_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name="fk_gift_history_user_id_users", ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["run_id"], ["runs.id"], name="fk_gift_history_run_id_runs", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_gift_history"),
        sa.UniqueConstraint("run_id", name="uq_gift_history_run_id"),
    )
    op.create_index("ix_gift_history_user_confirmed", "gift_history", ["user_id", "confirmed_at"])


def downgrade() -> None:
    op.drop_index("ix_gift_history_user_confirmed", table_name="gift_history")
    op.drop_table("gift_history")
