"""Whole tool loops through the real openai client and the offline transport.

The tools are hand-written stand-ins that answer in the protocol's result shape, so these
tests pin the offline model's behaviour without needing the agent.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from typing import Any

import httpx2
import openai
import pytest

from giftgenius.agent.tools import tool_specs
from giftgenius.catalog import describe
from giftgenius.llm.base import ChatRequest
from giftgenius.llm.openai_chat import OpenAIChatModel
from giftgenius.offline.engine import OfflineEngine
from giftgenius.offline.transport import OfflineTransport
from giftgenius.protocol import STATE_BLOCK_PREFIX, with_state
from giftgenius.tokens import TokenCounter

TODAY = "2026-11-29"
SEARCH_FACTS = ("recipient", "age", "interests")  # a change searches again; others refilter
CATALOG = [
    {"id": "g-1", "title": "Azul tile game", "price": 39.9, "currency": "EUR",
     "price_in_budget_currency": 43.37, "delivery_days": 3, "why": "matches: board games",
     "tags": ["board-game"]},
    {"id": "g-2", "title": "Meeple coffee mug", "price": 14.0, "currency": "USD",
     "delivery_days": 2, "why": "matches: coffee", "tags": ["mug", "coffee"]},
    {"id": "g-3", "title": "Ethiopian coffee sampler", "price": 25.0, "currency": "USD",
     "delivery_days": 5, "why": "matches: coffee", "tags": ["coffee"]},
]  # fmt: skip


def make_model() -> OpenAIChatModel:
    engine = OfflineEngine(context_window=16384)
    client = openai.OpenAI(
        api_key="offline",
        base_url="http://offline.giftgenius.invalid/v1",
        http_client=httpx2.Client(transport=OfflineTransport(engine)),
        max_retries=0,
    )
    return OpenAIChatModel(client, "offline")


class FakeTools:
    """Just enough of the tools' behaviour to answer in their result shape."""

    def __init__(self) -> None:
        self.state: dict[str, Any] = {
            "step": "collecting_profile",
            "profile": {"interests": [], "dislikes": []},
            "candidate_ids": [],
            "selected_gift_id": None,
            "locale": "en",
        }
        self.saved: dict[str, dict[str, Any]] = {}
        self.memories: list[dict[str, Any]] = []  # what recall_memories finds, newest first
        self.fail: dict[str, dict[str, Any]] = {}

    def view(self) -> dict[str, Any]:
        profile = self.state["profile"]
        missing = [k for k in ("recipient", "budget") if not profile.get(k)]
        missing += [] if profile.get("interests") else ["interests"]
        return {**self.state, "missing": missing, "today": TODAY}

    def ok(self, **data: Any) -> dict[str, Any]:
        return {"ok": True, **data, "state": self.view()}

    def run(self, name: str, args: dict[str, Any]) -> dict[str, Any]:
        if name in self.fail:
            return {"ok": False, **self.fail[name]}
        return getattr(self, name)(**args)

    def update_profile(self, **args: Any) -> dict[str, Any]:
        profile = self.state["profile"]
        before = json.dumps(profile, sort_keys=True)
        for key in ("recipient", "age", "country", "deadline"):
            if key in args:
                profile[key] = args[key]
        if "budget_max" in args:
            currency = args.get("currency") or (profile.get("budget") or {}).get("currency", "USD")
            profile["budget"] = {"amount": args["budget_max"], "currency": currency}
        for key in ("interests", "dislikes"):
            profile[key] = [v for v in profile[key] if v not in args.get(f"remove_{key}", [])]
            profile[key] += [v for v in args.get(key, []) if v not in profile[key]]
        changed = json.dumps(profile, sort_keys=True) != before
        searched = any(json.loads(before).get(k) != profile.get(k) for k in SEARCH_FACTS)
        found: dict[str, Any] = {}
        if not self.view()["missing"]:
            # As the real tool: a complete profile searches and filters at once; a change
            # of a filter fact only re-runs the filters.
            if self.state["step"] == "collecting_profile" or searched:
                found = self.find()
            elif changed:
                found = self.refilter()
        if "recipient" in args and self.view()["missing"] and self.memories:
            found["known_before"] = self.memories[0]  # as the tool: the newest note offered
        return self.ok(changed=changed, missing=self.view()["missing"], **found)

    def recall_memories(self, about: str | None, recipient: str | None) -> dict[str, Any]:
        return self.ok(memories=self.memories)

    def search_candidates(self, **args: Any) -> dict[str, Any]:
        return self.ok(**self.find())

    def find(self) -> dict[str, Any]:
        self.state.update(step="filtering", selected_gift_id=None)
        return {"found": len(CATALOG), **self.refilter()}

    def refilter(self) -> dict[str, Any]:
        self.state["selected_gift_id"] = None
        profile = self.state["profile"]
        budget = profile["budget"]["amount"]
        passing = [
            c for c in CATALOG
            if c["price"] <= budget and not set(c["tags"]) & set(profile["dislikes"])
        ]  # fmt: skip
        self.state["candidate_ids"] = [c["id"] for c in passing]
        if passing:
            self.state["step"] = "finalizing"
            shown = [self._view(c) for c in passing]
            return {"shortlist": shown, "rejected": {"over budget": 1}, "unserved": []}
        over = sorted(c["price"] for c in CATALOG if c["price"] > budget)
        relax = [
            {"constraint": "budget", "would_pass": 1, "budget_max": over[0],
             "currency": profile["budget"]["currency"]}
        ] if over else []  # fmt: skip
        self.state["step"] = "filtering"
        return {"shortlist": [], "rejected": {"over budget": len(over)}, "unserved": [],
                "relax": relax, "hint": "Nothing passes."}  # fmt: skip

    def select_gift(self, gift_id: str) -> dict[str, Any]:
        assert gift_id in self.state["candidate_ids"]
        self.state["selected_gift_id"] = gift_id
        gift = next(c for c in CATALOG if c["id"] == gift_id)
        return self.ok(selected=self._view(gift))

    def confirm_choice(self) -> dict[str, Any]:
        assert self.state["step"] == "finalizing" and self.state["selected_gift_id"]
        self.state.update(step="done", order_draft_id="d-1")
        gift = next(c for c in CATALOG if c["id"] == self.state["selected_gift_id"])
        return self.ok(order_draft_id="d-1", gift=self._view(gift))

    def list_recipient_profiles(self) -> dict[str, Any]:
        return self.ok(profiles=[{"label": k, "profile": v} for k, v in self.saved.items()])

    def save_recipient_profile(self, label: str) -> dict[str, Any]:
        self.saved[label] = json.loads(json.dumps(self.state["profile"]))
        return self.ok(saved_label=label)

    def load_recipient_profile(self, label: str) -> dict[str, Any]:
        self.state["profile"] = json.loads(json.dumps(self.saved[label]))
        found = {} if self.view()["missing"] else self.find()
        return self.ok(loaded_label=label, missing=self.view()["missing"], **found)

    @staticmethod
    def _view(c: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in c.items() if k != "tags"}


class Chat:
    """Sends user turns the way the agent does and runs the tool loop to the reply."""

    def __init__(self, keep_history: bool = True) -> None:
        self.model = make_model()
        self.tools = FakeTools()
        self.history: list[dict[str, Any]] = []
        self.keep_history = keep_history
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self.streamed: list[str] = []

    def say(self, text: str) -> str:
        self.calls = []
        head = [{"role": "system", "content": "You are GiftGenius."}]
        block = STATE_BLOCK_PREFIX + json.dumps(self.tools.view())
        turn: list[dict[str, Any]] = [{"role": "user", "content": with_state(text, block)}]
        for _ in range(8):
            history = self.history if self.keep_history else []
            request = ChatRequest(messages=[*head, *history, *turn], tools=tool_specs())
            response = self.model.complete(request, on_text=self.streamed.append)
            turn.append(response.message.to_openai())
            if not response.message.tool_calls:
                self.history += turn
                return response.message.content or ""
            for call in response.message.tool_calls:
                assert re.fullmatch(r"call_[A-Za-z0-9]{24}", call.id)
                args = json.loads(call.arguments)
                self.calls.append((call.name, args))
                result = self.tools.run(call.name, args)
                turn.append(
                    {"role": "tool", "tool_call_id": call.id, "content": json.dumps(result)}
                )
        raise AssertionError(f"no reply after 8 rounds: {self.calls}")

    def names(self) -> list[str]:
        return [name for name, _ in self.calls]


def test_seed_example_in_french() -> None:
    chat = Chat()
    reply = chat.say(
        "J'ai besoin d'un cadeau pour un collègue développeur, budget jusqu'à 50 $, il aime "
        "les jeux de société et la caféine"
    )
    assert chat.names() == ["update_profile"]  # it searches and filters by itself
    facts = chat.calls[0][1]
    assert facts["recipient"] == "collègue" and facts["budget_max"] == 50
    assert "1. **Azul tile game**" in reply and "Meeple coffee mug" in reply
    assert "Lequel" in reply

    reply = chat.say("Il déteste les mugs et a déjà trop de carnets")
    assert chat.calls == [("update_profile", {"dislikes": ["mug", "notebook"]})]  # refilters
    assert "Meeple coffee mug" not in reply
    assert "2. **Ethiopian coffee sampler**" in reply

    reply = chat.say("Je prends le premier")
    assert chat.calls == [("select_gift", {"gift_id": "g-1"})]
    assert "Azul tile game" in reply and "confirme" in reply

    reply = chat.say("Oui, c'est parfait, valide")
    assert chat.names() == ["confirm_choice"]
    assert "brouillon de commande" in reply
    assert chat.tools.state["step"] == "done"


def test_choose_and_confirm_in_one_message() -> None:
    chat = Chat()
    chat.say("A gift for my brother, budget 50 USD, he loves coffee")
    reply = chat.say("I'll take the second one, confirm it")
    assert chat.calls == [("select_gift", {"gift_id": "g-2"}), ("confirm_choice", {})]
    assert "Meeple coffee mug" in reply and "confirmed" in reply


def test_asks_only_for_what_is_missing() -> None:
    chat = Chat()
    reply = chat.say("Hi! I'm looking for a birthday present for my sister, she's 34.")
    assert chat.names() == ["update_profile"]
    assert "budget" in reply and "enjoy" in reply
    assert "who the gift is for" not in reply
    assert "?" in reply


def test_nothing_understood_asks_for_the_missing_facts() -> None:
    chat = Chat()
    reply = chat.say("hmm")
    assert chat.calls == []
    assert "who the gift is for" in reply and "budget" in reply


def test_works_without_history() -> None:
    chat = Chat(keep_history=False)
    chat.say("Gift for my friend, 50 $, loves board games")
    reply = chat.say("the last one")
    assert chat.calls == [("select_gift", {"gift_id": "g-3"})]
    assert "Ethiopian coffee sampler" in reply


def test_same_friend_as_last_time_with_a_new_budget() -> None:
    chat = Chat()
    chat.tools.saved["sam"] = {
        "recipient": "friend",
        "budget": {"amount": 20, "currency": "USD"},
        "interests": ["coffee"],
        "dislikes": [],
    }
    reply = chat.say("Same friend as last time, but a bigger budget: 80 dollars")
    assert chat.names() == [
        "list_recipient_profiles",
        "load_recipient_profile",
        "update_profile",
    ]
    assert chat.calls[1] == ("load_recipient_profile", {"label": "sam"})
    assert chat.calls[2][1] == {"budget_max": 80, "currency": "USD"}
    assert "sam" in reply and "1. **" in reply


def test_unknown_saved_profile_is_explained() -> None:
    chat = Chat()
    reply = chat.say("comme la dernière fois pour ma sœur")
    # no profile kept, no notes either: what the message says is recorded, and it is said
    assert chat.names() == ["list_recipient_profiles", "recall_memories", "update_profile"]
    assert "aucune note d'une recherche précédente" in reply.lower()
    assert "sœur" in chat.tools.state["profile"]["recipient"]


MUM_IN_DECEMBER = {
    "note": "Gift search for mum on December 1, 2026. Likes: coffee. Budget: up to €60.",
    "recipient": "mum",
    "facts": {
        "recipient": "mum",
        "interests": ["coffee"],
        "budget_max": 60.0,
        "currency": "EUR",
        "chosen": {
            "title": "Three-Origin Coffee Tasting Flight",
            "price": 24.0,
            "currency": "GBP",
            "price_in_budget_currency": 27.95,
            "given_on": "2026-12-01",
        },
    },
}


@pytest.mark.parametrize(
    ("line", "budget"),
    [
        ("same as last time for my mum but cheaper", 22.0),  # 80 % of the €27.95 paid
        ("like last year for mum, a bit less expensive", 22.0),
        ("comme la dernière fois pour maman mais moins cher", 22.0),
        ("pareil que l'an dernier pour ma mère, en plus abordable", 22.0),
        ("same as last time for mum", 60.0),  # no saved profile: the notes' facts, as they were
        ("comme la dernière fois pour maman, mais elle adore le thé maintenant", 60.0),
    ],
)
def test_an_earlier_search_is_recalled_and_searched_again(line: str, budget: float) -> None:
    chat = Chat()
    chat.tools.memories = [MUM_IN_DECEMBER]
    reply = chat.say(line)
    assert "recall_memories" in chat.names() and chat.names()[-1] == "update_profile"
    profile = chat.tools.state["profile"]
    assert profile["budget"] == {"amount": budget, "currency": "EUR"}
    assert "coffee" in profile["interests"]
    assert "Three-Origin Coffee Tasting Flight" in reply  # what it started from is said
    assert "last" not in profile["interests"] and "dernière" not in str(profile)


def test_save_profile() -> None:
    chat = Chat()
    chat.say("Gift for my sister, 60 euros, she loves hiking")
    reply = chat.say("save this profile as sister")
    assert chat.calls == [("save_recipient_profile", {"label": "sister"})]
    assert '"sister"' in reply


def test_leaving_says_progress_is_saved() -> None:
    chat = Chat()
    reply = chat.say("je reviendrai plus tard")
    assert chat.calls == []
    assert "enregistrée" in reply


def test_no_candidate_offers_a_higher_budget_and_a_yes_applies_it() -> None:
    chat = Chat()
    reply = chat.say("A gift for my boss, max 5 USD, loves coffee")
    assert chat.names() == ["update_profile"]  # its result is the dead end
    assert "With a budget of $14, 1 idea would fit." in reply and "go up to $14" in reply
    reply = chat.say("ok, do that")
    assert chat.calls[:2] == [("search_candidates", {}), ("update_profile", {"budget_max": 14.0})]
    assert chat.tools.state["step"] == "finalizing" and "Meeple coffee mug" in reply


def test_after_a_dead_end_a_relaxing_answer_in_french_moves_on() -> None:
    chat = Chat()
    reply = chat.say("Un cadeau pour mon chef, 5 dollars max, il adore le café")
    assert "Avec un budget de 14" in reply and "1 idée conviendrait" in reply
    chat.say("d'accord, jusqu'à 30 dollars")
    assert ("update_profile", {"budget_max": 30.0, "currency": "USD"}) in chat.calls
    assert chat.tools.state["step"] == "finalizing"


def test_after_a_dead_end_anything_else_says_the_dead_end_again() -> None:
    chat = Chat()
    chat.say("A gift for my boss, max 5 USD, loves coffee")
    reply = chat.say("the first one!")
    assert chat.names() == ["search_candidates"]  # the dead end again, from the tools
    assert "With a budget of $14" in reply


@pytest.mark.parametrize(
    ("first", "pick", "said"),
    [
        ("Gift for my friend, 50 $, loves board games", "the first one", "out of stock"),
        ("Un cadeau pour mon ami, 50 $, il adore les jeux de société", "le premier",
         "en rupture de stock"),
    ],
)  # fmt: skip
def test_a_tool_error_is_explained_in_the_persons_language(
    first: str, pick: str, said: str
) -> None:
    chat = Chat()
    chat.say(first)
    chat.tools.fail["select_gift"] = {
        "error": "'Azul tile game' no longer passes the filters: out of stock.",
        "code": "gift.fails_filters",
        "params": {"title": "Azul tile game", "reasons": ["out of stock"]},
    }
    reply = chat.say(pick)
    assert said in reply and "no longer passes" not in reply


def test_streamed_text_reassembles_to_the_reply() -> None:
    chat = Chat()
    reply = chat.say("hello, I need a gift")
    assert "".join(chat.streamed) == reply
    assert len(chat.streamed) > 3  # really streamed in pieces


def test_raw_sse_has_usage_and_done() -> None:
    engine = OfflineEngine(context_window=16384)
    http = httpx2.Client(transport=OfflineTransport(engine))
    body = {
        "model": "offline",
        "messages": [{"role": "user", "content": "hi"}],
        "stream": True,
        "stream_options": {"include_usage": True},
    }
    response = http.post(
        "http://offline.giftgenius.invalid/v1/chat/completions",
        json=body,
        headers={"Authorization": "Bearer offline"},
    )
    events = [line[6:] for line in response.text.split("\n\n") if line.startswith("data: ")]
    assert events[-1] == "[DONE]"
    usage = json.loads(events[-2])
    assert usage["choices"] == [] and usage["usage"]["prompt_tokens"] > 0
    assert json.loads(events[-3])["choices"][0]["finish_reason"] == "stop"


def test_tool_choice_none_gives_text() -> None:
    model = make_model()
    request = [{"role": "user", "content": "Gift for my dad, 50 €, loves tea"}]
    reply = model.client.chat.completions.create(
        model="offline", messages=request, tools=tool_specs(), tool_choice="none"
    )
    assert reply.choices[0].message.tool_calls is None
    assert reply.choices[0].message.content


def summary_request(lines: list[str], previous: str = "(none)") -> str:
    return "\n".join(
        ["Previous summary:", previous, "", "Messages to fold (oldest first):", *lines, "",
         "Write the new summary in at most 200 words."]
    )  # fmt: skip


@pytest.mark.parametrize("max_tokens", [None, 40])
def test_summary_is_extractive_deterministic_and_bounded(max_tokens: int | None) -> None:
    model = make_model()
    lines = [
        "user: Gift for my colleague, budget 50 $, he loves board games",
        'assistant called update_profile({"recipient": "colleague", "budget_max": 50, '
        '"currency": "USD", "interests": ["board-game"]})',
        'tool update_profile result: {"ok": true}',
        "user: no mugs please " + "really " * 60,
        'assistant called update_profile({"dislikes": ["mug"]})',
        'assistant called select_gift({"gift_id": "g-7"})',
    ]
    messages = [
        {"role": "system", "content": "Summarize."},
        {"role": "user", "content": summary_request(lines)},
    ]
    request = ChatRequest(messages=messages, max_tokens=max_tokens, purpose="summary")
    first = model.complete(request).message.content or ""
    assert first == model.complete(request).message.content
    assert "recipient=colleague" in first and "budget=50 USD" in first
    assert "dislikes=mug" in first and "selected g-7" in first
    limit = max_tokens or 300
    assert TokenCounter.for_model("offline").count_text(first) <= limit
    # folding again keeps the facts of the previous summary
    again = [
        {"role": "system", "content": "Summarize."},
        {"role": "user", "content": summary_request(["user: thanks"], previous=first)},
    ]
    second = model.complete(ChatRequest(messages=again, purpose="summary")).message.content or ""
    assert "recipient=colleague" in second and "dislikes=mug" in second


def test_deadline_is_relative_to_the_state_today() -> None:
    chat = Chat()
    chat.say("Gift for my mum, 40 euros, loves tea, by next Friday")
    deadline = chat.calls[0][1]["deadline"]
    assert deadline == (dt.date(2026, 11, 29) + dt.timedelta(days=5)).isoformat()


@pytest.mark.parametrize(
    ("line", "closest", "expected"),
    [
        ("Gift for my friend, 50 $, loves tea", "board-game",
         "I have nothing for “tea” in the catalog. The closest I have: board games. Would one "
         "of those do, or is there something else they enjoy?"),
        ("Un cadeau pour mon ami, 50 €, il adore le thé", "board-game",
         "Je n'ai rien pour « thé » dans le catalogue. Ce qui s'en rapproche le plus : "
         "jeux de société. L'une de ces pistes conviendrait-elle, ou la personne aime-t-elle "
         "autre chose ?"),
        # nothing close to offer: "would one of those do?" over no list at all read as a bug
        ("Gift for my friend, 50 $, loves tea", None,
         "I have nothing for “tea” in the catalog. What else do they enjoy? Tell me one or two "
         "things and I will look again."),
        ("Un cadeau pour mon ami, 50 €, il adore le thé", None,
         "Je n'ai rien pour « thé » dans le catalogue. Qu'est-ce que la personne aime d'autre ? "
         "Dites-moi une ou deux choses et je cherche à nouveau."),
    ],
)  # fmt: skip
def test_an_interest_the_catalog_cannot_serve_is_said_plainly(
    line: str, closest: str | None, expected: str
) -> None:
    chat = Chat()

    def nothing(**_: Any) -> dict[str, Any]:
        chat.tools.state["candidate_ids"] = []
        said = chat.tools.state["profile"]["interests"][0]
        suggestions = [describe(closest, chat_locale(line))] if closest else []
        unserved = [{"interest": said, "in_catalog": False, "suggestions": suggestions}]
        return {"shortlist": [], "rejected": {}, "unserved": unserved}

    chat.tools.refilter = nothing  # type: ignore[method-assign]
    assert chat.say(line) == expected


def chat_locale(line: str) -> str:
    return "fr" if "cadeau" in line else "en"


def shortlist(
    chat: Chat, first: str = "A gift for my brother, budget 50 USD, he loves coffee"
) -> None:
    chat.say(first)
    assert chat.tools.state["step"] == "finalizing"


@pytest.mark.slow
@pytest.mark.parametrize(
    ("choice", "gift_id"),
    [
        ("let's go with the coffee sampler", "g-3"),
        ("Le moulin... non, l'Azul", "g-1"),
        ("the meeple one", "g-2"),
        ("le moins cher de la liste", "g-2"),
        ("the most expensive", "g-1"),
        ("the last one", "g-3"),
        ("le premeir", "g-1"),
        ("the cheaper of the first two", "g-2"),
        ("le plus cher des deux derniers", "g-3"),
        ("whichever is pricier of the last two", "g-3"),
    ],
)
def test_every_choice_is_selected_then_confirmed_after_a_yes(choice: str, gift_id: str) -> None:
    chat = Chat()
    shortlist(chat)
    reply = chat.say(choice)
    assert chat.calls == [("select_gift", {"gift_id": gift_id})]  # never confirmed yet
    assert "confirm" in reply.lower() or "confirme" in reply.lower()
    reply = chat.say("Vendu !")
    assert chat.names() == ["confirm_choice"]
    assert chat.tools.state["step"] == "done"


@pytest.mark.parametrize("yes", ["go", "Ça ira.", "sounds great", "C'est tout bon pour moi."])
def test_confirm_in_words(yes: str) -> None:
    chat = Chat()
    shortlist(chat)
    chat.say("the second one")
    chat.say(yes)
    assert chat.names() == ["confirm_choice"]


def test_a_decline_keeps_the_choice_open_and_shows_the_list() -> None:
    chat = Chat()
    shortlist(chat)
    chat.say("the second one")
    reply = chat.say("nah, not that one")
    assert chat.calls == []
    assert "1. **Azul tile game**" in reply
    assert chat.tools.state["step"] == "finalizing"


@pytest.mark.parametrize(
    "more",
    [
        "show me more",
        "nah, show me others",
        "any other ideas?",
        "something different please",
        "what else do you have?",
        "Tu as autre chose ?",
        "montre-moi d'autres idées",
        "la suite svp",
    ],
)
@pytest.mark.parametrize("chosen", [False, True], ids=["listed", "chosen"])
def test_other_ideas_are_a_search_without_those_shown(more: str, chosen: bool) -> None:
    """Asking for other ideas, with the list on show or a gift picked, calls the search
    (which leaves out what was shown: the tool's rule, not the model's)."""
    chat = Chat()
    shortlist(chat)
    if chosen:
        chat.say("the second one")
    chat.say(more)
    assert chat.names() == ["search_candidates"]


def test_other_ideas_said_with_a_new_fact_record_the_fact() -> None:
    chat = Chat()
    shortlist(chat)
    chat.say("any other ideas? he also loves cooking")
    assert chat.names()[0] == "update_profile"


def test_a_position_the_list_does_not_have_is_explained() -> None:
    chat = Chat()
    shortlist(chat)
    reply = chat.say("Le cinquième")
    assert chat.calls == []
    assert "3" in reply and ("only" in reply or "que 3" in reply)


def test_about_n_takes_n_and_says_so() -> None:
    chat = Chat()
    reply = chat.say("Gift for my sister, about 30 euros, she loves tea")
    assert chat.calls[0][1]["budget_max"] == 30 and chat.calls[0][1]["currency"] == "EUR"
    assert "about €30" in reply and "took €30 as the budget" in reply


def test_about_n_is_said_with_the_money_of_the_persons_language() -> None:
    reply = Chat().say("Un cadeau pour ma sœur, une trentaine d'euros, elle adore le thé")
    assert "Vous avez dit environ 30\xa0€ : j'ai pris 30\xa0€ comme budget" in reply


def test_leaving_with_a_save_request_saves_and_sets_no_deadline() -> None:
    chat = Chat()
    chat.say("C'est pour ma grand-mère, 40 euros, elle tricote")
    reply = chat.say("je reviendrai pour Noël, retiens-la sous le nom mamie jo")
    assert chat.calls == [("save_recipient_profile", {"label": "mamie jo"})]
    assert "deadline" not in chat.tools.state["profile"]
    assert "mamie jo" in reply and "enregistrée" in reply


def test_save_under_the_recipients_name() -> None:
    chat = Chat()
    chat.say("Un cadeau pour mon filleul Noé, 40 euros, il adore les robots")
    assert chat.tools.state["profile"]["recipient"] == "filleul Noé"
    chat.say("Garde-le en tête sous son prénom")
    assert chat.calls == [("save_recipient_profile", {"label": "Noé"})]


SAVED = {
    "mamie jo": {"recipient": "mamie", "budget": {"amount": 40, "currency": "EUR"},
                 "interests": ["knitting"], "dislikes": []},
    "Julien": {"recipient": "ami Julien", "budget": {"amount": 30, "currency": "EUR"},
               "interests": ["coffee"], "dislikes": []},
    "filleul Noé": {"recipient": "filleul Noé", "budget": {"amount": 50, "currency": "EUR"},
                    "interests": ["board-game"], "dislikes": []},
}  # fmt: skip


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("c'est encore pour mamie jo", "mamie jo"),
        ("c'est pour filleul Noé", "filleul Noé"),
        ("même ami que la dernière fois : Julien", "Julien"),
        ("same friend as last time, Julien", "Julien"),
        ("Cadeau pour mamy Jo stp", "mamie jo"),
    ],
)
def test_load_a_saved_profile_by_label_name_or_relation(text: str, label: str) -> None:
    chat = Chat()
    chat.tools.saved.update(json.loads(json.dumps(SAVED)))
    chat.say(text)
    assert chat.calls[:2] == [
        ("list_recipient_profiles", {}),
        ("load_recipient_profile", {"label": label}),
    ]


def test_a_first_recipient_that_is_no_saved_label_is_recorded() -> None:
    chat = Chat()
    chat.tools.saved.update(json.loads(json.dumps(SAVED)))
    chat.say("Un cadeau pour mon oncle Dave, 60 dollars, il adore la pêche")
    assert chat.names()[:2] == ["list_recipient_profiles", "update_profile"]
    assert chat.calls[1][1]["recipient"] == "oncle Dave"


def test_a_budget_correction_while_choosing_is_no_choice() -> None:
    chat = Chat()
    shortlist(chat)
    chat.say("Actually make it 70.")
    assert chat.calls[0] == ("update_profile", {"budget_max": 70})


def test_a_yes_that_names_the_selected_gift_confirms_it() -> None:
    for yes in ("yes, that's the one", "oui, c'est bien le troisième", "Yes, number 3"):
        chat = Chat()
        shortlist(chat)
        chat.say("the third one")
        chat.say(yes)
        assert chat.names() == ["confirm_choice"], yes
        assert chat.tools.state["selected_gift_id"] == "g-3"


def test_words_fitting_two_gifts_take_the_first_and_name_the_other() -> None:
    chat = Chat()
    shortlist(chat)
    reply = chat.say("I'll have the coffee one")
    assert chat.calls == [("select_gift", {"gift_id": "g-2"})]
    assert "number 3 (Ethiopian coffee sampler)" in reply
    chat = Chat()
    shortlist(chat, "Un cadeau pour mon frère, 50 dollars, il adore le café")
    reply = chat.say("celui avec du café")
    assert "n° 3 (Ethiopian coffee sampler)" in reply


def test_a_yes_to_the_only_idea_answers_its_question_and_records_it() -> None:
    """The only idea is offered with the confirmation's own question ("Shall I record the
    order draft for it?"): a yes chooses and confirms; a number only chooses, as always."""
    chat = Chat()
    shortlist(chat, "A gift for my sister, max 20 USD, she loves coffee")
    assert chat.tools.state["candidate_ids"] == ["g-2"]
    assert "Done" in chat.say("yes please")
    assert chat.calls == [("select_gift", {"gift_id": "g-2"}), ("confirm_choice", {})]
    chat = Chat()
    shortlist(chat, "Un cadeau pour ma sœur, 20 USD max, elle adore le café")
    chat.say("le 1")
    assert chat.calls == [("select_gift", {"gift_id": "g-2"})]
    chat.say("oui")
    assert chat.names() == ["confirm_choice"]


def test_a_place_the_only_idea_lacks_is_said_in_the_singular() -> None:
    chat = Chat()
    shortlist(chat, "A gift for my sister, max 20 USD, she loves coffee")
    reply = chat.say("the second one")
    assert "The list has only one idea; say yes to record its order draft" in reply


@pytest.mark.parametrize(
    ("first", "yes"), [("a gift for my mum", "yes please"), ("pour maman", "oui")]
)
def test_a_yes_to_the_offer_of_what_was_known_takes_it(first: str, yes: str) -> None:
    chat = Chat()
    chat.tools.memories = [MUM_IN_DECEMBER]
    offered = chat.say(first)
    assert "December 2026" in offered or "décembre 2026" in offered
    chat.calls.clear()
    chat.say(yes)
    assert chat.names() == ["recall_memories", "update_profile"]
    profile = chat.tools.state["profile"]
    assert profile["budget"] == {"amount": 60.0, "currency": "EUR"}
    assert profile["interests"] == ["coffee"]


def test_a_yes_with_nothing_offered_recalls_nothing() -> None:
    chat = Chat()
    chat.say("a gift for my mum")  # no notes: no offer
    chat.calls.clear()
    chat.say("yes")
    assert "recall_memories" not in chat.names()


@pytest.mark.parametrize(
    ("line", "about"),
    [
        ("what can you do?", "I help you choose a gift"),
        ("hi! how does this work?", "I help you choose a gift"),
        ("help", "I help you choose a gift"),
        ("Que sais-tu faire ?", "Je vous aide à choisir un cadeau"),
        ("comment ça marche ?", "Je vous aide à choisir un cadeau"),
    ],
)
def test_what_the_assistant_does_is_said_then_asked_for(line: str, about: str) -> None:
    chat = Chat()
    reply = chat.say(line)
    assert chat.calls == [] and reply.startswith(about)
    assert "?" in reply.split("\n\n")[-1]  # then what it needs, as a question


def test_a_first_message_with_facts_is_no_question_about_the_assistant() -> None:
    chat = Chat()
    reply = chat.say("can you help me? a gift for my sister, she loves tea, 30 dollars")
    assert chat.names()[0] == "update_profile"
    assert "I help you choose" not in reply
