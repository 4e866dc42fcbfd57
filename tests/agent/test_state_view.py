"""The state view the model reads: today's date as an ISO date (code parses it) and its
weekday, so "by Friday" or "next Tuesday" needs no calendar sums from the model."""

from __future__ import annotations

import datetime as dt
import json

from giftgenius.domain import SessionState
from giftgenius.protocol import StateView, state_block


def test_the_state_gives_today_with_its_weekday() -> None:
    view = StateView.of(SessionState(), dt.date(2026, 12, 2))
    shown = json.loads(view.model_dump_json(exclude_none=True))
    assert (shown["today"], shown["weekday"]) == ("2026-12-02", "Wednesday")
    assert StateView.model_validate(shown) == view  # a view read back (restore) still parses
    del shown["weekday"]
    assert StateView.model_validate(shown).weekday == "Wednesday"  # as written before


def test_the_state_block_carries_the_weekday() -> None:
    block = state_block(StateView.of(SessionState(), dt.date(2026, 11, 29)))
    assert '"today":"2026-11-29","weekday":"Sunday"' in block
