"""PII in the forms people actually type: other separators, spoken emails, other countries.

The corpus (pii_corpus.json) holds one sample per form; these tests add what a corpus row
cannot say: which words are kept around a replaced number, and that a line full of PII
read by the real agent leaves the profile as it was.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from giftgenius.app import build_agent
from giftgenius.privacy import ADDRESS, CARD, EMAIL, IBAN, PASSPORT, SSN, scrub
from giftgenius.settings import load_settings


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("passport 12AB34567", f"passport {PASSPORT}"),
        ("passeport n° 12AB34567, merci", f"passeport n° {PASSPORT}, merci"),
        ("my passport number is X1234567.", f"my passport number is {PASSPORT}."),
        ("my ssn is 123456789", f"my ssn is {SSN}"),
        ("numéro de sécu : 1 85 05 78 006 084 36", f"numéro de sécu : {SSN}"),
        ("mail jo [at] example [dot] com now", f"mail {EMAIL} now"),
        (
            "they sell it at etsy dot com, email jo at example dot com",
            f"they sell it at etsy dot com, email {EMAIL}",
        ),
        ("IBAN FR76-3000-6000-0112-3456-7890-189.", f"IBAN {IBAN}."),
        ("card 4111.1111.1111.1111.", f"card {CARD}."),
        ("Hauptstraße 5, 10115 Berlin", ADDRESS),
        ("PO Box 1234, Springfield", f"{ADDRESS}, Springfield"),
    ],
)
def test_only_the_pii_is_replaced_and_the_words_around_it_stay(text: str, expected: str) -> None:
    assert scrub(text) == expected


def test_a_card_run_next_to_another_number_is_not_cut_into_an_odd_grouping() -> None:
    """Two phone numbers in a row hold a 13-digit stretch that a loose grouping could call a
    card; an odd grouping counts only as a whole run."""
    assert CARD not in scrub("415 555 2671 415 555 2672")


@pytest.fixture
def agent(tmp_path: Path, seeded_home: Path):
    agent = build_agent(load_settings(home=tmp_path / "home"))
    try:
        yield agent
    finally:
        agent.close()


@pytest.mark.slow
@pytest.mark.parametrize(
    "line",
    [
        "my ssn is 123-45-6789 and my card 4111.1111.1111.1111",
        "my ssn is 123456789",
        "numéro de sécu 1 85 05 78 006 084 36, passeport n° 12AB34567",
        "card 41 111 111 1111 1111, IBAN FR76-3000-6000-0112-3456-7890-189",
    ],
)
def test_a_line_full_of_pii_does_not_change_the_profile(agent, line: str) -> None:
    """The offline model reads the scrubbed line; no digit of the PII is left to be read as
    a budget (a social security number once was)."""
    run = agent.open("pii").run
    result = agent.turn(run.id, "pii", line)
    assert result.state.profile.budget is None, result.state.profile


@pytest.mark.slow
@pytest.mark.parametrize("small_numbers", [12, 30, 1900])
def test_a_phone_after_a_long_list_of_small_numbers_is_found(small_numbers: int) -> None:
    """A run of digit groups has no cap: the phone at the end of a pasted list is no less one."""
    text = "sizes " + "1 " * small_numbers + "06 12 34 56 78 ok"
    assert scrub(text) == "sizes " + "1 " * small_numbers + "[phone] ok"
