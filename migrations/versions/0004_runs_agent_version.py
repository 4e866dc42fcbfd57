"""Which agent and prompt answered a run: ``runs.agent_version``.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-02

Set by every committed turn (``RunRepo.fence``) to ``giftgenius/<version>+prompt.<hash>``,
the same string each checkpoint carries, so a run that never reached a key step still says
which system prompt it was answered with. Null for runs committed before this revision.

Frozen: later changes go in new revisions, never here.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("runs") as batch:
        batch.add_column(sa.Column("agent_version", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("runs") as batch:
        batch.drop_column("agent_version")
