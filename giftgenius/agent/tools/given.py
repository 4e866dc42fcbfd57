"""The gifts already given to the run's recipient: kept when a choice is confirmed, left out
of every later search for the same person, and said so.

A confirmed gift belongs to its recipient as the run named them (``language/kin.py`` says
when two mentions are one person). When a saved profile is that person, the gift is kept
under the saved profile's words, so "Clara" in May finds what was given to "my sister
Clara" in December. Nothing is saved as a profile for the person: a saved profile is kept
only when they ask (``save_recipient_profile``); the history is enough to recognise "my
mum" again.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from giftgenius.agent.tools.call_context import TurnContext
from giftgenius.catalog import Product
from giftgenius.domain import GiftGiven, ProfileDraft, RecipientProfile, utcnow
from giftgenius.language.kin import recipient, same_person


def _who(profile: ProfileDraft) -> tuple[str, str | None] | None:
    return (profile.recipient, profile.recipient_name) if profile.recipient else None


def given_to(ctx: TurnContext) -> dict[str, GiftGiven]:
    """The gifts given before to the run's recipient, by product id (the latest gift of each),
    newest first; empty while the run names nobody. One short read."""
    who = _who(ctx.state.profile)
    if who is None:
        return {}
    wanted = recipient(*who)
    with ctx.db.read() as repos:
        gifts = repos.gifts.list_for(ctx.user_id)
    found: dict[str, GiftGiven] = {}
    for gift in gifts:
        if gift.run_id == ctx.run_id or gift.gift_id in found:
            continue
        if same_person(wanted, recipient(gift.recipient, gift.recipient_name)):
            found[gift.gift_id] = gift
    return found


def left_out(gifts: list[GiftGiven]) -> list[dict[str, Any]]:
    """What a search result says of the gifts it left out: which, to whom, and when."""
    return [
        {
            "gift_id": g.gift_id,
            "title": g.title,
            "recipient": g.recipient,
            "recipient_name": g.recipient_name,
            "given_on": g.confirmed_at.date().isoformat(),
        }
        for g in gifts
    ]


def keeper(profile: ProfileDraft, saved: list[RecipientProfile]) -> tuple[str, str | None]:
    """Whom a gift confirmed for ``profile`` is kept under: the saved profile that is the same
    person, when there is one (the first by label), else the recipient as the run named them."""
    who = _who(profile)
    if who is None:
        raise ValueError("a confirmed gift always has a recipient")
    wanted = recipient(*who)
    for entry in saved:
        kept = _who(entry.profile)
        if kept is not None and same_person(wanted, recipient(*kept)):
            return kept
    return who


def gift_given(
    ctx: TurnContext, product: Product, saved: list[RecipientProfile]
) -> GiftGiven | None:
    """The history row of the gift this run confirms; None when the run names nobody (a
    profile is complete only with a recipient, so only a broken state gets here)."""
    if _who(ctx.state.profile) is None:
        return None
    said, name = keeper(ctx.state.profile, saved)
    # The agent's clock: the stated day (GIFTGENIUS_TODAY) at the time of day, as runs keep it.
    confirmed_at = dt.datetime.combine(ctx.today, utcnow().timetz())
    return GiftGiven(
        user_id=ctx.user_id,
        run_id=ctx.run_id,
        recipient=said,
        recipient_name=name,
        gift_id=product.id,
        title=product.title,
        price=product.price,
        currency=product.currency,
        confirmed_at=confirmed_at,
    )
