"""The shipped settings file shows the defaults of ``settings.py`` and sets none of them.

The defaults are written once, as the fields of ``Settings``; ``config/giftgenius.toml`` is
a commented example of every key. A default changed in the code and not in the file (or a
new setting left out of it) would show people a value GiftGenius does not use.
"""

from __future__ import annotations

import re
import tomllib
from typing import Any

from pydantic import TypeAdapter

from giftgenius.resources import resource_dir
from giftgenius.settings import Settings

SHIPPED = resource_dir("config") / "giftgenius.toml"
# A commented-out key: "# name = value", an optional comment after the value.
_EXAMPLE = re.compile(r"^# (?=[a-z_]+ = )(.*)$")


def _examples() -> dict[str, Any]:
    """Each commented-out ``key = value`` line of the shipped file, read as TOML."""
    found: dict[str, Any] = {}
    for line in SHIPPED.read_text(encoding="utf-8").splitlines():
        match = _EXAMPLE.match(line)
        if match:
            (key, value), *more = tomllib.loads(match.group(1)).items()
            assert not more and key not in found, line
            found[key] = value
    return found


def _with_value_default() -> list[str]:
    """The settings whose default is a value; the others are unset, or found at run time."""
    return [
        name
        for name, field in Settings.model_fields.items()
        if field.default_factory is None and field.default is not None
    ]


def test_the_shipped_file_sets_nothing() -> None:
    assert tomllib.loads(SHIPPED.read_text(encoding="utf-8")) == {}


def test_the_shipped_file_shows_every_default_as_the_code_has_it() -> None:
    examples = _examples()
    assert sorted(examples) == sorted(_with_value_default())
    for name, value in examples.items():
        field = Settings.model_fields[name]
        assert TypeAdapter(field.annotation).validate_python(value) == field.default, name


def test_the_shipped_file_names_the_settings_that_are_unset_by_default() -> None:
    text = SHIPPED.read_text(encoding="utf-8")
    unset = set(Settings.model_fields) - set(_with_value_default())
    missing = [name for name in sorted(unset) if not re.search(rf"\b{name}\b", text)]
    assert unset and missing == []
