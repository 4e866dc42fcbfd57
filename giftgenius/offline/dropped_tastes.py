"""An interest taken back because another replaces it: "forget the cooking, he's into
running now", "not cooking anymore — running", "oublie la cuisine, maintenant c'est la course
à pied", "il ne cuisine plus, il court".

Only an interest already recorded can be dropped, and only in a clause that says so — a
word of dropping before it ("forget", "scrap", "gave up", "oublie", "plus de", "a arrêté") or
a word of stopping after it ("anymore", "ne … plus"). The offline model then sends it in
``update_profile``'s ``remove_interests``, as a real model would, and the new interest in
``interests``: the old one goes, it is not kept beside the new one, and it is no dislike
either ("he doesn't cook anymore" is no refusal of cookbooks) — unless the person says it
is one now ("he doesn't like tea anymore", left to the refusals). The words are data
(``lexicons/<lang>/offline_dropped_tastes.toml``).
"""

from __future__ import annotations

import re

from giftgenius.language.patterns import any_word, matcher
from giftgenius.language.vocabulary import tags_in_order
from giftgenius.offline.clauses import Clause
from giftgenius.offline.doings import doing_tags
from giftgenius.offline.interests import verb_tags

_TOPIC = "offline_dropped_tastes"


# A word of dropping or stopping; "plus" only after "ne" ("il ne cuisine plus").
_CUE = re.compile(
    f"{any_word(_TOPIC, 'before', 'after').pattern}|{matcher(_TOPIC, 'stopping').pattern}"
)
_DISLIKING = any_word(_TOPIC, "disliking")
_BEFORE = re.compile(any_word(_TOPIC, "before").pattern + "$")


def dropped_tastes(clauses: list[Clause], lang: str, known: list[str]) -> list[str]:
    """The recorded interests (``known``) that a clause of the message drops, in order."""
    if not known:
        return []
    dropped: list[str] = []
    for clause in clauses:
        cue = _CUE.search(clause.folded)
        if cue is None or _DISLIKING.search(clause.folded):
            continue
        # "gave up cooking and took up running": what follows a word of dropping; a word
        # of stopping comes after the taste ("not cooking anymore")
        start = cue.end() if _BEFORE.match(cue[0]) else 0
        text, folded = clause.text[start:], clause.folded[start:]
        named = [*tags_in_order(text), *verb_tags(folded), *doing_tags(text, lang)]
        dropped += [t for t in dict.fromkeys(named) if t in known and t not in dropped]
    return dropped
