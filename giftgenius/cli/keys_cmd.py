"""``giftgenius keys``: the HTTP service's API keys, made, listed and revoked by the operator.

Each function returns what the command prints, in the commands' language (the catalogue's
``service`` section). A key is shown once, as the last line ``create`` prints, so a script
can take it with ``tail -n 1``; only its hash is stored (``storage/api_keys.py``).
``token`` mints a signed token (``signed_tokens.py``) the same way: the last line.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from giftgenius import messages as catalogue
from giftgenius.agent.reader import RunReader
from giftgenius.domain import check_user_id, utcnow
from giftgenius.errors import ConfigError, NotFound
from giftgenius.settings import Settings


def create_key(reader: RunReader, user_id: str, lang: str) -> list[str]:
    check_user_id(user_id)
    with reader.db.write() as repos:
        repos.users.ensure(user_id)
        made, key = repos.keys.create(user_id)
    return [catalogue.say("service", "keys.created", lang, user=user_id, id=made.id), key]


def revoke_key(reader: RunReader, key_id: str, lang: str) -> list[str]:
    with reader.db.write() as repos:
        revoked = repos.keys.revoke(key_id)
    if revoked is None:
        raise NotFound(catalogue.say("service", "keys.unknown", lang, id=repr(key_id)))
    return [catalogue.say("service", "keys.revoked", lang, id=key_id, user=revoked.user_id)]


def list_keys(
    reader: RunReader, user_id: str | None, lang: str
) -> tuple[dict[str, Any], list[str]]:
    """The keys as a JSON document and as lines of text (id, user, made, revoked)."""
    if user_id is not None:
        check_user_id(user_id)
    with reader.db.read() as repos:
        found = repos.keys.list(user_id)
    document = {
        "keys": [
            {
                "id": k.id,
                "user_id": k.user_id,
                "created_at": k.created_at.isoformat(),
                "revoked_at": k.revoked_at.isoformat() if k.revoked_at else None,
            }
            for k in found
        ]
    }
    if not found:
        return document, [catalogue.text("service", "keys.none", lang)]
    lines = []
    for k in found:
        made = k.created_at.strftime("%Y-%m-%d %H:%M")
        state = (
            catalogue.say("service", "keys.revoked_on", lang, when=f"{k.revoked_at:%Y-%m-%d %H:%M}")
            if k.revoked_at
            else catalogue.text("service", "keys.active", lang)
        )
        lines.append(f"{k.id}  {k.user_id}  {made}  {state}")
    return document, lines


def mint_token(settings: Settings, user_id: str, ttl: dt.timedelta, lang: str) -> list[str]:
    """A token for ``user_id`` signed with the configured secret, good for ``ttl``: what
    the service takes when it has the same secret. Nothing is stored."""
    from giftgenius.signed_tokens import mint

    check_user_id(user_id)
    if settings.token_secret is None:
        raise ConfigError(catalogue.text("service", "token.no_secret", lang))
    now = utcnow().replace(microsecond=0)
    token = mint(settings.token_secret.get_secret_value(), user_id, ttl, now=now)
    until = f"{now + ttl:%Y-%m-%d %H:%M:%S}"
    return [catalogue.say("service", "keys.token", lang, user=user_id, until=until), token]
