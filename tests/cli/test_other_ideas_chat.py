"""Asking for other ideas in the chat, as people put it: each time a list of gifts not shown
before, and when there is none left, the list on show again with why. The chat loop on the
embedded defaults and the offline model, in English and in French."""

from __future__ import annotations

import re

import pytest

ITEM = re.compile(r"^\d+\. (.+?) — ", re.M)


def _lists(out: str) -> list[list[str]]:
    """The titles of each numbered list the chat printed, in order."""
    blocks = re.split(r"\n(?=Here |Voici |Those are all|Ce sont toutes)", out)
    return [titles for block in blocks if (titles := ITEM.findall(block))]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("lines", "intro"),
    [
        (
            [
                "I need something for my brother, he is 30 and into climbing and coffee, "
                "about 80 dollars",
                "show me more",
                "hmm, any other ideas?",
            ],
            "Here are 6 other ideas that fit",
        ),
        (
            [
                "un cadeau pour mon frère de 30 ans, il aime l'escalade et le café, "
                "environ 80 euros",
                "tu as autre chose ?",
                "montre-moi d'autres idées",
            ],
            "Voici 6 autres idées qui conviennent",
        ),
    ],
    ids=["en", "fr"],
)
def test_each_ask_for_more_shows_gifts_not_shown_before(
    cli, seeded_home, lines: list[str], intro: str
) -> None:
    ran = cli("chat", "--user", "me", stdin="\n".join(lines) + "\n")
    assert ran.code == 0, ran.err
    shown = _lists(ran.out)
    assert len(shown) == 3 and all(len(titles) == 6 for titles in shown), ran.out
    assert len({t for titles in shown for t in titles}) == 18  # never the same gift twice
    assert ran.out.count(intro) == 2


@pytest.mark.slow
@pytest.mark.parametrize(
    ("lines", "none"),
    [
        (
            ["a gift for my uncle, he loves chess, budget 40 euros", "something else?"],
            "Those are all the ideas I have that fit everything you said",
        ),
        (
            ["un cadeau pour mon oncle, il adore les échecs, budget 40 euros", "autre chose ?"],
            "Ce sont toutes les idées que j'ai qui conviennent",
        ),
    ],
    ids=["en", "fr"],
)
def test_with_nothing_new_the_same_list_comes_back_with_why(
    cli, seeded_home, lines: list[str], none: str
) -> None:
    ran = cli("chat", "--user", "me", stdin="\n".join(lines) + "\n")
    assert ran.code == 0, ran.err
    assert none in ran.out, ran.out
    first, again = _lists(ran.out)
    assert first == again
