"""Map ``GIFTGENIUS_MODEL`` to a ``ChatModel``; the agent never branches on which it got.

"offline" is the real ``openai`` client over an in-process transport, so the production
code path (request building, streaming, error mapping) is the one the end-to-end tests run.
"scripted:PATH" plays a script of tool calls and replies (``giftgenius.llm.scripted``), so
tests of the loop, storage and crash recovery do not depend on the offline model's wording.

The ``openai`` client and the offline engine are imported only when one is chosen: they
cost about a second at every process start, which a scripted run never needs.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from giftgenius.errors import ConfigError
from giftgenius.llm.base import ChatModel
from giftgenius.llm.scripted import SCRIPTED_CONTEXT_WINDOW, SCRIPTED_PREFIX, ScriptedModel
from giftgenius.settings import Settings
from giftgenius.tokens import OFFLINE_MODEL, TokenCounter, context_window_for

if TYPE_CHECKING:
    from giftgenius.llm.openai_chat import OpenAIChatModel

OFFLINE_BASE_URL = "http://offline.giftgenius.invalid/v1"
OPENAI_PREFIX = "openai:"
ACCEPTED_FORMS = (
    "'offline', 'openai:<model>' (for example 'openai:gpt-4o-mini') or 'scripted:<path to a "
    "JSON script>'"
)


def model_context_window(settings: Settings) -> int:
    """The context window in tokens: GIFTGENIUS_CONTEXT_WINDOW, else the model's own."""
    if settings.context_window:
        return settings.context_window
    if settings.model.strip().startswith(SCRIPTED_PREFIX):
        return SCRIPTED_CONTEXT_WINDOW
    return context_window_for(settings.model)


def make_model(settings: Settings) -> ChatModel:
    spec = settings.model.strip()
    if spec == OFFLINE_MODEL:
        return _offline(settings)
    if spec.startswith(SCRIPTED_PREFIX) and spec[len(SCRIPTED_PREFIX) :].strip():
        path = Path(spec[len(SCRIPTED_PREFIX) :].strip()).expanduser()
        return ScriptedModel.from_file(path, context_window=model_context_window(settings))
    if spec.startswith(OPENAI_PREFIX) and spec[len(OPENAI_PREFIX) :].strip():
        return _openai(settings, spec[len(OPENAI_PREFIX) :].strip())
    raise ConfigError(
        f"GIFTGENIUS_MODEL={settings.model!r} is not a model this app knows. Use {ACCEPTED_FORMS}."
    )


def _offline(settings: Settings) -> OpenAIChatModel:
    from giftgenius.llm.openai_chat import OpenAIChatModel
    from giftgenius.offline.engine import MODEL_NAME, OfflineEngine
    from giftgenius.offline.transport import OfflineTransport

    window = model_context_window(settings)
    engine = OfflineEngine(
        context_window=window,
        currency=settings.currency,
        counter=TokenCounter.for_model(MODEL_NAME),
    )
    return OpenAIChatModel.connect(
        MODEL_NAME,
        api_key="offline",
        base_url=OFFLINE_BASE_URL,
        transport=OfflineTransport(engine),
        max_retries=settings.model_max_retries,
        timeout=settings.model_timeout,
        context_window=window,
    )


def _openai(settings: Settings, model: str) -> OpenAIChatModel:
    from giftgenius.llm.openai_chat import OpenAIChatModel

    if not settings.openai_api_key:
        raise ConfigError(
            f"GIFTGENIUS_MODEL={settings.model!r} needs an API key: set OPENAI_API_KEY, or use "
            "GIFTGENIUS_MODEL=offline to run without one."
        )
    return OpenAIChatModel.connect(
        model,
        api_key=settings.openai_api_key,
        base_url=settings.openai_base_url or None,
        max_retries=settings.model_max_retries,
        timeout=settings.model_timeout,
        context_window=model_context_window(settings),
    )


def preload() -> None:
    """Import the model clients and build the offline model's tables now.

    For a process that forks commands (the evaluator's fork server): every child then
    starts with them, instead of paying for them before its first reply.
    """
    import giftgenius.llm.openai_chat  # noqa: F401
    from giftgenius.offline.engine import MODEL_NAME, preload_tables
    from giftgenius.offline.transport import OfflineTransport  # noqa: F401
    from giftgenius.tokens import encoding_for, get_encoding

    preload_tables()
    get_encoding(encoding_for(MODEL_NAME))
