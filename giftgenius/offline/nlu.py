"""What one user message says: profile facts and intents, in English or French.

Extraction peels the text in a fixed order — profile save/load phrases, deadline, budget,
country, age — removing each span it reads, so what is left for interests, dislikes and
the recipient holds no dates or prices. Interests and recipients come from the catalog's
vocabulary (``canonical_tags``, ``canonical_recipient``): one vocabulary for the whole app.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from typing import Any

from giftgenius.catalog.vocabulary import canonical_recipient, canonical_tags
from giftgenius.currency import BUDGET_CURRENCIES, currency_pattern
from giftgenius.offline.dates import extract_deadline
from giftgenius.offline.money import extract_budget
from giftgenius.offline.numbers import words_to_digits
from giftgenius.offline.places import extract_country
from giftgenius.text import fold

_NEG = (
    r"n'aime (?:pas|plus|guere)|ne supporte pas|ne veut pas|ne boit pas|ne mange pas|"
    r"ne joue pas|deteste\w*|hait|a horreur d(?:es|e|u|')|horreur d(?:es|e|u|')|"
    r"allergique (?:a|au|aux)|allergic to|"
    r"a deja (?:trop |beaucoup |plein |assez )?(?:de |d'|des )?|possede deja|"
    r"already (?:has|have|owns|got)(?: (?:too many|plenty of|lots of|a lot of|enough))?|"
    r"has too many|has enough|trop de|pas de|pas d'|pas les|pas des|pas la|pas le|sans|"
    r"without|no more|doesn'?t (?:like|want|drink|eat|need|care for)|"
    r"does not (?:like|want|drink|need)|don'?t (?:like|want|need)|do not (?:like|want)|"
    r"dislikes?|hates?|can'?t stand|cannot stand|avoid|evite[rz]?|except|sauf|rien avec|"
    r"nothing with|not into|isn'?t into|not a fan of|pas fan d(?:e |')|never|jamais|no|not|"
    r"non|pas"
)
_POS = (
    r"aime\w*|adore\w*|kiffe|passionne\w*|fan (?:de|d'|of)|fond of|likes?|loves?|enjoys?|"
    r"is into|into|keen on|interested in|s'interesse (?:a|au|aux)|interesse\w* par|"
    r"fait du|fait de la|plays?|joue (?:a|au|aux)|collectionne|collects?|mais|but|however|"
    r"par contre|instead|plutot|rather"
)
_MARKER = re.compile(rf"\b(?:(?P<neg>{_NEG})|(?P<pos>{_POS}))\b")
_SENTENCE = re.compile(r"[.;!?\n]+")
_RETARGET = re.compile(
    r"\b(?:for|pour)\s+(?:my|mon|ma|mes|a|an|un|une|our|notre|his|her|son|sa)\b"
    r"|\b(?:not|pas)\s+(?:my|mon|ma|mes)\b"
    r"|\b(?:actually|instead|rather|en fait|finalement|plutot)\b"
)

_ORDINALS = {
    "first": 1, "1st": 1, "premier": 1, "premiere": 1, "1er": 1, "1ere": 1,
    "second": 2, "2nd": 2, "deuxieme": 2, "seconde": 2, "2e": 2, "2eme": 2,
    "third": 3, "3rd": 3, "troisieme": 3, "3e": 3, "3eme": 3,
    "fourth": 4, "4th": 4, "quatrieme": 4, "4e": 4, "4eme": 4,
    "fifth": 5, "5th": 5, "cinquieme": 5, "5e": 5, "5eme": 5,
    "sixth": 6, "6th": 6, "sixieme": 6, "6e": 6, "6eme": 6,
    "seventh": 7, "7th": 7, "septieme": 7, "eighth": 8, "8th": 8, "huitieme": 8,
    "last": -1, "dernier": -1, "derniere": -1,
}  # fmt: skip
_ORD = "|".join(sorted(_ORDINALS, key=len, reverse=True))
_CHOICE_PATTERNS = [
    re.compile(
        rf"\b(?:the|le|la|l'|take|prends|choose|choisis|pick|want|veux)\s+(?:very\s+)?({_ORD})\b"
    ),
    re.compile(
        rf"\b({_ORD})\s+(?:one|option|gift|idea|choice|item|cadeau|idee|proposition|choix)\b"
    ),
    re.compile(
        r"\b(?:number|numero|num|no\.?|n°|option|choice|choix|gift|idea|idee|item|#)\s*"
        r"(\d{1,2}|one|un|une)\b"
    ),
    re.compile(r"\b(?:the|le|la|take|prends|pick|choose|choisis)\s+(\d{1,2})\b(?!\s*[$€£%])"),
    re.compile(r"#(\d{1,2})\b"),
]
_ONLY_NUMBER = re.compile(r"^\s*(\d{1,2})\s*[.!)]?\s*$")

_CONFIRM = re.compile(
    r"\b(?:yes|yep|yeah|yup|sure|ok|okay|confirm\w*|go ahead|go for it|let'?s do it|let'?s go|"
    r"sounds good|looks good|perfect|deal|that'?s it|that one|do it|book it|order it|"
    r"oui|ouais|d'accord|dac|valide\w*|confirme\w*|parfait|c'est bon|vas-y|allons-y|banco|"
    r"ca marche|nickel|on y va|je le prends|je la prends|i'?ll take it|take it)\b"
)
_DENY = re.compile(
    r"\b(?:not yet|pas encore|don'?t confirm|do not confirm|ne (?:confirme|valide) pas|wait|"
    r"attends|hold on|not sure|pas sur)\b|^\s*(?:no|non|nope)\b"
)
_LEAVE = re.compile(
    r"\b(?:bye|goodbye|good bye|see you|see ya|(?:i'?ll )?come back later|talk later|"
    r"(?:i'?ll be|be) back|gotta go|have to go|must go|got to go|continue later|later|"
    r"au revoir|a plus(?: tard)?|a\+|a bientot|a tout a l'heure|je reviendrai|"
    r"je reviens plus tard|plus tard|je dois (?:y aller|partir|filer)|ciao|bonne (?:soiree|"
    r"journee|nuit)|on reprend plus tard|on continue plus tard)\b"
)
_SAVE = re.compile(
    r"\b(?:save|remember|enregistre\w*|sauvegarde\w*|memorise\w*|retiens|retenir)\b[^.!?]*?"
    r"\b(?:as|under|sous(?: le nom(?: de| d')?)?|comme|en tant que)"
    r"\s+['\"«“]?\s*([^'\"»”.,!?]{1,40}?)\s*['\"»”]?\s*(?:please|stp|svp|s'il te plait|"
    r"s'il vous plait|merci|thanks)?\s*(?:[.,!?]|$)"
)
_LOAD = re.compile(
    r"\b(?:(?:the\s+)?same\s+(?:\w+\s+){0,2}as\s+last\s+time|(?:just\s+)?like\s+last\s+time|"
    r"as\s+last\s+time|comme\s+la\s+derniere\s+fois|pareil\s+que\s+la\s+derniere\s+fois|"
    r"(?:le\s+|la\s+)?meme\s+(?:\w+\s+){0,2}que\s+la\s+derniere\s+fois|"
    r"load\s+(?:the\s+|my\s+)?(?:saved\s+)?profile|charge[rz]?\s+(?:le\s+)?profil|"
    r"reprends?\s+le\s+profil|use\s+(?:the\s+|my\s+)?saved\s+profile|"
    r"utilise\s+le\s+profil)\b"
)
_LOAD_LABEL = re.compile(
    r"(?:profile|profil)\s+(?:of\s+|de\s+|d'|for\s+|pour\s+)?['\"«“]?([^'\"»”.,!?]{1,40}?)"
    r"['\"»”]?\s*(?:[.,!?]|$|\bbut\b|\bmais\b)"
    r"|(?:for|pour)\s+((?:my|ma|mon|mes)\s+[^.,!?]{1,30}?)\s*(?:[.,!?]|$|\bbut\b|\bmais\b)"
)
_LABEL_ARTICLES = re.compile(r"^(?:my|ma|mon|mes|the|le|la|l'|our|notre)\s+")
_QUOTED = re.compile(r"['\"«“(]\s*([^'\"»”()]{1,40}?)\s*['\"»”)]")
_AGE = [
    re.compile(r"(?<![\w-])(\d{1,3})\s*(?:-|\s)?(?:years?|yrs?|ans?)(?:\s*-?\s*old)?\b"),
    re.compile(r"\b(\d{1,3})\s*(?:yo|y/o)\b"),
    re.compile(
        r"\b(?:turning|turns|will turn|aged?|age|agee? de|va avoir|fete ses|will be|"
        r"she'?s|he'?s|she is|he is|they are|they'?re|il a|elle a)\s+(\d{1,3})\b"
        rf"(?!\s*(?:{currency_pattern(within=BUDGET_CURRENCIES)}|%|days?|jours?|weeks?|semaines?))"
    ),
]
_CORRECTION_LEAD = re.compile(r"(^|[.;!?]\s*)(?:no|non|nope|oops|sorry|pardon)\s*[,!.]\s*")
_CONTRAST = re.compile(
    r"^(?P<keep>.+?)\s*,?\s+(?:and\s+|et\s+)?(?:not|pas|instead of|au lieu d[e'u]|"
    r"plutot que|rather than)\s+(?P<drop>.+)$"
)


@dataclass
class Extraction:
    """Facts and intents of one message; ``facts`` are update_profile arguments."""

    facts: dict[str, Any] = field(default_factory=dict)
    choice: int | None = None  # 1-based position, -1 = last
    choice_title: str | None = None  # a fragment of a candidate's title
    confirm: bool = False
    leave: bool = False
    save_label: str | None = None
    load_label: str | None = None  # "" = load wanted, label unknown

    @property
    def has_facts(self) -> bool:
        return bool(self.facts)


class _Text:
    """The message twice (folded for matching, original for the vocabulary) with spans cut."""

    def __init__(self, raw: str) -> None:
        digits = words_to_digits(raw.replace("’", "'").replace("‘", "'"))
        self.original = digits
        self.lower = digits.lower()
        self.folded = fold(digits, keep_length=True)  # spans index all three texts

    def cut(self, start: int, end: int) -> None:
        pad = " " * (end - start)
        self.original = self.original[:start] + pad + self.original[end:]
        self.lower = self.lower[:start] + pad + self.lower[end:]
        self.folded = self.folded[:start] + pad + self.folded[end:]


def _clean_label(label: str) -> str:
    label = _LABEL_ARTICLES.sub("", label.strip().strip("'\"«»“”").strip())
    return label.strip()[:40]


def extract(
    text: str,
    *,
    today: dt.date,
    dollar: str = "USD",
    profile: dict[str, Any] | None = None,
    candidate_titles: list[str] | None = None,
) -> Extraction:
    """Read one user message. ``profile`` is the current profile (for corrections)."""
    profile = profile or {}
    out = Extraction()
    t = _Text(text)
    _intents(t, out)
    facts: dict[str, Any] = {}

    deadline, span = extract_deadline(t.folded, today)
    if deadline is not None and span is not None:
        facts["deadline"] = deadline
        t.cut(*span)
    budget, spans = extract_budget(
        t.folded, dollar=dollar, has_budget=profile.get("budget") is not None
    )
    for start, end in spans:
        t.cut(start, end)
    if budget is not None:
        facts["budget_max"] = budget.amount
        if budget.min_amount is not None:
            facts["budget_min"] = budget.min_amount
        if budget.currency is not None:  # unstated: the tool keeps the known or default one
            facts["currency"] = budget.currency
    country, span = extract_country(t.folded, t.original)
    if country is not None and span is not None:
        facts["country"] = country
        t.cut(*span)
    for pattern in _AGE:
        m = pattern.search(t.folded)
        if m and 0 < int(m[1]) <= 120:
            facts["age"] = int(m[1])
            t.cut(m.start(), m.end())
            break
    _choice(t, out, candidate_titles or [])
    _preferences(t, facts, profile, out.load_label is not None)
    out.facts = facts
    return out


def _intents(t: _Text, out: Extraction) -> None:
    m = _SAVE.search(t.folded)
    if m:
        out.save_label = _clean_label(t.lower[m.start(1) : m.end(1)])
        t.cut(m.start(), m.end())
    m = _LOAD.search(t.folded)
    if m:
        quoted = _QUOTED.search(t.lower)
        label_match = _LOAD_LABEL.search(t.folded, m.start())
        label = ""
        if quoted:
            label = quoted[1]
            t.cut(quoted.start(), quoted.end())
        elif label_match:
            group = 1 if label_match[1] else 2
            label = t.lower[label_match.start(group) : label_match.end(group)]
            t.cut(label_match.start(group), label_match.end(group))
        else:
            label = canonical_recipient(t.lower[m.start() : m.end()]) or ""
        out.load_label = _clean_label(label)
        t.cut(m.start(), m.end())
    folded = t.folded
    out.leave = bool(_LEAVE.search(folded))
    out.confirm = bool(_CONFIRM.search(folded)) and not _DENY.search(folded)


def _choice(t: _Text, out: Extraction, titles: list[str]) -> None:
    m = _ONLY_NUMBER.match(t.folded)
    if m:
        out.choice = int(m[1])
        t.cut(m.start(), m.end())
        return
    for pattern in _CHOICE_PATTERNS:
        m = pattern.search(t.folded)
        if m:
            word = m[1]
            if word in _ORDINALS:
                out.choice = _ORDINALS[word]
            elif word in ("one", "un", "une"):
                out.choice = 1
            else:
                out.choice = int(word)
            t.cut(m.start(), m.end())
            return
    if titles and not _MARKER_NEG_ONLY.search(t.folded):
        out.choice_title = _title_match(t.folded, titles)


_MARKER_NEG_ONLY = re.compile(rf"\b(?:{_NEG})\b")
_TITLE_WORD = re.compile(r"[a-z0-9]{4,}")


def _title_match(folded: str, titles: list[str]) -> str | None:
    """The one title whose distinctive words (in no other title) the message names."""
    # Folded like the user's text (``_Text.folded``), so the two compare word for word.
    words = [set(_TITLE_WORD.findall(fold(title, keep_length=True))) for title in titles]
    said = set(_TITLE_WORD.findall(folded))
    hits = []
    for i, own in enumerate(words):
        others = set().union(*(w for j, w in enumerate(words) if j != i))
        if own - others & said:
            hits.append(titles[i])
    return hits[0] if len(hits) == 1 else None


def _preferences(t: _Text, facts: dict[str, Any], profile: dict[str, Any], loading: bool) -> None:
    """Interests, dislikes and recipient, by polarity segments of each sentence."""
    folded = _CORRECTION_LEAD.sub(lambda m: m[1] + " " * (len(m[0]) - len(m[1])), t.folded)
    interests: list[str] = []
    dislikes: list[str] = []
    positive_text: list[str] = []
    negative_text: list[str] = []
    pos = 0
    for sentence in [*_SENTENCE.split(folded), ""]:
        start = folded.find(sentence, pos) if sentence else len(folded)
        end = start + len(sentence)
        pos = end
        polarity = True
        cursor = start
        for m in _MARKER.finditer(folded, start, end):
            _add_segment(t.lower[cursor : m.start()], polarity, interests, dislikes,
                         positive_text, negative_text)  # fmt: skip
            polarity = m.group("pos") is not None
            cursor = m.end()
        _add_segment(t.lower[cursor:end], polarity, interests, dislikes, positive_text,
                     negative_text)  # fmt: skip
    old_interests = set(profile.get("interests") or [])
    old_dislikes = set(profile.get("dislikes") or [])
    interests = [tag for tag in interests if tag not in dislikes]
    new_interests = [tag for tag in interests if tag not in old_interests]
    new_dislikes = [tag for tag in dislikes if tag not in old_dislikes]
    if new_interests:
        facts["interests"] = new_interests
    if new_dislikes:
        facts["dislikes"] = new_dislikes
    if removed := [tag for tag in dislikes if tag in old_interests]:
        facts["remove_interests"] = removed
    if removed := [tag for tag in interests if tag in old_dislikes]:
        facts["remove_dislikes"] = removed
    if loading:
        return
    recipient = _recipient(" ".join(positive_text), " ".join(negative_text))
    current = profile.get("recipient")
    # Once known, the recipient changes only when the user re-targets the gift:
    # "someone who plays with friends" in a question about a gift is not a new recipient.
    retargeted = current is None or (recipient != "anyone" and _RETARGET.search(folded))
    if recipient and recipient != current and retargeted:
        facts["recipient"] = recipient


def _add_segment(
    text: str,
    positive: bool,
    interests: list[str],
    dislikes: list[str],
    positive_text: list[str],
    negative_text: list[str],
) -> None:
    if not text.strip():
        return
    (positive_text if positive else negative_text).append(text)
    target = interests if positive else dislikes
    for tag in sorted(canonical_tags(text)):
        if tag not in target:
            target.append(tag)


def _recipient(positive: str, negative: str) -> str | None:
    """Who the gift is for; in "my brother not my sister" the negated one is dropped."""
    m = _CONTRAST.match(" ".join(positive.split()))
    if m:
        kept = canonical_recipient(m["keep"])
        if kept:
            return kept
    found = canonical_recipient(positive) if positive.strip() else None
    if found:
        return found
    if negative.strip() and not positive.strip():
        return None
    return None
