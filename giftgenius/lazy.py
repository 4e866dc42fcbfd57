"""Lazy public names for package ``__init__`` files.

A package exports its public surface (``from giftgenius.agent import Agent``) without
importing the modules behind it until a name is first used, so ``import giftgenius`` and
commands that need little (``--help``, ``state``) do not pay for the model client, the
tokenizer or the database drivers.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any


def lazy_exports(
    package: str, exports: dict[str, str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``__getattr__`` and ``__dir__`` for ``package``; ``exports`` maps name → module."""

    def __getattr__(name: str) -> Any:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(module), name)

    def __dir__() -> list[str]:
        return sorted(exports)

    return __getattr__, __dir__
