"""What is said outside a conversation — a store's error, a settings error, the commands —
is in the environment's language: ``GIFTGENIUS_LANGUAGE``, then the POSIX locale."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from giftgenius import messages
from giftgenius.arguments import whole
from giftgenius.domain import check_user_id
from giftgenius.errors import ConfigError, UsageError
from giftgenius.settings import load_settings
from giftgenius.storage.db import create_db_engine


@pytest.mark.parametrize(
    ("environ", "lang"),
    [
        ({"GIFTGENIUS_LANGUAGE": "fr"}, "fr"),
        ({"GIFTGENIUS_LANGUAGE": "fr", "LC_ALL": "en_US.UTF-8"}, "fr"),  # ours is strongest
        ({"GIFTGENIUS_LANGUAGE": "en", "LANG": "fr_FR.UTF-8"}, "en"),
        ({"GIFTGENIUS_LANGUAGE": "", "LANG": "fr_FR.UTF-8"}, "fr"),  # empty is unset
        ({"GIFTGENIUS_LANGUAGE": "de"}, "en"),  # a language the catalogue lacks
        ({"LC_MESSAGES": "fr_CA.UTF-8"}, "fr"),
        ({}, "en"),
    ],
)
def test_the_environment_names_the_language(environ: dict[str, str], lang: str) -> None:
    assert messages.environment_language(environ) == lang


def test_speak_reads_the_environment_at_each_sentence(monkeypatch: pytest.MonkeyPatch) -> None:
    english = messages.speak("storage", "migrate.none")
    monkeypatch.setenv("GIFTGENIUS_LANGUAGE", "fr")
    assert messages.speak("storage", "migrate.none") == messages.say(
        "storage", "migrate.none", "fr"
    )
    assert messages.speak("storage", "migrate.none") != english


def test_a_store_error_is_in_the_environment_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = f"sqlite:///{tmp_path / 'missing' / 'x.db'}"
    with pytest.raises(ConfigError, match="does not exist: check GIFTGENIUS_DATABASE_URL"):
        create_db_engine(url)
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    with pytest.raises(ConfigError, match="n'existe pas : vérifiez GIFTGENIUS_DATABASE_URL"):
        create_db_engine(url)


def test_a_settings_error_is_in_the_environment_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GIFTGENIUS_CONFIG", str(tmp_path / "absent.toml"))
    monkeypatch.setenv("GIFTGENIUS_LANGUAGE", "fr")
    with pytest.raises(ConfigError, match=r"^Le fichier de configuration .* n'existe pas"):
        load_settings()


def test_a_refused_count_is_said_in_the_environment_language(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    read = whole(1, 10, what="sessions")
    with pytest.raises(argparse.ArgumentTypeError, match=r"^give a count from 1 to 10, not 0$"):
        read("0")
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    with pytest.raises(argparse.ArgumentTypeError, match=r"^indiquez un nombre de 1 à 10, pas 0$"):
        read("0")
    with pytest.raises(UsageError, match=r"^Identifiant d'utilisateur invalide 'a b'"):
        check_user_id("a b")


def test_a_count_with_no_sentence_fails_when_the_parser_is_built() -> None:
    with pytest.raises(KeyError, match=r"whole\.not\.bananas"):
        whole(1, what="bananas")


def test_a_model_setting_error_is_in_the_environment_language(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from giftgenius.llm.factory import make_model

    monkeypatch.setenv("GIFTGENIUS_MODEL", "gpt-9")
    with pytest.raises(ConfigError, match=r"^GIFTGENIUS_MODEL='gpt-9' is not a model this app"):
        make_model(load_settings())
    monkeypatch.setenv("GIFTGENIUS_LANGUAGE", "fr")
    with pytest.raises(ConfigError, match=r"^GIFTGENIUS_MODEL='gpt-9' n'est pas un modèle"):
        make_model(load_settings())


def test_a_refused_catalog_file_is_said_in_the_environment_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from giftgenius.catalog.importing import scan_catalog_file
    from giftgenius.errors import InvalidCatalogFile

    bad = tmp_path / "shop.jsonl"
    bad.write_text('{"id": bad}\n[1]\n', encoding="utf-8")
    with pytest.raises(InvalidCatalogFile, match=r"has 2 invalid rows; .* line 2: a product"):
        scan_catalog_file(bad)
    monkeypatch.setenv("GIFTGENIUS_LANGUAGE", "fr")
    with pytest.raises(InvalidCatalogFile, match=r"a 2 lignes invalides ; .* ligne 2 : un produit"):
        scan_catalog_file(bad)
