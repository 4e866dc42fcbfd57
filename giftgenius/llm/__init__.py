"""The model seam: ``ChatModel`` (one ``complete`` call) and the factory that picks one.

Public surface, imported lazily: ``ChatModel``, ``ChatRequest``, ``ChatResponse``,
``make_model``, ``model_context_window``, and the models without language understanding
``ScriptedModel`` and ``FunctionModel``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from giftgenius.lazy import lazy_exports

if TYPE_CHECKING:
    from giftgenius.llm.base import ChatModel, ChatRequest, ChatResponse
    from giftgenius.llm.factory import make_model, model_context_window
    from giftgenius.llm.scripted import FunctionModel, ScriptedModel

__all__ = [
    "ChatModel",
    "ChatRequest",
    "ChatResponse",
    "FunctionModel",
    "ScriptedModel",
    "make_model",
    "model_context_window",
]
__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "ChatModel": "giftgenius.llm.base",
        "ChatRequest": "giftgenius.llm.base",
        "ChatResponse": "giftgenius.llm.base",
        "make_model": "giftgenius.llm.factory",
        "model_context_window": "giftgenius.llm.factory",
        "ScriptedModel": "giftgenius.llm.scripted",
        "FunctionModel": "giftgenius.llm.scripted",
    },
)
