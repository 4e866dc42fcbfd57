"""Benchmarks never touch the configured data; ``catalog generate`` asks before replacing.

``bench turn`` and ``bench load`` run on a scratch database of their own (a temporary
SQLite file, or a Postgres database they create and drop) and a Redis key prefix of their
own: the configured catalog — an imported one here — is the same afterwards, and neither
the configured stores nor the server keep anything the benchmark made.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
import redis
import sqlalchemy as sa

from giftgenius.catalog import load_products
from giftgenius.cli.main import main

REDIS_URL = os.environ.get("GIFTGENIUS_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
POSTGRES_ADMIN_URL = os.environ.get(
    "GIFTGENIUS_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
)
IMPORTED = 5


class Terminal(io.StringIO):
    """Typed answers, on what looks like a terminal."""

    def isatty(self) -> bool:
        return True


def run(*argv: str, stdin: io.StringIO | None = None) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdin=stdin or io.StringIO(""), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def import_small_catalog(tmp_path: Path) -> None:
    path = tmp_path / "mine.jsonl"
    path.write_text("".join(p.model_dump_json() + "\n" for p in load_products()[:IMPORTED]))
    code, out, err = run("catalog", "import", "--replace", str(path))
    assert code == 0, err
    assert f"holds {IMPORTED} products" in out


def configured(url: str) -> tuple[str, int, int, int]:
    """(catalog version, products, users, transcript rows) of the configured database."""
    engine = sa.create_engine(url)
    try:
        with engine.connect() as conn:
            version = conn.execute(
                sa.text("SELECT value FROM catalog_meta WHERE key = 'catalog_version'")
            ).scalar_one()
            return (
                version,
                conn.execute(sa.text("SELECT count(*) FROM products")).scalar_one(),
                conn.execute(sa.text("SELECT count(*) FROM users")).scalar_one(),
                conn.execute(sa.text("SELECT count(*) FROM transcript")).scalar_one(),
            )
    finally:
        engine.dispose()


def bench_databases() -> list[str]:
    """Scratch databases a benchmark of this process left on the Postgres server."""
    engine = sa.create_engine(POSTGRES_ADMIN_URL)
    try:
        with engine.connect() as conn:
            names = conn.execute(sa.text("SELECT datname FROM pg_database")).scalars().all()
    finally:
        engine.dispose()
    return [n for n in names if n.startswith(f"giftgenius_bench_{os.getpid()}_")]


def redis_keys(prefix: str) -> list[bytes]:
    client = redis.Redis.from_url(REDIS_URL)
    try:
        return list(client.scan_iter(match=f"{prefix}*", count=500))
    finally:
        client.close()


BENCH_TURN = ("bench", "turn", "--turns", "2", "--catalog", "40", "--processes", "1",
              "--seconds", "0.2")  # fmt: skip
BENCH_LOAD = ("bench", "load", "--sessions", "2", "--processes", "1", "--turns", "2",
              "--catalog", "40")  # fmt: skip


@pytest.mark.slow
@pytest.mark.parametrize("command", [BENCH_TURN, BENCH_LOAD], ids=["turn", "load"])
def test_a_benchmark_leaves_a_configured_sqlite_catalog_alone(
    command: tuple[str, ...], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = f"sqlite:///{tmp_path / 'mine.db'}"
    monkeypatch.setenv("GIFTGENIUS_DATABASE_URL", url)
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setenv("TMPDIR", str(scratch))
    import_small_catalog(tmp_path)
    before = configured(url)
    code, out, err = run(*command)
    assert code == 0, err
    assert configured(url) == before
    assert before[1:] == (IMPORTED, 0, 0)
    assert "scratch" in out
    assert list(scratch.iterdir()) == []  # the temporary database is gone
    # What is kept: the generated catalog, without a user, to copy next time.
    (cached,) = (Path(os.environ["GIFTGENIUS_HOME"]) / "bench").iterdir()
    assert cached.name.startswith("synthetic-40-0-")
    assert configured(f"sqlite:///{cached}")[1:] == (40, 0, 0)
    code, out, err = run(*command, "--json")
    assert code == 0, err
    assert '"generated": []' in out or "turn" not in command  # copied, not written again


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.parametrize("command", [BENCH_TURN, BENCH_LOAD], ids=["turn", "load"])
def test_a_benchmark_leaves_the_configured_postgres_and_redis_alone(
    command: tuple[str, ...],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    migrated_postgres_url: str,
    redis_url: str,
    redis_prefix: str,
) -> None:
    monkeypatch.setenv("GIFTGENIUS_DATABASE_URL", migrated_postgres_url)
    monkeypatch.setenv("GIFTGENIUS_REDIS_URL", redis_url)
    monkeypatch.setenv("GIFTGENIUS_REDIS_PREFIX", redis_prefix)
    import_small_catalog(tmp_path)
    before = configured(migrated_postgres_url)
    code, out, err = run(*command)
    assert "scratch database giftgenius_bench_" in out
    assert code == 0, err
    assert configured(migrated_postgres_url) == before
    assert before[1:] == (IMPORTED, 0, 0)
    assert redis_keys(redis_prefix) == []  # its own prefix's keys deleted too
    assert bench_databases() == []  # the scratch database was dropped


@pytest.mark.slow
def test_generate_refuses_to_replace_an_imported_catalog_unless_told(tmp_path: Path) -> None:
    import_small_catalog(tmp_path)
    code, out, err = run("catalog", "generate", "--products", "30")  # piped: nobody to ask
    assert code == 1
    assert f"holds an imported catalog ({IMPORTED} products" in err and "--yes" in err
    code, out, _ = run("catalog", "show", load_products()[0].id)
    assert code == 0  # still the imported catalog
    code, out, err = run("catalog", "generate", "--products", "30", "--yes")
    assert code == 0 and "Wrote the catalog synthetic:30:0 (30 products)" in out
    assert f"replaced an imported catalog ({IMPORTED} products" in out


@pytest.mark.slow
def test_generate_on_a_terminal_asks_first(tmp_path: Path) -> None:
    import_small_catalog(tmp_path)
    code, out, err = run("catalog", "generate", "--products", "30", stdin=Terminal("n\n"))
    assert code == 1 and "Replace it" in err and "Nothing was changed" in err
    assert run("catalog", "show", load_products()[0].id)[0] == 0
    code, out, err = run("catalog", "generate", "--products", "30", stdin=Terminal("y\n"))
    assert code == 0 and "synthetic:30:0" in out
    # Another size of synthetic catalog is another catalog too.
    code, out, err = run("catalog", "generate", "--products", "20")
    assert code == 1 and "the synthetic catalog synthetic:30:0 (30 products" in err
    # The same one is nothing to do, and nothing to ask.
    code, out, err = run("catalog", "generate", "--products", "30")
    assert code == 0 and "nothing to do" in out


@pytest.mark.slow
@pytest.mark.postgres
def test_generate_refuses_on_postgres_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, migrated_postgres_url: str
) -> None:
    monkeypatch.setenv("GIFTGENIUS_DATABASE_URL", migrated_postgres_url)
    import_small_catalog(tmp_path)
    before = configured(migrated_postgres_url)
    code, _, err = run("catalog", "generate", "--products", "30")
    assert code == 1 and "imported catalog" in err
    assert configured(migrated_postgres_url) == before


@pytest.mark.slow
def test_bench_state_runs_on_embedded_stores_of_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = f"sqlite:///{tmp_path / 'mine.db'}"
    monkeypatch.setenv("GIFTGENIUS_DATABASE_URL", url)
    monkeypatch.setenv("GIFTGENIUS_REDIS_URL", "redis://127.0.0.1:1/0")  # never reached
    import_small_catalog(tmp_path)
    before = configured(url)
    code, _, err = run("bench", "state", "--turns", "5")
    assert code == 0, err
    assert configured(url) == before


@pytest.mark.slow
@pytest.mark.postgres
def test_a_benchmark_that_may_not_create_its_database_says_so(
    monkeypatch: pytest.MonkeyPatch, migrated_postgres_url: str
) -> None:
    engine = sa.create_engine(POSTGRES_ADMIN_URL, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            conn.execute(
                sa.text(  # kept for the next run: it owns nothing and may do nothing
                    "DO $$ BEGIN CREATE ROLE gg_bench_nocreatedb LOGIN NOCREATEDB; "
                    "EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END $$"
                )
            )
    finally:
        engine.dispose()
    url = sa.make_url(migrated_postgres_url).set(username="gg_bench_nocreatedb")
    monkeypatch.setenv("GIFTGENIUS_DATABASE_URL", url.render_as_string(hide_password=False))
    code, _, err = run(*BENCH_LOAD)
    assert code == 1 and "Traceback" not in err
    assert "could not create one" in err and "CREATEDB" in err
    assert err.count("\n") == 1  # one line
