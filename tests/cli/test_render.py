from __future__ import annotations

import io

from rich.console import Console

from giftgenius.cli.render import ChatUI
from giftgenius.protocol import CandidateView


def _ui(rich: bool) -> tuple[ChatUI, io.StringIO]:
    buf = io.StringIO()
    console = Console(file=buf, width=120, force_terminal=False)
    return ChatUI(console, console, rich=rich), buf


def test_error_text_with_brackets_is_not_read_as_markup() -> None:
    ui, buf = _ui(rich=True)
    ui.error("your [email] and [bold]x[/bold] were kept")
    assert "[email] and [bold]x[/bold]" in buf.getvalue()


def test_candidates_table_in_a_terminal_only() -> None:
    row = CandidateView(
        id="g-1",
        title="Roastery Rivals",
        price=30,
        currency="EUR",
        price_in_budget_currency=32.6,
        delivery_days=4,
        why="matches: coffee",
    )
    ui, buf = _ui(rich=True)
    ui.candidates([row], "fr", "USD")
    table = buf.getvalue()
    assert "Cadeau" in table and "Roastery Rivals" in table and "≈ 32.60 USD" in table
    plain, plain_buf = _ui(rich=False)
    plain.candidates([row], "en", "USD")
    assert plain_buf.getvalue() == ""  # piped output: the reply already lists them
