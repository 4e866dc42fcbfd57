"""Find the bundled directories (prompts/, config/, migrations/) installed or editable.

A wheel carries them under ``giftgenius/_bundled/``; an editable install or a source
checkout has them at the repository's top level.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def resource_dir(name: str) -> Path:
    for candidate in (_PACKAGE / "_bundled" / name, _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(
        f"GiftGenius resource directory {name!r} is missing; reinstall the package."
    )


def prompt_text(name: str) -> str:
    """Text of ``prompts/<name>``; prompts live in files so they can be reviewed apart."""
    return (resource_dir("prompts") / name).read_text(encoding="utf-8")
