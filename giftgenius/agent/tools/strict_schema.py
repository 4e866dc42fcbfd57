"""The strict JSON schema of a tool's arguments, derived from its pydantic model.

OpenAI's strict function calling (``"strict": true``; vLLM, Ollama and llama.cpp read the
same shape, and constrained decoders need it) accepts a subset of JSON Schema: every object
closes its properties (``additionalProperties: false``) and lists every one in
``required``; an optional argument is one that may be ``null``; no ``$ref`` beside other
keys. This is the one place that turns a pydantic schema into that shape, after
openai-agents-python's ``strict_schema.ensure_strict_json_schema``:

- every object gets ``additionalProperties: false`` and all its properties as required;
- a property that was optional becomes nullable (``"type": ["string", "null"]`` for a plain
  scalar, ``anyOf`` with ``{"type": "null"}`` otherwise) — ``ToolArgs`` reads a null as
  "not given", so a call validates exactly as one that leaves the field out;
- ``$ref`` is inlined (the keys beside it win) and ``$defs`` dropped; ``oneOf`` becomes
  ``anyOf``; a one-entry ``allOf`` is merged;
- keywords outside ``KEYWORDS`` are dropped: ``title`` and ``default`` (noise the model
  pays for), and bounds strict mode refuses such as ``minLength``/``maxLength`` — the server
  still validates every bound with the pydantic model;
- ``anyOf [X, null]`` with a plain scalar ``X`` collapses to ``X`` with ``type: [t, "null"]``
  (the same meaning, fewer tokens for endpoints that paste the JSON into the prompt).

A model whose schema cannot be made strict (a recursive one) fails at import.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from giftgenius.chatwire import STRICT_KEYWORDS

# The keywords kept: those strict mode takes (``chatwire.STRICT_KEYWORDS``, where every
# request the offline endpoint receives is checked against them).
KEYWORDS = STRICT_KEYWORDS
SCALARS = frozenset({"string", "number", "integer", "boolean"})
NULL: dict[str, Any] = {"type": "null"}
_MAX_DEPTH = 32  # deeper than any argument model: only a recursive schema gets there


def strict_schema(schema: Mapping[str, Any]) -> dict[str, Any]:
    """The strict form of a pydantic JSON schema (an object schema); the input is not changed."""
    root = copy.deepcopy(dict(schema))
    defs = root.pop("$defs", None) or root.pop("definitions", None) or {}
    out = _strict(root, defs, path="#", depth=0)
    if out.get("type") != "object":
        raise TypeError(f"A tool's arguments must be an object schema, not {out.get('type')!r}.")
    return out


def accepts_null(node: Mapping[str, Any]) -> bool:
    kind = node.get("type")
    if kind == "null" or (isinstance(kind, list) and "null" in kind):
        return True
    return any(accepts_null(branch) for branch in node.get("anyOf") or ())


def _strict(
    node: Mapping[str, Any], defs: Mapping[str, Any], path: str, depth: int
) -> dict[str, Any]:
    if depth > _MAX_DEPTH:
        raise TypeError(f"Tool argument schema too deep at {path} (a recursive model?).")
    node = dict(node)
    ref = node.pop("$ref", None)
    if isinstance(ref, str):
        node = {**_resolve(ref, defs), **node}  # the keys beside the $ref win
        return _strict(node, defs, path, depth + 1)
    all_of = node.pop("allOf", None)
    if isinstance(all_of, list):
        if len(all_of) != 1:
            raise TypeError(f"Tool argument schema at {path}: allOf of several is not strict.")
        node = {**all_of[0], **node}
        return _strict(node, defs, path, depth + 1)
    one_of = node.pop("oneOf", None)
    if isinstance(one_of, list):
        node["anyOf"] = [*(node.get("anyOf") or []), *one_of]
    out = {key: value for key, value in node.items() if key in KEYWORDS}
    if isinstance(out.get("items"), Mapping):
        out["items"] = _strict(out["items"], defs, f"{path}/items", depth + 1)
    if isinstance(out.get("anyOf"), list):
        branches = [
            _strict(b, defs, f"{path}/anyOf/{i}", depth + 1) for i, b in enumerate(out["anyOf"])
        ]
        out["anyOf"] = branches
        out = _collapse(out)
    if out.get("type") == "object" or "properties" in out:
        required = set(node.get("required") or ())
        properties: dict[str, Any] = {}
        for name, prop in (out.get("properties") or {}).items():
            strict = _strict(prop, defs, f"{path}/properties/{name}", depth + 1)
            properties[name] = strict if name in required else _nullable(strict)
        out["type"] = "object"
        out["properties"] = properties
        out["required"] = list(properties)
        out["additionalProperties"] = False
    return out


def _resolve(ref: str, defs: Mapping[str, Any]) -> dict[str, Any]:
    for prefix in ("#/$defs/", "#/definitions/"):
        if ref.startswith(prefix) and isinstance(defs.get(ref[len(prefix) :]), Mapping):
            return dict(defs[ref[len(prefix) :]])
    raise TypeError(f"Tool argument schema has a $ref that cannot be inlined: {ref!r}.")


def _collapse(node: dict[str, Any]) -> dict[str, Any]:
    """``anyOf [X, null]`` with a plain scalar ``X`` → ``X`` typed ``[t, "null"]``."""
    branches = node["anyOf"]
    if len(branches) != 2 or NULL not in branches:
        return node
    other = branches[0] if branches[1] == NULL else branches[1]
    kind = other.get("type")
    if kind not in SCALARS or "enum" in other or "const" in other or "anyOf" in other:
        return node
    rest = {k: v for k, v in node.items() if k != "anyOf"}
    return {**other, **rest, "type": [kind, "null"]}


def _nullable(node: dict[str, Any]) -> dict[str, Any]:
    """The same schema, also accepting null (what an optional argument is in strict mode)."""
    if accepts_null(node):
        return node
    kind = node.get("type")
    if kind in SCALARS and "enum" not in node and "const" not in node:
        return {**node, "type": [kind, "null"]}
    description = node.get("description")
    inner = {k: v for k, v in node.items() if k != "description"}
    out: dict[str, Any] = {"anyOf": [inner, dict(NULL)]}
    if description is not None:
        out["description"] = description
    return out
