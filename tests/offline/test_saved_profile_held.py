"""Coming back to someone saved, with news ("il a eu 11 ans depuis"), then asking for the
rest as last time ("même chose que l'an dernier niveau budget"): the search is already
about that person, so what it was told since stays, and the shortlist fits it. A search
about the same person that lacks a saved fact takes it from the profile.

Played on the offline model through the agent, in English and French.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from giftgenius.agent.runner import Agent
from giftgenius.app import build_agent
from giftgenius.settings import load_settings

FIRST = {
    "fr": [
        "c'est pour mon filleul Julien, il a 10 ans et il adore les sciences",
        "25 euros, France",
        "garde ça en mémoire sous « filleul Julien »",
        "le deuxième",
        "oui",
    ],
    "en": [
        "it's for my godson Tom, he's 10 and loves science",
        "25 pounds, UK",
        "save him as godson Tom",
        "the second one",
        "yes",
    ],
}
BACK = {
    "fr": "re-bonjour, c'est pour filleul Julien, il a eu 11 ans depuis",
    "en": "hi again, it's for godson Tom, he turned 11 since",
}


@pytest.fixture
def agent(tmp_path: Path, seeded_db_file: Path) -> Iterator[Agent]:
    home = tmp_path / "home"
    home.mkdir()
    (home / "giftgenius.db").write_bytes(seeded_db_file.read_bytes())
    built = build_agent(load_settings(home=home, model="offline"))
    try:
        yield built
    finally:
        built.close()


def play(agent: Agent, *lines: str) -> None:
    run = agent.open("me").run
    for line in lines:
        agent.turn(run.id, "me", line)


def fits_age(agent: Agent, age: int) -> list[str]:
    """The shortlisted ids whose age range leaves this age out."""
    state = agent.open("me").loaded.session.state
    with agent.db.read() as repos:
        found = repos.catalog.by_ids(state.candidate_ids)
    assert state.candidate_ids
    return [
        i
        for i, p in found.items()
        if age < (p.min_age if p.min_age is not None else 0)
        or age > (p.max_age if p.max_age is not None else 200)
    ]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("locale", "again"),
    [
        ("fr", "Même chose que l'an dernier niveau budget"),
        ("fr", "pour le budget, comme la dernière fois"),
        ("fr", "tu te souviens de son budget ?"),
        ("en", "same budget as last time"),
        ("en", "the rest like last time"),
        ("en", "you saved his budget, use the saved profile"),
    ],
)
def test_asking_for_the_saved_facts_again_keeps_the_news(
    agent: Agent, locale: str, again: str
) -> None:
    play(agent, *FIRST[locale])
    play(agent, BACK[locale], again)
    state = agent.open("me").loaded.session.state
    assert state.profile.age == 11
    assert state.profile.budget is not None and state.profile.budget.amount == 25
    assert fits_age(agent, 11) == []


@pytest.mark.slow
@pytest.mark.parametrize(
    ("locale", "lines"),
    [
        ("fr", ["c'est pour mon filleul Julien, il a 11 ans", "même budget que la dernière fois"]),
        ("en", ["for my godson Tom, he's 11 now", "same budget as last time"]),
    ],
)
def test_a_saved_fact_the_search_lacks_is_taken(
    agent: Agent, locale: str, lines: list[str]
) -> None:
    play(agent, *FIRST[locale])
    play(agent, *lines)
    state = agent.open("me").loaded.session.state
    assert state.profile.age == 11
    assert state.profile.budget is not None and state.profile.budget.amount == 25
