"""The person does not know what the recipient likes: "no idea what she likes", "je ne sais
pas du tout ce qu'il aime", "I barely know him" — or, as the answer to the question about
tastes, "honestly not a clue", "whatever", "peu importe".

Said so, the offline model tells ``update_profile`` (``tastes_unknown``), as a real model
would, and the tool searches gifts popular with the recipient's audience instead of asking
the question again. Not knowing *what to give* ("no idea what to get her", "je ne sais pas
quoi lui offrir") is no word on tastes: only not knowing what someone *likes*, their
tastes, or the person themselves counts. The words are data
(``lexicons/<lang>/offline_unknown_tastes.toml``), in both languages at once.
"""

from __future__ import annotations

import re
from typing import Any

from giftgenius.language.folding import alternation
from giftgenius.language.lexicon import union

_TOPIC = "offline_unknown_tastes"
# Words between the not-knowing and what is not known: "no idea at all what", "no clue
# really what", "aucune idée de ce qu'", "don't know anything about her hobbies".
_GAP = r"(?:\s+(?:[\w']+\s+){0,3}?)"
# Who likes: up to three words ("she", "my colleague", "ma belle-soeur"), or none ("ce
# qu'aime Julie" puts the verb first).
_WHO = r"(?:\s*[\w'-]+){0,3}?\s*"


def _any(*kinds: str) -> str:
    return alternation(union(_TOPIC, *kinds))


# Not knowing what someone likes, their tastes, or them: anywhere in a message.
_SAID = re.compile(
    rf"(?<![\w'])(?:(?P<not>{_any('not_knowing')}){_GAP}?(?:{_any('what')}){_WHO}"
    rf"(?P<liking>{_any('liking')})"
    rf"|(?:{_any('not_knowing')}){_GAP}?(?:{_any('whose')})\s+(?:{_any('tastes')})"
    rf"|{_any('barely_know')})(?![\w])"
)
# A whole message that only says "I don't know" or "anything".
_BARE_WORD = rf"(?:{_any('bare', 'fillers')})"
_BARE = re.compile(rf"^[\s,.!?…:;-]*{_BARE_WORD}(?:[\s,.!?…:;-]+{_BARE_WORD})*[\s,.!?…:;-]*$")


def unknown_spans(folded: str) -> list[tuple[int, int]]:
    """Where ``folded`` says in full that the speaker does not know the recipient's tastes:
    read as nothing else, so "into" cues no taste in "no clue what she's into honestly".
    Who is named between stays to be read ("no idea what my boss is into")."""
    m = _SAID.search(folded.replace("’", "'"))
    if m is None:
        return []
    if m["liking"] is None:
        return [m.span()]
    return [m.span("not"), m.span("liking")]


def tastes_unknown(folded: str, profile: dict[str, Any]) -> bool:
    """Whether ``folded`` (the message, folded) says the speaker does not know the
    recipient's tastes. A bare "no idea" or "whatever" counts only as the answer to the
    question about tastes: the recipient and the budget are known, no interest is, and
    the person has not said so already."""
    text = folded.replace("’", "'")
    if _SAID.search(text):
        return True
    asked = (
        bool(profile.get("recipient"))
        and bool(profile.get("budget"))
        and not profile.get("interests")
        and not profile.get("tastes_unknown")
    )
    return asked and _BARE.match(text) is not None
