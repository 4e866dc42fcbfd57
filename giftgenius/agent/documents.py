"""The JSON documents a user's stored runs are read as: ``state --json``, ``checkpoints
--json``, and the HTTP service's ``/v1/state`` and ``/v1/checkpoints``.

Written once, here, so the terminal and the service can never disagree about a field: both
read with ``RunReader`` and hand what they read to these functions. The documents' keys
are the same in every language (they are data, not sentences).
"""

from __future__ import annotations

from typing import Any

from giftgenius import messages as catalogue
from giftgenius.agent.reader import Opened, RunReader
from giftgenius.catalog import Product, load_rates, product_json
from giftgenius.domain import Checkpoint, check_user_id
from giftgenius.errors import NotFound


def read_state(reader: RunReader, user_id: str) -> tuple[Opened | None, list[Checkpoint]]:
    """The user's current run (the unfinished one, else the latest) and the checkpoints it
    has durably reached, oldest first; ``(None, [])`` for a user with no run."""
    check_user_id(user_id)
    current = reader.inspect(user_id)
    if current is None:
        return None, []
    with reader.db.read() as repos:
        return current, repos.checkpoints.list(user_id, current.run.id)


def state_document(user_id: str, current: Opened | None, reached: list[Checkpoint]) -> dict:
    """What ``state --json`` prints (``read_state``'s result)."""
    if current is None:
        return {"user_id": user_id, "run_id": None, "state": None}
    session = current.loaded.session
    return {
        "user_id": user_id,
        "run_id": current.run.id,
        "run_status": str(current.run.status),
        # the agent and system prompt of the run's last committed turn
        "agent_version": current.run.agent_version,
        "source": current.loaded.source,
        "session_version": session.version,
        "state": session.state.model_dump(mode="json"),
        "summary": session.summary.text,
        # the key steps this run has durably reached, oldest first
        "checkpoints": [str(c.step) for c in reached],
    }


def read_checkpoints(
    reader: RunReader, user_id: str, run_id: str | None, *, locale: str = "en"
) -> list[Checkpoint]:
    """The user's checkpoints (only ``run_id``'s when given), oldest first.

    A run of another user is not found, exactly as a run that does not exist: nobody learns
    from the answer whether someone else's run id is real.
    """
    check_user_id(user_id)
    with reader.db.read() as repos:
        if run_id and repos.runs.get(run_id, user_id=user_id) is None:
            raise NotFound(
                catalogue.say(
                    "commands", "checkpoints.no_run", locale, quoted=repr(user_id), run=run_id
                )
            )
        return repos.checkpoints.list(user_id, run_id)


def checkpoints_document(user_id: str, found: list[Checkpoint]) -> dict[str, Any]:
    """What ``checkpoints --json`` prints."""
    return {
        "user_id": user_id,
        "checkpoints": [
            {
                "id": c.id,
                "run_id": c.run_id,
                "step": str(c.step),
                "created_at": c.created_at.isoformat(),
                "session_version": c.session_version,
                "agent_version": c.agent_version,
                "format_version": c.format_version,
                "state": c.state.model_dump(mode="json"),
            }
            for c in found
        ],
    }


SEARCH_LIMIT = 20
"""How many products a catalog search returns (``catalog search``, ``/v1/catalog/search``)."""


def search_catalog(reader: RunReader, words: str) -> list[Product]:
    """The products that best match ``words``, best first (at most ``SEARCH_LIMIT``)."""
    from giftgenius.catalog.search import words_query

    with reader.db.read() as repos:
        return repos.catalog.search().ranked(words_query(words), limit=SEARCH_LIMIT)


def find_product(reader: RunReader, gift_id: str, *, locale: str = "en") -> Product:
    """One product by id; ``NotFound`` with the catalogue's sentence when there is none."""
    with reader.db.read() as repos:
        product = repos.catalog.get(gift_id)
    if product is None:
        raise NotFound(catalogue.say("commands", "catalog.no_gift", locale, quoted=repr(gift_id)))
    return product


def search_document(query: str, results: list[Product]) -> dict[str, Any]:
    """What ``catalog search --json`` prints: each product with its price in every currency."""
    rates = load_rates()
    return {"query": query, "results": [product_json(p, rates) for p in results]}
