"""The benchmarks' reports speak the environment's language, with the same figures and the
same columns: a French header is no wider than its column, so every table keeps its layout."""

from __future__ import annotations

import argparse

import pytest

from giftgenius.bench import context, load, state, turn
from giftgenius.bench.catalogs import Written
from giftgenius.bench.stats import Breakdown, Spread
from giftgenius.messages import LANGUAGES, messages


def _figures() -> turn.TurnFigures:
    spread = Spread(1.5, 2.5, 1.75).json()
    row = {"products": 200, "overhead": spread}
    row |= {kind: spread | {"turns": 2} for kind in turn.CATALOG_KINDS}
    return turn.TurnFigures(
        stores="scratch",
        milestones={2: Breakdown.of([]), 4: Breakdown.of([])},
        catalogs={200: row, 400: {"products": 400, "skipped": "not measured: …"}},
        throughput={
            1: {"sessions": 1, "turns": 9, "turns_per_second": 3.0, "turn": spread},
            2: {"sessions": 2, "turns": 20, "turns_per_second": 6.5, "turn": spread},
        },
        written=[Written("synthetic:200:0", 200, True, 0.5, 0.25)],
        load_average=[1.0, 2.0],
        part_seconds={"conversations": 1.0, "processes": 2.0, "catalog 200": 0.5},
        skipped={400: {"seconds": "9.0", "measured": "200", "guess": "18", "products": "400",
                       "limit": "5"}},
    )  # fmt: skip


def _report(lang: str, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    monkeypatch.setenv("GIFTGENIUS_LANGUAGE", lang)
    args: argparse.Namespace = turn.parser().parse_args(
        ["--turns", "2,4", "--catalog", "200,400", "--processes", "1,2", "--seconds", "2"]
    )
    return turn.report(_figures(), args).splitlines()


def _tables(lines: list[str]) -> list[str]:
    """The tables' header and figure lines: those after a part's title, up to a blank line
    or the wall time's line (each table is the second block after a blank line)."""
    blocks: list[list[str]] = [[]]
    for line in lines:
        if line:
            blocks[-1].append(line)
        else:
            blocks.append([])
    return [line for block in blocks[1:] for line in block[1:]][:-2]


def test_the_turn_report_is_french_with_the_same_figures_and_columns(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    english, french = _report("en", monkeypatch), _report("fr", monkeypatch)
    assert len(english) == len(french)
    said = "\n".join(french)
    assert "hors modèle et outils" in said and "tour 4 : p50" in said
    assert "Tours par seconde, catalogue de 200 produits, 2 s chacun :" in said
    assert "temps réel par partie (s) : conversations 1.0, processus 2.0, catalogue 200 0.5" in said
    assert "non mesuré : une recherche a pris 9.0 s à 200 produits, donc environ 18 s" in said
    assert "outside model and tools" in "\n".join(english)
    for en, fr in zip(_tables(english), _tables(french), strict=True):
        if "not measured" in en:  # a sentence in place of a skipped catalog's figures
            continue
        assert len(fr) == len(en), (en, fr)
        if not en.lstrip()[:1].isalpha():  # a figures row: the same figures at the same places
            assert fr.split() == en.split()


def test_a_json_document_is_english_in_every_language(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GIFTGENIUS_LANGUAGE", "fr")
    args = turn.parser().parse_args(["--catalog", "200,400"])
    doc = turn.as_json(_figures(), args)
    assert doc["model"].startswith("model: the official openai client")
    assert doc["catalogs"]["400"]["skipped"] == "not measured: …"


def test_the_load_report_is_french(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GIFTGENIUS_LANGUAGE", "fr")
    report = load.LoadReport("scratch", 2, 1, 4, 1, 2.0, 2.0, 10.0, 20.0, 4, 0, 1, 0, "boom")
    assert load.text(report).splitlines()[1:] == [
        "2 sessions × 2 tours sur 1 processus : 4 tours en 2.0 s = 2.0 tours/s, "
        "tour p50 10.0 ms, p99 20.0 ms",
        "transcription : 4 lignes d'utilisateur envoyées ; perdues 0, doublées 1, "
        "inattendues 0 ; tours en échec 1",
        "premier échec : boom",
    ]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_state_and_context_headers_keep_their_columns(
    lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GIFTGENIUS_LANGUAGE", lang)
    bench = messages(lang)["bench"]
    for module, prefix in ((state, "state.col."), (context, "context.col.")):
        for name, width in module.COLUMNS:
            assert len(bench[prefix + name]) <= width, (lang, name)
    assert len(state.header()) == sum(width + 1 for _, width in state.COLUMNS) - 1
    row = context.BenchRow(10, 900, 9000, 20000, 1, 12.0, 13.0)
    table = context.format_table([row], 4000).splitlines()
    assert len(table[1]) == len(table[2])
