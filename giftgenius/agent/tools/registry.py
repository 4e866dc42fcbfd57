"""One definition per tool: a function, its typed argument model, and what the model is shown.

``@tool`` turns ``def name(ctx: TurnContext, args: SomeArgs) -> dict`` into a ``Tool`` whose
name is the function's name, whose description is its docstring's part for the model, and
whose JSON schema is the argument model's made strict (``strict_schema``) — the way
openai-agents' ``function_tool`` derives a tool from a function, so the three can never
drift apart. A ``Registry`` holds the tools in the order they are offered, renders the
OpenAI ``tools`` array and runs one call.

The docstring convention: everything before the first paragraph that starts with
``Maintainers:`` is the model's (what the tool does, when to call it and when not, what
each field of its result means), sent whole; that paragraph and all after it are notes for
whoever reads the code, never sent. A docstring with no such paragraph is sent whole. Each
paragraph reaches the model on one line, so wrap them freely; keep them short, as the specs
go with every request.
"""

from __future__ import annotations

import inspect
import json
import typing
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

from giftgenius.agent.tools.call_context import TurnContext
from giftgenius.agent.tools.strict_schema import strict_schema
from giftgenius.errors import ToolError
from giftgenius.replies import refusals

ToolResult = dict[str, Any]
# The paragraph that starts the maintainers' part of a tool's docstring (never sent).
MAINTAINERS = "Maintainers:"


class ToolArgs(BaseModel):
    # A model that sends an argument we do not know gets an error, not a silent drop
    # (it may have meant something we would otherwise ignore, such as a user id).
    model_config = ConfigDict(extra="forbid")

    @model_validator(mode="before")
    @classmethod
    def _null_is_not_given(cls, data: Any) -> Any:
        """A null for an optional argument means "not given": strict mode makes the model
        send every argument, null for those it has nothing for, and such a call must
        validate as one that leaves them out (an optional list defaults to empty, not null).
        A null for a required argument, or for one we do not know, is still refused."""
        if not isinstance(data, dict):
            return data
        fields = cls.model_fields
        return {
            key: value
            for key, value in data.items()
            if not (value is None and key in fields and not fields[key].is_required())
        }


class NoArgs(ToolArgs):
    # No docstring on purpose: a class docstring becomes the schema's description.
    pass


@dataclass(frozen=True)
class Tool:
    """A tool as the model sees it (name, description, argument schema) and its function."""

    name: str
    description: str
    args: type[ToolArgs]
    fn: Callable[[TurnContext, Any], ToolResult]

    def __call__(self, ctx: TurnContext, args: ToolArgs) -> ToolResult:
        return self.fn(ctx, args)

    def parameters(self) -> dict[str, Any]:
        """The strict JSON schema of the arguments (``strict_schema``); shared, not to be
        changed by its readers."""
        return _parameters(self.args)

    def spec(self) -> dict[str, Any]:
        """This tool's entry in the OpenAI ``tools`` array: a strict function definition."""
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": self.parameters(),
                "strict": True,
            },
        }


@cache
def _parameters(args: type[ToolArgs]) -> dict[str, Any]:
    """A tool's argument schema, made once per process: pydantic writes it anew on every
    call, and every agent built (each command, each HTTP request) asks for all of them."""
    return strict_schema(args.model_json_schema())


def model_description(doc: str) -> str:
    """The part of a tool's docstring sent to the model: every paragraph before the first
    that starts with ``Maintainers:``, each on one line."""
    sent: list[str] = []
    for paragraph in doc.split("\n\n"):
        text = " ".join(paragraph.split())
        if text.startswith(MAINTAINERS):
            break
        if text:
            sent.append(text)
    return "\n".join(sent)


def tool(fn: Callable[[TurnContext, Any], ToolResult]) -> Tool:
    """A ``Tool`` derived from ``fn(ctx, args: SomeArgs)``; a malformed one fails at import."""
    doc = inspect.getdoc(fn)
    if not doc:
        raise TypeError(
            f"Tool {fn.__name__} has no docstring; its part before a '{MAINTAINERS}' "
            "paragraph is the description the model reads, so write one."
        )
    params = list(inspect.signature(fn).parameters)
    args = typing.get_type_hints(fn).get(params[1]) if len(params) == 2 else None
    if not (isinstance(args, type) and issubclass(args, ToolArgs)):
        raise TypeError(
            f"Tool {fn.__name__} must be declared as (ctx: TurnContext, args: <a ToolArgs "
            "model>); the argument model is what gives the model its schema."
        )
    description = model_description(doc)
    if not description:
        raise TypeError(f"Tool {fn.__name__}'s docstring has nothing before '{MAINTAINERS}'.")
    made = Tool(name=fn.__name__, description=description, args=args, fn=fn)
    made.parameters()  # a schema that cannot be made strict fails here, at import
    return made


class Registry(Mapping[str, Tool]):
    """The tools offered to the model, by name, in the order they are offered."""

    def __init__(self, *tools: Tool) -> None:
        self._tools: dict[str, Tool] = {}
        for item in tools:
            if item.name in self._tools:
                raise ValueError(f"Two tools are named {item.name!r}; tool names must be unique.")
            self._tools[item.name] = item

    def __getitem__(self, name: str) -> Tool:
        return self._tools[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._tools)

    def __len__(self) -> int:
        return len(self._tools)

    def specs(self) -> list[dict[str, Any]]:
        """The OpenAI ``tools`` array, derived from the definitions."""
        return [item.spec() for item in self._tools.values()]

    def execute(self, ctx: TurnContext, name: str, raw_arguments: str) -> ToolResult:
        """Run one tool call; any bad call becomes ``{"ok": false, "error": ...}`` for the model.

        State changes of a failed call are rolled back so a half-applied tool never leaks.
        The fuzz suite (``tests/faults/test_fuzz_tool_calls.py``) holds this to any payload.
        """
        item = self._tools.get(name)
        if item is None:
            return {"ok": False, "error": f"Unknown tool '{name}'. Available: {', '.join(self)}."}
        try:
            raw = json.loads(raw_arguments or "{}")
        except json.JSONDecodeError as exc:
            return {"ok": False, "error": f"Arguments of {name} are not valid JSON ({exc.msg})."}
        try:
            args = item.args.model_validate(raw)
        except ValidationError as exc:
            return {"ok": False, "error": f"Invalid arguments for {name}: {_problems(exc)}."}
        before = (ctx.state.model_copy(deep=True), len(ctx.staged), len(ctx.checkpoints))
        try:
            return item(ctx, args)
        except (ToolError, ValidationError) as exc:
            # A ValidationError here is a value the arguments passed their schema with but
            # the domain refuses once worked out (a "name" of 80 letters): the model's call
            # is refused like any other, never a traceback out of the turn.
            ctx.state, staged, checkpoints = before
            del ctx.staged[staged:]
            del ctx.checkpoints[checkpoints:]
            if isinstance(exc, ValidationError):
                return {
                    "ok": False,
                    "error": f"{name} could not use these arguments: {_problems(exc)}. "
                    "Send shorter or plainer values.",
                }
            result = exc.result()
            result["error"] = refusals.render(result, ctx.state.locale)  # the person's words
            return result


def _problems(exc: ValidationError) -> str:
    return "; ".join(
        f"{'.'.join(str(p) for p in e['loc']) or 'arguments'}: {e['msg']}" for e in exc.errors()
    )
