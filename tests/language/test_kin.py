"""When two mentions of a recipient are one person (the gift history's notion)."""

from __future__ import annotations

import pytest

from giftgenius.language.kin import recipient, same_person


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (("mum", None), ("Mum", None)),  # the same words, in any case
        (("mum", None), ("mother", None)),  # one mother, any of her words
        (("mère", None), ("mum", None)),  # in either language
        (("maman", None), ("mom", None)),
        (("mum", None), ("mum", "Anne")),  # one mother: a name said once or not
        (("sister", "Clara"), ("Clara", "Clara")),  # a name alone names the same sister
        (("little sister", None), ("little sister", None)),
        (("husband", None), ("mari", None)),
    ],
)
def test_one_person(a: tuple[str, str | None], b: tuple[str, str | None]) -> None:
    assert same_person(recipient(*a), recipient(*b))
    assert same_person(recipient(*b), recipient(*a))


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (("mum", None), ("stepmother", None)),  # a step-parent is someone else
        (("mum", None), ("mother-in-law", None)),
        (("sister", "Clara"), ("sister", "Anna")),  # two sisters
        (("friend", None), ("friend", "Tom")),  # one has many friends
        (("friend", "Tom"), ("colleague", "Tom")),  # two people called Tom
        (("mum", None), ("dad", None)),
        ((None, None), (None, None)),  # nobody named is nobody in particular
    ],
)
def test_other_people(a: tuple[str | None, str | None], b: tuple[str | None, str | None]) -> None:
    assert not same_person(recipient(*a), recipient(*b))
    assert not same_person(recipient(*b), recipient(*a))
