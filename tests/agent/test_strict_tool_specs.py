"""Every tool is offered as a strict function definition a real endpoint accepts, and the
server stays as tolerant as the schema is strict: a null for an optional argument is the
same call as leaving it out.

The rules are OpenAI's strict mode (what vLLM, Ollama and llama.cpp's constrained decoders
read too): ``"strict": true``; every object closes its properties and requires them all;
an optional argument is nullable; only the keywords ``strict_schema.KEYWORDS``; no
``title``, ``default``, ``$ref`` or ``$defs``.
"""

from __future__ import annotations

import json
from typing import Any, Literal

import pytest
from pydantic import BaseModel, Field

from giftgenius.agent.tools import TOOLS, ToolArgs, TurnContext, execute
from giftgenius.agent.tools.candidates import SearchCandidatesArgs
from giftgenius.agent.tools.registry import MAINTAINERS, Tool
from giftgenius.agent.tools.strict_schema import accepts_null, strict_schema
from giftgenius.chatwire import strict_problems

SPECS = {spec["function"]["name"]: spec for spec in TOOLS.specs()}


@pytest.mark.parametrize("name", list(TOOLS))
def test_every_registered_tool_is_a_strict_function(name: str) -> None:
    spec = SPECS[name]
    assert spec["type"] == "function"
    function = spec["function"]
    assert set(function) == {"name", "description", "parameters", "strict"}
    assert function["strict"] is True
    assert strict_problems(function["parameters"]) == []
    assert "$defs" not in json.dumps(function) and "$ref" not in json.dumps(function)


@pytest.mark.parametrize("name", list(TOOLS))
def test_every_argument_is_described_and_optional_ones_are_nullable(name: str) -> None:
    item: Tool = TOOLS[name]
    properties = SPECS[name]["function"]["parameters"]["properties"]
    assert list(properties) == list(item.args.model_fields)
    for field_name, field in item.args.model_fields.items():
        prop = properties[field_name]
        assert prop.get("description"), f"{name}.{field_name} has no description"
        assert accepts_null(prop) == (not field.is_required()), f"{name}.{field_name}"


@pytest.mark.parametrize("name", list(TOOLS))
def test_the_description_is_the_model_part_of_the_docstring(name: str) -> None:
    description = SPECS[name]["function"]["description"]
    assert description and MAINTAINERS not in description
    assert "``" not in description  # reStructuredText marks belong to the maintainers' part


def _required_values(args: type[ToolArgs]) -> dict[str, Any]:
    """A valid value for each required argument (the same for every test)."""
    values = {
        "gift_id": "g-0001",
        "gift_ids": ["g-0001"],
        "label": "sister",
        "described": "the moka pot",
    }
    return {n: values[n] for n, f in args.model_fields.items() if f.is_required()}


@pytest.mark.parametrize("name", list(TOOLS))
def test_nulls_for_every_optional_argument_validate_as_leaving_them_out(name: str) -> None:
    args = TOOLS[name].args
    required = _required_values(args)
    nulls = {n: None for n, f in args.model_fields.items() if not f.is_required()}
    assert args.model_validate({**required, **nulls}) == args.model_validate(required)


def test_a_null_list_of_keywords_is_no_keywords() -> None:
    assert SearchCandidatesArgs.model_validate({"extra_keywords": None}).extra_keywords == []
    assert "limit" not in SearchCandidatesArgs.model_fields  # the code decides how many


def test_a_null_is_still_refused_for_a_required_or_unknown_argument(make_ctx) -> None:
    ctx = make_ctx()
    refused = execute(ctx, "select_gift", '{"gift_id": null}')
    assert refused["ok"] is False and "gift_id" in refused["error"]
    unknown = execute(ctx, "update_profile", '{"recipient": "my sister", "user_id": null}')
    assert unknown["ok"] is False and "user_id" in unknown["error"]
    assert ctx.state.profile.recipient is None


def _all_nulls(name: str, **given: Any) -> str:
    """A call as a strict model sends it: every argument, null for those not given."""
    return json.dumps({n: given.get(n) for n in TOOLS[name].args.model_fields})


def test_strict_calls_with_nulls_work_through_the_registry(make_ctx) -> None:
    def profile_call(ctx: TurnContext, raw: str) -> dict[str, Any]:
        return execute(ctx, "update_profile", raw)

    facts = {
        "recipient": "colleague",
        "budget_max": 50,
        "currency": "USD",
        "interests": ["board games", "coffee"],
    }
    strict, loose = make_ctx("strict"), make_ctx("loose")
    a = profile_call(strict, _all_nulls("update_profile", **facts))
    b = profile_call(loose, json.dumps(facts))
    assert a["ok"] and b["ok"]
    assert strict.state == loose.state
    a = execute(strict, "search_candidates", _all_nulls("search_candidates"))
    b = execute(loose, "search_candidates", "{}")
    assert a["ok"] and b["ok"]
    assert strict.state == loose.state
    assert a["state"] == b["state"]


class Inner(BaseModel):
    kind: Literal["a", "b"] = Field(description="Which.")
    note: str | None = Field(None, title="Note", description="A note.")


class Outer(ToolArgs):
    inner: Inner = Field(description="Nested.")
    maybe: Inner | None = Field(None, description="Nested, optional.")
    words: list[str] = Field(default_factory=list, description="Words.")
    count: int = Field(3, ge=1, description="How many.")
    pick: Literal["x", "y"] | None = Field(None, description="A choice.")


def test_strict_schema_inlines_refs_and_makes_optional_arguments_nullable() -> None:
    schema = strict_schema(Outer.model_json_schema())
    assert strict_problems(schema) == []
    assert "$defs" not in json.dumps(schema) and "title" not in json.dumps(schema)
    props = schema["properties"]
    assert props["inner"]["type"] == "object" and props["inner"]["description"] == "Nested."
    assert props["inner"]["required"] == ["kind", "note"]
    assert props["inner"]["properties"]["note"] == {
        "type": ["string", "null"],
        "description": "A note.",
    }
    assert accepts_null(props["maybe"]) and not accepts_null(props["inner"])
    assert props["words"] == {
        "anyOf": [{"type": "array", "items": {"type": "string"}}, {"type": "null"}],
        "description": "Words.",
    }
    assert props["count"] == {"type": ["integer", "null"], "minimum": 1, "description": "How many."}
    assert props["pick"]["anyOf"][1] == {"type": "null"}  # an enum keeps its anyOf
    assert Outer.model_validate({"inner": {"kind": "a"}, "words": None, "count": None}).count == 3


def test_a_recursive_argument_model_fails_when_it_is_made_strict() -> None:
    node = {"type": "object", "properties": {"child": {"$ref": "#/$defs/Node"}}}
    schema = {"type": "object", "properties": {"n": {"$ref": "#/$defs/Node"}}}
    with pytest.raises(TypeError, match="recursive"):
        strict_schema({**schema, "$defs": {"Node": node}})
