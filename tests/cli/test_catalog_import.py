"""``giftgenius catalog import``: JSON lines or CSV, validated row by row, all or nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from giftgenius.catalog import load_products
from giftgenius.settings import load_settings
from giftgenius.storage.db import Database


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
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _catalog() -> tuple[str | None, list[str]]:
    db = Database.from_settings(load_settings())
    try:
        with db.read() as repos:
            ids = [p.id for page in repos.catalog.pages() for p in page]
            return repos.catalog.version(), ids
    finally:
        db.dispose()


@pytest.mark.slow
def test_import_adds_by_id_and_the_shipped_catalog_is_never_reseeded_over_it(cli, tmp_path):
    assert cli("catalog", "search", "tea").code == 0  # the shipped catalog, seeded
    rows = [_row("g-900001"), _row("g-0001", title="A new first product", price=12.0)]
    ran = cli("catalog", "import", str(_jsonl(tmp_path / "mine.jsonl", rows)))
    assert ran.code == 0, ran.err
    assert "Imported 2 products" in ran.out
    version, ids = _catalog()
    assert version is not None and version.startswith("import:")
    assert len(ids) == len(load_products()) + 1
    assert cli("catalog", "show", "g-0001", "--json").json()["title"] == "A new first product"
    found = cli("catalog", "search", "lighthouses", "--json").json()["results"]
    assert "g-900001" in [r["id"] for r in found]  # indexed as it was written
    assert _catalog() == (version, ids)  # commands that seed did not reseed it


@pytest.mark.slow
def test_import_into_a_new_database_adds_to_the_shipped_catalog(cli, tmp_path):
    """Without --replace, a first import adds to the catalog a new install would use."""
    ran = cli("catalog", "import", str(_jsonl(tmp_path / "mine.jsonl", [_row("g-900002")])))
    assert ran.code == 0, ran.err
    assert "Imported 1 product from" in ran.out
    _, ids = _catalog()
    assert len(ids) == len(load_products()) + 1 and "g-900002" in ids


@pytest.mark.slow
def test_import_replace_makes_the_catalog_the_file_from_csv(cli, tmp_path):
    csv = tmp_path / "shop.csv"
    csv.write_text(
        "id,title,description,price,currency,tags,recipients,ships_to,delivery_days,"
        "in_stock,min_age\n"
        "g-1001,Jeu de société des phares,Un jeu de plateau pour toute la famille.,25,EUR,"
        "board-game|game,anyone,FR|BE,4,true,8\n"
        "g-1002,Tea sampler,Twelve green teas from three countries.,18.5,USD,tea,anyone,*,3,"
        "false,\n",
        encoding="utf-8",
    )
    ran = cli("catalog", "import", str(csv), "--replace")
    assert ran.code == 0, ran.err
    assert _catalog()[1] == ["g-1001", "g-1002"]
    shown = cli("catalog", "show", "g-1001", "--json").json()
    assert shown["ships_to"] == ["FR", "BE"] and shown["min_age"] == 8
    assert cli("catalog", "show", "g-1002", "--json").json()["in_stock"] is False
    board = cli("catalog", "search", "board", "games", "--json").json()["results"]
    assert [r["id"] for r in board] == ["g-1001"]  # French text, English query


@pytest.mark.slow
def test_a_bad_row_names_its_line_and_nothing_is_written(cli, tmp_path):
    assert cli("catalog", "search", "tea").code == 0
    before = _catalog()
    path = _jsonl(tmp_path / "bad.jsonl", [_row("g-900001"), _row("g-900002", price=-3)])
    with path.open("a", encoding="utf-8") as extra:
        extra.write("{not json\n")
        extra.write(json.dumps(_row("g-900001")) + "\n")
    ran = cli("catalog", "import", str(path), "--replace")
    assert ran.code == 1
    assert "has 3 invalid rows; nothing was imported" in ran.err
    assert "line 2: price: Input should be greater than 0" in ran.err
    assert "line 3: not valid JSON" in ran.err
    assert "line 4: id g-900001 is already on line 1" in ran.err
    assert "Traceback" not in ran.err
    assert _catalog() == before


@pytest.mark.slow
def test_unreadable_files_get_a_clear_message(cli, tmp_path):
    missing = cli("catalog", "import", str(tmp_path / "nope.jsonl"))
    assert missing.code == 1 and "Cannot read catalog file" in missing.err
    latin = tmp_path / "latin.jsonl"
    latin.write_bytes(b'{"title": "caf\xe9"}\n')
    assert "is not UTF-8" in cli("catalog", "import", str(latin)).err
    odd = tmp_path / "odd.csv"
    odd.write_text("id,colour\ng-1,red\n", encoding="utf-8")
    assert "unknown columns 'colour'" in cli("catalog", "import", str(odd)).err
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n", encoding="utf-8")
    assert "holds no products" in cli("catalog", "import", str(empty)).err
