"""The HTTP service on the embedded defaults, through FastAPI's TestClient, with a
scripted model (``tests/conftest.py``'s ``script``) so a turn costs milliseconds."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from service_kit import SISTER, bearer, key_for

from giftgenius.service.app import create_app
from giftgenius.settings import load_settings


@pytest.fixture
def conversation(script: Any) -> Any:
    """The scripted model knows one conversation: a shortlist, a pick, a yes."""
    script.shortlist(SISTER, recipient="sister", interests=["tea"], budget_max=30, currency="EUR")
    script.pick("the first one")
    script.confirm("yes")
    script.says("thanks", "You're welcome!")
    return script


@pytest.fixture
def make_client(seeded_home: Any, conversation: Any) -> Iterator[Callable[..., TestClient]]:
    """A client of a new app; settings may be overridden (``rate_limit="3/minute"``)."""
    clients: list[TestClient] = []

    def make(**overrides: Any) -> TestClient:
        client = TestClient(create_app(load_settings(**overrides)))
        client.__enter__()
        clients.append(client)
        return client

    yield make
    for client in clients:
        client.__exit__(None, None, None)


@pytest.fixture
def client(make_client: Callable[..., TestClient]) -> TestClient:
    return make_client()


@pytest.fixture
def alice(client: TestClient) -> dict[str, str]:
    return bearer(key_for(client.app, "alice"))  # type: ignore[arg-type]
