"""``giftgenius eval`` against a model of one's choice: the model setting the runs' processes
get, the calls and tokens each dialogue reports, a recording that replays, and plain usage
errors for impossible job counts.
"""

from __future__ import annotations

import datetime as dt
import io
import json
import shutil
from pathlib import Path

import pytest

from giftgenius.cli.main import main
from giftgenius.errors import ConfigError, UsageError
from giftgenius.evaluate.corpus import load_corpus
from giftgenius.evaluate.player import ModelSetting, RunResult
from giftgenius.evaluate.runner import DialogueResult, Report, model_setting, summary_lines
from giftgenius.settings import load_settings

FIXTURES = Path(__file__).parents[1] / "dialogues" / "fixtures"
PASSES = "en-fixture-passes"


def _eval(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["eval", *argv], stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize(
    ("flag", "value", "said"),
    [
        ("--jobs", "0", "must be at least 1, not 0"),
        ("--jobs", "-3", "must be at least 1, not -3"),
        ("--jobs", "many", "'many' is not a whole number"),
        ("--replays", "-1", "must be 0 or more, not -1"),
    ],
)
def test_impossible_counts_are_usage_errors(flag: str, value: str, said: str) -> None:
    code, out, err = _eval(str(FIXTURES), flag, value)
    assert code == 2 and out == ""
    assert err.startswith("error: argument ") and said in err
    assert "Traceback" not in err


def test_the_offline_model_needs_nothing_from_this_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    chosen = model_setting(None, load_settings(), None)
    assert chosen.spec == "offline" and chosen.env == {} and chosen.price == (0.0, 0.0)
    env = chosen.env_for("en-x-r0", Path("/h"))
    assert env == {"GIFTGENIUS_MODEL": "offline", "GIFTGENIUS_RECORD_DIR": "/h/wire"}


def test_an_endpoint_of_ones_own_goes_to_every_run(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:8000/v1")
    monkeypatch.setenv("GIFTGENIUS_CONTEXT_WINDOW", "32000")
    chosen = model_setting("openai:offline", load_settings(), Path("rec"))
    env = chosen.env_for("en-x-r0", Path("/h"))
    assert env["GIFTGENIUS_MODEL"] == "openai:offline"
    assert env["OPENAI_BASE_URL"] == "http://127.0.0.1:8000/v1"
    assert env["GIFTGENIUS_CONTEXT_WINDOW"] == "32000"
    assert "OPENAI_API_KEY" not in env  # a local endpoint needs none
    assert env["GIFTGENIUS_RECORD_DIR"] == str(Path("rec").absolute() / "en-x-r0")
    assert chosen.cost(1_000_000, 1_000_000) == 0.0


def test_a_paid_model_is_priced_and_needs_a_key(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ConfigError, match="needs an API key"):
        model_setting("openai:gpt-4o-mini", load_settings(), None)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    chosen = model_setting("openai:gpt-4o-mini", load_settings(), None)
    assert chosen.env["OPENAI_API_KEY"] == "sk-test"
    assert chosen.cost(1_000_000, 1_000_000) == pytest.approx(0.75)
    with pytest.raises(ConfigError, match="Unknown context window"):
        model_setting("openai:my-llama", load_settings(), None)


def test_models_the_evaluation_cannot_play_are_refused() -> None:
    with pytest.raises(UsageError, match="the evaluation plays against"):
        model_setting("scripted:x.json", load_settings(), None)
    with pytest.raises(UsageError, match="the evaluation plays against"):
        model_setting("gpt-4o", load_settings(), None)
    with pytest.raises(ConfigError, match="is not a model this app knows"):
        model_setting("openai:", load_settings(), None)


def test_the_summary_gives_calls_per_line_and_the_cost() -> None:
    [dialogue] = load_corpus(FIXTURES, [PASSES])

    def run(replay: int, calls: int, lines: int) -> RunResult:
        return RunResult(
            PASSES, replay, {}, True, "", user_lines=lines, model_calls=calls,
            prompt_tokens=1000 * calls, completion_tokens=10 * calls, cost=0.01 * calls,
        )  # fmt: skip

    result = DialogueResult(dialogue, [run(0, 6, 3), run(1, 4, 3)])
    priced = ModelSetting(spec="openai:gpt-4o-mini", price=(0.15, 0.6))
    report = Report([result], 0, 1, 2, 12.0, dt.date(2026, 12, 1), priced)
    assert result.counts() == {
        "model_calls": 10, "user_lines": 6, "prompt_tokens": 10_000,
        "completion_tokens": 100, "cost": 0.1,
    }  # fmt: skip
    assert report.totals()["calls_per_line"] == pytest.approx(1.667)
    line = summary_lines(report)[1]
    assert line == (
        "model openai:gpt-4o-mini: 10 calls for 6 user lines (1.67 calls per line), "
        "10,000 prompt + 100 completion tokens, estimated cost $0.1000"
    )
    data = report.as_json()
    assert data["model"] == "openai:gpt-4o-mini" and data["totals"]["model_calls"] == 10
    assert data["dialogues"][0]["model_calls"] == 10
    assert data["dialogues"][0]["runs"][1]["user_lines"] == 3


@pytest.mark.slow  # real chat and resume processes, twice
def test_a_recorded_evaluation_counts_its_calls_and_replays(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    shutil.copy(FIXTURES / f"{PASSES}.json", corpus)
    recorded = tmp_path / "recorded"
    code, out, err = _eval(
        str(corpus), "--replays", "0", "--jobs", "1", "--json", "--record", str(recorded)
    )
    assert code == 0, err
    [played] = json.loads(out)["dialogues"]
    lines = sum(len(part) for part in json.loads((corpus / f"{PASSES}.json").read_text())["parts"])
    assert played["user_lines"] == lines
    assert played["model_calls"] >= lines and played["prompt_tokens"] > 0
    assert played["cost"] == 0
    assert (recorded / f"{PASSES}-r0" / "calls.jsonl").is_file()

    code, out, err = _eval(
        str(corpus), "--replays", "0", "--jobs", "1", "--json", "--model", f"replay:{recorded}"
    )
    assert code == 0, err
    report = json.loads(out)
    [again] = report["dialogues"]
    assert report["model"] == f"replay:{recorded}"
    assert again["passed"] and again["runs"][0]["gift"] == played["runs"][0]["gift"]
    assert (again["model_calls"], again["prompt_tokens"]) == (
        played["model_calls"],
        played["prompt_tokens"],
    )
