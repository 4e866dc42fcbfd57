"""The gift history as a person meets it: a gift confirmed for their mother in December is
recalled in May, left out of the new shortlist, and the reply says so; ``giftgenius
history`` lists it; ``forget`` erases it. The real chat loop on the embedded defaults and
the offline model, with the clock stated months apart (GIFTGENIUS_TODAY), in English and
in French."""

from __future__ import annotations

import pytest

from giftgenius.catalog import load_products

DECEMBER = "2026-12-01"
MAY = "2027-05-10"  # five months on: the same person comes back for the same mother

ENGLISH = {
    "first": ["a gift for my mum, she loves coffee, budget 60 euros", "1", "yes"],
    "again": "a gift for my mum, she loves coffee, budget 60 euros",
    "recalled": "You gave your mum {title} in December 2026, so I left it out.",
    "env": "C.UTF-8",
    "listed": "December 1, 2026  {title} (£24), for your mum",
}
FRENCH = {
    "first": ["un cadeau pour ma mère, elle adore le café, budget 60 euros", "le premier", "oui"],
    # another word for the same mother: "maman" is "ma mère"
    "again": "un cadeau pour maman, elle adore le café, budget 60 euros",
    "recalled": "Vous avez offert à votre maman {title} en décembre 2026 : je l'ai donc laissé "
    "de côté.",
    "env": "fr_FR.UTF-8",
    "listed": "1er décembre 2026  {title} (24\xa0£GB), pour votre mère",  # babel: no-break space
}


def _chat(cli, monkeypatch, day: str, user: str, lines: list[str]):
    monkeypatch.setenv("GIFTGENIUS_TODAY", day)
    ran = cli("chat", "--user", user, stdin="\n".join(lines) + "\n")
    assert ran.code == 0, ran.err
    return ran


def _state(cli, user: str) -> dict:
    return cli("state", "--user", user, "--json").json()["state"]


@pytest.mark.slow
@pytest.mark.parametrize("talk", [ENGLISH, FRENCH], ids=["en", "fr"])
def test_a_gift_given_in_december_is_recalled_and_left_out_in_may(
    cli, monkeypatch, seeded_home, talk
) -> None:
    first = _chat(cli, monkeypatch, DECEMBER, "me", talk["first"])
    given = _state(cli, "me")
    assert given["step"] == "done", first.out
    gift_id = given["selected_gift_id"]
    title = {p.id: p.title for p in load_products()}[gift_id]
    assert "You gave" not in first.out and "Vous avez offert" not in first.out

    again = _chat(cli, monkeypatch, MAY, "me", [talk["again"]])
    assert talk["recalled"].format(title=title) in again.out, again.out
    later = _state(cli, "me")
    assert later["step"] == "finalizing" and later["candidate_ids"], again.out
    assert gift_id not in later["candidate_ids"]  # never offered again to the same mother
    assert title not in again.out.split(talk["recalled"].format(title=title))[1]

    # the history, in the environment's language, as text and as JSON
    monkeypatch.setenv("LANG", talk["env"])
    listed = cli("history", "--user", "me")
    assert listed.code == 0 and listed.out.strip() == talk["listed"].format(title=title)
    document = cli("history", "--user", "me", "--recipient", "my mother", "--json").json()
    assert [(g["gift_id"], g["title"], g["currency"]) for g in document["gifts"]] == [
        (gift_id, title, "GBP")
    ]
    assert document["gifts"][0]["confirmed_at"].startswith(DECEMBER)
    none = cli("history", "--user", "me", "--recipient", "sister", "--json").json()
    assert none["gifts"] == []


@pytest.mark.slow
def test_another_recipient_is_offered_what_mum_was_given(cli, monkeypatch, seeded_home) -> None:
    _chat(cli, monkeypatch, DECEMBER, "me", ENGLISH["first"])
    gift_id = _state(cli, "me")["selected_gift_id"]
    again = _chat(
        cli, monkeypatch, MAY, "me", ["a gift for my sister, she loves coffee, budget 60 euros"]
    )
    assert "You gave" not in again.out
    assert gift_id in _state(cli, "me")["candidate_ids"]


@pytest.mark.slow
def test_forget_erases_the_gift_history(cli, monkeypatch, seeded_home) -> None:
    _chat(cli, monkeypatch, DECEMBER, "me", ENGLISH["first"])
    assert len(cli("history", "--user", "me", "--json").json()["gifts"]) == 1
    erased = cli("forget", "--user", "me")
    assert erased.code == 0 and "1 gift in the history" in erased.out, erased.out
    assert cli("history", "--user", "me").out.strip() == "No gift is recorded for user me."
    again = _chat(cli, monkeypatch, MAY, "me", [ENGLISH["again"]])
    assert "You gave" not in again.out  # nothing left to recall


@pytest.mark.slow
def test_prune_keeps_the_gift_history(cli, monkeypatch, seeded_home) -> None:
    _chat(cli, monkeypatch, DECEMBER, "me", ENGLISH["first"])
    pruned = cli("prune", "--older-than", "0d", "--yes")
    assert pruned.code == 0, pruned.err
    assert len(cli("history", "--user", "me", "--json").json()["gifts"]) == 1


CHEAPER = {
    "en": ("same as last time for my mum but cheaper", "I started from your search of "
           "December 1, 2026 for your mum, when you chose **{title}** (£24)."),
    "fr": ("comme la dernière fois pour maman, mais moins cher", "Je suis reparti de votre "
           "recherche du 1er décembre 2026 pour votre maman, où vous aviez choisi **{title}** "
           "(24\xa0£GB)."),
}  # fmt: skip


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_like_last_time_but_cheaper_starts_from_the_last_search(
    cli, monkeypatch, seeded_home, lang: str
) -> None:
    """No profile was saved: the notes of December's search give the recipient and her
    tastes, and its gift's price a lower budget; the reply says what it started from."""
    first = ENGLISH["first"] if lang == "en" else FRENCH["first"]
    _chat(cli, monkeypatch, DECEMBER, "me", first)
    given = _state(cli, "me")
    products = {p.id: p for p in load_products()}
    title = products[given["selected_gift_id"]].title
    line, said = CHEAPER[lang]
    again = _chat(cli, monkeypatch, MAY, "me", [line])
    assert said.format(title=title).replace("**", "") in again.out.replace("**", ""), again.out
    state = _state(cli, "me")
    profile = state["profile"]
    assert profile["interests"] == ["coffee"]
    assert profile["budget"]["currency"] == "EUR" and profile["budget"]["amount"] < 27.95
    assert state["step"] == "finalizing" and state["candidate_ids"]
    assert given["selected_gift_id"] not in state["candidate_ids"]


OFFER = {
    "en": (["a gift for my mum", "yes"], "Last time for your mum (December 2026): budget up to "
           "€60; likes coffee. Say yes to start from there."),
    "fr": (["un cadeau pour maman", "oui"], "La dernière fois pour votre maman (décembre 2026) : "
           "budget jusqu'à 60\xa0€ ; centres d'intérêt : café. Dites oui pour repartir de là."),
}  # fmt: skip


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_naming_someone_searched_for_before_offers_what_was_known(
    cli, monkeypatch, seeded_home, lang: str
) -> None:
    """ "For my mum" alone, months later: what December's search knew is offered, and a yes
    takes it — the earlier gift still left out."""
    _chat(cli, monkeypatch, DECEMBER, "me", ENGLISH["first"] if lang == "en" else FRENCH["first"])
    given = _state(cli, "me")["selected_gift_id"]
    (first, yes), offer = OFFER[lang]
    asked = _chat(cli, monkeypatch, MAY, "me", [first])
    assert offer in asked.out, asked.out
    assert _state(cli, "me")["step"] == "collecting_profile"
    _chat(cli, monkeypatch, MAY, "me", [yes])
    state = _state(cli, "me")
    assert (
        state["profile"]["interests"] == ["coffee"] and state["profile"]["budget"]["amount"] == 60
    )
    assert state["step"] == "finalizing" and given not in state["candidate_ids"]
