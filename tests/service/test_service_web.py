"""The web page at ``/`` and what it reads: its words from the catalogue in the person's
language, its script and style, and ``GET /v1/conversation``, the search as it was seen."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import SISTER
from fastapi.testclient import TestClient

from giftgenius import messages as catalogue
from giftgenius.service import web

WEB = Path(web.__file__).parent / "web"


def words_in(page: str) -> dict[str, str]:
    found = re.search(r'<script id="words" type="application/json">(.*?)</script>', page, re.S)
    assert found, page
    return json.loads(found.group(1))


@pytest.mark.parametrize(
    ("query", "accept", "lang"),
    [({}, "", "en"), ({}, "fr-FR,fr;q=0.9", "fr"), ({"lang": "fr"}, "en", "fr"),
     ({"lang": "de"}, "fr", "fr"), ({"lang": "en"}, "fr", "en")],
)  # fmt: skip
def test_the_page_speaks_the_persons_language(
    client: TestClient, query: dict[str, str], accept: str, lang: str
) -> None:
    page = client.get("/", params=query, headers={"Accept-Language": accept})
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert page.headers["content-language"] == lang
    assert "script-src 'self'" in page.headers["content-security-policy"]
    text = page.text
    assert f'<html lang="{lang}">' in text and "${" not in text
    section = catalogue.messages(lang)["web"]
    assert words_in(text) == section
    assert f"<title>{section['title']}</title>" in text
    assert f">{section['send']}</button>" in text


def test_the_words_travel_as_json_that_cannot_close_the_script(monkeypatch) -> None:
    tricky = {**catalogue.messages("en")["web"], "send": "</script><b>&"}
    monkeypatch.setitem(catalogue.messages("en"), "web", tricky)
    page = web.render("en")
    assert page.count("</script>") == 2  # the words' and the script's own
    assert words_in(page)["send"] == "</script><b>&"
    assert "&lt;/script&gt;&lt;b&gt;&amp;</button>" in page


def test_the_script_and_style_are_served_and_nothing_else(client: TestClient) -> None:
    script = client.get("/web/app.js")
    assert script.status_code == 200 and "javascript" in script.headers["content-type"]
    assert client.get("/web/app.css").headers["content-type"].startswith("text/css")
    missing = client.get("/web/../app.py")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
    assert client.get("/web/index.html").status_code == 404


def test_the_script_holds_no_sentence_and_names_only_known_words() -> None:
    script = (WEB / "app.js").read_text(encoding="utf-8")
    code = re.sub(r"^\s*//.*$", "", script, flags=re.M)
    literals = re.findall(r'"((?:[^"\\\n]|\\.)*)"|`((?:[^`\\]|\\.)*)`', code)
    wordy = [
        text
        for pair in literals
        for text in pair
        if sum(bool(re.search("[A-Za-zÀ-ÿ]{2}", w)) for w in text.split()) >= 3
    ]
    assert not wordy, wordy
    named = set(re.findall(r'WORDS\.(\w+)|WORDS\["([\w.]+)"\]', script))
    keys = {dotted or plain for plain, dotted in named}
    assert len(keys) > 10 and keys <= set(catalogue.messages("en")["web"]), keys
    assert "innerHTML" not in script and "insertAdjacentHTML" not in script


@pytest.mark.slow
def test_the_conversation_as_it_was_seen(client: TestClient, alice) -> None:
    empty = client.get("/v1/conversation", headers=alice).json()
    assert empty["run_id"] is None and empty["messages"] == [] and empty["shortlist"] == []
    said = [SISTER, "the first one", "yes"]
    turns = [client.post("/v1/messages", json={"text": t}, headers=alice).json() for t in said]
    seen = client.get("/v1/conversation", headers=alice).json()
    assert seen["run_id"] == turns[0]["run_id"] and seen["step"] == "done"
    shown = [(m["role"], m["text"]) for m in seen["messages"]]
    expected = [pair for text, turn in zip(said, turns, strict=True) for pair in
                (("user", text), ("assistant", turn["reply"]))]  # fmt: skip
    assert shown == expected
    assert seen["shortlist"] == turns[0]["shortlist"]
    assert seen["selected"]["id"] == seen["selected_gift_id"] == turns[0]["shortlist"][0]["id"]
    assert seen["order_draft_id"] == turns[2]["order_draft_id"]
    # a new search shows nothing of the last one
    client.post("/v1/runs", headers=alice)
    fresh = client.get("/v1/conversation", headers=alice).json()
    assert fresh["messages"] == [] and fresh["run_id"] != seen["run_id"]


def test_the_conversation_needs_a_key(client: TestClient) -> None:
    refused = client.get("/v1/conversation")
    assert refused.status_code == 401 and refused.json()["error"]["code"] == "unauthorized"
