"""What every request repeats — the system prompt, the tool schemas — is counted once."""

from __future__ import annotations

from typing import Any

import pytest

from giftgenius.agent import tools as agent_tools
from giftgenius.resources import prompt_text
from giftgenius.tokens import TokenCounter


class _CountingEncoding:
    """Wraps an encoding and counts the texts it is asked to encode."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.calls = 0
        self.name = inner.name

    def encode(self, text: str, **kwargs: Any) -> list[int]:
        self.calls += 1
        return self.inner.encode(text, **kwargs)


@pytest.fixture
def counter() -> tuple[TokenCounter, _CountingEncoding]:
    shared = TokenCounter.for_model("gpt-4o-mini")
    encoding = _CountingEncoding(shared._encoding)
    return TokenCounter(encoding), encoding  # type: ignore[arg-type]


def test_a_long_text_sent_every_turn_is_encoded_once(
    counter: tuple[TokenCounter, _CountingEncoding],
) -> None:
    tokens, encoding = counter
    system = prompt_text("system.md")
    first = tokens.count_message({"role": "system", "content": system})
    encoded = encoding.calls
    for _ in range(5):
        assert tokens.count_message({"role": "system", "content": system}) == first
    assert encoding.calls - encoded == 5  # the role word each time, the prompt never again
    changed = system + " Answer in French."
    assert tokens.count_text(changed) > tokens.count_text(system)


def test_the_same_tool_schemas_are_rendered_and_encoded_once(
    counter: tuple[TokenCounter, _CountingEncoding],
) -> None:
    tokens, encoding = counter
    specs = agent_tools.tool_specs()
    first = tokens.count_tools(specs)
    encoded = encoding.calls
    assert tokens.count_tools(specs) == first
    assert tokens.count_tools([dict(spec) for spec in specs]) == first  # an equal copy too
    assert tokens.count_tools(specs[:1]) < first
    specs_grown = [*specs]
    assert tokens.count_tools(specs_grown) == first
    assert encoding.calls - encoded == 1  # only the one-schema list was new
