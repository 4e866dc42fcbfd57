"""The catalog's data types: a product and the dated currency table.

Products are frozen so a cached catalog can be shared between turns without anyone
mutating it; prices are major units in the product's own currency, converted on demand.

``Product`` is the one validation of a product, wherever it comes from (the shipped files,
``catalog import``, a row read back from the database), and its limits are the products
table's (``storage/tables.py``; a test compares them): what it accepts, SQLite and Postgres
both store and give back unchanged. So a file either imports whole on both backends or is
refused with the line of each bad row — never stored by one and a crash on the other, and
never stored in a shape that can no longer be read.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Self

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationInfo,
    field_validator,
    model_validator,
)

from giftgenius.domain import Currency
from giftgenius.errors import ToolError
from giftgenius.messages import speak

_COUNTRY = re.compile(r"^([A-Z]{2}|\*)$")
# The products table's columns: ``id`` String(64), ``title`` String(200), ``price``
# Numeric(10, 2) — so the largest price is eight digits and two decimals.
ID_MAX_LENGTH = 64
TITLE_MAX_LENGTH = 200
PRICE_PLACES = 2
PRICE_MAX = 99_999_999.99
# Not a column's limit: a description goes whole to the model (get_gift_details), so a huge
# one would crowd the conversation out of its context. The shipped ones are under 200.
DESCRIPTION_MAX_LENGTH = 2000
# Postgres refuses NUL in text and JSONB, and neither driver encodes a lone surrogate.
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def _storable(field: str, value: str) -> None:
    found = _UNSTORABLE.search(value)
    if found is None:
        return
    what = speak("catalog_import", "nul" if found.group() == "\x00" else "surrogate")
    raise ValueError(
        speak("catalog_import", "unstorable", what=what, at=found.start() + 1, field=field)
    )


class Product(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(pattern=r"^g-\d{4,}$", max_length=ID_MAX_LENGTH)
    title: str = Field(min_length=3, max_length=TITLE_MAX_LENGTH)
    description: str = Field(min_length=10, max_length=DESCRIPTION_MAX_LENGTH)
    price: float = Field(
        gt=0,
        le=PRICE_MAX,
        allow_inf_nan=False,
        description="Major units, in ``currency``; rounded to cents, as the database keeps it",
    )
    currency: Currency
    tags: list[str] = Field(min_length=1)
    recipients: list[str] = Field(min_length=1)
    min_age: int | None = Field(None, ge=0, le=120)
    max_age: int | None = Field(None, ge=0, le=120)
    ships_to: list[str] = Field(min_length=1, description='ISO 3166-1 alpha-2, or ["*"]')
    delivery_days: int = Field(ge=1, le=60, description="Calendar days, at most")
    in_stock: bool = True

    @field_validator("title", "description", "tags", "recipients")
    @classmethod
    def _text(cls, value: str | list[str], info: ValidationInfo) -> str | list[str]:
        for text in [value] if isinstance(value, str) else value:
            _storable(str(info.field_name), text)
        return value

    @field_validator("price")
    @classmethod
    def _cents(cls, value: float) -> float:
        """Rounded as the Numeric column rounds (``storage.upsert.money``), so the price
        validated is the price read back; one that rounds to nothing is refused."""
        cents = round(value, PRICE_PLACES)
        if cents == 0:
            raise ValueError(
                f"{value} is less than a cent once rounded to cents; the smallest price is 0.01"
            )
        return cents

    @field_validator("ships_to")
    @classmethod
    def _countries(cls, value: list[str]) -> list[str]:
        bad = [code for code in value if not _COUNTRY.match(code)]
        if bad:
            raise ValueError(f"ships_to needs ISO alpha-2 codes or '*', got {bad}")
        return value

    @model_validator(mode="after")
    def _ages(self) -> Self:
        if self.min_age is not None and self.max_age is not None and self.min_age > self.max_age:
            raise ValueError(f"min_age {self.min_age} is above max_age {self.max_age}")
        return self

    def ships_anywhere(self) -> bool:
        return "*" in self.ships_to

    def ships_to_country(self, country: str) -> bool:
        return self.ships_anywhere() or country.upper() in self.ships_to

    def fits_age(self, age: int) -> bool:
        return (self.min_age is None or age >= self.min_age) and (
            self.max_age is None or age <= self.max_age
        )


BASE_CURRENCY = "USD"


class Rates(BaseModel):
    """Units of each currency per US dollar, as of one date (the catalog ships it)."""

    model_config = ConfigDict(frozen=True)

    as_of: dt.date
    per_usd: dict[str, float]

    @field_validator("per_usd")
    @classmethod
    def _positive(cls, value: dict[str, float]) -> dict[str, float]:
        if value.get("USD") != 1.0:
            raise ValueError("per_usd must hold USD = 1.0")
        if any(rate <= 0 for rate in value.values()):
            raise ValueError("every rate must be positive")
        return value

    def _rate(self, currency: str) -> float:
        try:
            return self.per_usd[currency.upper()]
        except KeyError:
            raise ToolError(
                "currency.no_rate", currency=currency, choices=sorted(self.per_usd)
            ) from None

    def in_base(self, amount: float, currency: str) -> float:
        """``amount`` in ``BASE_CURRENCY``, unrounded: what the database filters prices by."""
        return amount / self._rate(currency)

    def convert(self, amount: float, from_currency: str, to_currency: str) -> float:
        """``amount`` in ``to_currency``, rounded to cents."""
        if from_currency.upper() == to_currency.upper():
            return round(amount, 2)
        usd = amount / self._rate(from_currency)
        return round(usd * self._rate(to_currency), 2)
