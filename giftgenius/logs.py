"""JSON-lines logs under ``settings.logs_dir``, with personal data scrubbed before formatting.

The terminal belongs to the chat, so nothing goes to stderr: records go to one rotating
file, ``giftgenius.log``, one JSON object per line (``ts``, ``level``, ``logger``, ``msg``
plus any ``extra=`` fields such as ``event`` and ``run_id``), which ``jq`` and log shippers
read as they are.

The handler sits on the root logger so warnings from libraries (SQLAlchemy, httpx, openai)
land in the same file; the application's own level (``settings.log_level``) is set on the
``giftgenius`` logger only, so turning on DEBUG does not flood the file with library noise.
Modules log through ``logging.getLogger(__name__)``, which puts them under that logger.
"""

from __future__ import annotations

import json
import logging
import threading
from datetime import UTC, datetime
from logging.handlers import RotatingFileHandler
from pathlib import Path
from typing import Any, Final

from giftgenius.errors import ConfigError
from giftgenius.messages import speak
from giftgenius.privacy import scrub, scrub_obj
from giftgenius.settings import Settings

__all__ = [
    "APP_LOGGER",
    "LOG_FILE_NAME",
    "JsonLinesFormatter",
    "PiiScrubFilter",
    "configure_logging",
    "log_file",
    "shutdown_logging",
]

APP_LOGGER: Final = "giftgenius"
LOG_FILE_NAME: Final = "giftgenius.log"
MAX_BYTES: Final = 5 * 1024 * 1024
BACKUP_COUNT: Final = 5
_HANDLER_NAME: Final = "giftgenius-jsonl"

# Attributes every LogRecord has; anything else on a record came from ``extra=``.
_RECORD_FIELDS: Final = frozenset(
    logging.LogRecord("x", logging.INFO, "x", 0, "x", None, None).__dict__
) | {"message", "asctime", "taskName"}
_BASE_KEYS: Final = ("ts", "level", "logger", "msg")

_lock = threading.Lock()


def _extra_keys(record: logging.LogRecord) -> list[str]:
    return [key for key in record.__dict__ if key not in _RECORD_FIELDS and not key.startswith("_")]


class PiiScrubFilter(logging.Filter):
    """Scrub the message, its arguments, ``extra`` strings and tracebacks of every record.

    It runs as a handler filter, before formatting, so no formatter (ours or a test's
    capture handler further down the list) ever sees raw PII. The message is rendered with
    its arguments first and then scrubbed as a whole, so PII split across the format string
    and an argument, or hidden in an argument's ``str()``, is caught too.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "_giftgenius_scrubbed", False):
            return True
        try:
            message = record.getMessage()
        except (TypeError, ValueError) as exc:
            # A broken format string must not crash the caller nor lose the record.
            message = f"unformattable log message ({exc}): {record.msg!r} % {record.args!r}"
        record.msg = scrub(message)
        record.args = None
        for key in _extra_keys(record):
            setattr(record, key, scrub_obj(getattr(record, key)))
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = scrub(record.exc_text)
        if record.stack_info:
            record.stack_info = scrub(record.stack_info)
        record._giftgenius_scrubbed = True
        return True


def _json_default(value: Any) -> str:
    """Objects json cannot encode are logged as their ``str()``, scrubbed like the rest."""
    return scrub(str(value))


class JsonLinesFormatter(logging.Formatter):
    """One JSON object per record; newlines inside values are escaped, so one line each.

    A record's line is made once and kept on it: the rotating file handler formats each
    record twice (to measure it against the size limit, then to write it), and a turn
    logs two records.
    """

    def format(self, record: logging.LogRecord) -> str:
        line = record.__dict__.get("_giftgenius_line")
        if line is None:
            line = self._format(record)
            record._giftgenius_line = line
        return str(line)

    def _format(self, record: logging.LogRecord) -> str:
        ts = datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds")
        out: dict[str, Any] = {
            "ts": ts.replace("+00:00", "Z"),
            "level": record.levelname,
            "logger": record.name,
            "msg": record.getMessage(),
        }
        for key in _extra_keys(record):
            if key not in _BASE_KEYS:  # an extra may not overwrite the fixed fields
                out[key] = getattr(record, key)
        if record.exc_info and not record.exc_text:
            record.exc_text = scrub(self.formatException(record.exc_info))
        if record.exc_text:
            out["exc"] = record.exc_text
        if record.stack_info:
            out["stack"] = record.stack_info
        return json.dumps(out, ensure_ascii=False, default=_json_default)


def log_file(settings: Settings) -> Path:
    """Where ``configure_logging`` writes (rotated files get ``.1``, ``.2``... suffixes)."""
    return settings.logs_dir / LOG_FILE_NAME


def _remove_our_handlers(root: logging.Logger) -> None:
    """Close the handler(s) ``configure_logging`` added; other handlers stay."""
    for old in [handler for handler in root.handlers if handler.get_name() == _HANDLER_NAME]:
        root.removeHandler(old)
        old.close()


def configure_logging(settings: Settings) -> None:
    """Send logs to ``settings.logs_dir/giftgenius.log`` as scrubbed JSON lines.

    Idempotent: a second call replaces the handler (picking up a new home or level)
    instead of adding one, so every record is written once.
    """
    path = log_file(settings)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handler = RotatingFileHandler(
            path, maxBytes=MAX_BYTES, backupCount=BACKUP_COUNT, encoding="utf-8"
        )
    except OSError as exc:
        raise ConfigError(
            speak("install", "logs.cannot_write", path=path, reason=exc.strerror or exc)
        ) from exc
    handler.set_name(_HANDLER_NAME)
    handler.setLevel(settings.log_level)
    handler.addFilter(PiiScrubFilter())
    handler.setFormatter(JsonLinesFormatter())
    with _lock:
        root = logging.getLogger()
        _remove_our_handlers(root)
        root.addHandler(handler)
        logging.getLogger(APP_LOGGER).setLevel(settings.log_level)


def shutdown_logging() -> None:
    """Remove and close the handler ``configure_logging`` added (tests, ``forget``, exit)."""
    with _lock:
        _remove_our_handlers(logging.getLogger())
        logging.getLogger(APP_LOGGER).setLevel(logging.NOTSET)
