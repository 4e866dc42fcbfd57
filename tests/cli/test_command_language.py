"""The operator commands speak the environment's language (LC_ALL, LC_MESSAGES, LANG):
French for a French locale, English for any other; their JSON stays the same in both."""

from __future__ import annotations

from datetime import timedelta

import pytest
from test_bad_input import run_bytes

from giftgenius.cli.main import _older_than
from giftgenius.cli.speech import command_language, count

FRENCH = "fr_FR.UTF-8"


@pytest.mark.parametrize(
    ("environ", "lang"),
    [
        ({"LANG": "fr_FR.UTF-8"}, "fr"),
        ({"LANG": "fr_CA.UTF-8"}, "fr"),
        ({"LANG": "fr_BE@euro"}, "fr"),
        ({"LANG": "fr"}, "fr"),
        ({"LANG": "fr-CH"}, "fr"),
        ({"LC_ALL": "fr_FR.UTF-8", "LANG": "en_US.UTF-8"}, "fr"),
        ({"LC_MESSAGES": "fr_FR.UTF-8", "LANG": "en_GB.UTF-8"}, "fr"),
        ({"LC_ALL": "", "LANG": "fr_FR.UTF-8"}, "fr"),  # an empty variable is unset
        ({"LANG": "en_US.UTF-8"}, "en"),
        ({"LANG": "C"}, "en"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LANG": "POSIX"}, "en"),
        ({"LANG": "de_DE.UTF-8"}, "en"),  # a language the catalogue lacks
        ({"LANG": "fy_NL.UTF-8"}, "en"),  # Frisian, not French
        ({"LANG": "frr_DE.UTF-8"}, "en"),  # North Frisian, not French
        ({"LC_ALL": "C", "LANG": "fr_FR.UTF-8"}, "en"),  # LC_ALL is the strongest
        ({"LC_MESSAGES": "en_US.UTF-8", "LANG": "fr_FR.UTF-8"}, "en"),
        ({"LC_CTYPE": "fr_FR.UTF-8"}, "en"),  # the character set, not the language
        ({}, "en"),
    ],
)
@pytest.mark.slow
def test_the_locale_names_the_commands_language(environ: dict[str, str], lang: str) -> None:
    assert command_language(environ) == lang


@pytest.mark.parametrize(
    ("age", "english", "french"),
    [
        (timedelta(0), "every checkpoint, whatever its age",
         "toutes les étapes enregistrées, quel que soit leur âge"),
        (timedelta(days=1), "every checkpoint older than a day",
         "toutes les étapes enregistrées de plus d'un jour"),
        (timedelta(hours=24), "every checkpoint older than a day",
         "toutes les étapes enregistrées de plus d'un jour"),
        (timedelta(days=90), "every checkpoint older than 90 days",
         "toutes les étapes enregistrées de plus de 90 jours"),
        (timedelta(days=1200), "every checkpoint older than 1,200 days",
         "toutes les étapes enregistrées de plus de 1\u202f200 jours"),
        (timedelta(hours=36), "every checkpoint older than 36 hours",
         "toutes les étapes enregistrées de plus de 36 heures"),
        (timedelta(hours=1), "every checkpoint older than an hour",
         "toutes les étapes enregistrées de plus d'une heure"),
        (timedelta(minutes=90), "every checkpoint older than 90 minutes",
         "toutes les étapes enregistrées de plus de 90 minutes"),
        (timedelta(seconds=60), "every checkpoint older than a minute",
         "toutes les étapes enregistrées de plus d'une minute"),
        (timedelta(seconds=45), "every checkpoint older than 45 seconds",
         "toutes les étapes enregistrées de plus de 45 secondes"),
        (timedelta(seconds=1), "every checkpoint older than a second",
         "toutes les étapes enregistrées de plus d'une seconde"),
    ],
)  # fmt: skip
def test_prune_says_its_age_as_a_person_would(
    age: timedelta, english: str, french: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert _older_than(age) == english
    monkeypatch.setenv("LANG", FRENCH)
    assert _older_than(age) == french


def test_counts_follow_each_language_s_plural_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    assert [count("prune.done", n) for n in (0, 1, 2)] == [
        "Pruned 0 checkpoints.",
        "Pruned 1 checkpoint.",
        "Pruned 2 checkpoints.",
    ]
    monkeypatch.setenv("LANG", FRENCH)
    assert [count("prune.done", n) for n in (0, 1, 2)] == [
        "0 étape enregistrée supprimée.",  # French counts 0 in the singular
        "1 étape enregistrée supprimée.",
        "2 étapes enregistrées supprimées.",
    ]


@pytest.mark.slow
def test_prune_declined_in_french_then_in_english(cli, monkeypatch) -> None:
    monkeypatch.setenv("LANG", FRENCH)
    declined = run_bytes(["prune", "--older-than", "0d"], b"n\n", tty=True)
    assert declined.code == 1
    assert "Supprimer toutes les étapes enregistrées, quel que soit leur âge ?" in declined.err
    assert "[o/n]" in declined.err and "Rien n'a été supprimé." in declined.err
    kept = run_bytes(["prune", "--older-than", "90d", "--keep-last", "3"], b"", tty=True)
    assert "de plus de 90 jours, sauf les 3 plus récentes de chaque recherche ?" in kept.err
    assert "Delete" not in declined.err + kept.err
    agreed = run_bytes(["prune", "--older-than", "1d"], b"o\n", tty=True)  # oui
    assert agreed.code == 0 and agreed.out.splitlines() == [
        "0 étape enregistrée supprimée.",
        "0 note de mémoire plus ancienne supprimée.",  # long-term notes: the same age
    ]

    monkeypatch.setenv("LANG", "C")
    declined = run_bytes(["prune", "--older-than", "0d"], b"n\n", tty=True)
    assert "Delete every checkpoint, whatever its age? This cannot be undone." in declined.err
    assert "[y/n]" in declined.err and "Nothing was deleted." in declined.err
    assert "Supprimer" not in declined.err


@pytest.mark.slow
def test_forget_and_state_of_an_unknown_user_in_french_then_in_english(cli, monkeypatch) -> None:
    monkeypatch.setenv("LANG", FRENCH)
    assert (
        cli("forget", "--user", "ghost").out == "Rien n'est enregistré pour l'utilisateur ghost.\n"
    )
    assert (
        cli("state", "--user", "ghost").out == "L'utilisateur ghost n'a encore aucune recherche.\n"
    )
    assert cli("checkpoints", "--user", "ghost").out == "Aucune étape enregistrée pour l'instant.\n"
    french_json = cli("state", "--user", "ghost", "--json").out

    monkeypatch.setenv("LANG", "C")
    assert cli("forget", "--user", "ghost").out == "Nothing is stored for user ghost.\n"
    assert cli("state", "--user", "ghost").out == "User ghost has no runs yet.\n"
    assert cli("checkpoints", "--user", "ghost").out == "No checkpoints yet.\n"
    assert cli("state", "--user", "ghost", "--json").out == french_json  # keys, not sentences


@pytest.mark.slow
def test_errors_end_in_the_locale_s_language(cli, monkeypatch) -> None:
    monkeypatch.setenv("LC_MESSAGES", FRENCH)
    missing = cli("checkpoints", "--user", "ghost", "--run", "r-0")
    assert missing.code == 1
    assert missing.err == "erreur : L'utilisateur 'ghost' n'a pas de recherche r-0.\n"
    usage = cli("prune", "--older-than", "5x")
    assert usage.code == 2 and usage.err.startswith("erreur : ")
    assert "'5x' n'est pas une durée comme 90d" in usage.err
    assert usage.err.endswith("(voir `giftgenius prune --help`).\n")
    resumed = cli("resume", "--user", "ghost")
    assert resumed.code == 3
    assert (
        "erreur : Aucune recherche en cours à reprendre pour l'utilisateur 'ghost'" in resumed.err
    )

    monkeypatch.setenv("LC_ALL", "C")  # stronger than LC_MESSAGES
    missing = cli("checkpoints", "--user", "ghost", "--run", "r-0")
    assert missing.err == "error: User 'ghost' has no run r-0.\n"
    resumed = cli("resume", "--user", "ghost")
    assert "error: No unfinished run to resume for user 'ghost'" in resumed.err


@pytest.mark.slow
def test_a_gift_shown_in_french(cli, seeded_home, monkeypatch) -> None:
    monkeypatch.setenv("LANG", FRENCH)
    shown = cli("catalog", "show", "g-0001")
    assert shown.code == 0, shown.err
    labels = [line.split(" : ")[0] for line in shown.out.splitlines()[2:]]
    assert labels == ["prix", "étiquettes", "pour", "livré vers"]
    assert "livraison : " in shown.out and (
        "en stock : oui" in shown.out or "en stock : non" in shown.out
    )
    nothing = cli("catalog", "search", "zzqxv")
    assert nothing.out == "Rien ne correspond à 'zzqxv'.\n"
    unknown = cli("catalog", "show", "g-nope")
    assert unknown.err.startswith("erreur : Aucun cadeau n'a l'identifiant 'g-nope'.")

    monkeypatch.setenv("LANG", "en_US.UTF-8")
    shown = cli("catalog", "show", "g-0001")
    labels = [line.split(": ")[0] for line in shown.out.splitlines()[2:]]
    assert labels == ["price", "tags", "for", "ships to"]


@pytest.mark.slow
def test_a_real_process_reads_its_own_environment(proc) -> None:
    french = proc("forget", "--user", "ghost", env={"LANG": FRENCH})
    assert french.out == "Rien n'est enregistré pour l'utilisateur ghost.\n"
    english = proc("forget", "--user", "ghost", env={"LANG": FRENCH, "LC_ALL": "C.UTF-8"})
    assert english.out == "Nothing is stored for user ghost.\n"


@pytest.mark.parametrize(
    ("version", "size", "english", "french"),
    [
        ("import:ab12", 1, "an imported catalog (1 product, from `giftgenius catalog import`, "
         "import:ab12)", "un catalogue importé (1 produit, par `giftgenius catalog import`, "
         "import:ab12)"),
        ("synthetic:2000:0", 2000, "the synthetic catalog synthetic:2000:0 (2,000 products, "
         "from `giftgenius catalog generate`)", "le catalogue synthétique synthetic:2000:0 "
         "(2\u202f000 produits, par `giftgenius catalog generate`)"),
        ("0f3a9c", 1262, "the shipped catalog (1,262 products)",
         "le catalogue fourni (1\u202f262 produits)"),
        (None, 0, "a catalog of 0 products of unknown origin",
         "un catalogue de 0 produit d'origine inconnue"),
    ],
)  # fmt: skip
def test_generate_names_the_catalog_it_would_replace(
    version: str | None, size: int, english: str, french: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from giftgenius.cli.generate import held_catalog

    assert held_catalog(version, size) == english
    monkeypatch.setenv("LANG", FRENCH)
    assert held_catalog(version, size) == french
