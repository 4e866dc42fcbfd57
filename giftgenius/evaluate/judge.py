"""The judge: does a gift's own catalog record meet a dialogue's constraints?

It reads only the record ``giftgenius catalog show ID --json`` prints — never the agent's
state — so an agent that misunderstood the person cannot grade itself. Every failed rule
becomes one sentence a reader understands without the code.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from collections.abc import Callable, Iterator
from typing import Any

from giftgenius.evaluate.corpus import Constraints, DeadlineExpect
from giftgenius.messages import environment_language, speak

_WORD = re.compile(r"[a-z0-9]+")


def fold(text: str) -> str:
    """Lowercase without accents, so "Café" and "cafe" meet."""
    text = text.lower().replace("œ", "oe").replace("æ", "ae")
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def words(text: str) -> list[str]:
    """Folded words; hyphens and apostrophes separate them ("board-game" → board, game)."""
    return _WORD.findall(fold(text))


def mentions(text_words: list[str], phrase: str) -> bool:
    """Whether ``phrase`` (one or more words) appears as whole words, plural allowed.

    "mug" matches "mugs" and "mug," but not "smuggler"; "board game" matches "board-game".
    """
    wanted = words(phrase)
    if not wanted:
        return False
    *head, last = wanted
    lasts = {last, last + "s", last + "es", last + "x"}
    for i in range(len(text_words) - len(wanted) + 1):
        window = text_words[i : i + len(wanted)]
        if window[:-1] == head and window[-1] in lasts:
            return True
    return False


def deadline_date(deadline: DeadlineExpect, today: dt.date) -> dt.date:
    """The day the gift must be there: ``in_days`` from today, or the next MM-DD from today."""
    if deadline.in_days is not None:
        return today + dt.timedelta(days=deadline.in_days)
    month, day = (int(x) for x in str(deadline.date).split("-"))
    for year in (today.year, today.year + 1, today.year + 2, today.year + 3, today.year + 4):
        try:
            candidate = dt.date(year, month, day)
        except ValueError:  # 02-29 outside a leap year
            continue
        if candidate >= today:
            return candidate
    raise ValueError(f"no date {deadline.date} in the next years")  # unreachable: 4-year cycle


def _money(amount: float, currency: str) -> str:
    from giftgenius.formats import number

    return f"{number(amount, environment_language(), 2)} {currency}"


def _bound(amount: float, currency: str) -> str:
    from giftgenius.formats import number

    return f"{number(amount, environment_language())} {currency}"


Said = Callable[[], str]
"""A broken rule's sentence, written only when asked for: ``fits`` needs none of them."""


def judge(record: dict[str, Any], rules: Constraints, today: dt.date) -> list[str]:
    """Every rule ``record`` breaks, in plain words; empty when the gift fits."""
    return [said() for said in _broken(record, rules, today)]


def _broken(record: dict[str, Any], rules: Constraints, today: dt.date) -> Iterator[Said]:
    """The rules ``record`` breaks, one at a time, in ``judge``'s order."""
    gid = record["id"]
    if rules.currency is not None:
        price, currency = float(record["prices"][rules.currency]), rules.currency
        if rules.max_price is not None and price > rules.max_price + 1e-9:
            bound = rules.max_price
            yield lambda: speak(
                "eval",
                "judge.over",
                gift=gid,
                price=_money(price, currency),
                bound=_bound(bound, currency),
            )
        if rules.min_price is not None and price < rules.min_price - 1e-9:
            floor = rules.min_price
            yield lambda: speak(
                "eval",
                "judge.under",
                gift=gid,
                price=_money(price, currency),
                bound=_bound(floor, currency),
            )
    yield from _place_failures(record, rules)
    if rules.exclude:
        text = words(" ".join([record["title"], record["description"], *record["tags"]]))
        banned = [w for w in rules.exclude if mentions(text, w)]
        if banned:
            quoted = ", ".join(f'"{w}"' for w in banned)
            yield lambda: speak("eval", "judge.ruled_out", gift=gid, words=quoted)
    if rules.deadline is not None:
        due = deadline_date(rules.deadline, today)
        days, takes = (due - today).days, record["delivery_days"]
        if int(takes) > days:
            yield lambda: speak(
                "eval", "judge.too_slow", gift=gid, takes=takes, days=days, due=f"{due:%Y-%m-%d}"
            )
    if rules.interests and not set(rules.interests) & set(record["tags"]):
        interests, tags = ", ".join(rules.interests), ", ".join(record["tags"])
        yield lambda: speak("eval", "judge.no_interest", gift=gid, interests=interests, tags=tags)
    yield from _age_failures(record, rules)


def suggestion_failures(record: dict[str, Any], rules: Constraints) -> list[str]:
    """What a gift on the shortlist breaks of the recipient themself: where they live and
    their age. Budget, tastes and deadline are the person's to trade while choosing, but no
    idea may be one the recipient could not receive or is too young or too old for."""
    return [
        speak("eval", "judge.suggested", failure=fail())
        for fail in _place_failures(record, rules) + _age_failures(record, rules)
    ]


def _place_failures(record: dict[str, Any], rules: Constraints) -> list[Said]:
    country = rules.country
    if country is None:
        return []
    ships = [str(c).upper() for c in record["ships_to"]]
    if "*" in ships or country in ships:
        return []
    gid, countries = record["id"], ", ".join(ships)
    return [lambda: speak("eval", "judge.no_ship", gift=gid, country=country, countries=countries)]


def _age_failures(record: dict[str, Any], rules: Constraints) -> list[Said]:
    """The gift's age range must hold every age the recipient may have.

    ``min_age``/``max_age`` bound the recipient's age; one alone means that exact age.
    """
    if rules.min_age is None and rules.max_age is None:
        return []
    low = rules.min_age if rules.min_age is not None else rules.max_age
    high = rules.max_age if rules.max_age is not None else rules.min_age
    assert low is not None and high is not None
    gift_low, gift_high = record.get("min_age"), record.get("max_age")
    too_young = gift_low is not None and low < gift_low
    too_old = gift_high is not None and high > gift_high
    if not (too_young or too_old):
        return []
    span = f"{gift_low or 0}–{gift_high}" if gift_high is not None else f"{gift_low}+"
    age = str(low) if low == high else f"{low}–{high}"
    gid = record["id"]
    return [lambda: speak("eval", "judge.ages", gift=gid, span=span, age=age)]


def fits(record: dict[str, Any], rules: Constraints, today: dt.date) -> bool:
    """A gift a dialogue can fairly ask for: it meets every rule and is in stock."""
    return bool(record.get("in_stock", True)) and next(_broken(record, rules, today), None) is None
