"""What a message asks the agent to do: choose, confirm or decline, save or load a profile.

Choices are read over the current shortlist only: a number, an ordinal (typos tolerated:
"le premeir", "the secnd"), "the last one", the cheapest or the most expensive, or the words
of a title ("let's go with the tripod", "le moulin en bois"). Typos and near words are
matched with rapidfuzz, never a list of misspellings.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from giftgenius.text import fold

ORDINALS = {
    "first": 1, "premier": 1, "premiere": 1, "second": 2, "deuxieme": 2, "seconde": 2,
    "third": 3, "troisieme": 3, "fourth": 4, "quatrieme": 4, "fifth": 5, "cinquieme": 5,
    "sixth": 6, "sixieme": 6, "seventh": 7, "septieme": 7, "eighth": 8, "huitieme": 8,
    "ninth": 9, "neuvieme": 9, "tenth": 10, "dixieme": 10,
    "last": -1, "dernier": -1, "derniere": -1, "final": -1,
}  # fmt: skip
_SHORT_ORDINAL = re.compile(r"(?<![\w])(\d{1,2})\s*(?:st|nd|rd|th|er|ere|e|eme|ème|è)(?![\w])")
_NUMBERED = re.compile(
    r"(?<![\w])(?:number|numero|num|no\.?|n°|nº|option|choice|choix|gift|idea|idee|item|"
    r"#|la|le|the|take|prends|pick|choose|choisis|want|veux)\s*(\d{1,2})\b(?!\s*[$€£%:/])"
)
_NUMBER_WORDS = {
    "one": 1, "two": 2, "deux": 2, "three": 3, "trois": 3, "four": 4, "quatre": 4,
    "five": 5, "cinq": 5, "six": 6, "seven": 7, "sept": 7, "eight": 8, "huit": 8,
}  # fmt: skip
_NUMBER_WORD = re.compile(
    r"(?<![\w'])(?:number|numero|no\.?|option|choice|choix|le|la|the|#)\s*("
    + "|".join(_NUMBER_WORDS)
    + r")(?![\w'])"
)
_ONLY_NUMBER = re.compile(r"^\s*(?:#|n°|no\.?)?\s*(\d{1,2})\s*[.!)]?\s*$")
_CHEAPEST = re.compile(
    r"(?<![\w])(?:cheapest|least expensive|lowest price|lowest priced|most affordable|"
    r"(?:le |la |l')?moins (?:cher|chere|chers|cheres|onereux|onereuse|couteux|couteuse)|"
    r"(?:le |la )?plus (?:abordable|economique|petit prix))(?![\w])"
)
_PRICIEST = re.compile(
    r"(?<![\w])(?:most expensive|priciest|dearest|highest price|fanciest|"
    r"(?:le |la )?plus (?:cher|chere|onereux|onereuse|couteux|couteuse|luxueux))(?![\w])"
)
# Words that make a message a choice ("let's go with …", "je prends …").
CHOICE_CUE = re.compile(
    r"(?<![\w'])(?:take|taking|go with|going with|go for|pick|choose|i'?ll have|want|"
    r"i'?d like|let'?s do|prends|prend|choisis|choisi|je veux|on part sur|va pour|"
    r"je vais prendre|on prend|ce sera|j'opte pour|plutot)(?![\w])"
)

# Yes, in words; "no" in words. A decline wins over a yes in the same message.
_CONFIRM = re.compile(
    r"(?<![\w'])(?:yes|yep|yeah|yup|ya|sure|ok|okay|k|confirm\w*|go|go ahead|go for it|"
    r"let'?s do it|let'?s go|sounds? (?:good|great|perfect|fine)|looks? (?:good|great)|"
    r"perfect|great|deal|do it|book it|order it|that'?s it|that'?s the one|that one|"
    r"i'?ll take it|take it|absolutely|definitely|of course|please do|fine|works for me|"
    r"oui|ouais|ouaip|ok|d'accord|dac|daccord|valide\w*|confirme\w*|parfait|c'est bon|"
    r"tout bon|vas-y|allez-y|allez|allons-y|banco|ca marche|ca me va|ca ira|ca roule|nickel|"
    r"impec\w*|on y va|je le prends|je la prends|on le prend|on la prend|on prend|vendu|"
    r"finalise\w*|carrement|volontiers|avec plaisir|top|super|genial|go|c'est parti|"
    r"entendu|exactement|tout a fait|bien sur|oki|okey|j'achete|envoie\w*|envoyez|"
    r"c'est regle|dernier mot|on part la-dessus|c'est beau|correct|comme ca|"
    r"(?:c'est )?(?:bien )?(?:celui|celle)-(?:la|ci)|c'est (?:bien )?(?:lui|elle)|voila)(?![\w'])"
)
DECLINE = re.compile(
    r"(?<![\w'])(?:not yet|pas encore|don'?t confirm|do not confirm|ne (?:confirme|valide) pas|"
    r"wait|attends|attendez|hold on|not sure|pas sur|nah|nope|no thanks|"
    r"(?:show|see|give) me (?:others|other|something else|more|different)|something else|"
    r"other (?:ones|options|ideas)|autre chose|d'autres|une autre|un autre|pas celui|"
    r"pas celle|pas ca|bof|je n'aime pas|i don'?t like)(?![\w'])"
    r"|^\s*(?:no|non|nan)\s*(?:[,.!]|$)"
)

# Keeping words of both languages; a save needs its context too (a label, "profile", "for
# next time"), so "keep it under 50" or "store pickup" save nothing.
_SAVE_VERB = (
    r"save|remember|keep|store|stash|bookmark|hang on to|hold on ?to|note|enregistre\w*|"
    r"sauvegarde\w*|stocke\w*|conserve\w*|"
    r"memorise\w*|retiens|retenir|"
    r"garde\w*|note\w*|mets?\s+de\s+cote|appelle-(?:la|le|les)|"
    r"call (?:her|him|them)|file (?:her|him|them) under"
)
_SAVE = re.compile(
    rf"(?<![\w'])(?:{_SAVE_VERB})(?![\w])(?P<body>[^.!?\n]*)",
)
_LABEL_AFTER = re.compile(
    r"(?<![\w'])(?:as|under|called|named|sous le nom d[e']|sous le nom|au nom d[e']|sous|comme|"
    r"en tant que|avec le nom)\s*(?P<label>.+)$"
)
_NEXT_TIME = re.compile(
    r"\s*(?:for (?:next time|later|the future|another time)|pour (?:la prochaine fois|"
    r"plus tard|une prochaine fois|la suite|la prochaine)|next time|la prochaine fois|"
    r"please|pls|stp|svp|s'il (?:te|vous) plait|merci|thanks|thank you)\b.*$"
)
_SAVE_CONTEXT = re.compile(
    r"profile|profil|details|info|infos|information|coordonnees|fiche|next time|"
    r"prochaine fois|for later|en memoire|en tete|(?:as|under|sous|"
    r"comme)\s|['\"«“]|d'(?:elle|lui|eux)|of (?:her|him|them)"
)
_NAME_LABEL = re.compile(
    r"^(?:son prenom|son nom|his name|her name|their name|his first name|her first name|"
    r"their first name|her name|son petit nom)$"
)
_LEADING = re.compile(
    r"^(?:(?:this|that|the|her|his|their|my|ce|cette|le|la|les|l'|son|sa|ses|mon|ma|mes)\s+"
    r"(?:profile|profil|person|personne|one)\s*|(?:her|him|them|it|this|that|ca|cela|-la|-le|"
    r"la|le|les|l')\s+|[-\s])+"
)
_LOAD = re.compile(
    r"(?<![\w'])(?:last time|la derniere fois|la fois d'avant|la fois derniere|"
    r"l'autre fois|the other time|as before|comme avant|comme d'hab\w*|"
    r"same (?:\w+ ){0,2}as (?:last time|before)|saved profile|profil enregistre|"
    r"(?:load|use|reuse|pull up|charge\w*|reprends?|utilise|recharge\w*)\s+(?:the |my |le |son |"
    r"mon |ma |sa |her |his )?(?:saved )?(?:profile|profil)|"
    r"(?:again|encore|de nouveau|une nouvelle fois|another gift) for|"
    r"refai[st](?:-moi|-nous)? une (?:recherche|liste)|nouvelle recherche pour|"
    r"(?:new|another) search for|en memoire|tu (?:l'as|dois l'avoir|les as) (?:gardee?s?|"
    r"enregistree?s?|en memoire)|you (?:saved|have|kept) (?:her|him|them)|"
    r"tu te souviens d(?:e|')|you remember|do you remember|"
    r"(?:c'est encore|c'est de nouveau|encore une fois) pour|again for|once more for|"
    r"meme (?:\w+ ){0,2}que)"
    r"(?![\w])"
)


@dataclass(frozen=True)
class Choice:
    """How the person picked: a position (1-based, -1 = last), a price end, or title words."""

    position: int | None = None
    price: str | None = None  # "min" or "max"
    words: str | None = None  # the message, to match against titles


def choice(folded: str, *, whole: bool = True) -> Choice | None:
    """The choice a folded message makes, if it makes one. A bare number is a choice only
    when it is the whole message (``whole``): "actually make it 70" sets a budget."""
    from rapidfuzz import fuzz, process

    if _CHEAPEST.search(folded):
        return Choice(price="min")
    if _PRICIEST.search(folded):
        return Choice(price="max")
    m = (
        (_ONLY_NUMBER.match(folded) if whole else None)
        or _SHORT_ORDINAL.search(folded)
        or _NUMBERED.search(folded)
    )
    if m:
        return Choice(position=int(m[1]))
    m = _NUMBER_WORD.search(folded)
    if m:
        return Choice(position=_NUMBER_WORDS[m[1]])
    for word in re.findall(r"[a-z]+", folded):
        if len(word) < 4:
            continue
        best = process.extractOne(word, ORDINALS.keys(), scorer=fuzz.ratio, score_cutoff=80)
        if best is not None and _near_enough(word, best[0]):
            return Choice(position=ORDINALS[best[0]])
    return None


def _near_enough(word: str, ordinal: str) -> bool:
    """A typo of an ordinal, not another word: same first letter and length within 2."""
    return word[0] == ordinal[0] and abs(len(word) - len(ordinal)) <= 2 and word != "seconds"


def title_match(folded: str, titles: list[str]) -> tuple[int, float] | None:
    """The index of the title the message names, by its words (fuzzy, shortlist only).

    Each word of the message meets its closest title word; words found in fewer titles
    weigh more, so a word shared by two titles does not hide the one that tells them apart.
    Returns the index and the share of the message's words the title holds.
    """
    from rapidfuzz import fuzz, process

    said = [w for w in re.findall(r"[a-z0-9]+", folded) if len(w) >= 3 and w not in _COMMON]
    if not said or not titles:
        return None
    title_words = [
        {w for w in re.findall(r"[a-z0-9]+", fold(t)) if len(w) >= 3 and w not in _COMMON}
        for t in titles
    ]
    scores = [0.0] * len(titles)
    matched = [0] * len(titles)
    for word in said:
        hits = []
        for i, words in enumerate(title_words):
            best = process.extractOne(word, words, scorer=fuzz.ratio, score_cutoff=82)
            if best is not None:
                hits.append(i)
        for i in hits:
            scores[i] += 1.0 / len(hits)
            matched[i] += 1
    ranked = sorted(range(len(titles)), key=lambda i: -scores[i])
    top = ranked[0]
    if scores[top] == 0 or (len(ranked) > 1 and scores[ranked[1]] == scores[top]):
        return None
    return top, matched[top] / len(said)


_COMMON = frozenset(
    """
    the and for with les des une pour avec the one that this celui celle cela take let
    go going prends prend veux want like would i'll ill choose pick moi est c'est
    gift cadeau idea idee looks great nice super bien top yes oui
    """.split()  # noqa: SIM905 - a word list reads better as text
)


def confirms(folded: str) -> bool:
    return _CONFIRM.search(folded) is not None and not declines(folded)


def declines(folded: str) -> bool:
    return DECLINE.search(folded) is not None


def save_label(folded: str, original: str) -> str | None:
    """The label a save request gives; "" when it asks to save under the person's name."""
    m = _SAVE.search(folded)
    if m is None or not _SAVE_CONTEXT.search(m["body"] + " "):
        return None
    body_start = m.start("body")
    body = m["body"]
    quoted = re.search(r"['\"«“]\s*([^'\"»”]{1,40}?)\s*['\"»”]", original[body_start : m.end()])
    if quoted:
        return quoted[1].strip()
    after = _LABEL_AFTER.search(body)
    start = after.start("label") if after else 0
    label_folded = _NEXT_TIME.sub("", body[start:])
    label = original[body_start + start : body_start + start + len(label_folded)]
    label = _LEADING.sub("", label.strip(" ,:;«»\"'")).strip(" ,:;«»\"'")
    if any(ch.isdigit() for ch in label):
        return None  # "note: under 50" is a budget, not a label
    if _NAME_LABEL.match(fold(label)) or (after is None and len(label.split()) > 3):
        return ""  # "note that Clara hates perfume, for next time": under her name
    return label[:40] or None


def save_span(folded: str) -> tuple[int, int] | None:
    """Where the save request is, so its label is not read as facts."""
    m = _SAVE.search(folded)
    return (m.start(), m.end()) if m is not None else None


def wants_load(folded: str) -> bool:
    return _LOAD.search(folded) is not None


# A yes that stands even in the message that chooses: "I'll take the second one, confirm it".
_EXPLICIT = re.compile(
    r"(?<![\w'])(?:confirm\w*|book it|order it|place the order|valide\w*|confirme\w*|"
    r"finalise\w*|commande\w*|go ahead and order)(?![\w'])"
)


def explicit_confirm(folded: str) -> bool:
    return _EXPLICIT.search(folded) is not None and not declines(folded)
