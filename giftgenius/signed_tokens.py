"""Signed bearer tokens: a JWT, HS256 with ``GIFTGENIUS_TOKEN_SECRET``, ``sub`` the user id.

The HTTP service takes one in place of an API key (``service/auth.py``), so another
system that already knows who the person is — a login page, a gateway — can let them in
without an API key per user: it signs ``{"sub": user, "exp": …}`` with the shared secret.
Nothing is stored: a token is good until its ``exp`` (required, checked to the second,
no leeway), and cannot be revoked on its own; changing the secret refuses every token.
Without a secret no token is taken at all. ``giftgenius keys token`` mints one.

The algorithm is fixed (``HS256``): the token's own header never chooses it, so a token
signed "none" or with a public key is refused. PyJWT is imported on first use, here only.
"""

from __future__ import annotations

import datetime as dt
from typing import Literal

from giftgenius.domain import USER_ID, utcnow

ALGORITHM = "HS256"


class TokenRefused(Exception):
    """A token that does not name a user: ``expired``, or ``bad`` (any other reason —
    signature, shape, algorithm, a missing or invalid ``sub`` or ``exp``)."""

    def __init__(self, reason: Literal["expired", "bad"]) -> None:
        super().__init__(reason)
        self.reason = reason


def looks_signed(credential: str) -> bool:
    """Whether a bearer credential is meant as a JWT (three dot-separated parts); an API key
    has no dot."""
    return credential.count(".") == 2


def mint(secret: str, user_id: str, ttl: dt.timedelta, *, now: dt.datetime | None = None) -> str:
    """A token for ``user_id``, good for ``ttl`` from ``now``."""
    import jwt

    issued = now or utcnow()
    claims = {"sub": user_id, "iat": issued, "exp": issued + ttl}
    return jwt.encode(claims, secret, algorithm=ALGORITHM)


def user_of(token: str, secret: str) -> str:
    """The user a token names, if its signature is the secret's and it has not expired."""
    import jwt

    try:
        claims = jwt.decode(
            token, secret, algorithms=[ALGORITHM], options={"require": ["exp", "sub"]}
        )
    except jwt.ExpiredSignatureError:
        raise TokenRefused("expired") from None
    except jwt.InvalidTokenError:
        raise TokenRefused("bad") from None
    user = claims.get("sub")
    if not isinstance(user, str) or not USER_ID.fullmatch(user):
        raise TokenRefused("bad")
    return user
