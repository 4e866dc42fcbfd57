"""Embeddings through the model endpoint: the offline model's lexical vectors, served as
OpenAI's ``POST /v1/embeddings`` (in-process and over ``model serve``'s socket), read by the
official client through ``Embedder``, and the endpoint's errors mapped into the tree."""

from __future__ import annotations

import base64
import math
import struct
import subprocess
import sys
import threading
from collections.abc import Iterator
from typing import Any

import httpx2
import pytest

from giftgenius.chatwire import ChatCompletionsTransport, Completion, Embedded, WireError
from giftgenius.errors import ModelError
from giftgenius.language.embedding import DIMENSIONS, LEXICAL_MODEL, lexical_embedding
from giftgenius.llm.factory import make_embedder, offline_transport
from giftgenius.llm.openai_chat import OpenAIEmbedder
from giftgenius.llm.server import WireServer
from giftgenius.settings import load_settings


def _cos(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


# -- the lexical vectors ----------------------------------------------------------------


def test_lexical_vectors_are_unit_length_of_fixed_dimension() -> None:
    for text in ("tea", "Ma sœur adore le thé et le tricot", "x" * 500):
        vector = lexical_embedding(text)
        assert len(vector) == DIMENSIONS
        assert math.isclose(math.sqrt(sum(x * x for x in vector)), 1.0, rel_tol=1e-9)


def test_text_without_words_is_the_zero_vector() -> None:
    assert lexical_embedding("  ?! … ") == [0.0] * DIMENSIONS


def test_folding_makes_accents_case_and_ligatures_one_word() -> None:
    assert lexical_embedding("Sœur, THÉ") == lexical_embedding("soeur the")


def test_shared_words_and_spellings_come_closer_than_unrelated_ones() -> None:
    query = lexical_embedding("she loves knitting and green tea")
    near = lexical_embedding("sister: loves knitting, drinks tea")
    inflected = lexical_embedding("knits, teas")
    far = lexical_embedding("board games for a chess coach")
    assert _cos(query, near) > _cos(query, inflected) > _cos(query, far)


def test_lexical_vectors_are_the_same_in_another_process() -> None:
    """BLAKE2b, not Python's salted ``hash``: a vector stored today matches a query of
    tomorrow's process."""
    code = (
        "from giftgenius.language.embedding import lexical_embedding as e;"
        "print(repr(e('uncle Tom likes whisky')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONHASHSEED": "12345", "PATH": ""},
    ).stdout
    assert eval(out) == lexical_embedding("uncle Tom likes whisky")


# -- the wire ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    """The offline model served on a free port, as ``giftgenius model serve`` serves it."""
    server = WireServer(("127.0.0.1", 0), offline_transport(load_settings()))
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    thread.start()
    try:
        yield server.base_url
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def _post(base_url: str, body: Any, key: str | None = "k") -> httpx2.Response:
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    return httpx2.post(f"{base_url}/embeddings", json=body, headers=headers, timeout=10)


@pytest.mark.slow
def test_the_served_endpoint_answers_in_openais_shape(base_url: str) -> None:
    texts = ["likes tea", "loves chess"]
    answer = _post(base_url, {"model": "text-embedding-3-small", "input": texts})
    assert answer.status_code == 200
    body = answer.json()
    assert body["object"] == "list"
    assert body["model"] == LEXICAL_MODEL
    assert [item["index"] for item in body["data"]] == [0, 1]
    assert all(item["object"] == "embedding" for item in body["data"])
    assert body["data"][1]["embedding"] == pytest.approx(lexical_embedding(texts[1]))
    assert body["usage"] == {"prompt_tokens": 4, "total_tokens": 4}


def test_base64_is_little_endian_float32(base_url: str) -> None:
    body = _post(base_url, {"model": "m", "input": "likes tea", "encoding_format": "base64"})
    raw = base64.b64decode(body.json()["data"][0]["embedding"])
    vector = list(struct.unpack(f"<{len(raw) // 4}f", raw))
    assert vector == pytest.approx(lexical_embedding("likes tea"), abs=1e-6)


@pytest.mark.parametrize(
    ("body", "param"),
    [
        ({"model": "m", "input": ""}, "input"),
        ({"model": "m", "input": []}, "input"),
        ({"model": "m", "input": ["ok", 3]}, "input"),
        ({"input": "tea"}, "model"),
        ({"model": "m", "input": "tea", "encoding_format": "int8"}, "encoding_format"),
    ],
)
def test_bad_requests_are_refused_as_the_api_refuses_them(
    base_url: str, body: dict[str, Any], param: str
) -> None:
    answer = _post(base_url, body)
    assert answer.status_code == 400
    assert answer.json()["error"]["param"] == param


def test_no_key_is_a_401(base_url: str) -> None:
    assert _post(base_url, {"model": "m", "input": "tea"}, key=None).status_code == 401


def test_giftgenius_embeds_through_a_served_endpoint(base_url: str) -> None:
    settings = load_settings(model="openai:offline")
    settings.openai_base_url = base_url
    embedder = make_embedder(settings)
    assert embedder.name == "text-embedding-3-small"  # GIFTGENIUS_EMBEDDING_MODEL's default
    vectors = embedder.embed(["likes tea", "loves chess", "likes tea"])
    assert vectors[0] == pytest.approx(lexical_embedding("likes tea"), abs=1e-6)
    assert vectors[0] == vectors[2]
    assert embedder.embed([]) == []


@pytest.mark.parametrize("model", ["offline", "scripted:/nonexistent.json", "replay:/nowhere"])
def test_models_without_an_endpoint_of_their_own_embed_lexically(model: str) -> None:
    embedder = make_embedder(load_settings(model=model))
    assert embedder.name == LEXICAL_MODEL
    assert embedder.embed(["tea"])[0] == pytest.approx(lexical_embedding("tea"), abs=1e-6)


# -- errors -----------------------------------------------------------------------------


class _Refusing(ChatCompletionsTransport):
    """An endpoint whose embeddings fail as told."""

    who = "test"
    model = "m"

    def __init__(self, error: WireError | None = None, count: int | None = None) -> None:
        self.error = error
        self.count = count

    def answer(self, body: Any, purpose: str) -> Completion:
        raise WireError(404, "no chat")

    def embed(self, texts: list[str], model: str) -> Embedded:
        if self.error is not None:
            raise self.error
        return Embedded(vectors=[[1.0, 0.0]] * (self.count or len(texts)), model=model)


def _embedder(transport: ChatCompletionsTransport) -> OpenAIEmbedder:
    return OpenAIEmbedder.connect(
        "m",
        api_key="k",
        base_url="http://test.invalid/v1",
        max_retries=0,
        timeout=5,
        transport=transport,
    )


@pytest.mark.parametrize(
    ("error", "said"),
    [
        (WireError(401, "bad key", code="invalid_api_key"), "refused the credentials"),
        (WireError(500, "boom", type="server_error"), "HTTP 500"),
        (WireError(404, "The model `m` does not exist", code="model_not_found"), "HTTP 404"),
    ],
)
def test_endpoint_errors_map_into_the_error_tree(error: WireError, said: str) -> None:
    with pytest.raises(ModelError, match=said):
        _embedder(_Refusing(error)).embed(["tea"])


def test_an_endpoint_that_does_not_embed_is_a_model_error() -> None:
    """The chat-only transports (a served ``ChatModel``) answer 404 as for any unknown URL."""
    with pytest.raises(ModelError, match="HTTP 404"):
        _embedder(_Refusing(WireError(404, "Invalid URL", code="unknown_url"))).embed(["a"])


def test_a_wrong_number_of_vectors_is_a_model_error() -> None:
    with pytest.raises(ModelError, match="1 vectors for 2 texts"):
        _embedder(_Refusing(count=1)).embed(["tea", "chess"])
