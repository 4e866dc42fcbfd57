"""update_profile accepts what any model sends: the recipient in the person's words, a place
instead of an ISO code, a budget in any currency of the catalog's table — in English and
French — and says what it understood. Every call goes through ``tools.execute``, as a model's.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from giftgenius.agent.tools import TurnContext, execute
from giftgenius.catalog import load_rates, price_in
from giftgenius.domain import Budget, CheckpointStep, Step, utcnow
from giftgenius.storage.tables import RecipientProfileRow


def call(ctx: TurnContext, name: str, **args: object) -> dict[str, Any]:
    return execute(ctx, name, json.dumps(args))


def french(ctx: TurnContext) -> TurnContext:
    ctx.state.locale = "fr"
    return ctx


# -- who the gift is for --------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(
    ("locale", "said", "recipient", "name", "audience"),
    [
        ("en", "my uncle Dave", "uncle", "Dave", "anyone"),
        ("en", "Karen, my boss", "boss", "Karen", "boss"),
        ("en", "my wife's sister", "wife's sister", None, "sister"),
        ("en", "colleague", "colleague", None, "colleague"),
        ("fr", "votre marraine", "marraine", None, "anyone"),
        ("fr", "mon oncle Dave", "oncle", "Dave", "anyone"),
        ("fr", "ma belle-mère", "belle-mère", None, "mother"),
        ("fr", "ma coloc", "coloc", None, "friend"),
        ("fr", "ma nièce Léa", "nièce", "Léa", "child"),
    ],
)
def test_the_recipient_is_kept_as_said_with_name_and_audience(
    make_ctx, locale: str, said: str, recipient: str, name: str | None, audience: str
) -> None:
    ctx = make_ctx()
    ctx.state.locale = locale
    result = call(ctx, "update_profile", recipient=said)
    assert result["ok"], result
    profile = ctx.state.profile
    assert (profile.recipient, profile.recipient_name, profile.audience) == (
        recipient,
        name,
        audience,
    )
    understood = result["understood"]["recipient"]
    assert understood == {
        "recipient": recipient,
        "recipient_name": name,
        "audience": audience,
        "relation_known": True,
    }
    # The state the model sees says it too, and the recipient is no longer missing.
    seen = result["state"]["profile"]
    assert (seen["recipient"], seen["audience"]) == (recipient, audience)
    assert "recipient" not in result["missing"]


@pytest.mark.parametrize(
    ("locale", "said", "recipient", "known"),
    [
        ("en", "my plumber", "plumber", False),  # not in the lexicon
        ("en", "someone special", "someone special", False),  # no relation word at all
        ("en", "my hairdresser", "hairdresser", True),  # in it, telling no age or tastes
        ("fr", "ma fleuriste", "fleuriste", False),
        ("fr", "quelqu'un de spécial", "quelqu'un de spécial", False),
        ("fr", "mon dentiste préféré", "dentiste", True),
    ],
)
def test_a_relation_that_tells_nothing_is_kept_as_said_for_anyone(
    make_ctx, locale: str, said: str, recipient: str, known: bool
) -> None:
    ctx = make_ctx()
    ctx.state.locale = locale
    result = call(ctx, "update_profile", recipient=said)
    assert result["ok"], result
    assert ctx.state.profile.recipient == recipient
    assert ctx.state.profile.audience == "anyone"
    assert result["understood"]["recipient"]["relation_known"] is known
    assert result["missing"] == ["budget", "interests"]


def test_a_name_alone_names_the_recipient_already_described(make_ctx) -> None:
    ctx = make_ctx()
    assert call(ctx, "update_profile", recipient="my boss")["ok"]
    named = call(ctx, "update_profile", recipient="Karen")
    assert named["ok"] and named["understood"]["recipient"]["relation_known"] is True
    profile = ctx.state.profile
    assert (profile.recipient, profile.recipient_name, profile.audience) == (
        "boss",
        "Karen",
        "boss",
    )
    # Another name is another person, known by name only.
    assert call(ctx, "update_profile", recipient="Marco")["ok"]
    profile = ctx.state.profile
    assert (profile.recipient, profile.recipient_name, profile.audience) == (
        "Marco",
        "Marco",
        "anyone",
    )


def test_french_name_alone_then_relation(make_ctx) -> None:
    ctx = french(make_ctx())
    assert call(ctx, "update_profile", recipient="Léa")["ok"]
    assert (ctx.state.profile.recipient, ctx.state.profile.audience) == ("Léa", "anyone")
    assert call(ctx, "update_profile", recipient="ma filleule Léa")["ok"]
    profile = ctx.state.profile
    assert (profile.recipient, profile.recipient_name, profile.audience) == (
        "filleule",
        "Léa",
        "child",
    )


def test_pii_in_the_recipient_never_reaches_the_state(make_ctx) -> None:
    ctx = make_ctx()
    result = call(
        ctx, "update_profile", recipient="my uncle Dave, dave.smith@example.com, +1 416 555 0199"
    )
    assert result["ok"]
    dumped = ctx.state.model_dump_json() + json.dumps(result)
    assert "example.com" not in dumped and "555" not in dumped
    assert (ctx.state.profile.recipient, ctx.state.profile.recipient_name) == ("uncle", "Dave")


def test_a_blank_recipient_is_a_tool_error(make_ctx) -> None:
    ctx = make_ctx()
    before = ctx.state.model_copy(deep=True)
    result = call(ctx, "update_profile", recipient="   ")
    assert result["ok"] is False and result["error"] == "Who is the gift for?"
    assert ctx.state == before


# -- where it goes --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("locale", "place", "code", "name"),
    [
        ("en", "Toronto", "CA", "Canada"),
        ("en", "Munich", "DE", "Germany"),
        ("en", "Texas", "US", "United States"),
        ("en", "UK", "GB", "United Kingdom"),
        ("en", "CA", "CA", "Canada"),  # an ISO code stays a code
        ("fr", "la Belgique", "BE", "Belgique"),
        ("fr", "Lausanne", "CH", "Suisse"),
        ("fr", "Montréal", "CA", "Canada"),
        ("fr", "12 rue de la Paix, Paris", "FR", "France"),  # the street is scrubbed, not the city
    ],
)
def test_a_place_name_or_code_becomes_the_iso_country(
    make_ctx, locale: str, place: str, code: str, name: str
) -> None:
    ctx = make_ctx()
    ctx.state.locale = locale
    result = call(ctx, "update_profile", country=place)
    assert result["ok"], result
    assert ctx.state.profile.country == code
    assert result["understood"]["country"] == {"code": code, "name": name}
    assert result["state"]["profile"]["country"] == code
    assert "rue de la Paix" not in json.dumps(result)


@pytest.mark.parametrize(("locale", "place"), [("en", "Narnia"), ("fr", "au pays des merveilles")])
def test_a_place_that_cannot_be_resolved_asks_which_country(make_ctx, locale, place) -> None:
    ctx = make_ctx()
    ctx.state.locale = locale
    assert call(ctx, "update_profile", country="FR")["ok"]
    before = ctx.state.model_copy(deep=True)
    result = call(ctx, "update_profile", country=place, budget_max=40)
    assert result["ok"] is False
    assert place.split()[-1] in result["error"]
    assert ("Which country" if locale == "en" else "Dans quel pays") in result["error"]
    assert ctx.state == before  # the whole call is refused, the budget too


# -- which currency -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("locale", "word", "code"),
    [
        ("en", "CHF", "CHF"),
        ("en", "CAD", "CAD"),
        ("en", "cad", "CAD"),
        ("en", "Swiss francs", "CHF"),
        ("en", "Canadian dollars", "CAD"),
        ("en", "quid", "GBP"),
        ("fr", "francs suisses", "CHF"),
        ("fr", "piasses", "CAD"),
        ("fr", "dollars canadiens", "CAD"),
        ("fr", "euros", "EUR"),
    ],
)
def test_budget_currency_as_code_or_word(make_ctx, locale: str, word: str, code: str) -> None:
    ctx = make_ctx()
    ctx.state.locale = locale
    result = call(ctx, "update_profile", budget_max=60, currency=word)
    assert result["ok"], result
    assert ctx.state.profile.budget == Budget(amount=60, currency=code)
    assert result["understood"]["currency"] == code


def test_a_currency_outside_the_table_or_unknown_is_refused_with_the_choices(make_ctx) -> None:
    ctx = make_ctx()
    before = ctx.state.model_copy(deep=True)
    yen = call(ctx, "update_profile", budget_max=5000, currency="JPY")
    assert yen["ok"] is False
    assert "compare prices in JPY" in yen["error"]
    assert all(code in yen["error"] for code in ("USD", "EUR", "GBP", "CHF", "CAD"))
    unknown = call(ctx, "update_profile", budget_max=50, currency="doubloons")
    assert unknown["ok"] is False and "the currency “doubloons”" in unknown["error"]
    assert ctx.state == before


def test_a_bare_dollar_is_the_conversation_currency(make_ctx) -> None:
    ctx = make_ctx()
    ctx.default_currency = "CAD"  # GIFTGENIUS_CURRENCY=CAD, e.g. in Québec
    assert call(ctx, "update_profile", budget_max=40, currency="$")["ok"]
    assert ctx.state.profile.budget == Budget(amount=40, currency="CAD")


@pytest.mark.parametrize(
    ("locale", "recipient", "place", "country", "currency", "interests"),
    [
        ("en", "my uncle Dave", "Toronto", "CA", "CAD", ["coffee", "board games"]),
        ("fr", "votre marraine", "Lausanne", "CH", "francs suisses", ["jardinage", "thé"]),
    ],
)
def test_the_filters_hold_and_convert_francs_and_canadian_dollars(
    make_ctx, locale, recipient, place, country, currency, interests
) -> None:
    ctx = make_ctx()
    ctx.state.locale = locale
    result = call(
        ctx,
        "update_profile",
        recipient=recipient,
        country=place,
        budget_max=45,
        currency=currency,
        interests=interests,
    )
    assert result["ok"] and result["missing"] == []
    code = ctx.state.profile.budget.currency
    assert code in ("CAD", "CHF")
    # The complete profile searched and filtered in the same call.
    assert result["found"] > 0 and result["shortlist"], result
    assert ctx.state.step == Step.finalizing and ctx.state.candidate_ids
    rates, products = load_rates(), ctx.products(ctx.state.candidate_ids)
    for gift_id in ctx.state.candidate_ids:
        product = products[gift_id]
        assert price_in(product, code, rates) <= 45
        assert product.ships_to_country(country)
    # Products keep their own currency; the view adds the price in the budget's.
    shown = ctx.candidate_view(products[ctx.state.candidate_ids[0]])
    assert shown.currency == products[shown.id].currency
    assert shown.price_in_budget_currency == price_in(products[shown.id], code, rates)


# -- what a change moves back ---------------------------------------------------------------


def test_a_new_name_keeps_the_search_a_new_audience_searches_again(make_ctx) -> None:
    ctx = make_ctx()
    assert call(ctx, "update_profile", recipient="my uncle", budget_max=50, interests=["coffee"])[
        "ok"
    ]
    shortlist = list(ctx.state.candidate_ids)
    assert ctx.state.step == Step.finalizing and shortlist
    pool = list(ctx.state.search_pool)
    renamed = call(ctx, "update_profile", recipient="my uncle Dave")
    assert renamed["ok"] and not {"found", "shortlist"} & set(renamed)  # no search, no filter
    assert ctx.state.step == Step.finalizing and ctx.state.candidate_ids == shortlist
    searches = [c.step for c in ctx.checkpoints].count(CheckpointStep.candidates_generated)
    child = call(ctx, "update_profile", recipient="my 8-year-old nephew")
    assert child["ok"] and ctx.state.profile.audience == "child"
    assert "found" in child and ctx.state.search_pool != pool  # searched again, for a child
    after = [c.step for c in ctx.checkpoints].count(CheckpointStep.candidates_generated)
    assert after == searches + 1


# -- saved profiles from before the audience ------------------------------------------------


def test_a_saved_profile_from_before_the_audience_loads_with_one(make_ctx) -> None:
    ctx = french(make_ctx())
    old = {
        "recipient": "coloc",
        "age": None,
        "budget": {"amount": 25.0, "currency": "EUR", "min_amount": None},
        "interests": ["board-game"],
        "dislikes": [],
        "country": None,
        "deadline": None,
    }
    with ctx.db.write() as repos:
        repos.session.add(
            RecipientProfileRow(
                id="p" * 32, user_id=ctx.user_id, label="julien", profile=old, updated_at=utcnow()
            )
        )
    loaded = call(ctx, "load_recipient_profile", label="Julien")
    assert loaded["ok"], loaded
    assert (ctx.state.profile.recipient, ctx.state.profile.audience) == ("coloc", "friend")
    assert "found" in loaded  # complete: searched (for a friend) at once
    assert ctx.state.step in (Step.filtering, Step.finalizing)
    listed = call(ctx, "list_recipient_profiles")
    assert listed["profiles"][0]["profile"]["audience"] == "friend"


def test_a_saved_profile_keeps_the_name_and_audience(make_ctx) -> None:
    ctx = make_ctx()
    assert call(
        ctx, "update_profile", recipient="Karen, my boss", budget_max=30, interests=["tea"]
    )["ok"]
    assert call(ctx, "save_recipient_profile", label="Karen")["ok"]
    for stage in ctx.staged:
        with ctx.db.write() as repos:
            stage(repos)
    other = make_ctx(run_id="run-alice-2")
    assert call(other, "load_recipient_profile", label="karen")["ok"]
    profile = other.state.profile
    assert (profile.recipient, profile.recipient_name, profile.audience) == (
        "boss",
        "Karen",
        "boss",
    )
