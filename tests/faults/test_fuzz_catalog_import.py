"""Fuzzing ``catalog import`` with hostile files, on SQLite and on Postgres, with hypothesis.

Rows are drawn with values at and past every limit the products table has — ids around 64
characters, prices around a cent and around 1e8, infinities and NaN, NUL bytes, lone
surrogates, control characters, huge strings, deep nesting, integers of thousands of
digits, wrong types — and imported through the command line as a person would. Whatever
comes in:

- the command ends with exit 0 or 1 and one plain line, never a traceback;
- refused (1): the catalog is exactly what it was — nothing half imported;
- taken (0): every imported product is read back by the store and found by its id, so no
  row the validator let through can break a search for anyone.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from giftgenius.cli.main import main
from giftgenius.settings import load_settings
from giftgenius.storage.db import Database
from giftgenius.storage.tables import ProductRow

pytestmark = pytest.mark.slow

FUZZ = settings(
    settings.get_profile("fuzz"),
    max_examples=60,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.function_scoped_fixture,  # each example imports with --replace
    ],
)

ODD_TEXT = st.one_of(
    st.text(max_size=12),
    st.sampled_from(["Tea\x00set", "te\ud800a", "\x1b[2Jclear", "\u202eevil", "", " "]),
    st.integers(1, 3).map(lambda n: "long " * (n * 700)),
)
PRICES = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0, 0.004, 0.005, 0.01, 99_999_999.99, 1e8, -1, "12.5", "ten", None]),
    st.integers(-(10**30), 10**30),
    st.decimals(allow_nan=False, allow_infinity=False, places=4).map(float),
)
IDS = st.one_of(
    st.from_regex(r"g-[0-9a-z]{1,70}", fullmatch=True),
    st.from_regex(r"g-[0-9]{60,66}", fullmatch=True),
    st.sampled_from(["", " ", "g-\x00", "g-\ud800", "x" * 64, "x" * 65]),
    st.integers(0, 10**5),
)


def _nested(depth: int) -> Any:
    value: Any = "deep"
    for _ in range(depth):
        value = [value]
    return value


BASE = {
    "title": "Lighthouse print",
    "description": "A print of the Lisbon lighthouses.",  # ids: g- and 4 digits or more
    "price": 30.0,
    "currency": "EUR",
    "tags": ["art", "travel"],
    "recipients": ["anyone"],
    "ships_to": ["*"],
    "delivery_days": 5,
}
EDGES = {  # values at a limit that the table can hold: they must import and read back
    "id": st.one_of(st.from_regex(r"g-[0-9]{4,62}", fullmatch=True), st.just("g-" + "9" * 62)),
    "price": st.sampled_from([0.005, 0.01, 0.015, 12.345, 99_999_999.99, 1, "19.90"]),
    "title": st.sampled_from(["Thé vert 🍵", "x" * 200, "Lighthouse	print", "שלום"]),
    "description": st.sampled_from(["d" * 2000, "naïve café au lait", "0123456789"]),
}
HOSTILE = {
    "id": IDS,
    "title": ODD_TEXT,
    "description": ODD_TEXT,
    "price": PRICES,
    "currency": st.sampled_from(["USD", "eur", "XXX", "", 3, None]),
    "tags": st.one_of(st.lists(ODD_TEXT, max_size=4), st.just(_nested(600))),
    "recipients": st.lists(st.sampled_from(["anyone", "adult", "child", "cat", ""])),
    "ships_to": st.lists(st.sampled_from(["*", "FR", "US", "ZZ", "france"])),
    "delivery_days": st.integers(-5, 10**6),
    "extra": st.text(max_size=5),
}


@st.composite
def rows(draw: st.DrawFn) -> dict[str, Any]:
    """A valid row with values at the table's limits, and sometimes one or two fields
    replaced by hostile ones."""
    row: dict[str, Any] = dict(BASE)
    for field, values in EDGES.items():
        if field == "id" or draw(st.booleans()):
            row[field] = draw(values)
    for field in draw(st.lists(st.sampled_from(sorted(HOSTILE)), max_size=2, unique=True)):
        row[field] = draw(HOSTILE[field])
    return row


LINES = st.lists(
    st.one_of(
        rows().map(json.dumps),
        rows().map(json.dumps),
        st.integers(4400, 5000).map(lambda n: '{"id": "g-1", "price": ' + "9" * n + "}"),
        st.sampled_from(["", "{", "[]", "null", '"text"', "{" * 2000]),
    ),
    min_size=1,
    max_size=4,
)

BACKENDS = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    if request.param == "postgres":
        monkeypatch.setenv(
            "GIFTGENIUS_DATABASE_URL", request.getfixturevalue("seeded_postgres_url")
        )
    else:
        request.getfixturevalue("seeded_home")
    return str(request.param)


def _catalog() -> tuple[str | None, list[str]]:
    """The catalog's version and every id in the products table, readable or not."""
    db = Database.from_settings(load_settings())
    try:
        with db.read() as repos:
            version = repos.catalog.version()
        with db.engine.connect() as conn:
            ids = sorted(conn.scalars(sa.select(ProductRow.id)))
        return version, ids
    finally:
        db.dispose()


@given(lines=LINES)
@FUZZ
def test_any_file_is_imported_whole_or_refused_in_one_line(
    backend: str, tmp_path: Path, lines: list[str]
) -> None:
    path = tmp_path / "fuzzed.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8", errors="surrogatepass")
    before = _catalog()
    out, err = io.StringIO(), io.StringIO()
    code = main(
        ["catalog", "import", str(path), "--replace"], stdin=io.StringIO(""), stdout=out, stderr=err
    )
    said = out.getvalue() + err.getvalue()
    event(f"exit {code}")
    assert "Traceback" not in said and code in (0, 1), said
    version, ids = _catalog()
    if code == 1:
        assert err.getvalue().startswith("error: ") and (version, ids) == before, said
        return
    db = Database.from_settings(load_settings())
    try:
        with db.read() as repos:
            found = repos.catalog.by_ids(ids)
    finally:
        db.dispose()
    assert sorted(found) == sorted(ids), "a product the import took cannot be read back"
