"""Long-term memory: the newest notes of one recipient, read from an index.

Revision ID: 0008_memories_by_recipient
Revises: 0007_memories
Create Date: 2026-12-03

The memory block a run is given for a known recipient, and ``recall_memories`` with a
recipient and no words, read the user's newest notes *about one person*
(``DbMemoryStore.latest``). On (user, model, seq) alone that read walks the user's notes
backwards and looks each row's recipient up in the table until k match: a recipient with
one note among a user's 10,000 costs 10,000 row reads. With the recipient key in the index
before ``seq`` it reads k index entries.

Frozen: later changes go in new revisions, never here.
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0008_memories_by_recipient"
down_revision: str | None = "0007_memories"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index(
        "ix_memories_user_model_recipient_seq",
        "memories",
        ["user_id", "model", "recipient_key", "seq"],
    )


def downgrade() -> None:
    op.drop_index("ix_memories_user_model_recipient_seq", table_name="memories")
