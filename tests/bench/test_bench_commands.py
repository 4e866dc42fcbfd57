"""The commands: ``catalog generate``, ``bench turn`` and ``bench load`` end to end."""

from __future__ import annotations

import io
import json

import pytest

from giftgenius.bench.load import run_load
from giftgenius.bench.players import configured_stores
from giftgenius.cli.main import main
from giftgenius.settings import load_settings
from giftgenius.storage.db import Database


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdin=io.StringIO(""), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.slow
def test_catalog_generate_writes_once_and_refuses_a_bad_count() -> None:
    code, out, _ = run("catalog", "generate", "--products", "250", "--seed", "4")
    assert code == 0 and "Wrote the catalog synthetic:250:4 (250 products)" in out
    db = Database.from_settings(load_settings())
    with db.read() as repos:
        assert repos.catalog.version() == "synthetic:250:4"
        assert repos.catalog.count() == 250
    db.dispose()
    code, out, _ = run("catalog", "generate", "--products", "250", "--seed", "4")
    assert code == 0 and "already holds the catalog synthetic:250:4; nothing to do" in out
    code, _, err = run("catalog", "generate", "--products", "many")
    assert code == 2 and "'many' is not a number of products" in err
    code, _, err = run("catalog", "generate", "--products", "0")
    assert code == 2 and "give 1 to 10,000,000 products, not 0" in err


@pytest.mark.slow
def test_bench_turn_prints_every_part_as_json() -> None:
    code, out, _ = run(
        "bench", "turn", "--turns", "3,6", "--catalog", "100,200", "--processes", "1,2",
        "--sessions", "1", "--seconds", "1", "--json",
    )  # fmt: skip
    assert code == 0
    doc = json.loads(out)
    assert set(doc["milestones"]) == {"3", "6"}
    assert doc["milestones"]["6"]["phases"]["tools"]["p50_ms"] > 0
    assert set(doc["catalogs"]) == {"100", "200"}
    assert set(doc["throughput"]) == {"1", "2"}
    assert all(row["turns"] > 0 for row in doc["throughput"].values())


@pytest.mark.slow
@pytest.mark.redis
@pytest.mark.postgres
def test_load_on_redis_and_postgres_loses_and_duplicates_nothing(
    migrated_postgres_url: str, redis_url: str, redis_prefix: str
) -> None:
    settings = load_settings(
        database_url=migrated_postgres_url, redis_url=redis_url, redis_prefix=redis_prefix
    )
    report = run_load(configured_stores(settings), sessions=20, processes=2, turns=4, catalog=300)
    assert report.first_failure is None
    assert report.turns == 80 and report.sent == 80
    assert (report.lost, report.duplicated, report.unexpected, report.failed) == (0, 0, 0, 0)
    assert report.turns_per_second > 0 and report.turn_p99_ms >= report.turn_p50_ms > 0
