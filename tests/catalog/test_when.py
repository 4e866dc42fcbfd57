"""Deadlines only after a deadline cue, read by dateparser; leaving words set nothing.

``today`` is fixed (Tuesday 1 December 2026) so every expected date is a literal.
"""

from __future__ import annotations

import datetime as dt

import pytest

from giftgenius.language.when import is_leaving, parse_deadline

TODAY = dt.date(2026, 12, 1)  # a Tuesday
D = dt.date

DEADLINES = [
    # English
    ("by Friday", "en", D(2026, 12, 4)),
    ("it has to arrive by Friday", "en", D(2026, 12, 4)),
    ("by next Friday", "en", D(2026, 12, 4)),
    ("before the 12th", "en", D(2026, 12, 11)),
    ("by the twentieth", "en", D(2026, 12, 20)),
    ("by December 20", "en", D(2026, 12, 20)),
    ("by December 20, 2027", "en", D(2027, 12, 20)),
    ("no later than 12/20", "en", D(2026, 12, 20)),
    ("by March 3", "en", D(2027, 3, 3)),  # this year's has passed
    ("within a week", "en", D(2026, 12, 8)),
    ("within 10 days", "en", D(2026, 12, 11)),
    ("I need it in two weeks", "en", D(2026, 12, 15)),
    ("needs to be there in 3 days", "en", D(2026, 12, 4)),
    ("by tomorrow", "en", D(2026, 12, 2)),
    ("until Monday", "en", D(2026, 12, 7)),
    ("for Christmas", "en", D(2026, 12, 24)),
    ("by Christmas Eve", "en", D(2026, 12, 24)),
    ("by Valentine's Day", "en", D(2027, 2, 14)),
    ("for Mother's Day", "en", D(2027, 5, 9)),  # second Sunday of May
    ("before Father's Day", "en", D(2027, 6, 19)),
    ("before the end of the month", "en", D(2026, 12, 31)),
    ("by the weekend", "en", D(2026, 12, 5)),
    ("by Friday — no, by Thursday", "en", D(2026, 12, 3)),  # a correction comes after
    ("I'll think about it, but it must arrive by the 15th", "en", D(2026, 12, 15)),
    # French
    ("avant le 20 décembre", "fr", D(2026, 12, 19)),
    ("avant le vingt décembre", "fr", D(2026, 12, 19)),
    ("d'ici vendredi", "fr", D(2026, 12, 4)),
    ("d'ici vendredi prochain", "fr", D(2026, 12, 4)),
    ("pour le 15", "fr", D(2026, 12, 15)),
    ("au plus tard le 18", "fr", D(2026, 12, 18)),
    ("pour Noël", "fr", D(2026, 12, 24)),
    ("il faut que ça arrive avant samedi", "fr", D(2026, 12, 4)),
    ("il faut que ça arrive dans 10 jours", "fr", D(2026, 12, 11)),
    ("sous huit jours", "fr", D(2026, 12, 9)),
    ("d'ici deux semaines", "fr", D(2026, 12, 15)),
    ("d'ici la fin du mois", "fr", D(2026, 12, 31)),
    ("livraison avant le 3 janvier", "fr", D(2027, 1, 2)),
    ("pour le 3/01", "fr", D(2027, 1, 3)),  # day first in French
    ("avant demain", "fr", D(2026, 12, 1)),
    ("pour la fête des mères", "fr", D(2027, 5, 30)),  # last Sunday of May
    ("pour la Saint-Valentin", "fr", D(2027, 2, 14)),
    ("d'ici le 15", "fr", D(2026, 12, 15)),
    ("livraison le 12", "fr", D(2026, 12, 12)),
    ("date limite le 20", "fr", D(2026, 12, 20)),
    ("d'ici au 20 décembre", "fr", D(2026, 12, 20)),
    ("delivery on the 9th", "en", D(2026, 12, 9)),
    ("by next week", "en", D(2026, 12, 8)),
    ("by next month", "en", D(2027, 1, 1)),
    ("by the end of next week", "en", D(2026, 12, 11)),
    ("by the end of next month", "en", D(2027, 1, 31)),
    ("by Friday next week", "en", D(2026, 12, 11)),
    ("by next weekend", "en", D(2026, 12, 12)),
    ("within a few days", "en", D(2026, 12, 4)),
    ("by Friday please", "en", D(2026, 12, 4)),
    ("by Dec 24th", "en", D(2026, 12, 24)),
    ("by the 24th of December", "en", D(2026, 12, 24)),
    ("by 2026-12-20", "en", D(2026, 12, 20)),
    ("by Thanksgiving", "en", D(2027, 11, 25)),
    ("by tonight", "en", D(2026, 12, 1)),
    ("d'ici la semaine prochaine", "fr", D(2026, 12, 8)),
    ("avant la fin du mois prochain", "fr", D(2027, 1, 31)),
    ("vendredi de la semaine prochaine, au plus tard", "fr", D(2026, 12, 11)),
    ("d'ici quelques jours", "fr", D(2026, 12, 4)),
    ("avant le 1er janvier", "fr", D(2026, 12, 31)),
    ("pour le premier janvier", "fr", D(2027, 1, 1)),
    ("avant le 20 décembre, elle a 12 ans", "fr", D(2026, 12, 19)),
    ("pour Pâques", "fr", D(2027, 3, 28)),
    ("pour ce week-end", "fr", D(2026, 12, 5)),
    ("pour le week-end prochain", "fr", D(2026, 12, 12)),  # the next one, not this one
    ("d'ici le weekend prochain", "fr", D(2026, 12, 12)),
    ("pour aujourd'hui", "fr", D(2026, 12, 1)),
    # a cue after the date
    ("il me le faut vendredi au plus tard", "fr", D(2026, 12, 4)),
    ("Friday at the latest", "en", D(2026, 12, 4)),
    ("le 20 décembre au plus tard", "fr", D(2026, 12, 20)),
]

NO_DEADLINE = [
    # a date without a cue says something else
    ("her birthday is on Friday", "en"),
    ("Friday", "en"),
    ("le 15 décembre", "fr"),
    # leaving, whatever date it holds
    ("je reviens demain", "fr"),
    ("I'll be back tomorrow", "en"),
    ("I'll come back by Friday", "en"),
    ("on verra ça demain", "fr"),
    ("I'll think about it", "en"),
    # cues that introduce no date
    ("a gift for my sister", "en"),
    ("un cadeau pour ma sœur", "fr"),  # "ma" is no Tuesday
    ("pour mon frère, il adore le café", "fr"),  # "mon" is no Monday
    ("for 2 people", "en"),
    ("for two weeks", "en"),  # a duration after "for" is no deadline
    ("before she leaves", "en"),
    ("she's 12", "en"),
    ("elle a 12 ans", "fr"),
    # a date in the past
    ("by yesterday", "en"),
    ("in a couple of days", "en"),  # "in" alone is no deadline cue
    ("no rush", "en"),
    ("before my birthday", "en"),
    ("she is 12 tops", "en"),
    ("", "en"),
]

LEAVING = [
    ("I'll think about it", "en"),
    ("let me think about it", "en"),
    ("I'll sleep on it", "en"),
    ("back tomorrow", "en"),
    ("I'll be back tomorrow", "en"),
    ("I'll come back later", "en"),
    ("gotta go, bye!", "en"),
    ("talk to you later", "en"),
    ("ok I'll get back to you", "en"),
    ("je reviens demain", "fr"),
    ("je réfléchis", "fr"),
    ("je vais réfléchir", "fr"),
    ("laisse-moi réfléchir", "fr"),
    ("on verra ça demain", "fr"),
    ("on verra", "fr"),
    ("à plus !", "fr"),
    ("à demain", "fr"),
    ("je te redis", "fr"),
    ("je dois y aller", "fr"),
    ("plus tard", "fr"),
    ("je reviens plus tard", "fr"),
]

STAYING = [
    ("by Friday", "en"),
    ("it must arrive no later than the 15th", "en"),
    ("my sister loves tea", "en"),
    ("I think she'd like a book", "en"),
    ("about 30 euros", "en"),
    ("avant le 20, au plus tard", "fr"),
    ("elle aime le café", "fr"),
    ("je pense qu'elle aimerait un livre", "fr"),
]


@pytest.mark.parametrize(("text", "locale", "expected"), DEADLINES)
def test_deadlines_after_a_cue(text, locale, expected):
    assert parse_deadline(text, TODAY, locale) == expected


@pytest.mark.parametrize(("text", "locale"), NO_DEADLINE)
def test_no_deadline_without_a_cue_or_while_leaving(text, locale):
    assert parse_deadline(text, TODAY, locale) is None


@pytest.mark.parametrize(("text", "locale"), LEAVING)
def test_leaving_words(text, locale):
    assert is_leaving(text, locale)


@pytest.mark.parametrize(("text", "locale"), STAYING)
def test_not_leaving(text, locale):
    assert not is_leaving(text, locale)


def test_relative_dates_follow_today():
    assert parse_deadline("within a week", D(2027, 2, 25), "en") == D(2027, 3, 4)
    # On a Friday, "by Friday" is next week's: a weekday names one still to come.
    assert parse_deadline("by Friday", D(2026, 12, 4), "en") == D(2026, 12, 11)
    assert parse_deadline("pour le 15", D(2026, 12, 20), "fr") == D(2027, 1, 15)


def test_dateparser_reads_offline():
    """conftest blocks every non-loopback connection: a download at run time would fail."""
    assert parse_deadline("d'ici mardi prochain", TODAY, "fr") == D(2026, 12, 8)
    assert parse_deadline("by Wednesday", TODAY, "en") == D(2026, 12, 2)


@pytest.mark.parametrize("text", ["within le 0", "pour le 0", "by the 32nd", "avant le 40"])
def test_a_day_no_month_has_is_no_deadline(text):
    """Found by hypothesis: "le 0" crashed with "day is out of range for month"."""
    assert parse_deadline(text, TODAY, "fr") is None
    assert parse_deadline(text, TODAY, "en") is None


@pytest.mark.parametrize(
    ("text", "locale", "expected"),
    [
        ("delivery in December please", "en", D(2026, 12, 31)),  # this December, said on the 1st
        ("I need it by January", "en", D(2027, 1, 31)),
        ("d'ici janvier", "fr", D(2027, 1, 31)),
        ("livraison en mars", "fr", D(2027, 3, 31)),
        ("before March", "en", D(2027, 2, 28)),  # "before" leaves March out
        ("by December 20", "en", D(2026, 12, 20)),  # a day of it is that day
        ("for June", "en", None),  # "for" needs a day: June is as often a person
        ("avant décembre", "fr", None),  # already begun: nothing before it is left
    ],
)
def test_a_month_said_alone_is_its_last_day(text, locale, expected):
    """ "by December", said on December 1st, was December 1st of the next year (dateparser
    takes the first of a month, and the future one)."""
    assert parse_deadline(text, D(2026, 12, 1), locale) == expected


# Every weekday of one week, so a reading that depends on the day's name shows.
WEEK = [TODAY + dt.timedelta(days=n) for n in range(7)]


@pytest.mark.parametrize("today", WEEK, ids=lambda d: d.strftime("%A"))
@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("d'ici vendredi prochain, ça fait neuf jours", "fr"),
        ("pour vendredi prochain, soit 9 jours", "fr"),
        ("by next Friday, that's 9 days", "en"),
        ("before Friday next week, which is nine days from now", "en"),
    ],
)
def test_a_count_of_days_said_after_a_weekday_restates_it(text, locale, today):
    """Whichever Friday a person means by "next Friday", the count they add says which."""
    assert parse_deadline(text, today, locale) == today + dt.timedelta(days=9)


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("ça fait neuf jours que je cherche, c'est pour vendredi", "fr"),  # time spent looking
        ("by Friday, that's 9 days of searching behind me", "en"),
        ("9 days", "en"),  # no date to restate
    ],
)
def test_a_count_of_days_that_restates_nothing(text, locale):
    said = parse_deadline(text, TODAY, locale)
    assert said in (None, D(2026, 12, 4))
