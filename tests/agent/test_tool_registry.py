"""One definition per tool: name, description and schema all come from the function itself.

``fixtures/tool_specs.json`` is the ``tools`` array as it is sent; the wire must not move
when the code around it is reorganized (regenerate it, and read the diff, when a tool's
arguments or its model-facing docstring change on purpose).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import Field

from giftgenius.agent.tools import TOOLS, NoArgs, Registry, ToolArgs, TurnContext, tool, tool_specs
from giftgenius.agent.tools.registry import model_description
from giftgenius.agent.tools.strict_schema import strict_schema

FIXTURES = Path(__file__).parent / "fixtures"


def test_the_wire_is_unchanged() -> None:
    expected = json.loads((FIXTURES / "tool_specs.json").read_text(encoding="utf-8"))
    assert tool_specs() == expected


def test_each_spec_is_derived_from_its_function() -> None:
    for spec, (name, item) in zip(tool_specs(), TOOLS.items(), strict=True):
        function = spec["function"]
        assert function["name"] == name == item.fn.__name__
        assert function["parameters"] == strict_schema(item.args.model_json_schema())
        assert function["strict"] is True
        assert function["description"] == model_description(item.fn.__doc__)


class EchoArgs(ToolArgs):  # module level: tools resolve their annotations in their module
    word: str = Field(description="What to echo.")


def test_maintainer_notes_in_a_docstring_stay_off_the_wire() -> None:
    @tool
    def echo(ctx: TurnContext, args: EchoArgs) -> dict[str, Any]:
        """Echo a word
        back.

        Result: `word`, the
        same word.

        Maintainers: never shown to the model.

        Nor is this.
        """
        return {"ok": True, "word": args.word}

    assert echo.name == "echo"
    assert echo.description == "Echo a word back.\nResult: `word`, the same word."
    assert echo.spec()["function"]["parameters"]["properties"]["word"]["type"] == "string"
    assert echo(None, EchoArgs(word="hi")) == {"ok": True, "word": "hi"}  # type: ignore[arg-type]


def test_a_malformed_definition_fails_at_import() -> None:
    with pytest.raises(TypeError, match="no docstring"):

        @tool
        def silent(ctx: TurnContext, args: NoArgs) -> dict[str, Any]:
            return {}

    with pytest.raises(TypeError, match="nothing before 'Maintainers:'"):

        @tool
        def secretive(ctx: TurnContext, args: NoArgs) -> dict[str, Any]:
            """Maintainers: the model would get no description."""
            return {}

    with pytest.raises(TypeError, match="ToolArgs"):

        @tool
        def untyped(ctx: TurnContext, args: dict) -> dict[str, Any]:
            """Takes a plain dict, so the model would get no schema."""
            return {}

    with pytest.raises(ValueError, match="named 'update_profile'"):
        Registry(*TOOLS.values(), TOOLS["update_profile"])


def test_unknown_tools_are_named_with_the_available_ones(make_ctx) -> None:
    result = TOOLS.execute(make_ctx(), "buy_now", "{}")
    assert result["ok"] is False
    assert result["error"] == f"Unknown tool 'buy_now'. Available: {', '.join(TOOLS)}."


def test_a_value_the_domain_refuses_inside_a_tool_is_a_refused_call(make_ctx) -> None:
    """Found by the fuzz suite: a tool whose arguments passed their schema but made a value
    the domain refuses raised pydantic's ValidationError out of the turn (a traceback)."""
    from giftgenius.domain import Budget

    @tool
    def shrink_budget(ctx: TurnContext, args: EchoArgs) -> dict[str, Any]:
        """Record a budget of zero (which a Budget refuses)."""
        ctx.state.profile.recipient = "changed before the failure"
        Budget(amount=0)
        return {"ok": True}

    ctx = make_ctx()
    before = ctx.state.model_copy(deep=True)
    result = Registry(shrink_budget).execute(ctx, "shrink_budget", '{"word": "x"}')
    assert result["ok"] is False
    assert result["error"].startswith("shrink_budget could not use these arguments: amount:")
    assert ctx.state == before  # rolled back like any refused call


@pytest.mark.parametrize(
    ("locale", "sentence"),
    [("en", "No gift is chosen yet"), ("fr", "Aucun cadeau n'est encore choisi")],
)
def test_a_refused_call_reads_as_the_persons_sentence_in_their_language(
    make_ctx, locale: str, sentence: str
) -> None:
    """A refusal has one sentence per language: the model reads the one the person would,
    so relaying it never puts English in a French conversation; code and params ride along
    for the model to mend its call."""
    ctx = make_ctx()
    ctx.state.locale = locale
    result = TOOLS.execute(ctx, "confirm_choice", "{}")
    assert result["ok"] is False and result["code"] == "choice.none_selected"
    assert str(result["error"]).startswith(sentence), result["error"]
