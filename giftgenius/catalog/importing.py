"""Reading a catalog file to import: JSON lines (or one JSON array) or CSV, every row
validated by ``catalog.models.Product`` — the model the shipped catalog is read with.

A file of a million products does not fit in memory as products, so it is read a row at a
time, twice: ``scan_catalog_file`` validates every row (its digest, the catalog's version,
taken on the way) and refuses the file with the first problems and their line numbers, so
a bad row anywhere leaves the catalog as it was; ``CatalogFile.products`` then reads it
again for the writes. Nothing but the row at hand is held: ids already seen go to a
throwaway SQLite file on disk (a duplicate is found by its key, and named with the line
it first stood on), a JSON array is parsed as a stream (``ijson``). ``Product``'s limits
are the products table's, so a file that passes here is stored the same on SQLite and
Postgres.

Whatever the file holds ends in ``InvalidCatalogFile``, never a traceback: JSON nested
past the parser's depth, integers longer than Python converts (``sys.get_int_max_str_digits``)
and CSV cells over the csv module's field limit included.
"""

from __future__ import annotations

import codecs
import csv
import hashlib
import io
import json
import re
import sqlite3
import sys
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, TypeVar

from pydantic import TypeAdapter, ValidationError

from giftgenius import messages
from giftgenius.catalog.models import Product
from giftgenius.errors import InvalidCatalogFile

LIST_FIELDS = ("tags", "recipients", "ships_to")
LIST_SEPARATOR = "|"  # in a CSV cell: "board-game|game"
_SHOWN = 10  # problems listed in the message; the rest are counted
_FIELDS = frozenset(Product.model_fields)
_CHUNK = 1 << 20  # bytes read at a time for the digest
_BOM = codecs.BOM_UTF8
_T = TypeVar("_T")


def import_version(data: bytes) -> str:
    """The catalog version an import records: its source and the file's digest."""
    return "import:" + hashlib.sha256(data).hexdigest()[:16]


@dataclass(frozen=True)
class CatalogFile:
    """A catalog file every row of which passed: how many products, and its version."""

    path: Path
    count: int
    version: str

    def products(self) -> Iterator[Product]:
        """The file's products in file order, read again a row at a time."""
        for where, raw in _rows(self.path):
            product, problem = _product(where, raw)
            if product is None:  # the file changed since it was scanned
                raise InvalidCatalogFile(_speak("changed", path=self.path, problem=problem))
            yield product


def scan_catalog_file(path: Path) -> CatalogFile:
    """Validate every row of the file, holding one at a time; raises ``InvalidCatalogFile``
    naming the first bad lines (up to ten) and counting the rest."""
    version = _version(path)
    problems: list[str] = []
    bad = count = 0
    with _Seen() as seen:
        for where, raw in _rows(path):
            product, problem = _product(where, raw)
            if product is not None:
                first = seen.add(product.id, where)
                if first is not None:
                    problem = _speak("duplicate", where=where, id=product.id, first=first)
            if problem is not None:
                bad += 1
                if len(problems) < _SHOWN:
                    problems.append(problem)
            else:
                count += 1
    if bad:
        more = _speak("more", n=bad - _SHOWN) if bad > _SHOWN else ""
        rows = messages.speak_count("catalog_import", "invalid", bad, path=path, more=more)
        raise InvalidCatalogFile(f"{rows} {' '.join(problems)}")
    if not count:
        raise InvalidCatalogFile(_speak("empty", path=path))
    return CatalogFile(path, count, version)


def read_catalog_file(path: Path) -> tuple[list[Product], bytes]:
    """The products of the file (by id, in file order) and its bytes, all in memory.

    For small files (tests, the shipped catalog's size); an import of any size goes through
    ``scan_catalog_file``, which holds one row at a time.
    """
    scanned = scan_catalog_file(path)
    return list(scanned.products()), path.read_bytes()


def _version(path: Path) -> str:
    """The file's ``import_version``, read a chunk at a time; refuses a file that is not
    UTF-8, naming the first byte that cannot be read."""
    digest = hashlib.sha256()
    decoder = codecs.getincrementaldecoder("utf-8")()
    offset = 0
    try:
        with path.open("rb") as file:
            while chunk := file.read(_CHUNK):
                digest.update(chunk)
                try:
                    decoder.decode(chunk)
                except UnicodeDecodeError as exc:
                    # the decoder keeps an unfinished sequence back: its start counts from it
                    raise _not_utf8(
                        path, offset + exc.start - len(exc.object) + len(chunk)
                    ) from None
                offset += len(chunk)
            decoder.decode(b"", final=True)
    except UnicodeDecodeError as exc:  # the file ends inside a character
        raise _not_utf8(path, offset - len(exc.object) + exc.start) from None
    except OSError as exc:
        raise InvalidCatalogFile(_speak("unreadable", path=path, reason=exc.strerror)) from exc
    return "import:" + digest.hexdigest()[:16]


def _not_utf8(path: Path, byte: int) -> InvalidCatalogFile:
    return InvalidCatalogFile(_speak("not_utf8", path=path, byte=byte))


class _Seen:
    """The ids met so far and the line each was first on, in a throwaway SQLite file: a
    million ids would take a hundred megabytes as a Python set, a few pages of cache here."""

    def __enter__(self) -> _Seen:
        self._dir = tempfile.TemporaryDirectory(prefix="giftgenius-import-")
        self._db = sqlite3.connect(Path(self._dir.name) / "ids.db", isolation_level=None)
        self._db.execute("PRAGMA journal_mode = OFF")
        self._db.execute("PRAGMA synchronous = OFF")
        self._db.execute("CREATE TABLE seen (id TEXT PRIMARY KEY, place TEXT) WITHOUT ROWID")
        self._db.execute("BEGIN")
        return self

    def add(self, product_id: str, where: str) -> str | None:
        """None for a new id; else where it was first seen."""
        cursor = self._db.execute(
            "INSERT INTO seen VALUES (?, ?) ON CONFLICT DO NOTHING", (product_id, where)
        )
        if cursor.rowcount:
            return None
        row = self._db.execute("SELECT place FROM seen WHERE id = ?", (product_id,)).fetchone()
        return str(row[0])

    def __exit__(self, *exc: object) -> None:
        self._db.close()
        self._dir.cleanup()


Row = tuple[str, Any]  # ("line 7", the raw row) or ("line 7", an error message)


def _rows(path: Path) -> Iterator[Row]:
    """The file's rows, one at a time, by its format (see the module's docstring)."""
    try:
        with path.open("rb") as file:
            start = file.read(_CHUNK).lstrip(_BOM).lstrip()
            file.seek(0)
            if path.suffix.lower() == ".csv":
                yield from _csv_rows(io.TextIOWrapper(file, encoding="utf-8-sig", newline=""), path)
            elif start.startswith(b"["):
                yield from _array_rows(file, path)
            else:
                yield from _json_lines(file)
    except OSError as exc:
        raise InvalidCatalogFile(_speak("unreadable", path=path, reason=exc.strerror)) from exc


def _json(text: str) -> Any:
    """``json.loads``, with what it cannot read said plainly (``_plainly``)."""
    return _plainly(lambda: json.loads(text))


def _plainly(decode: Callable[[], _T]) -> _T:
    """Run a ``json`` decode, with what it cannot read said plainly (``_Unreadable``): a JSON
    error with its place, nesting past the parser's depth, a number too long to convert."""
    try:
        return decode()
    except json.JSONDecodeError:
        raise
    except RecursionError:
        raise _Unreadable(_speak("too_deep")) from None
    except ValueError as exc:  # int("9" * 5000): Python converts a few thousand digits at most
        if "digits" not in str(exc):
            raise _Unreadable(_speak("not_json", reason=exc)) from None
        raise _Unreadable(_speak("too_many_digits", digits=sys.get_int_max_str_digits())) from None


def _json_lines(file: IO[bytes]) -> Iterator[Row]:
    line_at = _place_text("where.line")
    for number, data in enumerate(file, start=1):
        line = data.decode("utf-8")  # ``_version`` saw the whole file is UTF-8
        if number == 1:
            line = line.removeprefix("\ufeff")
        if not line.strip():
            continue
        where = line_at.format(number=number)
        try:
            yield (where, _json(line))
        except json.JSONDecodeError as exc:
            yield (where, _speak("json_at_column", reason=exc.msg, column=exc.colno))
        except _Unreadable as exc:
            yield (where, str(exc))


def _array_rows(file: IO[bytes], path: Path) -> Iterator[Row]:
    """The items of one JSON array, decoded one at a time from a window of the file.

    Each item is read by the same ``json`` module as a line of JSON lines (so the same
    file means the same thing in either layout, and says what is wrong the same way); the
    window grows only while an item is cut at its end, up to ``_ITEM_MAX`` characters.
    """
    text = io.TextIOWrapper(file, encoding="utf-8-sig")
    window = _Window(text)
    decoder = json.JSONDecoder()
    if window.next_char() != "[":
        raise InvalidCatalogFile(_speak("not_array", path=path))
    window.pos += 1
    number = 0
    item_at = _place_text("where.item")
    while True:
        char = window.next_char()
        if char == "]" or (char == "," and number):
            window.pos += 1
            if char == "]":
                if window.next_char():
                    raise _bad_array(path, number, _speak("after_closing"))
                return
            window.next_char()  # the item starts at its first character
        elif number:
            raise _bad_array(path, number, _speak("between_items"))
        item, end = _decode_item(window, decoder, path, number)
        number += 1
        window.pos = end
        yield (item_at.format(number=number), item)


def _decode_item(
    window: _Window, decoder: json.JSONDecoder, path: Path, number: int
) -> tuple[Any, int]:
    """The item at the window's position and where it ends, reading on while it is cut."""
    while True:
        buffer, at = window.buffer, window.pos
        try:
            item, end = _plainly(lambda: decoder.raw_decode(buffer, at))  # noqa: B023
        except json.JSONDecodeError as exc:
            if window.more():
                continue
            why = _speak("json_at_line", reason=exc.msg, line=exc.lineno)
            raise _bad_array(path, number, why) from exc
        except _Unreadable as exc:
            raise _bad_array(path, number, str(exc)) from exc
        if end < len(buffer) or not window.more():  # cut at the end, a number may go on
            return item, end


_SPACE = re.compile(r"[ \t\n\r]*")  # JSON's white space
_ITEM_MAX = 1 << 22  # characters: the longest product a JSON array may hold


class _Window:
    """A sliding window over a text file: what has been read and not yet decoded."""

    def __init__(self, text: IO[str]) -> None:
        self._text = text
        self.buffer = ""
        self.pos = 0
        self._done = False
        self.more()

    def more(self) -> bool:
        """Read the next chunk (dropping what was decoded); False at the end of the file
        or when the item at hand is already longer than any product."""
        if self._done or len(self.buffer) - self.pos > _ITEM_MAX:
            return False
        chunk = self._text.read(_CHUNK)
        self.buffer, self.pos = self.buffer[self.pos :] + chunk, 0
        self._done = not chunk
        return bool(chunk)

    def next_char(self) -> str:
        """The next character that is not white space ("" at the end), moved to."""
        while True:
            self.pos = _SPACE.match(self.buffer, self.pos).end()  # type: ignore[union-attr]
            if self.pos < len(self.buffer) or not self.more():
                return self.buffer[self.pos : self.pos + 1]


def _bad_array(path: Path, after: int, why: str) -> InvalidCatalogFile:
    return InvalidCatalogFile(_speak("bad_array", path=path, after=after, why=why))


def _csv_rows(text: IO[str], path: Path) -> Iterator[Row]:
    reader = csv.DictReader(text)
    try:
        unknown = sorted(set(reader.fieldnames or ()) - _FIELDS)
        if unknown:
            raise InvalidCatalogFile(
                _speak(
                    "unknown_columns",
                    path=path,
                    unknown=", ".join(map(repr, unknown)),
                    columns=", ".join(Product.model_fields),
                )
            )
        line_at = _place_text("where.line")
        for record in reader:
            yield _csv_row(record, line_at.format(number=reader.line_num))
    except csv.Error as exc:  # the reader cannot go on past it: the whole file is refused
        # (the line is the underlying reader's: the DictReader's counts whole rows read)
        why = (
            _speak("csv.too_long", limit=_number(csv.field_size_limit()))
            if "field limit" in str(exc)
            else _speak("csv.quotes", reason=exc)
        )
        line = reader.reader.line_num
        raise InvalidCatalogFile(_speak("csv.unreadable", path=path, line=line, why=why)) from exc


def _csv_row(record: dict[str | Any, Any], where: str) -> Row:
    if None in record:
        return (where, _speak("csv.extra_cells"))
    row: dict[str, Any] = {}
    for name, cell in record.items():
        cell = (cell or "").strip()
        if name in LIST_FIELDS:
            row[name] = [part.strip() for part in cell.split(LIST_SEPARATOR) if part.strip()]
        elif cell:
            row[name] = cell
    return (where, row)


_PRODUCT = TypeAdapter(Product)


def _product(where: str, raw: Any) -> tuple[Product | None, str | None]:
    """The row's product, or None and what is wrong with it (its place first)."""
    if isinstance(raw, str):
        return None, _speak("row_problem", where=where, problems=raw)
    if not isinstance(raw, dict):
        return None, _speak("not_object", where=where)
    try:
        return _PRODUCT.validate_python(raw), None
    except ValidationError as exc:
        errors = "; ".join(f"{_place(e['loc'])}: {e['msg']}" for e in exc.errors())
        return None, _speak("row_problem", where=where, problems=errors)


def _place(loc: tuple[int | str, ...]) -> str:
    """Where in the row a problem is ("tags.1"); an unknown key is cut to 40 characters."""
    parts = [str(p) if len(str(p)) <= 40 else str(p)[:40] + "…" for p in loc]
    return ".".join(parts) or _speak("where.row")


_SECTION = "catalog_import"


class _Unreadable(ValueError):
    """A row the ``json`` module cannot read, said plainly in the environment's language."""


def _speak(key: str, **values: Any) -> str:
    """The import's sentence ``key`` in the environment's language."""
    return messages.speak(_SECTION, key, **values)


def _number(value: int) -> str:
    """A number as the environment's language writes it ("131,072", "131 072")."""
    from giftgenius import formats

    return formats.number(value, messages.environment_language())


def _place_text(key: str) -> str:
    """A row's place ("line {number}") unfilled, read once for a whole file."""
    return messages.text(_SECTION, key, messages.environment_language())
