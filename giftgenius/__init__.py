"""GiftGenius: a conversational gift-choosing agent that gets memory and state right."""

from __future__ import annotations

import logging

__version__ = "0.1.0"
AGENT_VERSION = f"giftgenius/{__version__}"

# Until the CLI configures JSON logs, nothing of ours falls back to stderr (the chat's).
logging.getLogger("giftgenius").addHandler(logging.NullHandler())
