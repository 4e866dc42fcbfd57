"""GiftGenius: a conversational gift-choosing agent that gets memory and state right."""

from __future__ import annotations

__version__ = "0.1.0"
AGENT_VERSION = f"giftgenius/{__version__}"
