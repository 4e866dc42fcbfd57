"""What the catalog commands print from product data can never drive the terminal.

A catalog is imported from files a deployment did not write itself; a title holding
``ESC [2J`` (clear screen) or ``ESC ] 0;… BEL`` (window title), printed as it is, would act
on the terminal of whoever looks at the catalog. rich prints escape sequences as they are
(it drops only a few C0 characters such as BEL), so the commands must clean the text.
The products here are written into the database directly, not through ``catalog import``,
so the output is tested whatever the import lets through.
"""

from __future__ import annotations

import json
import re

import pytest

from giftgenius.catalog import Product
from giftgenius.settings import load_settings
from giftgenius.storage.db import Database

EVIL = "\x1b[2J\x1b]0;pwned\x07\x9b31m\u202e"
# What must never reach a terminal: ESC, BEL, the C1 range (8-bit CSI, OSC…), bidi overrides.
UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def _plant_evil_product() -> None:
    product = Product(
        id="g-990001",
        title=f"Lighthouse{EVIL} lamp",
        description=f"A brass lighthouse lamp{EVIL} for a desk.",
        price=40.0,
        currency="EUR",
        tags=[f"lamp{EVIL}"],
        recipients=[f"anyone{EVIL}"],
        ships_to=["*"],
        delivery_days=5,
    )
    db = Database.from_settings(load_settings())
    try:
        db.ensure_catalog()
        with db.write() as repos:
            repos.catalog.upsert([product], "import:evil")
    finally:
        db.dispose()


@pytest.mark.slow
def test_catalog_show_and_search_print_no_control_characters(cli) -> None:
    _plant_evil_product()
    shown = cli("catalog", "show", "g-990001")
    assert shown.code == 0, shown.err
    assert not UNSAFE.search(shown.out + shown.err), repr(shown.out)
    assert "g-990001  Lighthouse lamp" in shown.out  # the whole sequences are gone

    found = cli("catalog", "search", "lighthouse", "lamp")
    assert found.code == 0, found.err
    assert "g-990001" in found.out
    assert not UNSAFE.search(found.out + found.err), repr(found.out)


@pytest.mark.slow
def test_catalog_json_escapes_control_characters_and_keeps_the_data(cli) -> None:
    """JSON keeps the data as stored (a program reads it back exactly) but escapes it."""
    _plant_evil_product()
    shown = cli("catalog", "show", "g-990001", "--json")
    assert shown.code == 0, shown.err
    assert not UNSAFE.search(shown.out), repr(shown.out)
    assert json.loads(shown.out)["title"] == f"Lighthouse{EVIL} lamp"

    found = cli("catalog", "search", "lighthouse", "lamp", "--json")
    assert found.code == 0, found.err
    assert not UNSAFE.search(found.out), repr(found.out)
    titles = [r["title"] for r in json.loads(found.out)["results"]]
    assert f"Lighthouse{EVIL} lamp" in titles


@pytest.mark.slow
def test_a_searched_word_with_escapes_is_not_echoed_raw(cli) -> None:
    ran = cli("catalog", "search", "zzz\x1b]0;pwned\x07\x1b[2J")
    assert ran.code == 0, ran.err
    assert "Nothing matches" in ran.out
    assert not UNSAFE.search(ran.out + ran.err), repr(ran.out)


def test_an_error_line_quoting_a_file_name_carries_no_escapes(cli, tmp_path) -> None:
    ran = cli("catalog", "import", str(tmp_path / "no\x1b[31mfile\x1b]0;pwned\x07.jsonl"))
    assert ran.code == 1
    assert ran.err.startswith("error: ") and "nofile.jsonl" in ran.err
    assert not UNSAFE.search(ran.out + ran.err), repr(ran.err)


@pytest.mark.slow
def test_the_imported_file_name_is_printed_without_escapes(cli, tmp_path) -> None:
    row = {
        "id": "g-990002",
        "title": "Tide clock",
        "description": "A tide clock for the harbour house.",
        "price": 30.0,
        "currency": "EUR",
        "tags": ["clock"],
        "recipients": ["anyone"],
        "ships_to": ["*"],
        "delivery_days": 5,
    }
    path = tmp_path / "shop\x1b[2J.jsonl"
    path.write_text(json.dumps(row) + "\n", encoding="utf-8")
    ran = cli("catalog", "import", str(path))
    assert ran.code == 0, ran.err
    assert "from shop.jsonl" in ran.out
    assert not UNSAFE.search(ran.out + ran.err), repr(ran.out)
