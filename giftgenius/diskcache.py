"""Tables derived from library data, built once and kept on disk for later processes.

Every command is a new process, and some tables cost far more to build than to read: the
place-name index folds 150,000 city names (about a second of CPU, in every ``chat``
process that resolves a place). ``cached`` pickles such a table into the user's cache
folder (``GIFTGENIUS_CACHE_DIR``, else the platform's, e.g. ``~/.cache/giftgenius``) under
a name derived from everything it was built from — the versions of the libraries whose data
it holds and the source of the code that built it — so a changed library or a changed
rule is a new file, never a stale table. The cache is never the truth: a file that is
missing, unreadable or corrupt, or a folder that cannot be written, only means the table
is built again in this process.
"""

from __future__ import annotations

import gc
import hashlib
import importlib.metadata
import logging
import os
import pickle
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TypeVar

log = logging.getLogger("giftgenius.diskcache")

T = TypeVar("T")


def cache_dir() -> Path:
    named = os.environ.get("GIFTGENIUS_CACHE_DIR")
    if named:
        return Path(named)
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("giftgenius", False))


def fingerprint(distributions: Iterable[str], sources: Iterable[Path]) -> str:
    """What a table was built from: library versions and the bytes of the code building it."""
    digest = hashlib.sha256()
    for name in distributions:
        digest.update(f"{name}=={importlib.metadata.version(name)}\n".encode())
    for path in sources:
        digest.update(path.read_bytes())
    return digest.hexdigest()[:20]


def cached(name: str, key: str, build: Callable[[], T]) -> T:
    """The table ``build`` makes, read from ``<cache dir>/<name>-<key>.pickle`` when there."""
    path = cache_dir() / f"{name}-{key}.pickle"
    try:
        data = path.read_bytes()
    except OSError:
        pass
    else:
        gc.disable()  # a table of many small objects loads several times faster
        try:
            return pickle.loads(data)
        except Exception as exc:  # a truncated or foreign file: build it again
            log.warning(
                "cache file unreadable, rebuilt",
                extra={"event": "cache_unreadable", "path": str(path), "error": repr(exc)},
            )
        finally:
            gc.enable()
    value = build()
    _store(path, value)
    return value


def _store(path: Path, value: object) -> None:
    """Write atomically: a process reading meanwhile sees no file or the whole new one."""
    temporary: str | None = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=path.stem, suffix=".tmp")
        with os.fdopen(handle, "wb") as file:
            file.write(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))
        os.replace(temporary, path)
    except OSError as exc:  # a read-only or full disk: this process keeps what it built
        if temporary is not None:
            Path(temporary).unlink(missing_ok=True)
        log.warning(
            "cache file not written",
            extra={"event": "cache_not_written", "path": str(path), "error": repr(exc)},
        )
