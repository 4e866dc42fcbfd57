"""Long-term memory: one tally row per user and embedding space.

Revision ID: 0009_memory_tallies
Revises: 0008_memories_by_recipient
Create Date: 2026-12-03

Each process keeps a copy of a user's note vectors (``storage/memory_matrix.py``) and must
know, before every search, whether it is still true. Counting the user's rows and reading
their last seq from the (user, model, seq) index did that, at a cost that grew with the
user's notes and, at a million rows, with the table (index-only scans fall back to the heap
until a VACUUM marks pages visible): 5 ms at 10,000 notes among 110,000, 9 ms among a
million. The tally — notes, last seq, notes ever deleted — is written by the memory store in
the same transaction as the notes, and read by primary key. Filled here from the notes that
exist.

Frozen: later changes go in new revisions, never here.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009_memory_tallies"
down_revision: str | None = "0008_memories_by_recipient"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "memory_tallies",
        sa.Column("user_id", sa.String(64), nullable=False),
        sa.Column("model", sa.String(100), nullable=False),
        sa.Column("notes", sa.Integer(), nullable=False),
        sa.Column("last_seq", sa.Integer(), nullable=False),
        sa.Column("removed", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("user_id", "model", name="pk_memory_tallies"),
    )
    op.execute(
        "INSERT INTO memory_tallies (user_id, model, notes, last_seq, removed)"
        " SELECT user_id, model, count(*), max(seq), 0 FROM memories GROUP BY user_id, model"
    )


def downgrade() -> None:
    op.drop_table("memory_tallies")
