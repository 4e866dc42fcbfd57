"""The offline model over a real socket (``giftgenius model serve``), spoken to by the
official ``openai`` client: streamed and whole answers, tool calls, usage, the model list,
the API's error bodies — and GiftGenius itself as a client of it, with no API key.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx2
import openai
import pytest

from giftgenius.llm.base import ChatRequest
from giftgenius.llm.factory import make_model, offline_transport
from giftgenius.llm.openai_chat import OpenAIChatModel
from giftgenius.llm.server import WireServer
from giftgenius.settings import load_settings

PROFILE_TOOL = {
    "type": "function",
    "function": {
        "name": "update_profile",
        "description": "Record what the person said about the recipient.",
        "parameters": {
            "type": "object",
            "properties": {"recipient": {"type": "string"}, "interests": {"type": "array"}},
        },
    },
}


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    """The offline model served on a free port of 127.0.0.1, in a thread of this process."""
    server = WireServer(("127.0.0.1", 0), offline_transport(load_settings()))
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    thread.start()
    try:
        yield server.base_url
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@pytest.fixture
def client(base_url: str) -> openai.OpenAI:
    return openai.OpenAI(api_key="anything", base_url=base_url, max_retries=0, timeout=30)


def _messages(text: str) -> list[dict[str, str]]:
    return [
        {"role": "system", "content": "You help choose gifts."},
        {"role": "user", "content": text},
    ]


def test_it_listens_where_it_says(base_url: str) -> None:
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+/v1", base_url)
    assert not base_url.endswith(":0/v1")


@pytest.mark.slow
def test_the_model_list_names_the_offline_model(client: openai.OpenAI) -> None:
    assert [m.id for m in client.models.list()] == ["offline"]
    assert client.models.retrieve("offline").owned_by == "giftgenius"
    with pytest.raises(openai.NotFoundError):
        client.models.retrieve("gpt-4o")


@pytest.mark.slow
def test_a_whole_answer_carries_tool_calls_and_usage(client: openai.OpenAI) -> None:
    completion = client.chat.completions.create(
        model="offline",
        messages=_messages("a gift for my dad, he loves fishing, 60 dollars"),  # type: ignore[arg-type]
        tools=[PROFILE_TOOL],  # type: ignore[list-item]
    )
    choice = completion.choices[0]
    assert choice.finish_reason == "tool_calls"
    [call] = choice.message.tool_calls or []
    assert call.type == "function" and call.function.name == "update_profile"
    assert call.id.startswith("call_")
    assert isinstance(json.loads(call.function.arguments), dict)
    assert completion.usage is not None
    assert completion.usage.prompt_tokens > 0 and completion.usage.completion_tokens > 0
    assert completion.model == "offline"


@pytest.mark.slow
def test_a_streamed_answer_arrives_in_pieces_then_usage(client: openai.OpenAI) -> None:
    stream = client.chat.completions.create(
        model="offline",
        messages=_messages("hello there, can you help me?"),  # type: ignore[arg-type]
        stream=True,
        stream_options={"include_usage": True},
    )
    chunks = list(stream)
    pieces = [
        c.choices[0].delta.content for c in chunks if c.choices and c.choices[0].delta.content
    ]
    assert len(pieces) > 1 and "".join(pieces).strip()
    assert [c.choices[0].finish_reason for c in chunks if c.choices][-1] == "stop"
    assert chunks[-1].choices == [] and chunks[-1].usage is not None
    assert chunks[-1].usage.total_tokens > 0


@pytest.mark.slow
def test_bad_requests_get_the_apis_error_bodies(client: openai.OpenAI, base_url: str) -> None:
    with pytest.raises(openai.NotFoundError) as unknown:
        client.chat.completions.create(model="gpt-4o", messages=_messages("hi"))  # type: ignore[arg-type]
    assert unknown.value.code == "model_not_found"
    with pytest.raises(openai.BadRequestError) as empty:
        client.chat.completions.create(model="offline", messages=[])
    assert empty.value.status_code == 400
    with httpx2.Client(base_url=base_url, timeout=10) as raw:
        no_key = raw.get("/models")
        broken = raw.post(
            "/chat/completions", content=b"{not json", headers={"Authorization": "Bearer k"}
        )
        nowhere = raw.get("/nowhere", headers={"Authorization": "Bearer k"})
    assert no_key.status_code == 401 and no_key.json()["error"]["code"] == "invalid_api_key"
    assert broken.status_code == 400
    assert set(broken.json()["error"]) == {"message", "type", "param", "code"}
    assert nowhere.status_code == 404 and nowhere.json()["error"]["code"] == "unknown_url"


def test_giftgenius_talks_to_it_without_an_api_key(
    base_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", base_url)
    monkeypatch.setenv("GIFTGENIUS_MODEL", "openai:offline")
    model = make_model(load_settings())
    assert isinstance(model, OpenAIChatModel)
    pieces: list[str] = []
    response = model.complete(
        ChatRequest(messages=_messages("hello, I need a gift idea")), on_text=pieces.append
    )
    assert response.message.content and "".join(pieces) == response.message.content
    assert response.usage.prompt_tokens > 0


# -- the command, as a person runs it (slow: real processes) ------------------------------


def _serve(env: dict[str, str]) -> tuple[subprocess.Popen[str], str]:
    server = subprocess.Popen(
        [sys.executable, "-m", "giftgenius", "model", "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert server.stdout is not None
    line = server.stdout.readline()
    found = re.search(r"on (http://127\.0\.0\.1:\d+/v1) — set OPENAI_BASE_URL", line)
    assert found, line + (server.stderr.read() if server.poll() is not None else "")
    return server, found.group(1)


@pytest.mark.slow
def test_a_conversation_through_the_cli_against_the_served_model(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIFTGENIUS_", "OPENAI_"))}
    env["GIFTGENIUS_HOME"] = str(tmp_path / "server-home")
    server, url = _serve(env)
    try:
        chat = subprocess.run(
            [sys.executable, "-m", "giftgenius", "chat", "--user", "ann"],
            input="gift for my dad who loves coffee, 60 dollars, he lives in Toronto\n"
            "the first one\nyes\n",
            capture_output=True,
            text=True,
            timeout=120,
            env={
                **env,
                "GIFTGENIUS_HOME": str(tmp_path / "home"),
                "GIFTGENIUS_MODEL": "openai:offline",
                "OPENAI_BASE_URL": url,
            },
        )
        assert chat.returncode == 0, chat.stderr
        assert "is confirmed" in chat.stdout, chat.stdout + chat.stderr
        assert "offline model (deterministic" not in chat.stderr  # it used the endpoint
    finally:
        server.send_signal(signal.SIGTERM)
        _, stderr = server.communicate(timeout=20)
    assert server.returncode == 0
    assert "Traceback" not in stderr
    assert "POST /v1/chat/completions (chat) → 200" in stderr
    assert stderr.rstrip().endswith("Stopped serving the offline model.")


@pytest.mark.slow
def test_a_busy_port_is_a_plain_error(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIFTGENIUS_", "OPENAI_"))}
    env["GIFTGENIUS_HOME"] = str(tmp_path / "home")
    server, url = _serve(env)
    try:
        port = url.rsplit(":", 1)[1].split("/")[0]
        second = subprocess.run(
            [sys.executable, "-m", "giftgenius", "model", "serve", "--port", port],
            capture_output=True,
            text=True,
            timeout=60,
            env=env,
        )
    finally:
        server.send_signal(signal.SIGINT)
        server.communicate(timeout=20)
    assert second.returncode == 1
    assert second.stderr.startswith(f"error: Cannot listen on 127.0.0.1:{port}")
    assert "Traceback" not in second.stderr
    assert server.returncode == 0
