"""Terminal rendering with an injected rich ``Console``; plain text when not a terminal.

Rendering is kept apart from the chat loop so tests can drive the loop and read the
whole transcript as plain text.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, nullcontext

from rich.console import Console
from rich.markdown import Markdown
from rich.markup import escape
from rich.table import Table

from giftgenius import formats
from giftgenius import messages as catalogue
from giftgenius.catalog import describe
from giftgenius.cli.recap import Recap, price, recap_text
from giftgenius.domain import Checkpoint, SessionState, Usage
from giftgenius.privacy import strip_controls
from giftgenius.protocol import CandidateView
from giftgenius.replies import phrasing

_COLUMNS = ("number", "gift", "price", "delivery", "why")
"""The shortlist table's columns: their headers are the catalogue's ``chat`` ``table.*``."""

_MARKERS = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*|`([^`\n]+)`")
"""Markdown's bold and code spans, which a reply or a recap may hold: piped, the text
reads as it is, without the markers a terminal would have rendered."""

# A numbered list item ("1. **Title** — …", "2) Title"): where a reply lists the shortlist.
_LIST_ITEM = re.compile(r"^\s*\d+[.)]\s")


def split_list(text: str) -> tuple[str, str] | None:
    """The reply's text before and after its numbered list, or None when it has none.

    In a terminal the shortlist is shown once, as a table, where the reply listed it.
    """
    lines = text.split("\n")
    numbered = [i for i, line in enumerate(lines) if _LIST_ITEM.match(line)]
    if not numbered:
        return None
    before = "\n".join(lines[: numbered[0]]).strip()
    after = "\n".join(lines[numbered[-1] + 1 :]).strip()
    return before, after


def plain(text: str) -> str:
    """``text`` without its Markdown markers (``**bold**``, `` `code` ``), words kept."""
    return _MARKERS.sub(lambda m: m.group(1) or m.group(2), text)


class ChatUI:
    """What the chat loop shows. ``rich=False`` prints plain lines (piped stdin).

    Every text goes through ``strip_controls`` on its way out: user input is cleaned where
    it comes in, but a reply comes from a model and a notice may quote older stored text.
    """

    def __init__(self, out: Console, err: Console, *, rich: bool) -> None:
        self.out = out
        self.err = err
        self.rich = rich

    def notice(self, text: str) -> None:
        self.err.print(strip_controls(text), markup=False, highlight=False)

    def info(self, text: str) -> None:
        self.out.print(strip_controls(text), markup=False, highlight=False)

    def result(self, text: str) -> None:
        """Text that may hold Markdown, as lines on stdout: as written on a terminal, the
        markers removed when stdout is a pipe or a file (plain text for scripts)."""
        self.info(text if self.out.is_terminal else plain(text))

    def error(self, text: str) -> None:
        text = strip_controls(text)
        if self.rich:
            self.err.print(f"[bold red]![/] {escape(text)}", highlight=False)
        else:
            self.err.print(text, markup=False, highlight=False)

    def reply(
        self,
        text: str,
        candidates: Sequence[CandidateView] = (),
        *,
        locale: str = "en",
        budget_currency: str | None = None,
    ) -> None:
        """A model's reply. In a terminal, a shortlist shows once: as a table, in place of
        the numbered list the reply wrote (after the reply if it wrote none); piped, the
        reply's own list is the shortlist."""
        text = strip_controls(text)
        if not self.rich:
            self.result(text)
            return
        split = split_list(text) if candidates else None
        before, after = split if split is not None else (text, "")
        if before:
            self.out.print(Markdown(before))
        if candidates:
            self.out.print(self.table(candidates, locale, budget_currency))
        if after:
            self.out.print(Markdown(after))

    def recap(self, recap: Recap) -> None:
        """Welcome back: what was being looked for, the shortlist, the pending question.

        On stdout, like every reply: it is what ``resume`` has to say, not a diagnostic."""
        if not self.rich:
            self.result(recap_text(recap))
            return
        for paragraph in recap.intro:
            self.out.print(Markdown(strip_controls(paragraph)))
        if recap.shortlist:
            self.out.print(self.table(recap.shortlist, recap.locale, recap.budget_currency))
        if recap.outro:
            self.out.print(Markdown(strip_controls(recap.outro)))

    def recap_finished(self, text: str) -> None:
        """How a finished search ended (on stdout, like every recap)."""
        if self.rich:
            self.out.print(Markdown(strip_controls(text)))
        else:
            self.result(text)

    def table(
        self, rows: Sequence[CandidateView], locale: str, budget_currency: str | None
    ) -> Table:
        headers = [catalogue.text("chat", f"table.{column}", locale) for column in _COLUMNS]
        table = Table(*headers, show_lines=False)
        for number, row in enumerate(rows, 1):
            days = phrasing.delivery_days(row.delivery_days, locale)
            why = formats.join([describe(a, locale) for a in row.answers], locale) or row.why
            table.add_row(
                str(number),
                escape(strip_controls(row.title)),
                price(row, budget_currency, locale),
                days,
                escape(why),
            )
        return table

    @contextmanager
    def working(self, locale: str) -> Iterator[None]:
        label = catalogue.text("chat", "working", locale)
        status = self.err.status(label) if self.rich else nullcontext()
        with status:
            yield

    def state(self, state: SessionState, *, run_id: str, source: str, version: int) -> None:
        self.info(render_state(state, run_id=run_id, source=source, version=version))

    def checkpoints(self, checkpoints: Sequence[Checkpoint], *, locale: str = "en") -> None:
        """One line per checkpoint (a diagnostic readout: time, step, version); none, said
        in ``locale`` (the chat's /checkpoints in English, the command in the locale's)."""
        if not checkpoints:
            self.info(catalogue.text("chat", "checkpoints.none", locale))
        for cp in checkpoints:
            self.info(
                f"{cp.created_at:%Y-%m-%d %H:%M:%S} {cp.step:<22} v{cp.session_version} "
                f"step={cp.state.step} candidates={len(cp.state.candidate_ids)}"
            )

    def usage(self, usage: Usage, cost: float | None, model: str) -> None:
        self.info(render_usage(usage, cost, model))


def render_state(state: SessionState, *, run_id: str, source: str, version: int) -> str:
    profile = state.profile
    budget = (
        f"{profile.budget.amount:g} {profile.budget.currency}"
        + (f" (min {profile.budget.min_amount:g})" if profile.budget.min_amount else "")
        if profile.budget
        else "—"
    )
    lines = [
        f"run {run_id} · version {version} · from {source}",
        f"step: {state.step}",
        f"recipient: {profile.recipient or '—'}   age: {profile.age if profile.age else '—'}",
        f"budget: {budget}",
        f"interests: {', '.join(profile.interests) or '—'}",
        f"dislikes: {', '.join(profile.dislikes) or '—'}",
        f"country: {profile.country or 'anywhere'}   deadline: {profile.deadline or 'none'}",
        f"candidates: {', '.join(state.candidate_ids) or '—'}",
        f"selected: {state.selected_gift_id or '—'}",
    ]
    if state.order_draft_id:
        lines.append(f"order draft: {state.order_draft_id}")
    missing = profile.missing()
    if missing:
        lines.append(f"still needed: {', '.join(missing)}")
    return "\n".join(lines)


def render_usage(usage: Usage, cost: float | None, model: str) -> str:
    lines = [
        f"model: {model}",
        f"last request: {usage.last_prompt_tokens} prompt + "
        f"{usage.last_completion_tokens} completion tokens",
        f"session: {usage.requests} requests, {usage.prompt_tokens} prompt + "
        f"{usage.completion_tokens} completion tokens",
        f"summaries: {usage.summary_requests} calls, {usage.summary_prompt_tokens} prompt + "
        f"{usage.summary_completion_tokens} completion tokens",
        f"context: {usage.truncations} truncated requests, {usage.summarizations} "
        f"summarizations, {usage.refusals} refused as too long",
        "estimated cost: " + ("unknown for this model" if cost is None else f"${cost:.4f}"),
    ]
    return "\n".join(lines)
