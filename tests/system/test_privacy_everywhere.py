"""PII typed into a chat is found nowhere: not in Redis, the database or the logs.

The model is scripted: its turns are keyed by the text it must see (PII already replaced),
so a message that reached it unscrubbed fails the chat, and its replies repeat the PII back
(as a careless model might) to show the agent scrubs what the model says too.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import redis
import sqlalchemy as sa

from giftgenius.privacy import scrub

pytestmark = [pytest.mark.slow, pytest.mark.postgres, pytest.mark.redis]

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


def test_pii_typed_into_chat_is_stored_nowhere(prod_env, cli_in, database, script) -> None:
    for typed, echoed in zip(
        TYPED[:3], ("+33 6 12 34 56 78", "4111 1111 1111 1111", "(415) 555-2671"), strict=True
    ):
        script.says(scrub(typed), f"Noted, I will not repeat {echoed} to anyone.")
    # The words a model sends with its call are shown before the shortlist the agent
    # presents: scrubbed like any reply.
    facts = {"recipient": "sister", "interests": ["tea"], "budget_max": 40, "currency": "EUR"}
    call = {**script.call("update_profile", **facts), "content": "I will mail it to sam@corp.io."}
    script.turn(scrub(TYPED[3]), call)
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
