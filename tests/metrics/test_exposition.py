"""What ``/metrics`` serves: every series, parseable, as the README's table lists them."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from giftgenius import metrics

README = Path(metrics.__file__).parent / "README.md"


def parsed(text: str) -> tuple[dict[str, str], dict[tuple, float]]:
    """The exposition's families' types, and its samples by name and labels."""
    types, samples = {}, {}
    for family in text_string_to_metric_families(text):
        types[family.name] = family.type
        for s in family.samples:
            samples[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return types, samples


def test_render_parses_and_carries_what_was_observed() -> None:
    _, before = parsed(metrics.render()[0].decode())
    metrics.observe_http("/sessions/{id}/turns", "POST", 200, 0.012)
    metrics.observe_http("/sessions/{id}/turns", "POST", 200, 0.3)
    metrics.observe_http("/health", "GET", 503, 0.001)
    body, content_type = metrics.render()
    assert content_type.startswith("text/plain")
    types, after = parsed(body.decode())

    def grew(name: str, **labels: str) -> float:
        key = (name, tuple(sorted(labels.items())))
        return after.get(key, 0.0) - before.get(key, 0.0)

    turns = {"route": "/sessions/{id}/turns", "method": "POST"}
    seconds = "giftgenius_http_request_duration_seconds"
    assert grew("giftgenius_http_requests_total", **turns, status="200") == 2
    assert grew("giftgenius_http_requests_total", route="/health", method="GET", status="503") == 1
    assert grew(seconds + "_count", **turns) == 2
    assert grew(seconds + "_sum", **turns) == pytest.approx(0.312)
    assert grew(seconds + "_bucket", **turns, le="0.05") == 1
    assert grew(seconds + "_bucket", **turns, le="+Inf") == 2
    assert types["giftgenius_http_requests"] == "counter"
    assert types[seconds] == "histogram"
    assert types["giftgenius_active_sessions"] == "gauge"
    assert not [name for name, _ in after if name.endswith("_created")]


def _readme_table() -> dict[str, tuple[str, set[str]]]:
    """The README's metrics table: name → (type, labels)."""
    rows = {}
    for line in README.read_text().splitlines():
        match = re.match(r"\| `(giftgenius_\w+)` \| (\w+) \|([^|]*)\|", line)
        if match:
            labels = set(re.findall(r"`(\w+)`", match[3]))
            rows[match[1]] = (match[2], labels)
    return rows


def test_the_readme_lists_every_series_with_its_type_and_labels() -> None:
    defined = {}
    for metric in vars(metrics).values():
        if isinstance(metric, metrics.Counter | metrics.Histogram | metrics.Gauge):
            name = metric._name + ("_total" if isinstance(metric, metrics.Counter) else "")
            defined[name] = (metric._type, set(metric._labelnames))
    assert len(defined) >= 15
    assert _readme_table() == defined


@pytest.mark.slow
def test_multiprocess_mode_sums_the_processes(tmp_path: Path) -> None:
    """Two worker processes record; a third renders what both did (and the live gauge
    counts live processes only)."""
    folder = tmp_path / "prom"
    folder.mkdir()
    env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(folder)}
    worker = textwrap.dedent(
        """
        from giftgenius import metrics
        metrics.turn_finished("ok", {"load": 0.002, "model": 0.5}, 0.6)
        metrics.tool_called("update_profile", ok=False)
        metrics.session_started()
        """
    )
    for _ in range(2):
        subprocess.run([sys.executable, "-c", worker], env=env, check=True, timeout=60)
    reader = textwrap.dedent(
        """
        import os, sys
        from giftgenius import metrics
        assert metrics.MULTIPROC_DIR
        for name in os.listdir(metrics.MULTIPROC_DIR):
            if name.startswith("gauge_livesum_"):
                metrics.mark_process_dead(int(name.rsplit("_", 1)[1].split(".")[0]))
        body, _ = metrics.render()
        sys.stdout.write(body.decode())
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", reader], env=env, check=True, timeout=60, capture_output=True
    )
    found = {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(done.stdout.decode())
        for s in family.samples
    }
    assert found[("giftgenius_turns_total", (("outcome", "ok"),))] == 2
    assert found[("giftgenius_turn_phase_seconds_count", (("phase", "load"),))] == 2
    assert found[("giftgenius_turn_seconds_sum", ())] == pytest.approx(1.2)
    assert found[("giftgenius_tool_errors_total", (("tool", "update_profile"),))] == 2
    assert found.get(("giftgenius_active_sessions", ()), 0.0) == 0  # the workers are gone
