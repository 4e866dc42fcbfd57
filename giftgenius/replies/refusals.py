"""A refused tool call, told to the person in their own language.

Each tool error (``giftgenius.errors.ToolError``) has a stable ``code`` and its ``params``;
the code's one sentence per language is in the message catalogue
(``giftgenius/messages/<lang>.toml``, section ``refusals``), filled here with its dates and
numbers in the locale's format. The tool registry puts that sentence in the result the model
reads, so a model that relays it speaks the person's language; the offline model and the
agent say it the same way. A result without a known code (an argument the model got wrong,
which only the model needs to read) gets a plain sentence in the person's language.
"""

from __future__ import annotations

from typing import Any

from giftgenius import formats
from giftgenius import messages as catalogue
from giftgenius.replies import phrasing

_OFFERED = frozenset({"choices", "candidates", "allowed"})  # lists to pick one from

# The codes a ToolError may carry.
CODES = catalogue.keys("refusals") - {"generic", "none"}


def render(result: dict[str, Any], locale: str) -> str:
    """The person's sentence for a failed tool ``result`` (``{"ok": false, "code", ...}``)."""
    lang = catalogue.language(locale)
    code = str(result.get("code"))
    params = result.get("params")
    generic = catalogue.text("refusals", "generic", lang)
    if code not in CODES or not isinstance(params, dict):
        return generic
    try:
        amounts = "minimum" in params or "amount" in params
        currency = str(params.get("currency") or "") if amounts else ""
        values = {name: _value(name, value, lang, currency) for name, value in params.items()}
        return catalogue.text("refusals", code, lang).format(**values)
    except (KeyError, ValueError, TypeError, IndexError):  # a parameter missing or malformed
        return generic


def _value(name: str, value: Any, lang: str, currency: str = "") -> str:
    """One parameter as the person reads it: dates, numbers and amounts (in ``currency`` when
    the error is about a budget's amounts) in the locale's format, lists joined with the
    locale's "and" (or "or" for choices), what is missing as the phrases that ask for it, the
    filters' reasons as the shortlist's recaps say them."""
    if name == "missing":
        return formats.join(phrasing.missing([str(v) for v in value], lang), lang)
    if name == "reasons":  # the filters' stable reasons, in the words the recaps use
        return formats.join([phrasing.reason(str(v), lang) for v in value], lang)
    if name in ("deadline", "today"):
        return formats.date(str(value), lang)
    if isinstance(value, bool):
        raise TypeError(name)
    if isinstance(value, int | float):
        return formats.money(value, currency, lang) if currency else formats.number(value, lang)
    if isinstance(value, list):
        either = name in _OFFERED  # one of these to pick: "USD, EUR or GBP"
        joined = formats.join([str(v) for v in value], lang, either=either)
        return joined or catalogue.text("refusals", "none", lang)
    return str(value)
