"""The ``ChatModel`` over an OpenAI-compatible endpoint; the only module importing ``openai``.

And the ``Embedder`` over the same endpoint's ``/embeddings`` (``OpenAIEmbedder``), whose
errors map into the same tree.

The client is injected (real endpoint or the offline transport) so both run this same
code. Retries on 429/5xx and timeouts are the client's own (``max_retries``, ``timeout``
set by the factory from settings); this module maps what is left to our error tree.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

import httpx2
import openai
from openai.types.chat import ChatCompletion, ChatCompletionChunk

from giftgenius.domain import Message, ToolCall
from giftgenius.errors import ContextLengthExceeded, ModelError
from giftgenius.llm.base import ChatRequest, ChatResponse, ChatUsage
from giftgenius.messages import speak
from giftgenius.protocol import PURPOSE_HEADER


def _client(
    api_key: str,
    base_url: str | None,
    max_retries: int,
    timeout: float,
    transport: httpx2.BaseTransport | None,
) -> openai.OpenAI:
    """The official client, for chat and embeddings alike: retries and timeouts are its
    own; ``transport`` routes its HTTP in-process (the offline model) instead of to
    ``base_url`` over the network."""
    return openai.OpenAI(
        api_key=api_key,
        base_url=base_url,
        http_client=httpx2.Client(transport=transport) if transport is not None else None,
        max_retries=max_retries,
        timeout=timeout,
    )


class OpenAIChatModel:
    """One chat completion, streamed (or whole, with ``stream=False``), as a ``Message``.

    Whole answers are for servers that cannot stream a tool call (llama-cpp-python's
    function-calling format refuses "automatic streaming tool choice"); the text is then
    shown once it is complete.
    """

    def __init__(
        self,
        client: openai.OpenAI,
        model: str,
        *,
        name: str | None = None,
        context_window: int | None = None,
        stream: bool = True,
    ) -> None:
        self.client = client
        self.model = model
        self.name = name or model
        self.context_window = context_window
        self.stream = stream
        # The reply's cap: OpenAI's own API takes max_completion_tokens (and refuses
        # max_tokens for its reasoning models); other servers (llama.cpp, older vLLM) read
        # max_tokens only and would otherwise write until the context is full.
        host = getattr(client.base_url, "host", "")
        self._cap = "max_completion_tokens" if host == "api.openai.com" else "max_tokens"

    @classmethod
    def connect(
        cls,
        model: str,
        *,
        api_key: str,
        base_url: str | None,
        max_retries: int,
        timeout: float,
        transport: httpx2.BaseTransport | None = None,
        name: str | None = None,
        context_window: int | None = None,
        stream: bool = True,
    ) -> OpenAIChatModel:
        """Build the official client (``_client``) and wrap it."""
        client = _client(api_key, base_url, max_retries, timeout, transport)
        return cls(client, model, name=name, context_window=context_window, stream=stream)

    def complete(
        self, request: ChatRequest, on_text: Callable[[str], None] | None = None
    ) -> ChatResponse:
        body: dict[str, Any] = {"model": self.model, "messages": request.messages}
        if self.stream:
            body.update(stream=True, stream_options={"include_usage": True})
        if request.tools:
            # Said, not left to the server's default: llama.cpp's function-calling format
            # shows the model its tools only when a tool choice is given.
            body.update(tools=request.tools, tool_choice="auto")
        if request.max_tokens is not None:
            body[self._cap] = request.max_tokens
        if request.temperature is not None:
            body["temperature"] = request.temperature
        try:
            # The client's own ``post`` (its documented way to any endpoint: same retries,
            # auth, errors and parsing) rather than ``chat.completions.create``, which walks
            # the whole request, tool schemas and history, through its TypedDict transform
            # on every call: a quarter of an offline turn's time, for a body that is plain
            # JSON already.
            stream = self.client.post(
                "/chat/completions",
                body=body,
                options={
                    # Says what the request is for without a word in the prompt; endpoints
                    # ignore it.
                    "headers": {PURPOSE_HEADER: request.purpose},
                    "security": {"bearer_auth": True},
                },
                cast_to=ChatCompletion,
                stream=self.stream,
                stream_cls=openai.Stream[ChatCompletionChunk],
            )
        except openai.APIError as exc:  # what the client's own retries could not get past
            raise self._map_error(exc) from exc
        try:
            if not self.stream:
                return self._whole(stream, on_text)
            return self._assemble(stream, on_text)
        except openai.APITimeoutError as exc:
            raise self._map_error(exc) from exc
        except (openai.APIConnectionError, httpx2.TransportError) as exc:  # a stream cut
            # Not retried by the client (the answer had begun) and not "could not reach".
            url, reason = self.client.base_url, exc.__cause__ or exc
            raise ModelError(speak("model", "stream_broke", url=url, reason=reason)) from exc
        except openai.APIError as exc:  # an error event inside the stream
            raise self._map_error(exc) from exc
        except json.JSONDecodeError as exc:  # the client parses each event (or the body)
            raise ModelError(
                speak(
                    "model",
                    "malformed_json",
                    url=self.client.base_url,
                    reason=exc.msg,
                    position=exc.pos,
                )
            ) from exc

    def _assemble(self, stream: Any, on_text: Callable[[str], None] | None) -> ChatResponse:
        content: list[str] = []
        calls: dict[int, dict[str, str]] = {}
        usage = ChatUsage()
        finish: str | None = None
        model = self.model
        for chunk in stream:
            model = chunk.model or model
            if chunk.usage is not None:
                usage = ChatUsage(
                    prompt_tokens=chunk.usage.prompt_tokens,
                    completion_tokens=chunk.usage.completion_tokens,
                )
            for choice in chunk.choices:
                delta = choice.delta
                if delta.content:
                    content.append(delta.content)
                    if on_text is not None:
                        on_text(delta.content)
                for part in delta.tool_calls or []:
                    call = calls.setdefault(part.index, {"id": "", "name": "", "arguments": ""})
                    if part.id:
                        call["id"] = part.id
                    if part.function is not None:
                        call["name"] += part.function.name or ""
                        call["arguments"] += part.function.arguments or ""
                if choice.finish_reason:
                    finish = choice.finish_reason
        tool_calls = [
            ToolCall(id=c["id"], name=c["name"], arguments=c["arguments"] or "{}")
            for _, c in sorted(calls.items())
        ]
        if finish is None:
            # The body ended cleanly but the answer did not: never take half an answer (or
            # half a tool call's arguments) for a whole one.
            raise ModelError(speak("model", "cut", url=self.client.base_url))
        # An empty answer is an answer (small models give them): the agent says so plainly.
        message = Message(role="assistant", content="".join(content) or None, tool_calls=tool_calls)
        return ChatResponse(message=message, usage=usage, finish_reason=finish, model=model)

    def _whole(self, completion: Any, on_text: Callable[[str], None] | None) -> ChatResponse:
        """A non-streamed completion as a ``ChatResponse`` (``stream=False``)."""
        choice = completion.choices[0] if completion.choices else None
        if choice is None:
            raise ModelError(speak("model", "no_choice", url=self.client.base_url))
        said = choice.message
        tool_calls = [
            ToolCall(id=c.id, name=c.function.name, arguments=c.function.arguments or "{}")
            for c in said.tool_calls or []
            if getattr(c, "function", None) is not None
        ]
        if said.content and on_text is not None:
            on_text(said.content)
        usage = ChatUsage()
        if completion.usage is not None:
            usage = ChatUsage(
                prompt_tokens=completion.usage.prompt_tokens,
                completion_tokens=completion.usage.completion_tokens,
            )
        message = Message(role="assistant", content=said.content or None, tool_calls=tool_calls)
        return ChatResponse(
            message=message,
            usage=usage,
            finish_reason=choice.finish_reason or "stop",
            model=completion.model or self.model,
        )

    def _map_error(self, exc: openai.APIError) -> ModelError:
        return map_error(exc, str(self.client.base_url))


class OpenAIEmbedder:
    """``Embedder`` over an OpenAI-compatible ``POST …/embeddings`` (the client's own
    retries and timeout, as for chat). ``name`` is the embedding model asked for."""

    def __init__(self, client: openai.OpenAI, model: str) -> None:
        self.client = client
        self.model = model
        self.name = model

    @classmethod
    def connect(
        cls,
        model: str,
        *,
        api_key: str,
        base_url: str | None,
        max_retries: int,
        timeout: float,
        transport: httpx2.BaseTransport | None = None,
    ) -> OpenAIEmbedder:
        client = _client(api_key, base_url, max_retries, timeout, transport)
        return cls(client, model)

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """One vector per text, in order; an empty list asks nothing."""
        if not texts:
            return []
        url = str(self.client.base_url)
        try:
            answer = self.client.embeddings.create(model=self.model, input=list(texts))
        except openai.APIError as exc:
            raise map_error(exc, url) from exc
        except json.JSONDecodeError as exc:
            raise ModelError(
                speak("model", "malformed_json", url=url, reason=exc.msg, position=exc.pos)
            ) from exc
        data = sorted(answer.data, key=lambda item: item.index)
        if len(data) != len(texts):
            raise ModelError(
                speak("memory", "embedding.count", url=url, asked=len(texts), got=len(data))
            )
        return [[float(x) for x in item.embedding] for item in data]


def map_error(exc: openai.APIError, base_url: str) -> ModelError:
    """An error the client could not get past, as a ``ModelError`` of our tree."""
    api_message = _api_message(exc)
    if isinstance(exc, openai.BadRequestError) and exc.code == "context_length_exceeded":
        return ContextLengthExceeded(speak("model", "context_length", reason=api_message))
    if isinstance(exc, openai.AuthenticationError | openai.PermissionDeniedError):
        return ModelError(speak("model", "credentials", reason=api_message))
    if isinstance(exc, openai.APITimeoutError):
        return ModelError(speak("model", "timeout", url=base_url))
    if isinstance(exc, openai.APIConnectionError):
        return ModelError(speak("model", "unreachable", url=base_url, reason=exc.message))
    if isinstance(exc, openai.APIStatusError):
        return ModelError(speak("model", "http", status=exc.status_code, reason=api_message))
    return ModelError(speak("model", "failed", reason=api_message))


def _api_message(exc: openai.APIError) -> str:
    """The API's own error message (the body's), not the client's 'Error code: …' wrapper."""
    body = exc.body
    if isinstance(body, dict):
        inner = body.get("error") if isinstance(body.get("error"), dict) else body
        message = inner.get("message") if isinstance(inner, dict) else None
        if isinstance(message, str) and message:
            return message
    return exc.message
