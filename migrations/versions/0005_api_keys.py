"""API keys of the HTTP service: ``api_keys``.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-02

One row per key created by ``giftgenius keys create``: whose key it is, the SHA-256 of the
key (never the key itself: it is printed once and then only its hash is kept), when it was
made and when it was revoked. A key is 256 random bits, so a plain SHA-256 is enough to keep
it from being read back; no slow password hash is needed. ``forget`` deletes a user's keys
with the rest of their rows (the foreign key cascades too).

Frozen: later changes go in new revisions, never here.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "api_keys",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("user_id", sa.String(64), nullable=False),
        sa.Column("key_hash", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name="fk_api_keys_user_id_users", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_api_keys"),
        sa.UniqueConstraint("key_hash", name="uq_api_keys_key_hash"),
    )
    op.create_index("ix_api_keys_user_id", "api_keys", ["user_id"])


def downgrade() -> None:
    op.drop_index("ix_api_keys_user_id", table_name="api_keys")
    op.drop_table("api_keys")
