"""GiftGenius: a conversational gift-choosing agent that gets memory and state right.

The package's design — layers, run-cycle, memory layers, checkpoint format, how to extend
it — is in ``giftgenius/README.md``. Public names are imported lazily, so ``import
giftgenius`` stays cheap: ``build_agent``, ``Agent``, ``Settings``, ``load_settings``,
``SessionStore``, ``ChatModel``.
"""

from __future__ import annotations

import logging

from giftgenius.lazy import lazy_exports

__version__ = "0.1.0"
AGENT_VERSION = f"giftgenius/{__version__}"

# Every layer reads AGENT_VERSION from here, so this module names the lazy modules as
# strings only: a static import would make each layer appear to import the layers above.
__all__ = [
    "AGENT_VERSION",
    "Agent",
    "ChatModel",
    "SessionStore",
    "Settings",
    "__version__",
    "build_agent",
    "load_settings",
]
__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "Agent": "giftgenius.agent.runner",
        "ChatModel": "giftgenius.llm.base",
        "SessionStore": "giftgenius.storage.session_store",
        "Settings": "giftgenius.settings",
        "build_agent": "giftgenius.app",
        "load_settings": "giftgenius.settings",
    },
)

# Until the CLI configures JSON logs, nothing of ours falls back to stderr (the chat's).
logging.getLogger("giftgenius").addHandler(logging.NullHandler())
