"""Hostile catalog files, imported as a person would, on SQLite and on Postgres.

What ``catalog import`` accepts is exactly what the products table can hold and read back
(``catalog.models.Product`` is the one validation, its limits the schema's); anything else
is refused with the row's line number and nothing is written — never a traceback, and never
a row one backend stores and the other crashes on. A row that is in the table but cannot be
read back (stored before these rules) is skipped and logged, so it breaks no search.
"""

from __future__ import annotations

import io
import json
import logging
import os
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

import pytest
import sqlalchemy as sa

from giftgenius.catalog.importing import read_catalog_file
from giftgenius.catalog.models import ID_MAX_LENGTH, PRICE_MAX, PRICE_PLACES, TITLE_MAX_LENGTH
from giftgenius.catalog.search import words_query
from giftgenius.cli.main import main
from giftgenius.evaluate.forking import ForkServers
from giftgenius.settings import load_settings
from giftgenius.storage.db import Database
from giftgenius.storage.tables import ProductRow

BACKENDS = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]


@dataclass
class Ran:
    code: int
    out: str
    err: str


def _cli(*argv: str) -> Ran:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdin=io.StringIO(""), stdout=out, stderr=err)
    return Ran(code, out.getvalue(), err.getvalue())


def _row(pid: str, **fields: object) -> dict[str, object]:
    base: dict[str, object] = {
        "id": pid,
        "title": f"Lighthouse print {pid}",
        "description": "A print of the Lisbon lighthouses, signed by the artist.",
        "price": 30.0,
        "currency": "EUR",
        "tags": ["art", "travel"],
        "recipients": ["anyone"],
        "ships_to": ["*"],
        "delivery_days": 5,
    }
    return base | fields


def _jsonl(path: Path, rows: list[dict[str, object]]) -> Path:
    # json.dumps writes Infinity/NaN as bare literals and lone surrogates as \ud800 escapes,
    # as a hand-made or foreign file may hold them
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _catalog() -> tuple[str | None, list[str]]:
    db = Database.from_settings(load_settings())
    try:
        with db.read() as repos:
            return repos.catalog.version(), [p.id for page in repos.catalog.pages() for p in page]
    finally:
        db.dispose()


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """The database ``catalog import`` writes to: the home's SQLite file (seeded), or an
    empty Postgres database at the newest schema."""
    if request.param == "postgres":
        monkeypatch.setenv(
            "GIFTGENIUS_DATABASE_URL", request.getfixturevalue("migrated_postgres_url")
        )
    else:
        request.getfixturevalue("seeded_home")
    return str(request.param)


LONG_ID = "g-" + "1" * 63  # 65 characters: the column holds 64

HOSTILE = {
    "id over 64 characters": (_row(LONG_ID), "id: String should have at most 64 characters"),
    "price of 1e8": (_row("g-900002", price=1e8), "price: Input should be less than or equal"),
    "price Infinity": (_row("g-900002", price=float("inf")), "price: Input should be a finite"),
    "price NaN": (_row("g-900002", price=float("nan")), "price: Input should be a finite number"),
    "price under half a cent": (_row("g-900002", price=0.004), "price: Value error, 0.004 is"),
    "NUL in the title": (_row("g-900002", title="Tea\x00set"), "title: Value error, a NUL"),
    "NUL in a tag": (_row("g-900002", tags=["art", "t\x00ea"]), "tags: Value error, a NUL"),
    "lone surrogate in a tag": (
        _row("g-900002", tags=["art", "te\ud800a"]),
        "tags: Value error, a lone surrogate",
    ),
    "huge description": (
        _row("g-900002", description="long " * 100_000),
        "description: String should have at most",
    ),
}


@pytest.mark.slow
@pytest.mark.parametrize("case", list(HOSTILE))
def test_a_row_the_schema_cannot_hold_is_refused_with_its_line_on_both_backends(
    backend: str, case: str, tmp_path: Path
) -> None:
    row, problem = HOSTILE[case]
    before = _catalog()
    path = _jsonl(tmp_path / "hostile.jsonl", [_row("g-900001"), row, _row("g-900003")])
    ran = _cli("catalog", "import", str(path), "--replace")
    assert ran.code == 1, (ran.out, ran.err)
    assert ran.err.startswith("error: Catalog file") and "Traceback" not in ran.err
    assert "has 1 invalid row; nothing was imported" in ran.err
    assert f"line 2: {problem}" in ran.err, ran.err
    assert _catalog() == before


@pytest.mark.slow
def test_the_same_limits_refuse_a_csv_row(backend: str, tmp_path: Path) -> None:
    path = tmp_path / "shop.csv"
    path.write_text(
        "id,title,description,price,currency,tags,recipients,ships_to,delivery_days\n"
        "g-1001,Tea sampler,Twelve green teas from three countries.,18.5,USD,tea,anyone,*,3\n"
        "g-1002,Tea sampler,Twelve green teas from three countries.,Infinity,USD,tea,anyone,*,3\n"
        "g-1003,Tea sampler,Twelve green teas from three countries.,0.001,USD,tea,anyone,*,3\n"
        f"{LONG_ID},Tea sampler,Twelve green teas from three countries.,1,USD,tea,anyone,*,3\n"
        "g-1005,Tea\x00sampler,Twelve green teas from three countries.,1,USD,tea,anyone,*,3\n",
        encoding="utf-8",
    )
    before = _catalog()
    ran = _cli("catalog", "import", str(path), "--replace")
    assert ran.code == 1 and "Traceback" not in ran.err
    assert "has 4 invalid rows; nothing was imported" in ran.err, ran.err
    for line in ("line 3: price", "line 4: price", "line 5: id", "line 6: title"):
        assert line in ran.err, ran.err
    assert _catalog() == before


@pytest.mark.slow
def test_what_is_accepted_is_exactly_what_is_read_back(backend: str, tmp_path: Path) -> None:
    """Prices are rounded to cents as the column keeps them, so the validated product and the
    stored one are the same (the smallest and largest prices the column holds included)."""
    rows = [
        _row("g-900001", price=12.345),
        _row("g-900002", price=0.005),
        _row("g-900003", price=PRICE_MAX),
        _row("g-900004", price=19.999),
    ]
    path = _jsonl(tmp_path / "prices.jsonl", rows)
    ran = _cli("catalog", "import", str(path), "--replace")
    assert ran.code == 0, ran.err
    accepted, _ = read_catalog_file(path)
    db = Database.from_settings(load_settings())
    try:
        with db.read() as repos:
            stored = repos.catalog.by_ids([p.id for p in accepted])
    finally:
        db.dispose()
    assert [stored[p.id] for p in accepted] == accepted
    assert [p.price for p in accepted] == [12.35, 0.01, PRICE_MAX, 20.0]


def test_the_model_limits_are_the_columns() -> None:
    """The limits ``Product`` enforces are the products table's, so they cannot drift."""
    columns = ProductRow.__table__.c
    assert columns.id.type.length == ID_MAX_LENGTH
    assert columns.title.type.length == TITLE_MAX_LENGTH
    price = columns.price.type
    assert price.scale == PRICE_PLACES
    largest = Decimal(10) ** (price.precision - price.scale) - Decimal(1).scaleb(-price.scale)
    assert Decimal(str(PRICE_MAX)) == largest


# -- files that are not rows at all: plain messages, nothing written -----------------


def _refused(path: Path, *expected: str) -> None:
    before = _catalog()
    ran = _cli("catalog", "import", str(path), "--replace")
    assert ran.code == 1, (ran.out, ran.err)
    assert ran.err.startswith("error: Catalog file") and "Traceback" not in ran.err
    for part in expected:
        assert part in ran.err, ran.err
    assert _catalog() == before


@pytest.mark.slow
def test_deeply_nested_json_gets_a_plain_message(seeded_home: Path, tmp_path: Path) -> None:
    lines = tmp_path / "deep.jsonl"
    deep = '{"id": ' + "[" * 100_000 + "]" * 100_000 + "}"
    lines.write_text(json.dumps(_row("g-900001")) + "\n" + deep + "\n", encoding="utf-8")
    _refused(lines, "line 2: nested too deeply", "nothing was imported")
    array = tmp_path / "deep.json"
    array.write_text("[" + deep + "]", encoding="utf-8")
    _refused(array, "nested too deeply")


@pytest.mark.slow
def test_a_5000_digit_integer_gets_a_plain_message(seeded_home: Path, tmp_path: Path) -> None:
    lines = tmp_path / "digits.jsonl"
    huge = json.dumps(_row("g-900001", min_age=0)).replace(
        '"min_age": 0', '"min_age": ' + "9" * 5000
    )
    lines.write_text(json.dumps(_row("g-900002")) + "\n" + huge + "\n", encoding="utf-8")
    _refused(lines, "line 2: a number of more than", "nothing was imported")
    array = tmp_path / "digits.json"
    array.write_text("[" + huge + "]", encoding="utf-8")
    _refused(array, "a number of more than")
    cell = tmp_path / "digits.csv"
    cell.write_text(
        "id,title,description,price,currency,tags,recipients,ships_to,delivery_days\n"
        f"g-1001,Tea sampler,Twelve green teas from three countries.,18.5,USD,tea,anyone,*,"
        f"{'9' * 5000}\n",
        encoding="utf-8",
    )
    _refused(cell, "line 2: delivery_days")


@pytest.mark.slow
def test_a_huge_csv_cell_gets_a_plain_message(seeded_home: Path, tmp_path: Path) -> None:
    path = tmp_path / "huge.csv"
    path.write_text(
        "id,title,description,price,currency,tags,recipients,ships_to,delivery_days\n"
        "g-1001,Tea sampler,Twelve green teas from three countries.,18.5,USD,tea,anyone,*,3\n"
        f"g-1002,Tea sampler,{'x' * 300_000},18.5,USD,tea,anyone,*,3\n",
        encoding="utf-8",
    )
    _refused(path, "line 3", "characters", "nothing was imported")


@pytest.mark.slow
@pytest.mark.postgres
def test_a_real_process_says_it_plainly_on_postgres(
    migrated_postgres_url: str, tmp_path: Path, command_server: ForkServers
) -> None:
    """As a person runs it: a separate process, Postgres, a NUL byte and an id too long."""
    path = _jsonl(
        tmp_path / "hostile.jsonl",
        [_row("g-900001"), _row("g-900002", title="Tea\x00set"), _row(LONG_ID)],
    )
    done = command_server.run(
        ["catalog", "import", str(path), "--replace"],
        stdin="",
        env={**os.environ, "GIFTGENIUS_DATABASE_URL": migrated_postgres_url},
        cwd=os.getcwd(),
        timeout=120,
    )
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    assert "has 2 invalid rows; nothing was imported" in done.stderr
    assert "line 2: title" in done.stderr and "line 3: id" in done.stderr


# -- a row already in the table that cannot be read back ------------------------------


def _break_a_stored_row(gift_id: str) -> None:
    """What an import stored before these rules: a price of 0.00 (0.004, rounded)."""
    engine = sa.create_engine(load_settings().effective_database_url)
    try:
        with engine.begin() as conn:
            conn.execute(sa.update(ProductRow).where(ProductRow.id == gift_id).values(price=0))
    finally:
        engine.dispose()


@pytest.mark.slow
def test_an_unreadable_stored_row_is_skipped_and_logged_not_a_failed_search(
    backend: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    rows = [_row(f"g-90000{n}", tags=["lighthouse", "art"]) for n in range(1, 4)]
    ran = _cli("catalog", "import", str(_jsonl(tmp_path / "ok.jsonl", rows)), "--replace")
    assert ran.code == 0, ran.err
    _break_a_stored_row("g-900002")

    with caplog.at_level(logging.WARNING, logger="giftgenius"):
        found = _cli("catalog", "search", "lighthouse", "--json")
        assert found.code == 0, found.err
        assert [r["id"] for r in json.loads(found.out)["results"]] == ["g-900001", "g-900003"]

        shown = _cli("catalog", "show", "g-900002")
        assert shown.code != 0 and "No gift has id 'g-900002'" in shown.err
        assert "Traceback" not in shown.err

        db = Database.from_settings(load_settings())
        try:
            with db.read() as repos:  # the search a chat turn runs
                ranked = repos.catalog.search().ranked(words_query("lighthouse"), limit=20)
                pages = [p.id for page in repos.catalog.pages() for p in page]
        finally:
            db.dispose()
    assert [p.id for p in ranked] == ["g-900001", "g-900003"]
    assert pages == ["g-900001", "g-900003"]
    skipped = [r for r in caplog.records if getattr(r, "event", None) == "unreadable_product"]
    assert skipped and all(getattr(r, "gift_id", None) == "g-900002" for r in skipped)


def test_a_huge_unknown_key_is_named_briefly(seeded_home: Path, tmp_path: Path) -> None:
    """The message names the key, cut short: a 100,000-character key is not echoed whole."""
    path = _jsonl(tmp_path / "key.jsonl", [_row("g-900001") | {"k" * 100_000: 1}])
    ran = _cli("catalog", "import", str(path))
    assert ran.code == 1 and "Traceback" not in ran.err
    assert f"line 1: {'k' * 40}…: Extra inputs are not permitted" in ran.err
    assert len(ran.err) < 500
