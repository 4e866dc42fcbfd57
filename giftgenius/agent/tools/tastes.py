"""How the interests and dislikes given to ``update_profile`` were read, for its ``understood``.

A model that writes "birdwatching" should learn it was read as the catalog's ``bird``, and
one that writes a word the vocabulary does not know ("zorbing", "joggin") that it is kept as
a word to find in product texts, with the closest tags the catalog has — so it can tell the
person, or try one of them. Nothing here is new reading: tags come from the vocabulary
(``canonical_tags``), materials from ``catalog.materials``, and the closest tags from
``catalog.search.unserved`` (near spellings first, then what products naming the word are
about), only for the words without a tag.
"""

from __future__ import annotations

from typing import Any

from giftgenius.agent.tools.call_context import TurnContext
from giftgenius.catalog import canonical_tags, unserved
from giftgenius.domain import ProfileDraft
from giftgenius.language.materials import material_of
from giftgenius.language.vocabulary import popular_tags
from giftgenius.privacy import scrub

# The most tags named for one word, read or closest: enough to choose from, cheap to send.
TAGS_PER_WORD = 3


def read_tastes(ctx: TurnContext, words: list[str], *, dislikes: bool = False) -> list[Any]:
    """For each word: ``{"said", "tags"}``; with no tag, ``closest`` (tags the catalog
    stocks, may be empty) and ``in_catalog`` (some product's text names the word itself);
    a refused material (dislikes only) adds ``material`` and needs no closest tags."""
    read: list[dict[str, Any]] = []
    unknown: list[str] = []
    for word in words:
        said = scrub(word).strip()
        entry: dict[str, Any] = {"said": said, "tags": sorted(canonical_tags(word))[:TAGS_PER_WORD]}
        material = material_of(said) if dislikes else None
        if material is not None:
            entry["material"] = material
        elif not entry["tags"] and said:
            unknown.append(said.lower())  # the form _normalize_facts keeps
        read.append(entry)
    if unknown:
        # Suggestions come back as display words in English, each of which the vocabulary
        # reads back as exactly its tag (every tag's English name is one of its synonyms).
        gaps = {
            gap.interest: gap
            for gap in ctx.search(
                lambda catalog: unserved(unknown, [], catalog, "en", limit=TAGS_PER_WORD)
            )
        }
        for entry in read:
            gap = gaps.get(str(entry["said"]).lower())
            if gap is not None and not entry["tags"] and "material" not in entry:
                entry["closest"] = [
                    t for name in gap.suggestions for t in sorted(canonical_tags(name))
                ]
                entry["in_catalog"] = gap.in_catalog
    return read


def searched_interests(profile: ProfileDraft) -> list[str]:
    """What a search looks for: the stated interests; with none, and the person's word that
    they do not know the recipient's tastes, the kinds of gift broadly liked by the
    recipient's audience (``popular_tags``), so the search goes ahead instead of asking
    again. These stay out of the profile: nobody said the recipient likes them."""
    if profile.interests or not profile.tastes_unknown:
        return list(profile.interests)
    return list(popular_tags(profile.audience))


def popular_note(profile: ProfileDraft) -> dict[str, Any]:
    """What a result adds when its ideas are popular ones rather than the recipient's own
    tastes: ``popular`` (the audience and the kinds searched), for the reply to say why."""
    if profile.interests or not profile.tastes_unknown:
        return {}
    return {
        "popular": {"audience": profile.audience, "kinds": list(popular_tags(profile.audience))}
    }
