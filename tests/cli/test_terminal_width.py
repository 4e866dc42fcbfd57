"""Replies wrap at word boundaries to the terminal's width: a terminal that cuts a line
itself cuts it mid-word, and a table wider than the screen loses its last columns."""

from __future__ import annotations

import io

from rich.cells import cell_len
from rich.console import Console

from giftgenius.cli import main as cli_main
from giftgenius.cli.recap import Recap
from giftgenius.cli.render import ChatUI
from giftgenius.protocol import CandidateView

ROWS = [
    CandidateView(
        id=f"g-{n}",
        title=f"Stack Overflow: The Debugging Board Game, edition {n}",
        price=32,
        currency="USD",
        price_in_budget_currency=None,
        delivery_days=9,
        answers=["board-game", "coffee"],
        why="matches: board games, coffee",
    )
    for n in (1, 2)
]
REPLY = (
    "Noted: for your colleague (budget up to $50; likes developers, board games and coffee; "
    "avoid: mugs and notebooks; ships to: France). Here are 2 ideas that fit (up to $50):\n\n"
    + "\n".join(
        f"{n}. **{row.title}** — $32, delivered in 9 days — matches: board games, coffee"
        for n, row in enumerate(ROWS, 1)
    )
    + "\n\nWhich one would you like? Reply with its number, or tell me what to change."
)


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _widest(text: str) -> int:
    return max(cell_len(line) for line in text.splitlines())


def test_every_line_fits_a_60_column_terminal() -> None:
    for rich in (True, False):
        console = Console(file=io.StringIO(), width=60, record=True)
        ui = ChatUI(console, console, rich=rich)
        ui.reply(REPLY, ROWS, locale="en", budget_currency="USD")
        ui.recap(Recap([REPLY.split("\n")[0]], ROWS, REPLY.split("\n")[-1], "en", "USD"))
        ui.info("x" * 10 + " word" * 40)
        shown = console.export_text()
        assert _widest(shown) <= 60, shown
        assert "Debugging" in shown and "Reply with its number" in shown
        assert "developers, board games" in shown  # cut between words, never inside one


def test_the_commands_consoles_wrap_on_a_terminal_only() -> None:
    terminal = cli_main._console(_Terminal())
    assert terminal.soft_wrap is False  # wrapped at the terminal's width
    piped = cli_main._console(io.StringIO())
    piped.print("word " * 60, markup=False)
    assert piped.file.getvalue().count("\n") == 1  # piped: lines kept whole
