"""scrub_obj / contains_pii, and generated inputs: whole families of PII go, numbers stay."""

from __future__ import annotations

import copy
import datetime as dt
import uuid

from hypothesis import given, settings
from hypothesis import strategies as st

from giftgenius.privacy import ADDRESS, CARD, EMAIL, PHONE, SSN, contains_pii, scrub, scrub_obj

FAST = settings(max_examples=150, deadline=None)


def test_scrub_obj_scrubs_nested_strings_and_keys_and_keeps_other_values() -> None:
    payload = {
        "ok": True,
        "count": 3,
        "price": 49.99,
        "none": None,
        "user": {"email": "jane@example.com", "notes": ["call 06 12 34 56 78", "budget 50 €"]},
        "pair": ("4111 1111 1111 1111", 7),
        "a.b@c.fr": "key holding an email",
    }
    original = copy.deepcopy(payload)
    out = scrub_obj(payload)
    assert out == {
        "ok": True,
        "count": 3,
        "price": 49.99,
        "none": None,
        "user": {"email": EMAIL, "notes": [f"call {PHONE}", "budget 50 €"]},
        "pair": (CARD, 7),
        EMAIL: "key holding an email",
    }
    assert payload == original  # a new object; the caller's payload is not mutated


def test_contains_pii() -> None:
    assert contains_pii("write to me at x@y.io")
    assert contains_pii("742 Evergreen Terrace")
    assert not contains_pii("a mug for 12 € by 2026-12-24")
    assert not contains_pii(f"{EMAIL} {PHONE} {CARD} {ADDRESS}")
    assert not contains_pii("")


def _luhn_complete(body: str) -> str:
    """Append the check digit that makes ``body`` Luhn-valid."""
    for check in "0123456789":
        digits = body + check
        total = 0
        for index, char in enumerate(reversed(digits)):
            value = int(char)
            if index % 2:
                value = value * 2 - 9 if value > 4 else value * 2
            total += value
        if total % 10 == 0:
            return digits
    raise AssertionError("unreachable: one check digit always fits")


@FAST
@given(
    mobile=st.sampled_from("67"),
    pairs=st.lists(st.integers(0, 99), min_size=4, max_size=4),
    sep=st.sampled_from([" ", ".", "-", ""]),
    prefix=st.sampled_from(["0", "+33 ", "+33", "0033 ", "0033"]),
)
def test_generated_french_mobiles_are_scrubbed(
    mobile: str, pairs: list[int], sep: str, prefix: str
) -> None:
    number = prefix + mobile + sep + sep.join(f"{p:02d}" for p in pairs)
    text = f"mon numéro : {number}, merci"
    assert scrub(text) == f"mon numéro : {PHONE}, merci"


@FAST
@given(
    area=st.integers(201, 989),
    exchange=st.integers(200, 999),
    line=st.integers(0, 9999),
    style=st.sampled_from(["{a}-{e}-{l}", "({a}) {e}-{l}", "{a}.{e}.{l}", "+1 {a} {e} {l}"]),
)
def test_generated_us_numbers_are_scrubbed(area: int, exchange: int, line: int, style: str) -> None:
    number = style.format(a=area, e=exchange, l=f"{line:04d}")
    assert scrub(f"I'm at {number} today") == f"I'm at {PHONE} today"


@FAST
@given(
    body=st.from_regex(r"\A[2-6][0-9]{14}\Z"),
    sep=st.sampled_from(["", " ", "-"]),
)
def test_generated_luhn_valid_cards_are_scrubbed(body: str, sep: str) -> None:
    digits = _luhn_complete(body)
    grouped = sep.join(digits[i : i + 4] for i in range(0, 16, 4))
    assert scrub(f"pay with {grouped} now") == f"pay with {CARD} now"


@FAST
@given(body=st.from_regex(r"\A[1-9][0-9]{14}\Z"), bump=st.integers(1, 9))
def test_luhn_invalid_sixteen_digit_numbers_survive(body: str, bump: int) -> None:
    valid = _luhn_complete(body)
    invalid = valid[:-1] + str((int(valid[-1]) + bump) % 10)
    text = f"reference {invalid[:4]} {invalid[4:8]} {invalid[8:12]} {invalid[12:]}"
    assert scrub(text) == text


@FAST
@given(
    whole=st.integers(0, 99_999),
    cents=st.integers(0, 99),
    style=st.sampled_from(
        ["{w}.{c:02d}", "{w},{c:02d} €", "${w:,}", "€{w}", "{w} $", "{w:,}.{c:02d}"]
    ),
)
def test_prices_survive(whole: int, cents: int, style: str) -> None:
    text = "budget " + style.format(w=whole, c=cents) + " max"
    assert scrub(text) == text


@FAST
@given(day=st.dates(dt.date(1900, 1, 1), dt.date(2099, 12, 31)))
def test_dates_survive(day: dt.date) -> None:
    text = f"by {day.isoformat()} or {day:%d/%m/%Y} or {day:%d.%m.%Y} or {day:%B} {day.day}"
    assert scrub(text) == text


@FAST
@given(raw=st.lists(st.binary(min_size=16, max_size=16), min_size=1, max_size=3))
def test_uuid_ids_survive(raw: list[bytes]) -> None:
    ids = [uuid.UUID(bytes=b) for b in raw]
    text = " ".join(f"run {u.hex} gift {u}" for u in ids)
    assert scrub(text) == text


@FAST
@given(st.text(alphabet="0123456789 .-+()@abcAZé,/€$\n", max_size=60))
def test_scrub_is_idempotent_on_noise(text: str) -> None:
    once = scrub(text)
    assert scrub(once) == once


@FAST
@given(
    area=st.integers(1, 899).filter(lambda a: a != 666),
    group=st.integers(1, 99),
    serial=st.integers(1, 9999),
    sep=st.sampled_from(["-", " "]),
)
def test_generated_ssns_are_scrubbed(area: int, group: int, serial: int, sep: str) -> None:
    number = f"{area:03d}{sep}{group:02d}{sep}{serial:04d}"
    if number.replace(sep, "") in {"078051120", "457555462", "219099999"}:
        return  # advertised example numbers, never issued
    assert scrub(f"my SSN is {number}.") == f"my SSN is {SSN}."


@FAST
@given(area=st.integers(0, 999), serial=st.integers(0, 9999))
def test_never_issued_ssn_shapes_are_not_ssns(area: int, serial: int) -> None:
    """Group 00 was never issued. (Whether the digits make a phone is the phone pass's call:
    "010-00-0000" is a French-style national number.)"""
    assert SSN not in scrub(f"code {area:03d}-00-{serial:04d} here")
