"""JSON-lines logging: scrubbed before formatting, one valid JSON object per record."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from giftgenius import logs
from giftgenius.errors import ConfigError
from giftgenius.logs import configure_logging, log_file, shutdown_logging
from giftgenius.settings import Settings, load_settings

EMAIL, PHONE, CARD = "jane.doe@example.com", "+33 6 12 34 56 78", "4111 1111 1111 1111"
RAW = ("jane.doe", "example.com", "12 34 56 78", "4111")


@pytest.fixture
def settings() -> Iterator[Settings]:
    yield load_settings()
    shutdown_logging()


def _lines(settings: Settings) -> list[dict[str, Any]]:
    text = log_file(settings).read_text(encoding="utf-8")
    for secret in RAW:
        assert secret not in text
    return [json.loads(line) for line in text.splitlines()]


def test_record_with_pii_lands_scrubbed_with_its_extra_fields(settings: Settings) -> None:
    configure_logging(settings)
    before = datetime.now(UTC)
    logging.getLogger("giftgenius.agent.runner").info(
        "user %s typed phone %s",
        EMAIL,
        PHONE,
        extra={"event": "turn.accepted", "run_id": "r-123", "card": CARD, "turn": 3},
    )
    [line] = _lines(settings)
    assert line["msg"] == "user [email] typed phone [phone]"
    assert line["card"] == "[card]"
    assert line["event"] == "turn.accepted"
    assert line["run_id"] == "r-123"
    assert line["turn"] == 3
    assert line["level"] == "INFO"
    assert line["logger"] == "giftgenius.agent.runner"
    ts = datetime.fromisoformat(line["ts"])
    assert ts.utcoffset() is not None and ts.utcoffset().total_seconds() == 0
    assert ts >= before.replace(microsecond=before.microsecond // 1000 * 1000)


def test_configure_twice_writes_one_line_per_record(settings: Settings) -> None:
    configure_logging(settings)
    configure_logging(settings)
    log = logging.getLogger("giftgenius.twice")
    log.info("first")
    log.warning("second")
    assert [line["msg"] for line in _lines(settings)] == ["first", "second"]
    ours = [h for h in logging.getLogger().handlers if isinstance(h, logging.FileHandler)]
    assert len([h for h in ours if Path(h.baseFilename) == log_file(settings)]) == 1


def test_level_comes_from_settings(monkeypatch: pytest.MonkeyPatch, settings: Settings) -> None:
    monkeypatch.setenv("GIFTGENIUS_LOG_LEVEL", "warning")
    configure_logging(load_settings())
    log = logging.getLogger("giftgenius.levels")
    log.info("hidden")
    log.warning("shown")
    assert [line["msg"] for line in _lines(settings)] == ["shown"]

    monkeypatch.setenv("GIFTGENIUS_LOG_LEVEL", "DEBUG")
    configure_logging(load_settings())
    log.debug("now shown")
    assert [line["msg"] for line in _lines(settings)] == ["shown", "now shown"]


def test_nothing_is_written_to_the_terminal(
    settings: Settings, capfd: pytest.CaptureFixture[str]
) -> None:
    configure_logging(settings)
    logging.getLogger("giftgenius.quiet").error("an error with %s", EMAIL)
    logging.getLogger("some.library").warning("a library warning")
    out, err = capfd.readouterr()
    assert (out, err) == ("", "")
    assert [line["msg"] for line in _lines(settings)] == [
        "an error with [email]",
        "a library warning",
    ]


def test_library_info_stays_out_but_app_info_goes_in(settings: Settings) -> None:
    configure_logging(settings)
    logging.getLogger("httpx").info("HTTP Request: POST https://example.invalid")
    logging.getLogger("giftgenius.app").info("kept")
    assert [line["logger"] for line in _lines(settings)] == ["giftgenius.app"]


class _Profile:
    def __str__(self) -> str:
        return f"Profile(contact={EMAIL})"


def test_nested_extra_values_and_unencodable_objects_are_scrubbed(settings: Settings) -> None:
    configure_logging(settings)
    logging.getLogger("giftgenius.extra").info(
        "payload",
        extra={"payload": {"to": [EMAIL, {"tel": PHONE}]}, "profile": _Profile()},
    )
    [line] = _lines(settings)
    assert line["payload"] == {"to": ["[email]", {"tel": "[phone]"}]}
    assert line["profile"] == "Profile(contact=[email])"


def test_exception_traceback_is_scrubbed(settings: Settings) -> None:
    configure_logging(settings)
    try:
        raise ValueError(f"bad card {CARD} for {EMAIL}")
    except ValueError:
        logging.getLogger("giftgenius.boom").exception("tool failed")
    [line] = _lines(settings)
    assert line["msg"] == "tool failed"
    assert "ValueError: bad card [card] for [email]" in line["exc"]
    assert "\n" not in log_file(settings).read_text(encoding="utf-8").rstrip("\n")


def test_extra_cannot_overwrite_the_fixed_fields(settings: Settings) -> None:
    configure_logging(settings)
    logging.getLogger("giftgenius.clash").info(
        "real message", extra={"level": "FAKE", "ts": "then"}
    )
    [line] = _lines(settings)
    assert (line["level"], line["msg"]) == ("INFO", "real message")
    assert line["ts"] != "then"


def test_a_broken_format_string_is_kept_not_raised() -> None:
    """Driven directly: pytest's own capture handler deliberately fails on such records."""
    record = logging.LogRecord(
        "giftgenius.broken", logging.INFO, __file__, 1, "count %d for %s", ("x", EMAIL), None
    )
    assert logs.PiiScrubFilter().filter(record)
    line = json.loads(logs.JsonLinesFormatter().format(record))
    assert line["msg"].startswith("unformattable log message")
    assert "[email]" in line["msg"] and "jane.doe" not in line["msg"]


def test_files_rotate_by_size_and_every_line_stays_json(
    monkeypatch: pytest.MonkeyPatch, settings: Settings
) -> None:
    monkeypatch.setattr(logs, "MAX_BYTES", 2_000)
    configure_logging(settings)
    log = logging.getLogger("giftgenius.rotate")
    for index in range(60):
        log.info("line %d of a rotation test", index, extra={"event": "fill"})
    rotated = log_file(settings).with_name(logs.LOG_FILE_NAME + ".1")
    assert rotated.exists()
    for path in (rotated, log_file(settings)):
        for raw in path.read_text(encoding="utf-8").splitlines():
            assert json.loads(raw)["event"] == "fill"


def test_unwritable_home_is_a_config_error(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("a file where the home directory should be")
    with pytest.raises(ConfigError, match="GIFTGENIUS_HOME"):
        configure_logging(load_settings(home=blocker))
