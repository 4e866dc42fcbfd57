"""Models without language understanding: a script of tool calls and replies, or a function.

Tests of the turn loop, the tools, storage and crash recovery need a model whose every move
is known in advance, so that rewording one of the offline model's replies cannot break them.

``ScriptedModel`` plays a script given as data (``GIFTGENIUS_MODEL=scripted:PATH`` names a
JSON file). It keeps no state between requests, so a chat process can be killed and
``resume`` can carry on in a new process with the same file: every request says where it
is. The last user message picks the turn (its exact text as the model sees it: trimmed, PII
already replaced by placeholders such as ``[email]``), and the number of assistant messages
after it picks the step within that turn. A summary request answers with the script's
``summary``. The file looks like::

    {"turns": [
        {"user": "gift for my dad, he loves coffee, 60 USD",
         "steps": [
            {"tool_calls": [{"name": "update_profile",
                             "arguments": {"recipient": "father", "interests": ["coffee"],
                                           "budget_max": 60, "currency": "USD"}}],
             "content": "Coffee it is."}]},
        {"user": "is the first one dishwasher-safe?",
         "steps": [
            {"tool_calls": [{"name": "get_gift_details",
                             "arguments": {"gift_ids": [{"$state": "/candidate_ids/0"}]}}]},
            {"reply": "Yes, it is."}]}],
     "summary": "The user looks for a gift for their father."}

A step whose calls settle the turn — a shortlist, a choice, a confirmed order, the next
question about the recipient — is its turn's last: the agent presents that outcome itself,
after the step's ``content`` if it has one, and asks the model nothing more.

An argument that is exactly ``{"$state": POINTER}`` is replaced by the value at that JSON
Pointer (RFC 6901) in the newest state the request shows (the state in the last tool
result, else the state block), the way a real model copies an id it was shown.

Strictness is the point (compare openai-agents-python's scripted ``FakeModel`` and
pydantic-ai's ``FunctionModel``/``TestModel``): the file is validated by pydantic before the
first turn; the request must keep the chat protocol (every tool call answered, no orphan
tool result); a call to a tool the request did not offer, arguments that are not a JSON
object or an empty reply are refused; a tool result with ``"ok": false`` stops the script
unless the next step says ``"expect_tool_error": true``; a message the script has no turn
for, or a turn that ran out of steps, raises ``ModelError`` naming the file, the turn and
the step. In-process, ``unconsumed()`` lists the steps never played and
``assert_consumed()`` fails on them and on any failure the agent swallowed (a failed
summary request only leaves history unsummarized).

``FunctionModel`` answers with a plain Python function of the request, under the same
checks, for loop tests that need to react to what they see.
"""

from __future__ import annotations

import difflib
import json
import re
import uuid
from abc import ABC, abstractmethod
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from giftgenius.domain import Message, ToolCall
from giftgenius.errors import ConfigError, ContextLengthExceeded, ModelError
from giftgenius.llm.base import ChatRequest, ChatResponse, ChatUsage
from giftgenius.messages import speak
from giftgenius.protocol import split_state
from giftgenius.tokens import REPLY_PRIMING_TOKENS, TokenCounter

MODEL_NAME = "scripted"
# Every error of a ScriptedModel begins with this, so a test can spot one in a CLI's output.
SCRIPTED_LABEL = "Scripted model"
SCRIPTED_PREFIX = "scripted:"
# The offline model's window; GIFTGENIUS_CONTEXT_WINDOW overrides it as for any model.
SCRIPTED_CONTEXT_WINDOW = 16384
STATE_REF = "$state"
TOOL_NAME = r"^[a-zA-Z0-9_-]{1,64}$"
_OK_HEAD = re.compile(r'^\{"ok":\s*(true|false)')  # a tool result cut by the context builder


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class ScriptedCall(_Strict):
    """One tool call: a tool's name and its arguments as a JSON object."""

    name: str = Field(pattern=TOOL_NAME)
    arguments: dict[str, Any] = Field(default_factory=dict)


class ScriptStep(_Strict):
    """One assistant message: tool calls, or a reply that ends the turn."""

    tool_calls: list[ScriptedCall] | None = Field(None, min_length=1)
    reply: str | None = None
    # Words sent with the tool calls: shown before an outcome the agent presents itself.
    content: str | None = None
    # The tool results this step follows must include an error (default: all must be ok).
    expect_tool_error: bool = False

    @model_validator(mode="after")
    def _one_kind(self) -> ScriptStep:
        if (self.tool_calls is None) == (self.reply is None):
            raise ValueError("a step has exactly one of 'tool_calls' and 'reply'")
        if self.content is not None and self.tool_calls is None:
            raise ValueError("'content' goes with 'tool_calls'; a reply is its own text")
        if self.reply is not None and not self.reply.strip():
            raise ValueError("a reply must not be empty (the API never sends an empty answer)")
        return self

    def describe(self) -> str:
        if self.tool_calls is not None:
            return "tool calls " + ", ".join(call.name for call in self.tool_calls)
        return f"reply {_short(self.reply or '')!r}"


class ScriptTurn(_Strict):
    """What the model does after one user message, step by step."""

    user: str = Field(min_length=1)
    steps: list[ScriptStep] = Field(min_length=1)

    @model_validator(mode="after")
    def _trimmed(self) -> ScriptTurn:
        if self.user != self.user.strip():
            raise ValueError(
                f"the user message {self.user!r} has spaces around it; the agent trims what "
                "the user types, so this turn could never be chosen"
            )
        return self


class Script(_Strict):
    """A model's whole part: a turn per user message, and the answer to summary requests."""

    turns: list[ScriptTurn] = Field(default_factory=list)
    summary: str | None = Field(None, min_length=1)

    @model_validator(mode="after")
    def _one_turn_per_message(self) -> Script:
        seen: set[str] = set()
        for turn in self.turns:
            if turn.user in seen:
                raise ValueError(
                    f"two turns answer the user message {turn.user!r}; a message selects its "
                    "turn, so keep one (a message sent again replays the same turn)"
                )
            seen.add(turn.user)
        return self


# -- helpers for model functions and scripts --------------------------------------------------


def reply(text: str) -> Message:
    """An assistant reply, for a ``FunctionModel`` function to return."""
    return Message(role="assistant", content=text)


def call(name: str, /, **arguments: Any) -> Message:
    """An assistant message with one tool call, for a ``FunctionModel`` function to return."""
    return Message(role="assistant", tool_calls=[_tool_call(name, arguments)])


def position(request: ChatRequest) -> tuple[str, int]:
    """(the last user message's text, how many assistant messages followed it)."""
    last_user = None
    for index, message in enumerate(request.messages):
        if message.get("role") == "user":
            last_user = index
    if last_user is None:
        raise ModelError(_say("no_user"))
    after = request.messages[last_user + 1 :]
    step = sum(1 for message in after if message.get("role") == "assistant")
    return split_state(_text(request.messages[last_user]))[1], step


def latest_state(request: ChatRequest) -> dict[str, Any] | None:
    """The newest state the request shows: the last tool result's, else the state block's."""
    for message in reversed(request.messages):
        content = _text(message)
        if message.get("role") == "tool":
            try:
                payload = json.loads(content)
            except json.JSONDecodeError:
                continue  # cut by the context builder; an older message may still say
            if isinstance(payload, dict) and isinstance(payload.get("state"), dict):
                return payload["state"]
        elif message.get("role") == "user":
            return split_state(content)[0]  # the newest user message carries the block
    return None


def tool_errors(request: ChatRequest) -> list[str]:
    """Errors of the tool results that directly follow the last assistant message."""
    errors: list[str] = []
    for message in reversed(request.messages):
        if message.get("role") != "tool":
            break
        content = _text(message)
        try:
            payload = json.loads(content)
        except json.JSONDecodeError:
            head = _OK_HEAD.match(content)
            if head is not None and head.group(1) == "false":
                errors.append(_short(content))
            continue
        if isinstance(payload, dict) and payload.get("ok") is False:
            errors.append(str(payload.get("error", content)))
    errors.reverse()
    return errors


# -- the models -------------------------------------------------------------------------------


class _CheckedModel(ABC):
    """The checks both models share: the request's protocol, and what may be answered."""

    name: str

    def __init__(self, *, context_window: int | None) -> None:
        self.context_window = context_window
        self.counter = TokenCounter.for_model(MODEL_NAME)
        self.requests: list[ChatRequest] = []  # every request seen, for tests to inspect

    @property
    def label(self) -> str:
        """How every error of this model begins, so a test can spot one in any output."""
        return f"The {self.name} model"

    def complete(
        self, request: ChatRequest, on_text: Callable[[str], None] | None = None
    ) -> ChatResponse:
        self.requests.append(request)
        try:
            _check_protocol(request)
            prompt_tokens = self._prompt_tokens(request)
            message = self._answer(request)
            self._check_answer(request, message)
        except ModelError as exc:
            raise self._failed(exc) from exc
        if on_text is not None and message.content:
            on_text(message.content)
        completion = self.counter.count_message(message.to_openai()) - self._framing
        return ChatResponse(
            message=message,
            usage=ChatUsage(prompt_tokens=prompt_tokens, completion_tokens=max(completion, 1)),
            finish_reason="tool_calls" if message.tool_calls else "stop",
            model=self.name,
        )

    def _failed(self, exc: ModelError) -> ModelError:
        """The same error, its message led by the model's label."""
        message = str(exc)
        if not message.startswith(self.label):
            message = f"{self.label}: {message}"
        return type(exc)(message)

    @abstractmethod
    def _answer(self, request: ChatRequest) -> Message:
        """The assistant message for this request (checked by ``complete`` afterwards)."""

    def _where(self, request: ChatRequest) -> str:
        return self.label

    @property
    def _framing(self) -> int:
        return self.counter.count_message({"role": "assistant", "content": ""})

    def _prompt_tokens(self, request: ChatRequest) -> int:
        tokens = sum(self.counter.count_message(m) for m in request.messages)
        tokens += self.counter.count_tools(request.tools) + REPLY_PRIMING_TOKENS
        if self.context_window is not None and tokens > self.context_window:
            raise ContextLengthExceeded(
                _say("context_length", window=self.context_window, tokens=tokens)
            )
        return tokens

    def _check_answer(self, request: ChatRequest, message: Message) -> None:
        where = self._where(request)
        if message.role != "assistant":
            raise ModelError(_say("answer.role", where=where, role=repr(message.role)))
        if not message.tool_calls and not (message.content or "").strip():
            raise ModelError(_say("answer.empty", where=where))
        if message.tool_calls and request.purpose == "summary":
            raise ModelError(_say("answer.summary_tools", where=where))
        offered = _offered(request)
        for tool_call in message.tool_calls:
            if tool_call.name not in offered:
                raise ModelError(
                    _say(
                        "answer.tool_not_offered",
                        where=where,
                        tool=repr(tool_call.name),
                        offered=", ".join(sorted(offered)) or _say("none"),
                    )
                )
            try:
                arguments = json.loads(tool_call.arguments)
            except json.JSONDecodeError:
                arguments = None
            if not isinstance(arguments, dict):
                raise ModelError(
                    _say(
                        "answer.arguments",
                        where=where,
                        tool=tool_call.name,
                        arguments=repr(_short(tool_call.arguments)),
                    )
                )


class ScriptedModel(_CheckedModel):
    """Plays a ``Script``: the request's last user message and step choose the move."""

    def __init__(
        self,
        script: Script,
        *,
        source: str = "<inline script>",
        context_window: int | None = None,
    ) -> None:
        super().__init__(context_window=context_window)
        self.name = MODEL_NAME
        self.script = script
        self.source = source
        self._turns = {turn.user: index for index, turn in enumerate(script.turns)}
        self._played: set[tuple[int, int]] = set()
        self._summarized = False
        self.failures: list[str] = []  # every error raised, even those the agent swallowed

    @classmethod
    def from_data(cls, data: Any, **options: Any) -> ScriptedModel:
        """From a dict as the JSON file would hold it (for in-process tests)."""
        try:
            script = Script.model_validate_json(json.dumps(data))
        except ValidationError as exc:
            raise ConfigError(_invalid(options.get("source", "<inline script>"), exc)) from exc
        return cls(script, **options)

    @classmethod
    def from_file(cls, path: Path, *, context_window: int | None = None) -> ScriptedModel:
        try:
            raw = path.read_text(encoding="utf-8")
        except OSError as exc:
            reason = exc.strerror or exc
            raise ConfigError(
                _say("unreadable", path=path, reason=reason, prefix=SCRIPTED_PREFIX)
            ) from exc
        try:
            script = Script.model_validate_json(raw)
        except ValidationError as exc:
            raise ConfigError(_invalid(str(path), exc)) from exc
        return cls(script, source=str(path), context_window=context_window)

    @property
    def label(self) -> str:
        return f"{SCRIPTED_LABEL} ({self.source})"

    def _failed(self, exc: ModelError) -> ModelError:
        failed = super()._failed(exc)
        self.failures.append(str(failed))
        return failed

    def _where(self, request: ChatRequest) -> str:
        if request.purpose == "summary":
            return _say("where.summary", label=self.label)
        text, step = position(request)
        index = self._turns.get(text)
        said = repr(_short(text))
        turn = _say("where.turn", n=index + 1, said=said) if index is not None else said
        return _say("where.step", label=self.label, turn=turn, n=step + 1)

    def _answer(self, request: ChatRequest) -> Message:
        where = self._where(request)
        if request.purpose == "summary":
            if self.script.summary is None:
                raise ModelError(_say("no_summary", where=where))
            self._summarized = True
            return reply(self.script.summary)
        text, step_index = position(request)
        # A message a failed turn left unanswered is joined before the newest (the context
        # keeps roles alternating): the newest is then the last paragraph.
        index = self._turns.get(text, self._turns.get(text.rpartition("\n\n")[2]))
        if index is None:
            close = difflib.get_close_matches(text, list(self._turns), n=3, cutoff=0.5)
            hint = _say("close_keys", keys=repr(close)) if close else ""
            raise ModelError(_say("no_turn", where=where, hint=hint))
        steps = self.script.turns[index].steps
        if step_index >= len(steps):
            raise ModelError(_say("ran_out", where=where, steps=len(steps)))
        step = steps[step_index]
        errors = tool_errors(request)
        if errors and not step.expect_tool_error:
            raise ModelError(_say("tool_failed", where=where, errors="; ".join(errors)))
        if step.expect_tool_error and not errors:
            raise ModelError(_say("tool_ok", where=where))
        self._played.add((index, step_index))
        if step.reply is not None:
            return reply(step.reply)
        state = latest_state(request)
        calls = [
            _tool_call(c.name, _resolve(c.arguments, state, f"{where}, {c.name}"))
            for c in step.tool_calls or []
        ]
        return Message(role="assistant", content=step.content, tool_calls=calls)

    def unconsumed(self) -> list[str]:
        """The steps (and summary) no request has played yet in this process."""
        left = [
            f"turn {t + 1} {_short(turn.user)!r} step {s + 1} ({step.describe()})"
            for t, turn in enumerate(self.script.turns)
            for s, step in enumerate(turn.steps)
            if (t, s) not in self._played
        ]
        if self.script.summary is not None and not self._summarized:
            left.append("summary")
        return left

    def assert_consumed(self) -> None:
        """Fail if a step was never played or any request failed, even a swallowed one."""
        problems = [f"failed: {failure}" for failure in self.failures]
        problems += [f"never played: {step}" for step in self.unconsumed()]
        if problems:
            raise AssertionError(
                f"Script {self.source} not played as written:\n"
                + "\n".join(f"- {p}" for p in problems)
            )


class FunctionModel(_CheckedModel):
    """Answers with ``fn(request)``: a ``Message`` (see ``reply`` and ``call``) or reply text.

    ``fn`` may raise ``ModelError`` (or ``ContextLengthExceeded``) to act as a failing
    endpoint. Its answers pass the same checks as a script's.
    """

    def __init__(
        self,
        fn: Callable[[ChatRequest], Message | str],
        *,
        name: str = "function",
        context_window: int | None = None,
    ) -> None:
        super().__init__(context_window=context_window)
        self.fn = fn
        self.name = name

    def _answer(self, request: ChatRequest) -> Message:
        answer = self.fn(request)
        return reply(answer) if isinstance(answer, str) else answer


# -- internals --------------------------------------------------------------------------------


def _tool_call(name: str, arguments: dict[str, Any]) -> ToolCall:
    return ToolCall(
        id="call_" + uuid.uuid4().hex[:24],
        name=name,
        arguments=json.dumps(arguments, ensure_ascii=False),
    )


def _offered(request: ChatRequest) -> set[str]:
    return {
        tool["function"]["name"]
        for tool in request.tools
        if tool.get("type") == "function" and isinstance(tool.get("function"), dict)
    }


def _text(message: dict[str, Any]) -> str:
    content = message.get("content")
    if isinstance(content, list):
        return "".join(p.get("text", "") for p in content if isinstance(p, dict))
    return content or ""


def _short(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _invalid(source: str, exc: ValidationError) -> str:
    whole = _say("where.script")
    problems = "; ".join(
        f"{'.'.join(str(p) for p in err['loc']) or whole}: {err['msg']}" for err in exc.errors()
    )
    return _say("invalid", source=source, problems=problems)


def _check_protocol(request: ChatRequest) -> None:
    """The part of the API's request validation a step count relies on.

    Every assistant tool call is answered by the tool messages right after it, no tool
    message answers nothing, a system message comes first or not at all (Gemma's, Llama's
    and Mistral's chat templates refuse one later), and a chat request ends with a user or
    tool message.
    """
    open_calls: set[str] = set()
    for index, message in enumerate(request.messages):
        role = message.get("role")
        if role not in ("system", "user", "assistant", "tool"):
            _protocol(_say("protocol.role", index=index, role=repr(role)))
        if role == "system" and index:
            _protocol(_say("protocol.late_system", index=index))
        if role == "tool":
            call_id = message.get("tool_call_id")
            if call_id not in open_calls:
                _protocol(_say("protocol.not_open", index=index, call=repr(call_id)))
            open_calls.discard(call_id)
            continue
        if open_calls:
            _protocol(_say("protocol.unanswered", index=index, calls=sorted(open_calls)))
        if role == "assistant":
            open_calls = {c["id"] for c in message.get("tool_calls") or []}
    if open_calls:
        _protocol(_say("protocol.never_answered", calls=sorted(open_calls)))
    if not request.messages or request.messages[-1].get("role") not in ("user", "tool"):
        _protocol(_say("protocol.last"))


def _protocol(problem: str) -> None:
    raise ModelError(_say("protocol", problem=problem))


def _resolve(value: Any, state: dict[str, Any] | None, where: str) -> Any:
    """Replace every ``{"$state": POINTER}`` in ``value`` by what the state holds there."""
    if isinstance(value, dict):
        if set(value) == {STATE_REF}:
            return _pointer(state, value[STATE_REF], where)
        return {key: _resolve(item, state, where) for key, item in value.items()}
    if isinstance(value, list):
        return [_resolve(item, state, where) for item in value]
    return value


def _pointer(state: dict[str, Any] | None, pointer: Any, where: str) -> Any:
    if state is None:
        raise ModelError(_say("pointer.no_state", where=where, pointer=repr(pointer)))
    if not isinstance(pointer, str) or not pointer.startswith("/"):
        raise ModelError(_say("pointer.invalid", where=where, pointer=repr(pointer)))
    node: Any = state
    for raw in pointer[1:].split("/"):
        token = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            raise ModelError(
                _say(
                    "pointer.nothing",
                    where=where,
                    pointer=repr(pointer),
                    state=_short(json.dumps(state), 300),
                )
            )
    return node


def _say(key: str, **values: Any) -> str:
    """The scripted model's sentence ``key`` in the environment's language (the catalogue's
    ``scripted`` section): what is wrong with a script or a request, for its author."""
    return speak("scripted", key, **values)
