"""A demo is judged by what it reached, so it passes on any model that does the job."""

from __future__ import annotations

import pytest

from giftgenius.demos import _reached_in_order

KEY_STEPS = ["profile_collected", "candidates_generated", "filtered", "final_choice_made"]


@pytest.mark.parametrize(
    "written",
    [
        KEY_STEPS,
        ["profile_collected", "candidates_generated", "filtered", "filtered", "final_choice_made"],
        # a new search after filtering, as "something else" asks
        [*KEY_STEPS[:3], "candidates_generated", "filtered", "final_choice_made"],
    ],
)
def test_every_key_step_reached_in_order_passes(written: list[str]) -> None:
    assert _reached_in_order(written, KEY_STEPS)


@pytest.mark.parametrize(
    "written",
    [
        KEY_STEPS[:3],  # never chosen
        ["candidates_generated", "profile_collected", "filtered", "final_choice_made"],
        [],
    ],
)
def test_a_step_missing_or_first_reached_out_of_order_fails(written: list[str]) -> None:
    assert not _reached_in_order(written, KEY_STEPS)
