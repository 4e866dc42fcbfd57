"""The command line: a thin ``main(argv) -> int``, the chat loop, and rich rendering.

Public surface, imported lazily: ``main``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from giftgenius.lazy import lazy_exports

if TYPE_CHECKING:
    from giftgenius.cli.main import main

__all__ = ["main"]
__getattr__, __dir__ = lazy_exports(__name__, {"main": "giftgenius.cli.main"})
