"""Find the bundled directories (prompts/, config/, migrations/) installed or editable.

A wheel carries them under ``giftgenius/_bundled/``; an editable install or a source
checkout has them at the repository's top level.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

from giftgenius.messages import speak

_PACKAGE = Path(__file__).resolve().parent


def resource_dir(name: str) -> Path:
    for candidate in (_PACKAGE / "_bundled" / name, _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(speak("install", "resources.missing", name=repr(name)))


@lru_cache(maxsize=8)
def prompt_text(name: str) -> str:
    """Text of ``prompts/<name>``; prompts live in files so they can be reviewed apart.

    Read once per process, so the text sent and its ``prompt_version`` are of one reading.
    """
    return (resource_dir("prompts") / name).read_text(encoding="utf-8")


@lru_cache(maxsize=8)
def prompt_version(name: str) -> str:
    """A short id of the prompt's text as this process sends it: 12 hex digits of SHA-256."""
    return hashlib.sha256(prompt_text(name).encode("utf-8")).hexdigest()[:12]
