"""Who a request acts for: the user of its API key, and nobody else.

``Authorization: Bearer KEY`` is looked up by its hash (``ApiKeyRepo.user_for``); no path,
query or body field ever names the user. A missing, unknown or revoked key is a 401 with
``WWW-Authenticate``. Once the user is known, the request is counted against their rate
limit (``GIFTGENIUS_RATE_LIMIT``): past it, a 429 with ``Retry-After``.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from giftgenius import messages as catalogue
from giftgenius.service.errors import RateLimited, Unauthorized, language
from giftgenius.service.state import Service, service

bearer = HTTPBearer(auto_error=False, description="An API key: `giftgenius keys create`.")


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
    with svc.agent().db.read() as repos:
        user = repos.keys.user_for(credentials.credentials)
    if user is None:
        raise Unauthorized(catalogue.text("service", "bad_key", lang))
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


User = Annotated[str, Depends(authenticated_user)]
"""The user a route acts for (declare a parameter ``user: User``)."""
