"""Map ``GIFTGENIUS_MODEL`` to a ``ChatModel``; the agent never branches on which it got.

"offline" is the real ``openai`` client over an in-process transport, so the production
code path (request building, streaming, error mapping) is the one the end-to-end tests run.
"scripted:PATH" plays a script of tool calls and replies (``giftgenius.llm.scripted``), so
tests of the loop, storage and crash recovery do not depend on the offline model's wording.
"openai:NAME" talks to OPENAI_BASE_URL (OpenAI's API when unset); a base URL of one's own
(``giftgenius model serve``, a local server) needs no OPENAI_API_KEY. "replay:DIR" plays
back what ``GIFTGENIUS_RECORD_DIR`` recorded of any of them (``giftgenius.llm.recording``).

The ``openai`` client and the offline engine are imported only when one is chosen: they
cost about a second at every process start, which a scripted run never needs.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from giftgenius.domain import Locale
from giftgenius.errors import ConfigError, ModelError
from giftgenius.llm.base import ChatModel, Embedder
from giftgenius.llm.scripted import SCRIPTED_CONTEXT_WINDOW, SCRIPTED_PREFIX, ScriptedModel
from giftgenius.messages import speak
from giftgenius.settings import Settings
from giftgenius.tokens import OFFLINE_MODEL, TokenCounter, context_window_for

if TYPE_CHECKING:
    import httpx2

    from giftgenius.chatwire import ChatCompletionsTransport
    from giftgenius.llm.openai_chat import OpenAIChatModel

OFFLINE_BASE_URL = "http://offline.giftgenius.invalid/v1"
OPENAI_PREFIX = "openai:"
REPLAY_PREFIX = "replay:"
REPLAY_BASE_URL = "http://replay.giftgenius.invalid/v1"
LOCAL_API_KEY = "giftgenius-local"  # sent to a base URL of one's own when no key is set


def _kind(settings: Settings) -> tuple[str, str]:
    """``GIFTGENIUS_MODEL`` as (kind, what follows its prefix); one the app does not know is
    refused here, for ``make_model`` and ``check_model`` alike."""
    spec = settings.model.strip()
    if spec == OFFLINE_MODEL:
        return OFFLINE_MODEL, ""
    for prefix in (SCRIPTED_PREFIX, OPENAI_PREFIX, REPLAY_PREFIX):
        if spec.startswith(prefix) and spec[len(prefix) :].strip():
            return prefix, spec[len(prefix) :].strip()
    raise ConfigError(speak("model", "unknown", model=repr(settings.model)))


def model_context_window(settings: Settings) -> int:
    """The context window in tokens: GIFTGENIUS_CONTEXT_WINDOW, else the model's own."""
    if settings.context_window:
        return settings.context_window
    kind, rest = _kind(settings)
    if kind == SCRIPTED_PREFIX:
        return SCRIPTED_CONTEXT_WINDOW
    if kind == REPLAY_PREFIX:
        from giftgenius.llm.recording import read_manifest

        return read_manifest(_replay_folder(rest)).context_window
    return context_window_for(settings.model)


def make_model(settings: Settings) -> ChatModel:
    kind, rest = _kind(settings)
    if kind == OFFLINE_MODEL:
        return _offline(settings)
    if kind == SCRIPTED_PREFIX:
        if settings.record_dir is not None:
            raise ConfigError(speak("model", "no_wire", model=repr(settings.model)))
        return ScriptedModel.from_file(
            Path(rest).expanduser(), context_window=model_context_window(settings)
        )
    if kind == OPENAI_PREFIX:
        return _openai(settings, rest)
    return _replay(settings, _replay_folder(rest))


def check_model(settings: Settings) -> None:
    """Refuse now what ``make_model`` would refuse, without building a client: for the
    evaluator, whose every run would otherwise fail the same way."""
    if _kind(settings)[0] == OPENAI_PREFIX:
        _api_key(settings)
    model_context_window(settings)


def offline_transport(settings: Settings) -> ChatCompletionsTransport:
    """The offline model behind the chat-completions wire, in-process (``model serve`` puts
    it behind a socket)."""
    from giftgenius.offline.engine import MODEL_NAME, OfflineEngine
    from giftgenius.offline.transport import OfflineTransport

    engine = OfflineEngine(
        context_window=settings.context_window or context_window_for(OFFLINE_MODEL),
        currency=settings.currency,
        counter=TokenCounter.for_model(MODEL_NAME),
    )
    return OfflineTransport(engine)


def _offline(settings: Settings) -> OpenAIChatModel:
    from giftgenius.offline.engine import MODEL_NAME

    return _connect(
        settings,
        MODEL_NAME,
        api_key="offline",
        base_url=OFFLINE_BASE_URL,
        transport=offline_transport(settings),
        window=model_context_window(settings),
    )


def _api_key(settings: Settings) -> str:
    """OPENAI_API_KEY; a placeholder for an endpoint of one's own, which needs none (one
    that does want a key answers 401, and the error names OPENAI_API_KEY)."""
    if settings.openai_api_key:
        return settings.openai_api_key
    if settings.openai_base_url:
        return LOCAL_API_KEY
    raise ConfigError(speak("model", "no_key", model=repr(settings.model)))


def _openai(settings: Settings, model: str) -> OpenAIChatModel:
    base_url = settings.openai_base_url or None
    api_key = _api_key(settings)
    transport = None
    if settings.record_dir is not None:
        import httpx2

        transport = httpx2.HTTPTransport()
    return _connect(
        settings,
        model,
        api_key=api_key,
        base_url=base_url,
        transport=transport,
        window=model_context_window(settings),
    )


def _replay_folder(path: str) -> Path:
    return Path(path).expanduser().absolute()


def _replay(settings: Settings, folder: Path) -> OpenAIChatModel:
    from giftgenius.llm.recording import ReplayTransport, read_manifest

    manifest = read_manifest(folder)
    return _connect(
        settings,
        manifest.model,
        api_key="replay",
        base_url=REPLAY_BASE_URL,
        transport=ReplayTransport(folder),
        window=settings.context_window or manifest.context_window,
        retries=0,  # a recorded answer is the same the second time
        name=f"{REPLAY_PREFIX}{folder}",
        stream=manifest.stream,
    )


def _connect(
    settings: Settings,
    model: str,
    *,
    api_key: str,
    base_url: str | None,
    transport: httpx2.BaseTransport | None,
    window: int,
    retries: int | None = None,
    name: str | None = None,
    stream: bool | None = None,
) -> OpenAIChatModel:
    """The client, its transport wrapped in a recorder when ``GIFTGENIUS_RECORD_DIR`` is set."""
    from giftgenius.llm.openai_chat import OpenAIChatModel

    folder = settings.record_dir
    stream = settings.model_stream if stream is None else stream
    if folder is not None and transport is not None:
        from giftgenius.llm.recording import Manifest, RecordingTransport, write_manifest

        write_manifest(folder, Manifest(model=model, context_window=window, stream=stream))
        transport = RecordingTransport(transport, folder)
    return OpenAIChatModel.connect(
        model,
        api_key=api_key,
        base_url=base_url,
        transport=transport,
        max_retries=settings.model_max_retries if retries is None else retries,
        timeout=settings.model_timeout,
        context_window=window,
        name=name,
        stream=stream,
    )


def make_embedder(settings: Settings) -> Embedder:
    """The embeddings of long-term memory, through the same client as the chat model.

    ``openai:NAME`` asks its endpoint for ``GIFTGENIUS_EMBEDDING_MODEL``; ``offline``
    embeds through the offline transport (lexical vectors, ``language/embedding.py``), over
    the real client as its chat does. A scripted model and a replay have no endpoint to ask,
    so they embed lexically too, in-process. Embeddings are never recorded: a recording
    (and the evaluator's count of model calls) holds the chat requests only.
    """
    from giftgenius.language.embedding import LEXICAL_MODEL
    from giftgenius.llm.openai_chat import OpenAIEmbedder

    kind, _ = _kind(settings)
    if kind == OPENAI_PREFIX:
        return OpenAIEmbedder.connect(
            settings.embedding_model,
            api_key=_api_key(settings),
            base_url=settings.openai_base_url or None,
            max_retries=settings.model_max_retries,
            timeout=settings.model_timeout,
        )
    from giftgenius.offline.transport import LexicalTransport

    return OpenAIEmbedder.connect(
        LEXICAL_MODEL,
        api_key="offline",
        base_url=OFFLINE_BASE_URL,
        max_retries=0,
        timeout=settings.model_timeout,
        transport=LexicalTransport(),
    )


def preload() -> None:
    """Import the model clients and build the offline model's tables now.

    For a process that forks commands (the evaluator's fork server): every child then
    starts with them, instead of paying for them before its first reply. Reading a message
    and a question in each language, choosing among a shortlist and asking about it, builds
    the reader's lazily compiled patterns too (over half of a forked chat's CPU when each
    child built them itself).
    """
    import datetime as dt

    import giftgenius.llm.openai_chat  # noqa: F401
    from giftgenius.offline import asking, nlu
    from giftgenius.offline.engine import MODEL_NAME, preload_tables
    from giftgenius.offline.transport import OfflineTransport  # noqa: F401
    from giftgenius.tokens import encoding_for, get_encoding

    preload_tables()
    get_encoding(encoding_for(MODEL_NAME))
    today, titles = dt.date(2026, 12, 1), ["Garden Kneeling Pad", "Tea Sampler"]
    for locale, text, question in _WARM_UP:
        nlu.extract(text, today=today, locale=locale, choosing=True, candidate_titles=titles)
        asking.read_question(question, today=today, locale=locale, listed=2, titles=titles)


_WARM_UP: tuple[tuple[Locale, str, str], ...] = (
    ("en", "my mum in Toronto loves tea, 30 euros, the second one", "is the first in time?"),
    ("fr", "ma tante à Lyon aime le thé, 40 euros max, le premier", "le deuxième arrive quand ?"),
)
"""One message and one question per language that ``preload`` reads."""


def probe_endpoint(settings: Settings, *, timeout: float = 2.0) -> str | None:
    """Ask the configured model endpoint whether it answers (``GET /models``): the URL
    asked, or None for a model in this process (offline, scripted, replay), which has
    nothing to reach. Raises ``ModelError`` with the catalogue's sentence when it does not
    answer; an answer of any status counts (a 401 is a server that is up)."""
    if _kind(settings)[0] != OPENAI_PREFIX:
        return None
    import httpx2

    base = (settings.openai_base_url or "https://api.openai.com/v1").rstrip("/")
    headers = {"Authorization": f"Bearer {settings.openai_api_key or LOCAL_API_KEY}"}
    try:
        httpx2.get(f"{base}/models", headers=headers, timeout=timeout)
    except httpx2.HTTPError as exc:
        raise ModelError(speak("model", "unreachable", url=base, reason=exc)) from exc
    return base
