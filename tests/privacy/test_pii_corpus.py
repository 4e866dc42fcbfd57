"""The fixed corpus: every PII sample is replaced, every survivor comes back byte-identical."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from giftgenius.privacy import PLACEHOLDERS, contains_pii, scrub

CORPUS: dict[str, Any] = json.loads(
    (Path(__file__).with_name("pii_corpus.json")).read_text(encoding="utf-8")
)
PII: list[dict[str, str]] = CORPUS["pii"]
SURVIVORS: list[str] = CORPUS["survivors"]
MIXED: list[dict[str, str]] = CORPUS["mixed"]


def test_corpus_is_big_enough_and_covers_every_kind() -> None:
    assert len(PII) >= 40
    assert len(SURVIVORS) >= 30
    assert {sample["kind"] for sample in PII} == set(PLACEHOLDERS)
    for sample in PII:
        assert sample["value"] in sample["text"], sample


def _leftovers(sample: dict[str, str], scrubbed: str) -> list[str]:
    """Digit and letter runs of the PII value still present in the output as whole tokens.

    Runs that also occur in the sentence outside the value ("tel", "au") are not evidence.
    """
    context = sample["text"].replace(sample["value"], " ")
    context_tokens = set(re.findall(r"\w+", context))
    return [
        token
        for token in re.findall(r"\w+", sample["value"])
        if token not in context_tokens and re.search(rf"(?<!\w){re.escape(token)}(?!\w)", scrubbed)
    ]


@pytest.mark.parametrize("sample", PII, ids=[f"{s['kind']}:{s['value']}" for s in PII])
def test_pii_sample_is_replaced_by_its_placeholder(sample: dict[str, str]) -> None:
    scrubbed = scrub(sample["text"])
    assert sample["value"] not in scrubbed
    assert PLACEHOLDERS[sample["kind"]] in scrubbed, scrubbed
    assert _leftovers(sample, scrubbed) == [], scrubbed
    assert contains_pii(sample["text"])


@pytest.mark.parametrize("text", SURVIVORS)
def test_survivor_is_byte_identical(text: str) -> None:
    assert scrub(text) == text
    assert not contains_pii(text)


@pytest.mark.parametrize("case", MIXED, ids=[c["text"][:40] for c in MIXED])
def test_mixed_sentence_scrubs_only_the_pii(case: dict[str, str]) -> None:
    assert scrub(case["text"]) == case["expected"]


@pytest.mark.slow
def test_every_survivor_inside_one_message_with_every_pii_sample() -> None:
    """Interleaved in one long message, nothing bleeds from one sample into the next."""
    survivors = SURVIVORS[: len(PII)]
    parts = [f"{s['text']} ; {survivor} ;" for s, survivor in zip(PII, survivors, strict=False)]
    scrubbed = scrub(" ".join(parts))
    for survivor in survivors:
        assert f"; {survivor} ;" in scrubbed
    for sample in PII:
        assert sample["value"] not in scrubbed


def test_scrub_is_idempotent_on_the_corpus() -> None:
    texts = [s["text"] for s in PII] + SURVIVORS + [c["text"] for c in MIXED]
    for text in texts:
        once = scrub(text)
        assert scrub(once) == once
