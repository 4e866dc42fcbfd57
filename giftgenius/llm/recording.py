"""Keep the model's wire, and play it back: ``GIFTGENIUS_RECORD_DIR`` and ``replay:DIR``.

Recording happens under the ``openai`` client, at its HTTP transport (the network's, or the
offline model's in-process one), so what is kept is what crossed the wire: the request
body the client built and the response body it parsed — the server-sent events of a
streamed answer, or an error body. ``RecordingTransport`` writes each exchange to
``DIR/<key>.json`` and appends one line per call to ``DIR/calls.jsonl`` (purpose, status,
the model that answered, its token counts), which ``giftgenius eval`` reads to count a
dialogue's calls and tokens. ``DIR/recording.json`` names the model and the context window
the requests were built for, which a replay needs to build the same requests.

A request's ``key`` is a hash of its canonical form: the JSON body without the fields that
do not change the answer (``stream``, ``stream_options``, ``user``…), with the purpose
header, and with the ids that are random by nature (tool call ids, the 32-hex ids the agent
gives order drafts and saved profiles) replaced by their order of first appearance. So the
same conversation asks the same keys in every run, on the same day: the state block
carries today's date, which ``GIFTGENIUS_TODAY`` pins.

``ReplayTransport`` answers from a folder of such files (its subfolders included: an
evaluation records one folder per run) and raises ``NotRecorded`` for a request it has not
seen, naming its key, the closest recorded request and where the two part.
"""

from __future__ import annotations

import base64
import contextlib
import datetime as dt
import difflib
import hashlib
import json
import os
import re
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx2

from giftgenius.errors import ConfigError, ModelError
from giftgenius.messages import speak
from giftgenius.protocol import PURPOSE_HEADER, split_state

MANIFEST = "recording.json"
CALLS = "calls.jsonl"
FORMAT = 1
KEY_CHARS = 32
VOLATILE = frozenset({"stream", "stream_options", "user", "metadata", "store", "service_tier"})
REPLAYED_HEADER = "x-giftgenius-replayed"
_RANDOM_IDS = re.compile(r"\bcall_[A-Za-z0-9]{24}\b|\b[0-9a-f]{32}\b")
_KEPT_HEADERS = ("content-type", "x-request-id", "x-should-retry", "retry-after")
_MAX_COMPARED = 2000  # recorded requests a miss is compared with, to name the closest


class NotRecorded(ModelError):
    """A replay was asked a request its recording does not hold."""


# -- the key --------------------------------------------------------------------------------


def canonical(body: Any, purpose: str) -> dict[str, Any]:
    """What a request's key is made of: the body minus volatile fields, plus the purpose."""
    kept = {k: v for k, v in body.items() if k not in VOLATILE} if isinstance(body, dict) else {}
    kept["purpose"] = purpose
    text = json.dumps(kept, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    seen: dict[str, str] = {}

    def placeholder(match: re.Match[str]) -> str:
        return seen.setdefault(match.group(0), f"<id{len(seen) + 1}>")

    loaded: dict[str, Any] = json.loads(_RANDOM_IDS.sub(placeholder, text))
    return loaded


def request_key(body: Any, purpose: str) -> str:
    text = json.dumps(canonical(body, purpose), sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:KEY_CHARS]


def _purpose(request: httpx2.Request) -> str:
    return request.headers.get(PURPOSE_HEADER, "chat")


def _body_of(request: httpx2.Request) -> Any:
    try:
        return json.loads(request.content or b"null")
    except ValueError:
        return request.content.decode("utf-8", "replace")


# -- the manifest ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Manifest:
    model: str  # the name the requests carry
    context_window: int  # the window the agent built them for
    stream: bool = True  # whether the answers were streamed (a replay asks the same way)

    def as_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "model": self.model,
            "context_window": self.context_window,
            "stream": self.stream,
        }


def write_manifest(folder: Path, manifest: Manifest) -> None:
    """Start (or continue) a recording of ``manifest``'s model in ``folder``."""
    path = folder / MANIFEST
    try:
        folder.mkdir(parents=True, exist_ok=True)
        if path.exists():
            known = _read_manifest(path)
            if known != manifest:
                raise ConfigError(
                    speak(
                        "model",
                        "record.other_model",
                        folder=folder,
                        known=repr(known.model),
                        known_window=known.context_window,
                        model=repr(manifest.model),
                        window=manifest.context_window,
                    )
                )
            return
        _write_atomic(path, json.dumps(manifest.as_json(), indent=2) + "\n")
    except OSError as exc:
        reason = exc.strerror or exc
        raise ConfigError(speak("model", "record.cannot", folder=folder, reason=reason)) from exc


def read_manifest(folder: Path) -> Manifest:
    """The manifest of a recording folder (or of the recordings under it, which must agree)."""
    if not folder.is_dir():
        raise ConfigError(speak("model", "replay.none", folder=folder))
    own = folder / MANIFEST
    paths = [own] if own.is_file() else sorted(folder.rglob(MANIFEST))
    if not paths:
        raise ConfigError(speak("model", "replay.no_manifest", folder=folder, manifest=MANIFEST))
    manifests = {_read_manifest(path) for path in paths}
    if len(manifests) > 1:
        names = ", ".join(sorted(f"{m.model} ({m.context_window})" for m in manifests))
        raise ConfigError(speak("model", "replay.mixed", folder=folder, names=names))
    return manifests.pop()


def _read_manifest(path: Path) -> Manifest:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return Manifest(
            model=str(data["model"]),
            context_window=int(data["context_window"]),
            stream=bool(data.get("stream", True)),
        )
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ConfigError(speak("model", "replay.unreadable", path=path, reason=exc)) from exc


# -- recording ------------------------------------------------------------------------------


class RecordingTransport(httpx2.BaseTransport):
    """Passes every request to ``inner`` and keeps the exchange once its answer is whole.

    A streamed answer still streams: its chunks go on to the client as they come and are
    written down when the last one has passed. An answer the client stops reading halfway
    is not kept.
    """

    def __init__(self, inner: httpx2.BaseTransport, folder: Path) -> None:
        self.inner = inner
        self.folder = folder

    def handle_request(self, request: httpx2.Request) -> httpx2.Response:
        request.read()
        # A compressed body would be kept as the bytes of its compression, not as its text.
        request.headers["accept-encoding"] = "identity"
        response = self.inner.handle_request(request)
        stream = response.stream
        if not isinstance(stream, httpx2.SyncByteStream):
            raise TypeError("RecordingTransport wraps synchronous transports only")

        def keep(body: bytes) -> None:
            self._keep(request, response, body)

        return httpx2.Response(
            response.status_code,
            headers=response.headers,
            stream=_Tee(stream, keep),
            extensions=response.extensions,
        )

    def close(self) -> None:
        self.inner.close()

    def _keep(self, request: httpx2.Request, response: httpx2.Response, body: bytes) -> None:
        purpose = _purpose(request)
        sent = _body_of(request)
        key = request_key(sent, purpose)
        headers = {k: response.headers[k] for k in _KEPT_HEADERS if k in response.headers}
        try:
            text: str | None = body.decode("utf-8")
        except UnicodeDecodeError:
            text = None
        answer: dict[str, Any] = {"status": response.status_code, "headers": headers}
        if text is not None:
            answer["body"] = text
        else:
            answer["body_base64"] = base64.b64encode(body).decode()
        exchange = {"key": key, "purpose": purpose, "request": sent, "response": answer}
        model, prompt, completion = _accounting(response.headers.get("content-type", ""), body)
        call = {
            "key": key,
            "purpose": purpose,
            "status": response.status_code,
            "model": model or (sent.get("model") if isinstance(sent, dict) else None),
            "prompt_tokens": prompt,
            "completion_tokens": completion,
            "replayed": REPLAYED_HEADER in response.headers,
            "at": dt.datetime.now(dt.UTC).isoformat(timespec="milliseconds"),
        }
        self.folder.mkdir(parents=True, exist_ok=True)
        _write_atomic(
            self.folder / f"{key}.json", json.dumps(exchange, ensure_ascii=False, indent=1) + "\n"
        )
        with (self.folder / CALLS).open("a", encoding="utf-8") as log:
            log.write(json.dumps(call, ensure_ascii=False) + "\n")  # one write: one line


class _Tee(httpx2.SyncByteStream):
    """The answer's bytes as they pass; ``done`` gets them all once the answer is whole.

    Whole means read to its end, or — as the client stops reading at ``data: [DONE]`` and
    closes the stream — closed after that last event.
    """

    def __init__(self, inner: httpx2.SyncByteStream, done: Callable[[bytes], None]) -> None:
        self._inner = inner
        self._done = done
        self._parts: list[bytes] = []
        self._kept = False

    def __iter__(self) -> Iterator[bytes]:
        for chunk in self._inner:
            self._parts.append(chunk)
            yield chunk
        self._keep()

    def close(self) -> None:
        try:
            if b"".join(self._parts[-2:]).rstrip().endswith(b"data: [DONE]"):
                self._keep()
        finally:
            self._inner.close()

    def _keep(self) -> None:
        if not self._kept:
            self._kept = True
            self._done(b"".join(self._parts))


def _accounting(content_type: str, body: bytes) -> tuple[str | None, int, int]:
    """(model, prompt tokens, completion tokens) an answer reports; zeros when it has none."""
    events: list[Any] = []
    if content_type.startswith("text/event-stream"):
        for line in body.decode("utf-8", "replace").splitlines():
            if line.startswith("data:") and line[5:].strip() not in ("", "[DONE]"):
                with contextlib.suppress(ValueError):
                    events.append(json.loads(line[5:]))
    else:
        with contextlib.suppress(ValueError):
            events.append(json.loads(body or b"null"))
    model: str | None = None
    prompt = completion = 0
    for event in events:
        if not isinstance(event, dict):
            continue
        model = event.get("model") or model
        usage = event.get("usage")
        if isinstance(usage, dict):
            prompt = int(usage.get("prompt_tokens") or 0)
            completion = int(usage.get("completion_tokens") or 0)
    return model, prompt, completion


@dataclass
class CallCounts:
    """What a recording folder's call log adds up to."""

    calls: int = 0
    summary_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    replayed: int = 0
    models: tuple[str, ...] = ()


def count_calls(folder: Path) -> CallCounts:
    """Add up ``folder/calls.jsonl`` (no log: no calls)."""
    counts = CallCounts()
    models: set[str] = set()
    try:
        lines = (folder / CALLS).read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        return counts
    for line in lines:
        try:
            call = json.loads(line)
        except ValueError:
            continue  # a line cut by a process killed while writing it
        counts.calls += 1
        counts.summary_calls += call.get("purpose") == "summary"
        counts.prompt_tokens += int(call.get("prompt_tokens") or 0)
        counts.completion_tokens += int(call.get("completion_tokens") or 0)
        counts.replayed += bool(call.get("replayed"))
        if call.get("model"):
            models.add(str(call["model"]))
    counts.models = tuple(sorted(models))
    return counts


# -- replaying ------------------------------------------------------------------------------


class ReplayTransport(httpx2.BaseTransport):
    """Answers each request with the recorded answer to the same key, or ``NotRecorded``."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._index: dict[str, Path] = {}
        for root, _dirs, files in sorted(os.walk(folder)):
            for name in sorted(files):
                if name.endswith(".json") and name != MANIFEST:
                    self._index.setdefault(name[: -len(".json")], Path(root) / name)

    def handle_request(self, request: httpx2.Request) -> httpx2.Response:
        request.read()
        purpose = _purpose(request)
        sent = _body_of(request)
        key = request_key(sent, purpose)
        path = self._index.get(key)
        if path is None:
            raise NotRecorded(self._missing(key, sent, purpose))
        answer = _load(path)["response"]
        body = (
            answer["body"].encode()
            if "body" in answer
            else base64.b64decode(answer.get("body_base64", ""))
        )
        headers = {**answer.get("headers", {}), REPLAYED_HEADER: "1"}
        return httpx2.Response(int(answer["status"]), headers=headers, content=body)

    def _missing(self, key: str, sent: Any, purpose: str) -> str:
        lead = speak(
            "replay",
            "not_recorded",
            folder=self.folder,
            purpose=purpose,
            request=key,
            recorded=len(self._index),
        )
        wanted = canonical(sent, purpose)
        best: tuple[tuple[int, int, float], str, str] | None = None
        for recorded_key, path in list(self._index.items())[:_MAX_COMPARED]:
            try:
                exchange = _load(path)
            except (OSError, ValueError, KeyError):
                continue
            theirs = canonical(exchange.get("request"), str(exchange.get("purpose", "chat")))
            score, where = _likeness(wanted, theirs)
            if best is None or score > best[0]:
                best = (score, recorded_key, where)
        if best is None:
            return f"{lead} {speak('replay', 'record_first')}"
        _, closest, where = best
        found = speak("replay", "closest", closest=closest, path=self._index[closest], where=where)
        return f"{lead} {found}"


def _load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def _likeness(sent: dict[str, Any], recorded: dict[str, Any]) -> tuple[tuple[int, int, float], str]:
    """How alike two canonical requests are (higher is closer), and where they part."""
    ours, theirs = sent.get("messages") or [], recorded.get("messages") or []
    same = 0
    while same < min(len(ours), len(theirs)) and ours[same] == theirs[same]:
        same += 1
    others = sorted(k for k in set(sent) | set(recorded) if k != "messages")
    fields = [k for k in others if sent.get(k) != recorded.get(k)]
    mine = json.dumps(ours[same:], ensure_ascii=False, sort_keys=True)
    its = json.dumps(theirs[same:], ensure_ascii=False, sort_keys=True)
    ratio = difflib.SequenceMatcher(None, mine[:4000], its[:4000]).ratio()
    score = (int(sent.get("purpose") == recorded.get("purpose")), same, ratio - 0.01 * len(fields))
    if same == len(ours) == len(theirs):
        where = speak("replay", "same_messages")
    elif same < min(len(ours), len(theirs)):
        role = ours[same].get("role") if isinstance(ours[same], dict) else "?"
        mine_said, its_said = _brief(ours[same]), _brief(theirs[same])
        if mine_said == its_said:  # the same words: what differs is the state block
            mine_said, its_said = (repr(_block(m)[:160]) for m in (ours[same], theirs[same]))
            role = speak("replay", "state_block", role=role)
        where = speak(
            "replay", "differs_at", same=same, role=role, recorded=its_said, sent=mine_said
        )
    else:
        where = speak("replay", "lengths", same=same, recorded=len(theirs), sent=len(ours))
    if fields:
        where = speak("replay", "fields_differ", where=where, fields=", ".join(fields))
    elif same == len(ours) == len(theirs):
        where = speak("replay", "same_fields", where=where)
    return score, where


def _brief(message: Any, limit: int = 160) -> str:
    """A message in a line: a user message's words, or its state block when the words are
    the same (``_differs`` says which); anything else as JSON."""
    if isinstance(message, dict):
        content = message.get("content")
        text = content if isinstance(content, str) else json.dumps(message, ensure_ascii=False)
        if message.get("role") == "user" and isinstance(content, str):
            text = split_state(content)[1]
    else:
        text = json.dumps(message, ensure_ascii=False)
    return repr(text if len(text) <= limit else text[: limit - 1] + "…")


def _block(message: Any) -> str:
    content = message.get("content") if isinstance(message, dict) else None
    return content.partition("\n")[0] if isinstance(content, str) else ""


def _write_atomic(path: Path, text: str) -> None:
    """Readers (a replay, two processes recording the same request) see whole files only."""
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(text)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
