"""API keys of the HTTP service: created, looked up and revoked by their hash.

A key is ``gg_`` and 256 random bits (``secrets``), shown once when it is made; only its
SHA-256 is stored. Hashing a key that random needs no salt and no slow hash (those protect
guessable passwords): nobody can find a key from its hash, and a lookup is one indexed
equality. The key's user is the only user a request made with it acts for.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.orm import Session

from giftgenius.domain import check_user_id, new_id, utcnow
from giftgenius.storage.tables import ApiKeyRow

KEY_PREFIX = "gg_"
MAX_KEY_LENGTH = 128
"""A bearer value longer than this is no key of ours; it is refused before it is hashed."""


@dataclass(frozen=True)
class ApiKey:
    """What is known of a key once it is made: never the key itself."""

    id: str
    user_id: str
    created_at: datetime
    revoked_at: datetime | None = None


def key_hash(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


class ApiKeyRepo:
    def __init__(self, session: Session) -> None:
        self._s = session

    def create(self, user_id: str) -> tuple[ApiKey, str]:
        """A new key of ``user_id`` (whose user row must exist): its record and the key,
        which is never stored and cannot be shown again."""
        check_user_id(user_id)
        key = KEY_PREFIX + secrets.token_urlsafe(32)
        made = ApiKey(id=new_id(), user_id=user_id, created_at=utcnow())
        self._s.add(
            ApiKeyRow(
                id=made.id, user_id=user_id, key_hash=key_hash(key), created_at=made.created_at
            )
        )
        self._s.flush()
        return made, key

    def user_for(self, key: str) -> str | None:
        """The user of a key that is known and not revoked, else None."""
        if not key.startswith(KEY_PREFIX) or len(key) > MAX_KEY_LENGTH:
            return None
        return self._s.scalar(
            sa.select(ApiKeyRow.user_id).where(
                ApiKeyRow.key_hash == key_hash(key), ApiKeyRow.revoked_at.is_(None)
            )
        )

    def list(self, user_id: str | None = None) -> list[ApiKey]:
        """Every key (one user's, if given), oldest first, revoked ones included."""
        query = sa.select(ApiKeyRow).order_by(ApiKeyRow.created_at, ApiKeyRow.id)
        if user_id is not None:
            query = query.where(ApiKeyRow.user_id == user_id)
        return [
            ApiKey(id=r.id, user_id=r.user_id, created_at=r.created_at, revoked_at=r.revoked_at)
            for r in self._s.scalars(query)
        ]

    def revoke(self, key_id: str) -> ApiKey | None:
        """Revoke a key by its id (idempotent); None when no key has that id."""
        row = self._s.get(ApiKeyRow, key_id)
        if row is None:
            return None
        if row.revoked_at is None:
            row.revoked_at = utcnow()
            self._s.flush()
        return ApiKey(
            id=row.id, user_id=row.user_id, created_at=row.created_at, revoked_at=row.revoked_at
        )
