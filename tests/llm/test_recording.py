"""Recording the model's wire (``GIFTGENIUS_RECORD_DIR``) and playing it back (``replay:DIR``):
a conversation replayed gives the same transcript without the model, and a request the
recording does not hold fails with its key and the closest recorded one.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from giftgenius.cli.main import main
from giftgenius.errors import ConfigError
from giftgenius.llm.factory import make_model
from giftgenius.llm.recording import (
    CALLS,
    MANIFEST,
    ReplayTransport,
    _likeness,
    canonical,
    count_calls,
    read_manifest,
    request_key,
)
from giftgenius.protocol import split_state
from giftgenius.settings import load_settings

LINES = "gift for my dad who loves coffee, 60 dollars, he lives in Toronto\nthe first one\nyes\n"


def _chat(home: Path, monkeypatch: pytest.MonkeyPatch, lines: str = LINES) -> tuple[int, str, str]:
    monkeypatch.setenv("GIFTGENIUS_HOME", str(home))
    out, err = io.StringIO(), io.StringIO()
    code = main(["chat", "--user", "ann"], stdin=io.StringIO(lines), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def recording(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, str]:
    """A conversation with the offline model, recorded; its transcript."""
    folder = tmp_path / "recording"
    monkeypatch.setenv("GIFTGENIUS_RECORD_DIR", str(folder))
    code, out, err = _chat(tmp_path / "recorded", monkeypatch)
    monkeypatch.delenv("GIFTGENIUS_RECORD_DIR")
    assert code == 0, err
    assert "is confirmed" in out
    return folder, out


def _same_but_ids(out: str) -> str:
    """The transcript with the order draft's reference blanked: the agent writes the
    confirmation itself, with the id this run's draft was given."""
    return re.sub(r"\(ref\. [0-9a-f]{8}\)", "(ref. …)", out)


@pytest.mark.slow
def test_a_recording_keeps_each_exchange_and_a_call_log(recording: tuple[Path, str]) -> None:
    folder, _ = recording
    assert read_manifest(folder).model == "offline"
    counts = count_calls(folder)
    assert counts.calls >= 3 and counts.replayed == 0  # one turn per line at least
    assert counts.prompt_tokens > 0 and counts.completion_tokens > 0
    logged = [json.loads(line) for line in (folder / CALLS).read_text().splitlines()]
    exchange = json.loads((folder / f"{logged[0]['key']}.json").read_text())
    assert exchange["request"]["model"] == "offline"
    _, said = split_state(exchange["request"]["messages"][-1]["content"])
    assert said.startswith("gift for my dad")
    assert exchange["response"]["status"] == 200
    assert exchange["response"]["body"].rstrip().endswith("data: [DONE]")  # the SSE as sent
    assert request_key(exchange["request"], exchange["purpose"]) == exchange["key"]


@pytest.mark.slow
def test_a_replay_gives_the_same_transcript_without_the_model(
    recording: tuple[Path, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder, recorded = recording
    monkeypatch.setenv("GIFTGENIUS_MODEL", f"replay:{folder}")
    code, out, err = _chat(tmp_path / "replayed", monkeypatch)
    assert code == 0, err
    assert _same_but_ids(out) == _same_but_ids(recorded)
    assert "has no answer" not in err


@pytest.mark.slow
def test_a_replay_can_itself_be_recorded_and_counted(
    recording: tuple[Path, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder, recorded = recording
    monkeypatch.setenv("GIFTGENIUS_MODEL", f"replay:{folder}")
    monkeypatch.setenv("GIFTGENIUS_RECORD_DIR", str(tmp_path / "again"))
    _, out, _ = _chat(tmp_path / "replayed", monkeypatch)
    assert _same_but_ids(out) == _same_but_ids(recorded)
    again = count_calls(tmp_path / "again")
    assert again.calls == count_calls(folder).calls == again.replayed


@pytest.mark.slow
def test_a_request_not_recorded_fails_naming_its_key_and_the_closest(
    recording: tuple[Path, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder, _ = recording
    monkeypatch.setenv("GIFTGENIUS_MODEL", f"replay:{folder}")
    changed = LINES.replace("coffee", "tea")
    _, out, err = _chat(tmp_path / "changed", monkeypatch, changed)
    text = " ".join((out + err).split())
    assert f"The replay of {folder} has no answer for this chat request (key " in text
    assert "The closest recorded request is " in text
    assert "differs: recorded 'gift for my dad who loves coffee" in text
    assert "sent 'gift for my dad who loves tea" in text


def test_a_request_not_recorded_is_reported_in_the_environment_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GIFTGENIUS_LANGUAGE", "fr")
    empty = ReplayTransport(tmp_path)
    said = empty._missing("abc123", {"messages": []}, "chat")
    assert said.startswith(f"Le rejeu de {tmp_path} n'a pas de réponse à cette requête chat")
    assert "(clé abc123, requêtes enregistrées : 0)" in said
    assert said.endswith("Enregistrez d'abord la conversation (GIFTGENIUS_RECORD_DIR).")
    sent = {"messages": [{"role": "user", "content": "thé"}], "temperature": 0}
    recorded = {"messages": [{"role": "user", "content": "café"}], "temperature": 1}
    _, where = _likeness(sent, recorded)
    assert where == (
        "les 0 premiers messages identiques, puis messages[0] (user) diffère : "
        "enregistré 'café', envoyé 'thé' ; temperature diffèrent"
    )


def test_the_key_ignores_what_does_not_change_the_answer() -> None:
    body = {
        "model": "offline",
        "messages": [
            {"role": "user", "content": "hi"},
            {
                "role": "assistant",
                "tool_calls": [{"id": "call_" + "a" * 24, "type": "function"}],
            },
            {"role": "tool", "tool_call_id": "call_" + "a" * 24, "content": "draft " + "f" * 32},
        ],
        "stream": True,
        "stream_options": {"include_usage": True},
    }
    other_ids = json.loads(json.dumps(body).replace("a" * 24, "b" * 24).replace("f" * 32, "0" * 32))
    whole = {k: v for k, v in body.items() if not k.startswith("stream")}
    assert request_key(body, "chat") == request_key(other_ids, "chat") == request_key(whole, "chat")
    assert request_key(body, "chat") != request_key(body, "summary")
    changed = {**body, "messages": [{"role": "user", "content": "hello"}, *body["messages"][1:]]}
    assert request_key(changed, "chat") != request_key(body, "chat")
    assert "<id1>" in json.dumps(canonical(body, "chat"))


def test_replaying_a_folder_without_a_recording_is_a_config_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GIFTGENIUS_MODEL", f"replay:{tmp_path / 'nothing'}")
    with pytest.raises(ConfigError, match="There is no recording at"):
        make_model(load_settings())
    (tmp_path / "empty").mkdir()
    monkeypatch.setenv("GIFTGENIUS_MODEL", f"replay:{tmp_path / 'empty'}")
    with pytest.raises(ConfigError, match=f"holds no {MANIFEST}"):
        make_model(load_settings())


def test_a_scripted_model_cannot_be_recorded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    script = tmp_path / "script.json"
    script.write_text('{"turns": []}')
    monkeypatch.setenv("GIFTGENIUS_MODEL", f"scripted:{script}")
    monkeypatch.setenv("GIFTGENIUS_RECORD_DIR", str(tmp_path / "rec"))
    with pytest.raises(ConfigError, match="has no wire"):
        make_model(load_settings())


def test_one_folder_records_one_model(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GIFTGENIUS_RECORD_DIR", str(tmp_path / "rec"))
    make_model(load_settings())
    monkeypatch.setenv("GIFTGENIUS_CONTEXT_WINDOW", "8000")
    with pytest.raises(ConfigError, match="holds a recording of 'offline'"):
        make_model(load_settings())
