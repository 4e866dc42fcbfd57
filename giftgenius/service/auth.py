"""Who a request acts for: the user of its API key, and nobody else.

``Authorization: Bearer KEY`` is looked up by its hash (``ApiKeyRepo.user_for``); no path,
query or body field ever names the user. A missing, unknown or revoked key is a 401 with
``WWW-Authenticate``. With ``GIFTGENIUS_TOKEN_SECRET`` set, a signed token (a JWT: three
dot-separated parts, which no API key has) is taken instead, as the user its ``sub``
names (``signed_tokens.py``); without the secret, or badly signed, or expired, a 401.
Once the user is known, the request is counted against their rate limit
(``GIFTGENIUS_RATE_LIMIT``): past it, a 429 with ``Retry-After``.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from giftgenius import messages as catalogue
from giftgenius.service.errors import RateLimited, Unauthorized, language
from giftgenius.service.state import Service, service
from giftgenius.signed_tokens import TokenRefused, looks_signed, user_of

bearer = HTTPBearer(
    auto_error=False,
    description="An API key (`giftgenius keys create`), or a token signed with "
    "GIFTGENIUS_TOKEN_SECRET (`giftgenius keys token`).",
)


def authenticated_user(
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
    svc: Annotated[Service, Depends(service)],
) -> str:
    """The key's user; refuses the request without a valid key or past the rate limit."""
    from giftgenius.storage.rate_limits import user_key

    lang = language(request)
    if credentials is None or not credentials.credentials:
        raise Unauthorized(catalogue.text("service", "no_key", lang))
    if looks_signed(credentials.credentials):
        user = token_user(credentials.credentials, svc, lang)
    else:
        with svc.agent().db.read() as repos:
            found = repos.keys.user_for(credentials.credentials)
        if found is None:
            raise Unauthorized(catalogue.text("service", "bad_key", lang))
        user = found
    request.state.user_key = user_key(user)  # what the access log may keep of the user
    limiter = svc.limiter()
    verdict = limiter.hit(user)
    if not verdict.allowed:
        raise RateLimited(
            catalogue.say(
                "service", "too_many", lang, limit=limiter.limit, seconds=verdict.retry_after
            ),
            verdict.retry_after,
        )
    return user


def token_user(token: str, svc: Service, lang: str) -> str:
    """The user a signed token names; refused without a secret configured, or when its
    signature is not the secret's or it has expired (``signed_tokens.py``)."""
    secret = svc.settings.token_secret
    if secret is None:
        raise Unauthorized(catalogue.text("service", "token.off", lang))
    try:
        return user_of(token, secret.get_secret_value())
    except TokenRefused as refused:
        raise Unauthorized(catalogue.text("service", f"token.{refused.reason}", lang)) from None


User = Annotated[str, Depends(authenticated_user)]
"""The user a route acts for (declare a parameter ``user: User``)."""
