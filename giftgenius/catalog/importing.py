"""Reading a catalog file to import: JSON lines (or one JSON array) or CSV, every row
validated by ``catalog.models.Product`` — the model the shipped catalog is read with.

A file is read whole before anything is written, so a bad row stops the import with its
line number and what is wrong, and the catalog is left as it was. ``Product``'s limits are
the products table's, so a file that passes here is stored the same on SQLite and Postgres.

Whatever the file holds ends in ``InvalidCatalogFile``, never a traceback: JSON nested
past the parser's depth, integers longer than Python converts (``sys.get_int_max_str_digits``)
and CSV cells over the csv module's field limit included.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import sys
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter, ValidationError

from giftgenius.catalog.models import Product
from giftgenius.errors import InvalidCatalogFile

LIST_FIELDS = ("tags", "recipients", "ships_to")
LIST_SEPARATOR = "|"  # in a CSV cell: "board-game|game"
_SHOWN = 10  # problems listed in the message; the rest are counted
_FIELDS = frozenset(Product.model_fields)


def import_version(data: bytes) -> str:
    """The catalog version an import records: its source and the file's digest."""
    return "import:" + hashlib.sha256(data).hexdigest()[:16]


def read_catalog_file(path: Path) -> tuple[list[Product], bytes]:
    """The products of the file (by id, in file order) and its bytes; raises
    ``InvalidCatalogFile`` naming every bad line (up to ten)."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InvalidCatalogFile(f"Cannot read catalog file {path}: {exc.strerror}.") from exc
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InvalidCatalogFile(
            f"Catalog file {path} is not UTF-8 (byte {exc.start} cannot be read); "
            "save it as UTF-8 and import it again."
        ) from exc
    if path.suffix.lower() == ".csv":
        rows = _csv_rows(text, path)
    elif text.lstrip().startswith("["):
        rows = _array_rows(text, path)
    else:
        rows = _json_lines(text)
    products, problems = _validated(rows)
    if problems:
        more = f" (and {len(problems) - _SHOWN} more)" if len(problems) > _SHOWN else ""
        raise InvalidCatalogFile(
            f"Catalog file {path} has {len(problems)} invalid "
            f"{'row' if len(problems) == 1 else 'rows'}{more}; nothing was imported. "
            + " ".join(problems[:_SHOWN])
        )
    if not products:
        raise InvalidCatalogFile(f"Catalog file {path} holds no products; nothing was imported.")
    return products, data


Row = tuple[str, Any]  # ("line 7", the raw row) or ("line 7", an error message)


def _json(text: str) -> Any:
    """``json.loads``, with what it cannot read said plainly (``ValueError``): a JSON error
    with its place, nesting past the parser's depth, a number too long to convert."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        raise
    except RecursionError:
        raise ValueError("nested too deeply: a product is one flat JSON object") from None
    except ValueError as exc:  # int("9" * 5000): Python converts a few thousand digits at most
        if "digits" not in str(exc):
            raise ValueError(f"not valid JSON ({exc})") from None
        raise ValueError(
            f"a number of more than {sys.get_int_max_str_digits()} digits: no field holds one"
        ) from None


def _json_lines(text: str) -> list[Row]:
    rows: list[Row] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            rows.append((f"line {number}", _json(line)))
        except json.JSONDecodeError as exc:
            rows.append((f"line {number}", f"not valid JSON ({exc.msg} at column {exc.colno})"))
        except ValueError as exc:
            rows.append((f"line {number}", str(exc)))
    return rows


def _array_rows(text: str, path: Path) -> list[Row]:
    try:
        items = _json(text)
    except json.JSONDecodeError as exc:
        raise InvalidCatalogFile(
            f"Catalog file {path} is not valid JSON ({exc.msg} at line {exc.lineno}, column "
            f"{exc.colno}); give a JSON array of products or one product per line."
        ) from exc
    except ValueError as exc:
        raise InvalidCatalogFile(
            f"Catalog file {path} cannot be read: {exc}. Fix it, or give one product per line "
            "to have the line named; nothing was imported."
        ) from exc
    if not isinstance(items, list):
        raise InvalidCatalogFile(f"Catalog file {path} must hold a JSON array of products.")
    return [(f"item {n}", item) for n, item in enumerate(items, start=1)]


def _csv_rows(text: str, path: Path) -> list[Row]:
    reader = csv.DictReader(io.StringIO(text, newline=""))
    try:
        unknown = sorted(set(reader.fieldnames or ()) - _FIELDS)
        if unknown:
            raise InvalidCatalogFile(
                f"Catalog file {path} has unknown columns {', '.join(map(repr, unknown))}; the "
                f"columns are {', '.join(Product.model_fields)}."
            )
        return [_csv_row(record, f"line {reader.line_num}") for record in reader]
    except csv.Error as exc:  # the reader cannot go on past it: the whole file is refused
        # (the line is the underlying reader's: the DictReader's counts whole rows read)
        limit = csv.field_size_limit()
        why = (
            f"a cell is longer than {limit:,} characters"
            if "field limit" in str(exc)
            else f"{exc} (check its quotes)"
        )
        raise InvalidCatalogFile(
            f"Catalog file {path} cannot be read as CSV at line {reader.reader.line_num}: {why}; "
            "fix that line and import it again; nothing was imported."
        ) from exc


def _csv_row(record: dict[str | Any, Any], where: str) -> Row:
    if None in record:
        return (where, "more cells than columns")
    row: dict[str, Any] = {}
    for name, cell in record.items():
        cell = (cell or "").strip()
        if name in LIST_FIELDS:
            row[name] = [part.strip() for part in cell.split(LIST_SEPARATOR) if part.strip()]
        elif cell:
            row[name] = cell
    return (where, row)


_PRODUCT = TypeAdapter(Product)


def _validated(rows: list[Row]) -> tuple[list[Product], list[str]]:
    products: list[Product] = []
    problems: list[str] = []
    seen: dict[str, str] = {}
    for where, raw in rows:
        if isinstance(raw, str):
            problems.append(f"{where}: {raw}.")
            continue
        if not isinstance(raw, dict):
            problems.append(f"{where}: a product must be a JSON object.")
            continue
        try:
            product = _PRODUCT.validate_python(raw)
        except ValidationError as exc:
            errors = "; ".join(f"{_place(e['loc'])}: {e['msg']}" for e in exc.errors())
            problems.append(f"{where}: {errors}.")
            continue
        if product.id in seen:
            problems.append(f"{where}: id {product.id} is already on {seen[product.id]}.")
            continue
        seen[product.id] = where
        products.append(product)
    return products, problems


def _place(loc: tuple[int | str, ...]) -> str:
    """Where in the row a problem is ("tags.1"); an unknown key is cut to 40 characters."""
    parts = [str(p) if len(str(p)) <= 40 else str(p)[:40] + "…" for p in loc]
    return ".".join(parts) or "row"
