"""The evaluator's transcript leaves out the offline model's notice in every language the
talking processes may print it in: they inherit the caller's locale."""

from __future__ import annotations

from pathlib import Path

import pytest

from giftgenius import messages
from giftgenius.evaluate.player import _Cli, clean_env, stderr_notes


@pytest.mark.parametrize("lang", messages.LANGUAGES)
def test_the_offline_notice_is_left_out_in_every_language(lang: str) -> None:
    notice = messages.say("commands", "offline_model", lang)
    assert stderr_notes(f"{notice}\n\nwarning: something else\n") == ["warning: something else"]


@pytest.mark.slow
def test_a_french_locale_leaks_no_notice_into_the_transcript(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    home = tmp_path / "home"
    cli = _Cli(clean_env(str(home)), str(tmp_path))
    assert cli.talk("chat", "ana", ("/quit",))
    french = messages.say("commands", "offline_model", "fr")
    assert french not in "\n".join(cli.transcript)
    assert not [line for line in cli.transcript if line.startswith("(stderr)")]
