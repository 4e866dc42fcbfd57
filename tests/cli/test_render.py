from __future__ import annotations

import io

from rich.console import Console

from giftgenius.cli.render import ChatUI, plain, split_list
from giftgenius.protocol import CandidateView


def _ui(rich: bool) -> tuple[ChatUI, io.StringIO]:
    buf = io.StringIO()
    console = Console(file=buf, width=120, force_terminal=False)
    return ChatUI(console, console, rich=rich), buf


def test_error_text_with_brackets_is_not_read_as_markup() -> None:
    ui, buf = _ui(rich=True)
    ui.error("your [email] and [bold]x[/bold] were kept")
    assert "[email] and [bold]x[/bold]" in buf.getvalue()


ROW = CandidateView(
    id="g-1",
    title="Roastery Rivals",
    price=30,
    currency="EUR",
    price_in_budget_currency=32.6,
    delivery_days=4,
    answers=["board-game", "coffee"],
    why="matches: board games, coffee",
)
REPLY = (
    "Noted: for your colleague.\n\nHere is 1 idea that fits (up to $50):\n\n"
    "1. **Roastery Rivals** — €30 (≈ $32.60), delivered in 4 days — matches: board games\n\n"
    "Shall I record the order draft for it? Reply yes, or tell me what to change."
)


def test_a_terminal_shows_the_shortlist_once_as_a_table_where_the_list_was() -> None:
    ui, buf = _ui(rich=True)
    ui.reply(REPLY, [ROW], locale="en", budget_currency="USD")
    shown = buf.getvalue()
    assert shown.count("Roastery Rivals") == 1  # the table only, not the markdown list too
    assert "€30 (≈ $32.60)" in shown and "4 days" in shown
    assert "board games and coffee" in shown
    assert shown.index("Here is 1 idea") < shown.index("Roastery") < shown.index("Shall I record")


def test_the_table_speaks_french() -> None:
    ui, buf = _ui(rich=True)
    ui.reply(REPLY, [ROW], locale="fr", budget_currency="USD")
    shown = buf.getvalue()
    assert "Cadeau" in shown and "30\xa0€ (≈ 32,60\xa0$US)" in shown
    assert "4 jours" in shown and "jeux de société et café" in shown


def test_piped_output_keeps_the_replys_own_list_and_no_table() -> None:
    plain, buf = _ui(rich=False)
    plain.reply(REPLY, [ROW], locale="en", budget_currency="USD")
    assert buf.getvalue() == REPLY.replace("**", "") + "\n"  # plain text: no Markdown


def test_a_terminal_fed_piped_input_keeps_the_replys_markdown() -> None:
    console = Console(file=io.StringIO(), width=120, force_terminal=True, color_system=None)
    ChatUI(console, console, rich=False).reply(REPLY, [ROW], locale="en")
    assert "1. **Roastery Rivals**" in console.file.getvalue()


def test_plain_drops_bold_and_code_markers_only() -> None:
    assert plain("1. **Socks** — run `giftgenius chat`, 2 * 3 **") == (
        "1. Socks — run giftgenius chat, 2 * 3 **"
    )


def test_a_reply_without_a_list_gets_the_table_after_it() -> None:
    ui, buf = _ui(rich=True)
    ui.reply("Here they are.", [ROW], locale="en", budget_currency="EUR")
    shown = buf.getvalue()
    assert shown.index("Here they are.") < shown.index("Roastery Rivals")
    assert "≈" not in shown  # same currency as the budget: no conversion shown


def test_split_list() -> None:
    assert split_list("a\n1. x\n2) y\nb") == ("a", "b")
    assert split_list("no list here") is None
