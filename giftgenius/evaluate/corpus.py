"""The dialogue corpus format (tests/dialogues/README.md) as typed models, and slot filling.

A dialogue file is validated once, on load, so a typo in a slot name or a register fails
with the file's name instead of surfacing as a puzzling failure halfway through a run.
Filling slots turns a dialogue plus one value per slot into a ``Script``: the lines to
type and the concrete constraints a fitting gift must meet.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, Self, get_args

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from giftgenius.domain import Currency, Locale
from giftgenius.errors import GiftGeniusError, UsageError
from giftgenius.messages import speak

LOCALES: tuple[Locale, ...] = get_args(Locale)

REGISTERS = (
    "terse", "chatty", "typos", "slang", "number-words", "spread", "correction", "city",
    "relative", "name", "leave-return", "choose-words", "saved-profile", "negation",
    "deadline", "currency",
)  # fmt: skip
Register = Literal[
    "terse", "chatty", "typos", "slang", "number-words", "spread", "correction", "city",
    "relative", "name", "leave-return", "choose-words", "saved-profile", "negation",
    "deadline", "currency",
]  # fmt: skip
SlotKind = Literal[
    "amount", "amount_words", "city", "relative_m", "relative_f", "relative", "name_m", "name_f"
]

_PLACEHOLDER = re.compile(r"\{([a-z_][a-z0-9_]*)(?:\.([a-z_]+))?\}")
_ID = re.compile(r"^(en|fr)-[a-z0-9]+(?:-[a-z0-9]+)*$")
_MONTH_DAY = re.compile(r"^(\d{2})-(\d{2})$")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Slot(_Strict):
    kind: SlotKind
    value: int | str
    country: str | None = Field(None, pattern=r"^[A-Z]{2}$")

    @model_validator(mode="after")
    def _fits_kind(self) -> Self:
        numeric = self.kind in ("amount", "amount_words")
        if numeric and not (isinstance(self.value, int) and self.value >= 1):
            raise ValueError(f"a {self.kind} slot needs a whole positive number as value")
        if not numeric and not (isinstance(self.value, str) and self.value.strip()):
            raise ValueError(f"a {self.kind} slot needs a non-empty text value")
        if (self.kind == "city") != (self.country is not None):
            raise ValueError("a city slot needs a country (ISO alpha-2), and only a city slot")
        return self


class BudgetExpect(_Strict):
    max: float | str
    min: float | str | None = None
    currency: Currency


class DeadlineExpect(_Strict):
    in_days: int | None = Field(None, ge=1)
    date: str | None = Field(None, pattern=_MONTH_DAY.pattern)

    @model_validator(mode="after")
    def _one_of(self) -> Self:
        if (self.in_days is None) == (self.date is None):
            raise ValueError("a deadline gives exactly one of in_days or date")
        if self.date is not None:
            month, day = (int(x) for x in self.date.split("-"))
            dt.date(2028, month, day)  # a leap year, so 02-29 is accepted; raises otherwise
        return self


class Expect(_Strict):
    budget: BudgetExpect | None = None
    country: str | None = None
    exclude: list[str] = Field(default_factory=list)
    deadline: DeadlineExpect | None = None
    interests: list[str] = Field(min_length=1)
    min_age: int | None = Field(None, ge=0, le=120)
    max_age: int | None = Field(None, ge=0, le=120)


class Dialogue(_Strict):
    id: str = Field(pattern=_ID.pattern)
    locale: Locale
    persona: str = Field(min_length=3)
    registers: list[Register] = Field(min_length=1)
    parts: list[list[str]] = Field(min_length=1)
    slots: dict[str, Slot] = Field(default_factory=dict)
    expect: Expect
    # The day the dialogue is played on ("next Friday", "in 9 days" and the judged deadline
    # are read from it), so a dialogue means the same thing whatever day it is played;
    # without it, the day the evaluation runs.
    today: dt.date | None = None

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        if not self.id.startswith(self.locale + "-"):
            raise ValueError(f"id {self.id!r} must start with its locale {self.locale!r}-")
        if any(not part or any(not line.strip() for line in part) for part in self.parts):
            raise ValueError("every part needs at least one line, and no line may be blank")
        texts = [line for part in self.parts for line in part]
        texts += [str(v) for v in _expect_templates(self.expect)]
        for text in texts:
            for name, field in _PLACEHOLDER.findall(text):
                slot = self.slots.get(name)
                if slot is None:
                    raise ValueError(f"{{{name}}} is used but no slot {name!r} is declared")
                if field and field not in ("value", "country"):
                    raise ValueError(f"{{{name}.{field}}}: a slot has only value and country")
                if field == "country" and slot.kind != "city":
                    raise ValueError(f"{{{name}.country}}: only a city slot has a country")
        return self


def _expect_templates(expect: Expect) -> list[object]:
    values: list[object] = [expect.country]
    if expect.budget is not None:
        values += [expect.budget.max, expect.budget.min]
    return [v for v in values if isinstance(v, str)]


@dataclass(frozen=True)
class Constraints:
    """What the chosen gift must meet, with every slot filled in."""

    currency: Currency | None = None
    max_price: float | None = None
    min_price: float | None = None
    country: str | None = None
    exclude: tuple[str, ...] = ()
    deadline: DeadlineExpect | None = None
    interests: tuple[str, ...] = ()
    min_age: int | None = None
    max_age: int | None = None


@dataclass(frozen=True)
class Script:
    """One playable run of a dialogue: its lines with slots filled, and its constraints."""

    dialogue_id: str
    replay: int  # 0: the written values; 1..N: seeded replays
    values: dict[str, str]  # slot -> the text typed for it (for reports)
    parts: tuple[tuple[str, ...], ...]
    constraints: Constraints
    today: dt.date | None = None  # the dialogue's stated day, if it states one


def fill(dialogue: Dialogue, values: dict[str, Slot], words: dict[str, str], replay: int) -> Script:
    """The dialogue with each slot set to ``values[name]``.

    ``words`` holds how each slot is *written* in the lines (an amount_words slot's number
    in words); in ``expect`` a slot always stands for its value (the number itself).
    """

    def field(name: str, attr: str, typed: bool) -> str:
        slot = values[name]
        if attr == "country":
            return str(slot.country)
        if typed and not attr:
            return words[name]
        return str(slot.value)

    def line(text: str) -> str:
        return _PLACEHOLDER.sub(lambda m: field(m.group(1), m.group(2) or "", True), text)

    def expected(value: float | str | None) -> float | str | None:
        if not isinstance(value, str):
            return value
        return _PLACEHOLDER.sub(lambda m: field(m.group(1), m.group(2) or "", False), value)

    expect = dialogue.expect
    budget = expect.budget
    return Script(
        dialogue_id=dialogue.id,
        replay=replay,
        values={name: words[name] for name in sorted(values)},
        parts=tuple(tuple(line(text) for text in part) for part in dialogue.parts),
        constraints=Constraints(
            currency=budget.currency if budget else None,
            max_price=_number(expected(budget.max)) if budget else None,
            min_price=_number(expected(budget.min)) if budget and budget.min is not None else None,
            country=str(expected(expect.country)).upper() if expect.country else None,
            exclude=tuple(word.lower() for word in expect.exclude),
            deadline=expect.deadline,
            interests=tuple(expect.interests),
            min_age=expect.min_age,
            max_age=expect.max_age,
        ),
        today=dialogue.today,
    )


def _number(value: float | str | None) -> float:
    try:
        return float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise UsageError(speak("eval", "corpus.budget", value=repr(value))) from None


def load_dialogue(path: Path) -> Dialogue:
    """One dialogue file; the error names the file and what to fix."""
    try:
        dialogue = Dialogue.model_validate_json(path.read_bytes())
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or speak("eval", "corpus.whole")
        raise GiftGeniusError(
            speak("eval", "corpus.invalid", path=path, where=where, reason=first["msg"])
        ) from exc
    except OSError as exc:
        raise GiftGeniusError(
            speak("eval", "corpus.unreadable", path=path, reason=exc.strerror)
        ) from exc
    if path.stem != dialogue.id:
        raise GiftGeniusError(speak("eval", "corpus.misnamed", path=path, id=dialogue.id))
    return dialogue


def corpus_files(directory: Path) -> list[Path]:
    """The dialogue files of a corpus folder: its ``*.json`` and those of its ``en/``, ``fr/``.

    Other subfolders (a test's ``fixtures/``) are not part of the corpus.
    """
    if not directory.is_dir():
        raise UsageError(speak("eval", "corpus.not_folder", folder=directory))
    folders = [directory, *(directory / locale for locale in LOCALES)]
    return sorted(p for folder in folders if folder.is_dir() for p in folder.glob("*.json"))


def load_corpus(directory: Path, only: list[str] | None = None) -> list[Dialogue]:
    """Every dialogue of the corpus in ``directory``, in id order; ``only`` picks some ids."""
    dialogues = [load_dialogue(p) for p in corpus_files(directory)]
    seen: dict[str, int] = {}
    for d in dialogues:
        seen[d.id] = seen.get(d.id, 0) + 1
    twice = sorted(i for i, n in seen.items() if n > 1)
    if twice:
        raise GiftGeniusError(speak("eval", "corpus.twice", folder=directory, ids=", ".join(twice)))
    if only:
        unknown = sorted(set(only) - set(seen))
        if unknown:
            raise UsageError(
                speak("eval", "corpus.unknown_ids", folder=directory, ids=", ".join(unknown))
            )
        dialogues = [d for d in dialogues if d.id in set(only)]
    return sorted(dialogues, key=lambda d: d.id)
