"""GIFTGENIUS_PHONE_REGIONS: which countries' national numbers the scrubber recognises."""

from __future__ import annotations

import pytest

from giftgenius import privacy
from giftgenius.errors import ConfigError
from giftgenius.privacy import DEFAULT_PHONE_REGIONS, PHONE, scrub
from giftgenius.settings import load_settings


@pytest.fixture(autouse=True)
def _restore_regions():
    yield
    privacy.configure_phone_regions(DEFAULT_PHONE_REGIONS)


def test_default_regions_are_the_documented_list() -> None:
    assert load_settings().phone_regions == (
        "US", "CA", "GB", "IE", "FR", "BE", "CH", "DE", "NL", "ES", "IT",
    )  # fmt: skip


def test_the_setting_reads_a_comma_separated_list_in_any_case(monkeypatch) -> None:
    monkeypatch.setenv("GIFTGENIUS_PHONE_REGIONS", " es, it ,US")
    assert load_settings().phone_regions == ("ES", "IT", "US")


@pytest.mark.parametrize("value", ["XX", "US,,FR", "", "USA"])
def test_an_unknown_region_is_refused_with_the_variable_named(monkeypatch, value: str) -> None:
    monkeypatch.setenv("GIFTGENIUS_PHONE_REGIONS", value)
    with pytest.raises(ConfigError, match="GIFTGENIUS_PHONE_REGIONS"):
        load_settings()


def test_a_national_number_is_only_recognised_for_a_configured_region() -> None:
    spanish_mobile = "mi móvil es 612345678"
    assert scrub(spanish_mobile) == f"mi móvil es {PHONE}"  # ES is in the default list
    privacy.configure_phone_regions(("US", "GB"))
    assert scrub(spanish_mobile) == spanish_mobile
    # International numbers do not depend on the regions.
    assert scrub("mi móvil es +34 612 34 56 78") == f"mi móvil es {PHONE}"


def test_us_numbers_without_separators_are_scrubbed() -> None:
    for text in ("call 4155552671 now", "call 415 5552671 now", "call (415)5552671 now"):
        assert scrub(text) == f"call {PHONE} now", text
