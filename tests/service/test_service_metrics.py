"""``/metrics`` scraped after a conversation over HTTP: each series counts what happened."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families

from tests.service.conftest import SISTER


def _samples(client: TestClient) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    answer = client.get("/metrics")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/plain")
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(answer.text)
        for sample in family.samples
    }


def _value(samples: dict[Any, float], name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


def _grown(before: dict[Any, float], after: dict[Any, float], name: str) -> dict[Any, float]:
    """How much each labelled sample of ``name`` grew, by its labels (grown ones only)."""
    grown = {
        labels: value - before.get((name, labels), 0.0)
        for (sample, labels), value in after.items()
        if sample == name
    }
    return {labels: by for labels, by in grown.items() if by}


@pytest.mark.slow
def test_a_conversation_shows_in_every_series(client: TestClient, alice: dict[str, str]) -> None:
    before = _samples(client)
    lines = [SISTER, "the first one", "yes"]
    for line in lines:
        assert client.post("/v1/messages", json={"text": line}, headers=alice).status_code == 200
    assert client.get("/v1/runs/not-a-run", headers=alice).status_code == 404
    after = _samples(client)

    def grew(name: str, **labels: str) -> float:
        return _value(after, name, **labels) - _value(before, name, **labels)

    posted = {"route": "/v1/messages", "method": "POST"}
    assert grew("giftgenius_http_requests_total", status="200", **posted) == len(lines)
    assert grew("giftgenius_http_request_duration_seconds_count", **posted) == len(lines)
    run_route = {"route": "/v1/runs/{run_id}", "method": "GET"}
    assert grew("giftgenius_http_requests_total", status="404", **run_route) == 1
    assert sum(_grown(before, after, "giftgenius_turns_total").values()) == len(lines)
    assert grew("giftgenius_turn_seconds_count") == len(lines)
    assert sum(_grown(before, after, "giftgenius_checkpoint_writes_total").values()) >= len(lines)
    called = _grown(before, after, "giftgenius_tool_calls_total")
    tools = {dict(labels)["tool"] for labels in called}
    assert tools == {"update_profile", "select_gift", "confirm_choice"}  # the script's calls
    assert _grown(before, after, "giftgenius_session_store_operations_total")
