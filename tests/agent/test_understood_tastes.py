"""``update_profile`` says how each interest and dislike was read: the catalog tags a word
became, or, for a word the vocabulary does not know, the closest tags the catalog stocks —
so a real model can tell the person, or offer one of them."""

from __future__ import annotations

import json
from typing import Any

from giftgenius.agent.tools import TurnContext, execute
from giftgenius.agent.tools.tastes import TAGS_PER_WORD


def _understood(ctx: TurnContext, **args: Any) -> dict[str, Any]:
    result = execute(ctx, "update_profile", json.dumps(args))
    assert result["ok"], result
    return result["understood"]


def test_known_words_name_the_tags_they_became(make_ctx) -> None:
    read = _understood(make_ctx(), interests=["birdwatching", "jeux de société", "tricot"])
    assert read["interests"] == [
        {"said": "birdwatching", "tags": ["bird"]},
        {"said": "jeux de société", "tags": ["board-game"]},
        {"said": "tricot", "tags": ["knitting"]},
    ]


def test_an_unknown_word_comes_with_the_closest_stocked_tags(make_ctx) -> None:
    ctx = make_ctx()
    (typo,) = _understood(ctx, interests=["joggin"])["interests"]
    assert typo["tags"] == [] and "running" in typo["closest"]
    assert len(typo["closest"]) <= TAGS_PER_WORD and isinstance(typo["in_catalog"], bool)
    assert "joggin" in ctx.state.profile.interests  # kept as a word, as before
    (nothing,) = _understood(ctx, interests=["zorbing"])["interests"]
    assert nothing == {"said": "zorbing", "tags": [], "closest": [], "in_catalog": False}


def test_a_refused_material_is_read_as_one(make_ctx) -> None:
    read = _understood(make_ctx(), dislikes=["cuir", "mugs"])
    assert read["dislikes"][0] == {"said": "cuir", "tags": [], "material": "leather"}
    assert read["dislikes"][1]["tags"] == ["mug"]


def test_a_call_without_tastes_says_nothing_about_them(make_ctx) -> None:
    read = _understood(make_ctx(), recipient="my sister")
    assert "interests" not in read and "dislikes" not in read
