"""A tool result is scrubbed inside its strings, never across the JSON around them: a long
number that looks like a phone number stays a number, and the text the model is sent (and
the agent reads back) is always JSON."""

from __future__ import annotations

import json

from giftgenius.agent.runner import _as_sent


def test_a_number_like_a_phone_number_stays_a_number() -> None:
    result = {"ok": True, "price_in_budget_currency": 26.086956521739129, "count": 392254893}
    sent = json.loads(json.dumps(_as_sent(result)))
    assert sent == result


def test_pii_inside_strings_is_still_scrubbed() -> None:
    result = {"ok": True, "profile": {"recipient": "Jo, write to jo@example.com"}, "n": 5}
    sent = json.loads(json.dumps(_as_sent(result)))
    assert "jo@example.com" not in json.dumps(sent) and sent["n"] == 5
