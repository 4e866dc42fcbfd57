"""PII typed into a chat is found nowhere: not in Redis, the database or the logs."""

from __future__ import annotations

from pathlib import Path

import redis
import sqlalchemy as sa

TYPED = [
    "my email is jeanne.dupont@example.fr and my phone is +33 6 12 34 56 78",
    "card 4111 1111 1111 1111, ship to 12 rue de la Paix, 75002 Paris",
    "call me at (415) 555-2671 or write to 1600 Pennsylvania Ave NW, Washington, DC 20500",
    "gift for my sister, she loves tea, budget 40 EUR, mail sam@corp.io",
]
SECRETS = [
    "jeanne.dupont@example.fr",
    "12 34 56 78",
    "4111 1111 1111 1111",
    "rue de la Paix",
    "555-2671",
    "Pennsylvania",
    "sam@corp.io",
]


def test_pii_typed_into_chat_is_stored_nowhere(prod_env, cli_in, database) -> None:
    ran = cli_in("chat", "--user", "pii", stdin="\n".join(TYPED) + "\n")
    assert ran.code == 0, ran.err
    blobs: list[str] = []
    client = redis.Redis.from_url(prod_env["GIFTGENIUS_REDIS_URL"])
    for key in client.scan_iter(match=prod_env["GIFTGENIUS_REDIS_PREFIX"] + "*"):
        kind = client.type(key).decode()
        if kind == "string":
            blobs.append(client.get(key).decode("utf-8", "replace"))
        elif kind == "hash":
            blobs.extend(v.decode("utf-8", "replace") for v in client.hvals(key))
        elif kind == "list":
            blobs.extend(v.decode("utf-8", "replace") for v in client.lrange(key, 0, -1))
    assert blobs, "expected the live session in Redis"
    engine = sa.create_engine(prod_env["GIFTGENIUS_DATABASE_URL"])
    with engine.connect() as conn:
        for table in sa.inspect(conn).get_table_names():
            if table == "products":
                continue
            for row in conn.execute(sa.text(f'SELECT * FROM "{table}"')):
                blobs.append(" ".join(str(v) for v in row))
    engine.dispose()
    logs = Path(__import__("os").environ["GIFTGENIUS_HOME"]) / "logs"
    log_text = "".join(p.read_text() for p in logs.glob("*.log*"))
    assert log_text, "expected log lines"
    blobs.append(log_text)
    everything = "\n".join(blobs)
    assert "[email]" in everything and "[card]" in everything
    for secret in SECRETS:
        assert secret not in everything, secret
