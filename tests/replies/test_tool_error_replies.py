"""A refused tool call reaches the person in their own language.

Every ``ToolError`` carries a code of the catalogue's ``refusals`` and its parameters; each
code has one sentence per language, said with dates and numbers in the locale's format, and
the tool result the model reads carries it in the person's language, never English inside a
French conversation.
"""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path

import pytest

import giftgenius
from giftgenius import messages
from giftgenius.errors import ToolError
from giftgenius.replies import refusals

# Words an English sentence is made of and a French one never holds.
_ENGLISH_WORDS = (
    "the is are to of and not you your please with for this that yet first call use pick "
    "one gift ask user currency deadline today already past none saved labelled cannot "
    "can't couldn't which step search candidates filter select recipient interests missing "
    "label known know tell what who stock ship"
)
ENGLISH = frozenset(_ENGLISH_WORDS.split())
LISTS = frozenset({"choices", "candidates", "labels", "allowed", "reasons"})
SAMPLE_MISSING = ["recipient", "budget", "interests"]


def _sample(name: str) -> object:
    """A neutral value of the parameter's kind, so only the sentence's own words are judged."""
    if name in ("deadline", "today"):
        return {"deadline": "2026-11-02", "today": "2026-12-01"}[name]
    if name in ("minimum", "maximum", "limit"):
        return {"minimum": 1500.5, "maximum": 80, "limit": 40}[name]
    if name == "missing":
        return SAMPLE_MISSING
    if name == "currency":
        return "CHF"
    if name in LISTS:
        return ["Zorglub", "Plonk"]
    return "Zorglub"


def _names(code: str) -> set[str]:
    """The parameters a code's sentences use (the same in every language, a test holds)."""
    return {
        f for _, f, _, _ in string.Formatter().parse(messages.text("refusals", code, "en")) if f
    }


def _params(code: str) -> dict[str, object]:
    return {name: _sample(name) for name in _names(code)}


def _words(text: str) -> set[str]:
    return {w.lower() for w in re.findall(r"[A-Za-z']+", text)}


def test_a_code_without_a_sentence_fails_where_it_is_raised() -> None:
    with pytest.raises(KeyError, match=r"no\.such\.code"):
        ToolError("no.such.code")


@pytest.mark.parametrize("code", sorted(refusals.CODES))
def test_every_code_renders_in_both_languages_without_english_in_french(code: str) -> None:
    error = ToolError(code, **_params(code))  # type: ignore[arg-type]
    result = error.result()
    assert result["code"] == code and result["error"] == str(error)
    french = refusals.render(result, "fr")
    english = refusals.render(result, "en")
    generic = {refusals.render({"ok": False}, lang) for lang in ("en", "fr")}
    assert french not in generic and english not in generic  # the code's own sentence
    assert "{" not in french + english
    assert not _words(french) & ENGLISH, french


def test_dates_numbers_and_choices_follow_the_locale() -> None:
    past = ToolError("deadline.past", deadline="2026-03-01", today="2026-04-15").result()
    assert "1er mars 2026" in refusals.render(past, "fr")
    assert "15 avril 2026" in refusals.render(past, "fr")
    assert "March 1, 2026" in refusals.render(past, "en")
    upside = ToolError("budget.min_above_max", minimum=2500.75, maximum=90, currency="EUR")
    assert "500,75\u00a0€" in refusals.render(upside.result(), "fr")
    assert "€2,500.75" in refusals.render(upside.result(), "en")
    offered = ToolError("currency.unsupported", currency="SEK", choices=["CHF", "GBP"])
    assert "CHF ou GBP" in refusals.render(offered.result(), "fr")
    assert "CHF or GBP" in refusals.render(offered.result(), "en")
    stale = ToolError("gift.fails_filters", title="Tin whistle", reasons=["out of stock"])
    assert "rupture de stock" in refusals.render(stale.result(), "fr")
    asked = ToolError("search.incomplete", missing=["budget"]).result()
    assert "votre budget" in refusals.render(asked, "fr")


@pytest.mark.parametrize(
    "result",
    [
        {"ok": False, "error": "Arguments of update_profile are not valid JSON (x)."},
        {"ok": False, "error": "whatever", "code": "no.such.code", "params": {}},
        {"ok": False, "error": "whatever", "code": "deadline.past", "params": {"today": 3}},
        {"ok": False, "error": "whatever", "code": "label.too_long", "params": "forty"},
    ],
)
def test_a_result_without_a_sentence_gets_a_plain_one_in_the_persons_language(
    result: dict[str, object],
) -> None:
    french = refusals.render(result, "fr")
    assert french and not _words(french) & ENGLISH
    assert "whatever" not in french and "JSON" not in french
    assert refusals.render(result, "en")


def _raise_sites() -> list[tuple[str, int, ast.Call]]:
    root = Path(giftgenius.__file__).parent
    sites = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
                func = node.exc.func
                name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
                if name in ("ToolError", "WorkflowError"):
                    sites.append((path.name, node.lineno, node.exc))
    return sites


@pytest.mark.slow
def test_every_raise_site_names_a_known_code_with_its_parameters() -> None:
    sites = _raise_sites()
    assert len(sites) >= 20  # the tools and the workflow raise them
    for where, line, call in sites:
        first = call.args[0] if call.args else None
        assert isinstance(first, ast.Constant) and first.value in refusals.CODES, (where, line)
        passed = {k.arg for k in call.keywords}
        assert _names(first.value) <= passed, (where, line)  # the sentence's own, and the
        # ids the model mends its call from (gift_id, candidates) which the person never reads
