"""One definition per tool: a function, its typed argument model, and what the model is shown.

``@tool`` turns ``def name(ctx: TurnContext, args: SomeArgs) -> dict`` into a ``Tool`` whose
name is the function's name, whose description is the first paragraph of its docstring
(later paragraphs are notes for maintainers, never sent), and whose JSON schema is the
argument model's — the way openai-agents' ``function_tool`` derives a tool from a function,
so the three can never drift apart. A ``Registry`` holds the tools in the order they are
offered, renders the OpenAI ``tools`` array and runs one call.
"""

from __future__ import annotations

import inspect
import json
import typing
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from giftgenius.agent.tools.turn_context import TurnContext
from giftgenius.errors import ToolError

ToolResult = dict[str, Any]


class ToolArgs(BaseModel):
    # A model that sends an argument we do not know gets an error, not a silent drop
    # (it may have meant something we would otherwise ignore, such as a user id).
    model_config = ConfigDict(extra="forbid")


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

    def spec(self) -> dict[str, Any]:
        """This tool's entry in the OpenAI ``tools`` array."""
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": self.args.model_json_schema(),
            },
        }


def tool(fn: Callable[[TurnContext, Any], ToolResult]) -> Tool:
    """A ``Tool`` derived from ``fn(ctx, args: SomeArgs)``; a malformed one fails at import."""
    doc = inspect.getdoc(fn)
    if not doc:
        raise TypeError(
            f"Tool {fn.__name__} has no docstring; its first paragraph is the description "
            "the model reads, so write one."
        )
    params = list(inspect.signature(fn).parameters)
    args = typing.get_type_hints(fn).get(params[1]) if len(params) == 2 else None
    if not (isinstance(args, type) and issubclass(args, ToolArgs)):
        raise TypeError(
            f"Tool {fn.__name__} must be declared as (ctx: TurnContext, args: <a ToolArgs "
            "model>); the argument model is what gives the model its schema."
        )
    description = " ".join(doc.split("\n\n", 1)[0].split())
    return Tool(name=fn.__name__, description=description, args=args, fn=fn)


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
            return exc.result()


def _problems(exc: ValidationError) -> str:
    return "; ".join(
        f"{'.'.join(str(p) for p in e['loc']) or 'arguments'}: {e['msg']}" for e in exc.errors()
    )
