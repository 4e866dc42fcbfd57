"""Token counting works with no network, from verified local data, and refuses bad data."""

from __future__ import annotations

import gzip
import socket
from pathlib import Path

import pytest

from giftgenius.agent.tools import tool_specs
from giftgenius.errors import ConfigError
from giftgenius.tokens import (
    TokenCounter,
    context_budget,
    context_window_for,
    default_data_dir,
    encoding_for,
    load_encoding,
    price_per_million,
    render_tools,
)


@pytest.mark.slow
def test_network_is_blocked_while_encodings_load() -> None:
    with pytest.raises(RuntimeError, match="Network access blocked"):
        socket.create_connection(("93.184.216.34", 443), timeout=1)
    # A fresh, uncached load straight from the local files works under the same guard.
    encoding = load_encoding("cl100k_base")
    assert encoding.encode("hello world") == [15339, 1917]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("model", "text", "ids"),
    [
        ("gpt-4o", "hello world", [24912, 2375]),
        ("openai:gpt-4o-mini", "tiktoken is great!", [83, 8251, 2488, 382, 2212, 0]),
        ("gpt-4", "tiktoken is great!", [83, 1609, 5963, 374, 2294, 0]),
        ("gpt-3.5-turbo", "hello world", [15339, 1917]),
    ],
)
def test_known_token_counts(model: str, text: str, ids: list[int]) -> None:
    counter = TokenCounter.for_model(model)
    assert counter.count_text(text) == len(ids)
    assert counter._encoding.encode(text) == ids


def test_counter_is_shared_per_encoding() -> None:
    assert TokenCounter.for_model("gpt-4o") is TokenCounter.for_model("offline")
    assert TokenCounter.for_model("gpt-4o").encoding_name == "o200k_base"
    assert TokenCounter.for_model("gpt-4-0613").encoding_name == "cl100k_base"


def test_special_token_text_typed_by_a_user_counts_as_text() -> None:
    counter = TokenCounter.for_model("gpt-4o")
    assert counter.count_text("<|endoftext|>") > 1


def test_message_counting_follows_the_chat_format() -> None:
    counter = TokenCounter.for_model("gpt-4o")
    plain = counter.count_message({"role": "user", "content": "hello world"})
    assert plain == 3 + 1 + 2  # framing + role + content
    named = counter.count_message({"role": "user", "content": "hello world", "name": "bob"})
    assert named == plain + 1 + counter.count_text("bob")
    call = {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {"id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{}"}}
        ],
    }
    assert counter.count_message(call) == 3 + 1 + 3 + counter.count_text("f") + 1
    tool = {"role": "tool", "content": "ok", "tool_call_id": "call_1"}
    assert counter.count_message(tool) == 3 + 1 + 1 + counter.count_text("call_1")
    messages = [{"role": "user", "content": "hello world"}]
    assert counter.count_request(messages, []) == plain + 3
    tools = tool_specs()
    assert counter.count_request(messages, tools) == plain + 3 + counter.count_tools(tools)


def test_tool_counting_is_deterministic_and_grows_with_schemas() -> None:
    counter = TokenCounter.for_model("gpt-4o")
    tools = tool_specs()
    rendered = render_tools(tools)
    assert "type update_profile = (_: {" in rendered
    assert '("age" | "country" | "deadline" | "dislikes")[] | null' in rendered
    assert counter.count_tools(tools) == counter.count_tools([dict(t) for t in tools])
    assert counter.count_tools(tools[:1]) < counter.count_tools(tools)
    assert counter.count_tools([]) == 0


def test_truncate_text_reports_what_was_cut() -> None:
    counter = TokenCounter.for_model("gpt-4o")
    text = "word " * 100
    head, removed = counter.truncate_text(text, 10)
    assert counter.count_text(head) <= 10
    assert removed == counter.count_text(text) - 10
    assert counter.truncate_text("short", 10) == ("short", 0)


def _copy_data(tmp_path: Path, name: str, data: bytes) -> Path:
    (tmp_path / f"{name}.tiktoken.gz").write_bytes(gzip.compress(data))
    return tmp_path


@pytest.mark.slow
def test_hash_mismatch_is_a_config_error(tmp_path: Path) -> None:
    original = gzip.decompress((default_data_dir() / "cl100k_base.tiktoken.gz").read_bytes())
    tampered = original.replace(b"IQ== 0", b"Ig== 0", 1)
    data_dir = _copy_data(tmp_path, "cl100k_base", tampered)
    with pytest.raises(ConfigError, match="expected sha256"):
        load_encoding("cl100k_base", data_dir=data_dir)


def test_missing_data_file_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="missing; reinstall"):
        load_encoding("o200k_base", data_dir=tmp_path)


def test_unknown_encoding_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="Unknown tiktoken encoding"):
        load_encoding("p99k_base")


@pytest.mark.slow
def test_tiktoken_module_is_left_untouched() -> None:
    from tiktoken_ext import openai_public

    load_encoding("cl100k_base")
    assert openai_public.load_tiktoken_bpe.__module__ == "tiktoken.load"


@pytest.mark.parametrize(
    ("model", "window"),
    [
        ("offline", 16384),
        ("gpt-4o", 128_000),
        ("openai:gpt-4o-mini", 128_000),
        ("gpt-4o-mini-2024-07-18", 128_000),
        ("gpt-4.1-nano", 1_047_576),
        ("o3-mini", 200_000),
        ("o4-mini", 200_000),
        ("o1", 200_000),
        ("gpt-3.5-turbo-0125", 16_385),
        ("gpt-4", 8_192),
    ],
)
def test_context_windows(model: str, window: int) -> None:
    assert context_window_for(model) == window


@pytest.mark.parametrize("model", ["llama3", "gpt-4.5-preview", "openai:mystery"])
def test_unknown_window_says_what_to_set(model: str) -> None:
    with pytest.raises(ConfigError, match="GIFTGENIUS_CONTEXT_WINDOW"):
        context_window_for(model)


def test_budget_prefers_the_configured_window() -> None:
    assert context_budget("gpt-4o-mini", context_window=8000, completion_reserve=600) == 7400
    # A tokenizer tiktoken lacks (llama3 behind a local server) may count a tenth more than
    # the one used for it: 15 % of its window stays spare.
    assert context_budget("llama3", context_window=8000, completion_reserve=600) == 6200
    assert context_budget("llama3", context_window=3800, completion_reserve=600) == 3200
    assert context_budget("replay:/tmp/r", context_window=8000, completion_reserve=600) == 7400
    assert context_budget("offline", context_window=None, completion_reserve=600) == 15784
    with pytest.raises(ConfigError, match="GIFTGENIUS_CONTEXT_WINDOW"):
        context_budget("offline", context_window=700, completion_reserve=600)


def test_encodings_and_prices() -> None:
    assert encoding_for("openai:gpt-4.1-mini") == "o200k_base"
    assert encoding_for("o3") == "o200k_base"
    assert encoding_for("gpt-4-turbo") == "cl100k_base"
    assert price_per_million("offline") == (0.0, 0.0)
    assert price_per_million("openai:gpt-4o-mini") == (0.15, 0.60)
    assert price_per_million("unknown-model") is None
