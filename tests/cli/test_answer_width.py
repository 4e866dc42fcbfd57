"""An answer about the list wraps at word boundaries in a 60-column terminal, rich or
plain, like every reply (tests/cli/test_terminal_width.py)."""

from __future__ import annotations

import io

from rich.cells import cell_len
from rich.console import Console

from giftgenius.cli.render import ChatUI
from giftgenius.replies.answers import answer, then

DESCRIPTION = (
    "Lightweight 8x25 binoculars with rubber armor and a neck strap, small enough for a "
    "jacket pocket on birdwatching walks and hikes."
)


def _gift(number: int) -> dict:
    return {
        "number": number,
        "title": f"Compact Binoculars 8x25, edition {number}",
        "description": DESCRIPTION,
        "price": 59,
        "currency": "USD",
        "price_in_budget_currency": 54.28,
        "delivery_days": 9,
        "arrives_on": "2026-12-10",
        "in_time_for_deadline": True,
        "answers": ["hiking", "birdwatching"],
    }


def test_an_answer_fits_a_60_column_terminal() -> None:
    result = {
        "gifts": [_gift(1), _gift(2)],
        "deadline": "2026-12-20",
        "cheapest": [1, 2],
        "soonest": [1, 2],
        "state": {"profile": {"budget": {"amount": 60, "currency": "EUR"}}},
    }
    for locale in ("en", "fr"):
        text = answer(result, {"difference"}, locale) + "\n\n" + then(None, locale)
        for rich in (True, False):
            console = Console(file=io.StringIO(), width=60, record=True)
            ChatUI(console, console, rich=rich).reply(text, locale=locale)
            shown = console.export_text()
            assert max(cell_len(line) for line in shown.splitlines()) <= 60, shown
            assert "birdwatching" in shown and "edition 2" in shown  # never cut in a word
