"""Long-term memory: ``memories``.

Revision ID: 0007_memories
Revises: 0006_gift_history
Create Date: 2026-12-03

One row per note a finished search taught (``storage/memory_db.py``): whose it is, the run,
the recipient as the run named them and the key a search by recipient matches, the
embedding space (``model``), when it was written, the note (PII scrubbed) and its embedding
as little-endian float32 bytes of unit length. Ranked exactly in the application (numpy),
so no vector extension is needed. ``seq`` orders the rows as they were written: one index on
(user, model, seq) answers the per-user cache's check (count and last seq) and its top-up;
``created_at`` is indexed for retention (``prune``). No foreign key: ``forget`` deletes the
notes itself, and the session store's tombstones keep a turn in flight from writing one
back. ``forget`` deletes them; ``prune`` applies its age to them.

Frozen: later changes go in new revisions, never here.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007_memories"
down_revision: str | None = "0006_gift_history"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "memories",
        sa.Column("seq", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("user_id", sa.String(64), nullable=False),
        sa.Column("run_id", sa.String(32), nullable=False),
        sa.Column("recipient", sa.String(60), nullable=True),
        sa.Column("recipient_key", sa.String(120), nullable=True),
        sa.Column("model", sa.String(100), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("embedding", sa.LargeBinary(), nullable=False),
        sa.PrimaryKeyConstraint("seq", name="pk_memories"),
        sa.UniqueConstraint("id", name="uq_memories_id"),
    )
    op.create_index("ix_memories_user_model_seq", "memories", ["user_id", "model", "seq"])
    op.create_index("ix_memories_created_at", "memories", ["created_at"])


def downgrade() -> None:
    op.drop_index("ix_memories_created_at", table_name="memories")
    op.drop_index("ix_memories_user_model_seq", table_name="memories")
    op.drop_table("memories")
