"""Coming back, as a person sees it, in both languages: the recap says
what was being looked for, shows the shortlist or asks the pending question again, and
`resume` after a finished search says how it ended (exit 3 kept for scripts)."""

from __future__ import annotations

import datetime as dt

import pytest

from giftgenius.formats import date

FR_SETUP = "J'ai besoin d'un cadeau pour ma sœur, budget 40 euros, elle aime le thé\n"
EN_SETUP = "A gift for my brother, 45 dollars, he loves board games\n"


@pytest.mark.slow
def test_coming_back_mid_profile_asks_the_pending_question(cli) -> None:
    cli("chat", "--user", "r1", stdin="Je cherche un cadeau pour ma sœur\n")
    back = cli("chat", "--user", "r1", stdin="")
    assert "Bon retour ! Vous cherchiez un cadeau pour votre sœur." in back.out
    assert "Pour continuer, dites-moi votre budget et une ou deux choses" in back.out
    cli("chat", "--user", "r2", stdin="A gift for my sister\n")
    back = cli("resume", "--user", "r2", stdin="")
    assert "Welcome back! You were looking for a gift for your sister." in back.out
    assert "To go on, tell me your budget and one or two things they enjoy." in back.out


@pytest.mark.slow
@pytest.mark.parametrize(
    ("user", "setup", "expected"),
    [
        ("r3", FR_SETUP, ["pour votre sœur (budget jusqu'à 40\xa0€ ; centres d'intérêt : thé)",
                          "idées que vous aviez :", "Lequel vous plaît ?"]),
        ("r4", EN_SETUP, ["for your brother (budget up to $45; likes board games)",
                          "ideas you had:", "Which one would you like?"]),
    ],
)  # fmt: skip
def test_coming_back_to_a_shortlist_shows_it_again(cli, user, setup, expected) -> None:
    first = cli("chat", "--user", user, stdin=setup)
    assert first.code == 0, first.err
    back = cli("resume", "--user", user, stdin="")
    assert back.code == 0
    for text in expected:
        assert text in back.out
    assert "\n1. " in back.out and "\n2. " in back.out and "**" not in back.out
    assert "restored from" not in back.out and "step finalizing" not in back.out


@pytest.mark.slow
def test_coming_back_to_a_chosen_gift_asks_for_the_confirmation(cli) -> None:
    cli("chat", "--user", "r5", stdin=FR_SETUP + "Je prends le premier\n")
    back = cli("resume", "--user", "r5", stdin="")
    assert "Vous aviez choisi « " in back.out and "Je le confirme ?" in back.out
    assert "idées que vous aviez :" in back.out and "\n1. " in back.out  # to pick another


@pytest.mark.slow
@pytest.mark.parametrize(
    ("user", "setup", "confirm", "words"),
    [
        ("r6", FR_SETUP, "Je prends le premier\nOui, je confirme\n",
         ["Votre dernière recherche de cadeau s'est terminée le", "lancez : giftgenius chat"]),
        ("r7", EN_SETUP, "the first one\nyes, confirm it\n",
         ["Your last gift search ended on", "run: giftgenius chat --user r7"]),
    ],
)  # fmt: skip
def test_resume_after_a_finished_search_says_how_it_ended(cli, user, setup, confirm, words):
    done = cli("chat", "--user", user, stdin=setup + confirm)
    assert done.code == 0, done.err
    state = cli("state", "--user", user, "--json").json()
    assert state["state"]["step"] == "done"
    resumed = cli("resume", "--user", user)
    assert resumed.code == 3  # scripts still see "nothing to resume"
    for text in words:
        assert text in resumed.out
    locale = state["state"]["locale"]
    assert date(dt.datetime.now(dt.UTC).date(), locale) in resumed.out
    assert "error:" not in resumed.err
    run_id = state["run_id"]
    assert cli("resume", "--user", user, "--run", run_id).code == 3


@pytest.mark.slow
def test_restart_is_announced_in_the_conversations_language(cli) -> None:
    ran = cli("chat", "--user", "r8", stdin="Un cadeau pour mon père\n/restart\n")
    assert "Nouvelle recherche de cadeau" in ran.err


@pytest.mark.slow
def test_unknown_commands_are_answered_in_the_conversations_language(cli) -> None:
    ran = cli("chat", "--user", "r9", stdin="Un cadeau pour ma mère\n/bogus\n")
    assert "Commande inconnue : /bogus." in ran.err and "/restart" in ran.err


@pytest.mark.slow
def test_the_recap_is_resumes_result_on_stdout_not_a_diagnostic(cli) -> None:
    cli("chat", "--user", "r10", stdin=EN_SETUP)
    back = cli("resume", "--user", "r10", stdin="")
    assert "Welcome back!" in back.out and "Which one would you like?" in back.out
    assert "Welcome back" not in back.err and "Which one" not in back.err
