"""What the terminal says when a person comes back, in their language.

Coming back to an unfinished search says what was being looked for, then shows the
shortlist again or asks the pending question; `resume` after a finished search says when it
ended, with which gift, and how to start a new one. These are the product's own words (not
the model's), so they are the same whichever model is configured.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from giftgenius import formats
from giftgenius import messages as catalogue
from giftgenius.agent.reader import Opened
from giftgenius.domain import Step
from giftgenius.protocol import CandidateView
from giftgenius.replies import phrasing


def say(key: str, locale: str, **values: Any) -> str:
    """The catalogue's ``chat`` sentence ``key`` in the locale's language, filled in."""
    return catalogue.say("chat", key, locale, **values)


def count(key: str, n: int, locale: str) -> str:
    """The catalogue's ``chat`` sentence ``key.one`` or ``key.other``, as ``n`` says."""
    return catalogue.count("chat", key, locale, n)


def price(row: CandidateView, budget_currency: str | None, locale: str) -> str:
    """ "€39.90 (≈ $43.37)": the gift's own price, then in the budget's currency if other."""
    return phrasing.price(
        row.price,
        row.currency,
        locale,
        converted=row.price_in_budget_currency,
        budget_currency=budget_currency,
    )


def shortlist_lines(
    rows: list[CandidateView], budget_currency: str | None, locale: str
) -> list[str]:
    """The numbered list, as plain (markdown) lines: piped output shows it this way."""
    return [
        phrasing.shortlist_item(i, row.model_dump(), budget_currency, locale)
        for i, row in enumerate(rows, 1)
    ]


@dataclass
class Recap:
    """The welcome-back text, split where the shortlist goes (a table in a terminal)."""

    intro: list[str]  # paragraphs
    shortlist: list[CandidateView]
    outro: str
    locale: str
    budget_currency: str | None


def welcome_back(opened: Opened) -> Recap:
    """What was being looked for, then the shortlist again or the pending question."""
    state = opened.loaded.session.state
    loc = state.locale
    profile = state.profile
    data = profile.model_dump(mode="json", exclude_none=True)
    who = phrasing.for_whom(data, loc)
    facts = phrasing.profile_facts(data, loc, whom=False)
    if who and facts:
        first = say("back.for_with", loc, who=who, facts=facts)
    elif who:
        first = say("back.for", loc, who=who)
    elif facts:
        first = say("back.with", loc, facts=facts)
    else:
        first = say("back.empty", loc)
    intro = [first]
    intro += [since_you_left(n, loc) for n in opened.notices]
    if opened.loaded.interrupted is not None:
        text = (opened.loaded.interrupted.content or "")[:80]
        intro.append(say("interrupted", loc, text=text))
    budget = profile.budget.currency if profile.budget else None
    rows: list[CandidateView] = []
    outro = ""
    missing = profile.missing()
    if state.step == Step.finalizing and (opened.shortlist or opened.selected):
        rows = opened.shortlist
        if rows:
            intro.append(count("shortlist", len(rows), loc))
        if opened.selected is not None:  # the question pending: confirm (or pick another)
            outro = say("ask.confirm", loc, title=opened.selected.title,
                        price=price(opened.selected, budget, loc))  # fmt: skip
        else:
            outro = phrasing.choose_question(len(rows), loc)
    elif missing:
        parts = phrasing.missing(missing, loc)
        outro = say("ask.missing", loc, parts=formats.join(parts, loc))
    elif state.step == Step.filtering and not state.candidate_ids:
        outro = say("ask.nothing_passed", loc)
    else:
        outro = say("ask.search", loc)
    return Recap(intro, rows, outro, loc, budget)


def recap_text(recap: Recap) -> str:
    """The whole recap as plain lines (markdown), the shortlist as a numbered list."""
    parts = ["\n".join(recap.intro)]
    if recap.shortlist:
        parts.append(
            "\n".join(shortlist_lines(recap.shortlist, recap.budget_currency, recap.locale))
        )
    if recap.outro:
        parts.append(recap.outro)
    return "\n\n".join(parts)


def since_you_left(note: str, locale: str) -> str:
    """A candidate dropped since the person left ("X is no longer available: over budget
    (max 50.00 USD)", from ``revalidate``) in their words."""
    title, sep, reasons = note.partition(" is no longer available: ")
    if sep:
        said = [phrasing.reason(r.strip(), locale) for r in reasons.split(";")]
        note = say("gone", locale, title=title, reasons=formats.join(said, locale))
    return say("since", locale, note=note)


def finished(opened: Opened, user_id: str) -> str:
    """A finished search: when it ended, with which gift, and how to start a new one."""
    state = opened.loaded.session.state
    loc = state.locale
    ended = formats.date(opened.run.updated_at.date(), loc)
    gift = opened.selected
    if gift is None:
        return say("finished.no_gift", loc, date=ended, user=user_id)
    budget = state.profile.budget.currency if state.profile.budget else None
    return say("finished", loc, date=ended, title=gift.title, price=price(gift, budget, loc),
               user=user_id)  # fmt: skip


def restarted(locale: str) -> str:
    return say("restarted", locale)
