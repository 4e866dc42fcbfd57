"""Benchmark tests: a bench agent on a small synthetic catalog in this test's own home."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from giftgenius.agent.runner import Agent
from giftgenius.bench.catalogs import ensure_synthetic
from giftgenius.bench.players import Stores, answer, bench_agent, configured_stores
from giftgenius.llm.scripted import FunctionModel
from giftgenius.settings import load_settings

SMALL_CATALOG = 300


@pytest.fixture
def stores() -> Stores:
    """The embedded bench stores under this test's GIFTGENIUS_HOME."""
    return configured_stores(load_settings())


@pytest.fixture
def bench_model() -> FunctionModel:
    """The bench's function model, kept so a test can read the requests it was sent."""
    return FunctionModel(answer, name="bench")


@pytest.fixture
def agent(stores: Stores, bench_model: FunctionModel) -> Iterator[Agent]:
    small = stores.for_catalog(SMALL_CATALOG, 0)
    built = bench_agent(small.settings(), bench_model)
    ensure_synthetic(built.db, SMALL_CATALOG)
    yield built
    built.close()
