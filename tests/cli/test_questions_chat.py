"""Questions about the list in a whole chat, on the offline model: each is answered from
the gifts' own records — what they are, when they arrive — and changes nothing; a pick and
a yes afterwards still choose and confirm."""

from __future__ import annotations

import datetime as dt

import pytest

from giftgenius import formats
from giftgenius.catalog import Product, load_products

TODAY = dt.date(2026, 12, 1)  # tests/conftest.py pins GIFTGENIUS_TODAY


def _state(cli) -> dict:
    shown = cli("state", "--user", "q1", "--json")
    assert shown.code == 0, shown.err
    return shown.json()["state"]


def _listed(state: dict) -> list[Product]:
    products = {p.id: p for p in load_products()}
    return [products[i] for i in state["candidate_ids"]]


def _arrives(product: Product, locale: str) -> str:
    return formats.date(TODAY + dt.timedelta(days=product.delivery_days), locale)


def _chat(cli, command: str, *lines: str) -> str:
    ran = cli(command, "--user", "q1", stdin="\n".join([*lines, "/quit"]) + "\n")
    assert ran.code == 0, ran.err
    assert "Traceback" not in ran.out + ran.err
    return ran.out


@pytest.mark.slow
@pytest.mark.usefixtures("seeded_home")
def test_questions_are_answered_and_change_nothing_then_a_pick_and_a_yes_work(cli) -> None:
    shown = _chat(
        cli,
        "chat",
        "gift for my sister, 30, she loves hiking, budget 60 euros, it must arrive by December 20",
        "the third one",
    )
    assert "1. " in shown and "Good choice" in shown
    before = _state(cli)
    listed = _listed(before)
    assert before["step"] == "finalizing" and before["selected_gift_id"] == listed[2].id
    assert before["profile"]["deadline"] == "2026-12-20"

    # "it" is the gift picked; the date asked about is no new deadline
    answer = _chat(cli, "resume", "will it arrive before December 15?")
    verdict = "Yes" if TODAY.day + listed[2].delivery_days < 15 else "No"
    assert f"{verdict}: 3. {listed[2].title}" in answer  # piped: plain text
    assert _arrives(listed[2], "en") in answer and "December 14, 2026" in answer
    assert _state(cli) == before  # same step, same selected gift, same deadline

    # two gifts compared: what each is, when each arrives; nothing selected instead
    answer = _chat(cli, "resume", "What's the difference between the first and the second one?")
    for product in listed[:2]:
        assert product.description in answer and _arrives(product, "en") in answer
    assert listed[2].description not in answer
    assert _state(cli) == before

    # the same in French, and "tell me more" about one
    answer = _chat(cli, "resume", "c'est quoi la différence entre le 1 et le 2 ?")
    assert all(_arrives(p, "fr") in answer for p in listed[:2])
    assert "moins cher" in answer
    answer = _chat(cli, "resume", "tell me more about the fourth")
    assert listed[3].description in answer
    state = _state(cli)
    assert (state["step"], state["selected_gift_id"], state["profile"]["deadline"]) == (
        before["step"],
        before["selected_gift_id"],
        before["profile"]["deadline"],
    )

    # then choosing still works
    done = _chat(cli, "resume", "ok the second one", "yes")
    assert listed[1].title in done
    final = _state(cli)
    assert final["step"] == "done" and final["selected_gift_id"] == listed[1].id
    assert final["profile"]["deadline"] == "2026-12-20"


@pytest.mark.usefixtures("seeded_home")
@pytest.mark.parametrize(
    ("opening", "question", "pick"),
    [
        (
            "gift for my sister in Boston, she loves tea, 40 dollars",
            "tell me more about the third",
            "great, I'll take it",
        ),
        (
            "gift for my sister in Boston, she loves tea, 40 dollars",
            "what is the third one exactly?",
            "ok that one then",
        ),
        (
            "un cadeau pour ma sœur, elle adore le thé, 40 euros, elle vit à Lyon",
            "dis-m'en plus sur le troisième",
            "parfait, je le prends",
        ),
    ],
)
@pytest.mark.slow
def test_a_pick_with_no_number_takes_the_gift_just_asked_about(
    cli, opening: str, question: str, pick: str
) -> None:
    _chat(cli, "chat", opening)
    listed = _listed(_state(cli))
    _chat(cli, "resume", question)
    assert _state(cli)["selected_gift_id"] is None  # the question chose nothing
    _chat(cli, "resume", pick)
    assert _state(cli)["selected_gift_id"] == listed[2].id


@pytest.mark.slow
@pytest.mark.usefixtures("seeded_home")
def test_a_pick_with_no_number_and_nothing_asked_about_chooses_nothing(cli) -> None:
    _chat(cli, "chat", "gift for my sister in Boston, she loves tea, 40 dollars")
    _chat(cli, "resume", "I'll take it")  # which one? nothing was talked about yet
    assert _state(cli)["selected_gift_id"] is None
