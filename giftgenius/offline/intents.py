"""What a message asks the agent to do: choose, confirm or decline, save or load a profile.

Choices are read over the current shortlist only: a number, an ordinal (typos tolerated:
"le premeir", "the secnd"), a place in the list ("the last one", "the one at the bottom",
"celui du haut"), the cheapest or the most expensive, the words of a title ("let's go with
the tripod", "le moulin en bois"), or a description of the gift by what it is for ("the
knitting one", "celui pour le chien": the vocabulary's tags of the words said, met against the
tags of the title and of the interests the candidate answers). Typos and near words — and
French–English cognates such as "harnais"/"harness" — are matched with rapidfuzz, never a list
of misspellings.

A number or an ordinal inside a yes ("that's the one", "c'est mon dernier mot") is no
position, and an ordinal that qualifies another noun ("her first time", "last week") is none.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property, lru_cache

from giftgenius.catalog.describing import compound_parts, read_description, spelled_in
from giftgenius.language.folding import alternation, fold
from giftgenius.language.lexicon import LANGUAGES, union, words
from giftgenius.language.patterns import alternatives, matcher, source
from giftgenius.language.vocabulary import canonical_tags, describe, tokenize
from giftgenius.language.when import ORDINAL_SUFFIX
from giftgenius.offline.clauses import NO_TROUBLE
from giftgenius.offline.spelling import is_word

# The ordinals by place in the list, English then French for each (the order ties are met in
# when a typo is matched); "last" is -1.
_PLACES = (
    "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
)  # fmt: skip
_CHOICES = "offline_choices"
ORDINALS = {
    word: place
    for place, kind in [*enumerate(_PLACES, 1), (-1, "last")]
    for lang in LANGUAGES
    for word in words("offline_choices", kind, lang)
}
_SHORT_ORDINAL = re.compile(rf"(?<![\w])(\d{{1,2}})\s*(?:{ORDINAL_SUFFIX})(?![\w])")
# A number after a word that names a place or takes one ("number 2", "la 2", "take 4"); a
# number word after a noun or an article only, and "the one" points ("the one with the dog").
_NOUNS = alternatives(_CHOICES, "number_nouns")
_ARTICLES = alternatives(_CHOICES, "number_articles")
_NUMBERED = re.compile(
    rf"(?<![\w])(?:{_NOUNS}|{_ARTICLES}|{alternatives(_CHOICES, 'number_takers')})"
    r"\s*(\d{1,2})\b(?!\s*[$€£%:/])"
)
_NUMBER_WORD = re.compile(
    rf"(?<![\w'])(?:(?P<noun>{_NOUNS})|{_ARTICLES})\s*"
    rf"(?P<n>{alternatives('offline_numbers', 'cardinals')})(?![\w'])"
)
# A place in the list said without an ordinal, and an end of the prices (the phrases are
# data: offline_choices' [patterns]).
_AT_END = matcher(_CHOICES, "at_end")
_BEFORE_LAST = matcher(_CHOICES, "before_last")
_AT_TOP = matcher(_CHOICES, "at_top")
_CHEAPEST = matcher(_CHOICES, "cheapest")
_PRICIEST = matcher(_CHOICES, "priciest")
_CHEAPER = matcher(_CHOICES, "cheaper")
_PRICIER = matcher(_CHOICES, "pricier")
_OTHERS = matcher(_CHOICES, "others")
_ABOUT_ME = matcher(_CHOICES, "about_me")
# What else an ordinal counts in what people write about the person: times and occasions,
# steps of a life, words, and a number of items ("the first two"); an ordinal before any
# other word ("first works", "le premier proposé", "le deuxième m'intéresse") points into
# the list, since a verb, an adjective or a pronoun follows the choice itself.
_OTHER_THINGS = union("offline_choices", "counted_things")
_ONLY_NUMBER = re.compile(r"^\s*(?:#|n°|no\.?)?\s*(\d{1,2})\s*[.!)]?\s*$")
# A part of the list: "of the first two", "parmi les trois derniers" (the counts and ends
# of the list are the questions' words for "the first few").
# How many a word of "the first two", "les trois derniers" counts.
COUNTS = {w: n for n in (2, 3, 4) for w in union("questions", f"count_{n}")}
_LAST_FEW = union("questions", "last_few")
_ENDS = alternation(union("questions", "first_few") | _LAST_FEW)
_SCOPE = re.compile(
    rf"(?<![\w]){source(_CHOICES, 'among')}\s+(?:(?P<end1>{_ENDS})\s+)?"
    rf"(?P<n>{alternation(COUNTS)})(?:\s+(?P<end2>{_ENDS}))?(?![\w])"
)
# A word about the price alone or for the list names no kind of gift ("c'est trop cher",
# "le moins cher de la liste").
_PRICEY = re.compile(rf"(?<![\w]){source(_CHOICES, 'about_price', 'the_list')}(?![\w])")


def _scope(folded: str) -> int | None:
    """The part of the list a comparative looks at: the first N (N), the last N (-N)."""
    m = _SCOPE.search(folded)
    if m is None:
        return None
    end = m["end1"] or m["end2"]
    if end is None:
        return None
    return -COUNTS[m["n"]] if end in _LAST_FEW else COUNTS[m["n"]]


# Words that make a message a choice ("let's go with …", "je prends …", "the knitting one").
CHOICE_CUE = re.compile(rf"(?<![\w']){source(_CHOICES, 'choosing')}(?![\w])")
# Praise of a gift on show ("the guidebook sounds good", "le coussin me plaît bien"): a
# choice when the message points at one and takes nothing back (``nlu``).
LIKING = re.compile(rf"(?<![\w']){source(_CHOICES, 'liking')}(?![\w'])")
# Thinking aloud before the gift is named ("hmm, the …", "euh, le …").
_HESITATION = re.compile(rf"^\s*(?:(?:{alternatives(_CHOICES, 'hesitations')})(?![\w'])[\s,.!…]*)+")


def unpraised(folded: str) -> str:
    """The message with its praise blanked (same length): "ça a l'air top" points at nothing."""
    return LIKING.sub(lambda m: " " * len(m[0]), folded)


def unhesitating(folded: str) -> str:
    """The message without the sounds of thinking it opens with, blanked (same length)."""
    m = _HESITATION.match(folded)
    return folded if m is None else " " * m.end() + folded[m.end() :]


# Yes, in words; "no" in words (offline_choices' yes and no). A decline wins over a yes in
# the same message. A hyphenated word is one word: the "k" of "k-pop" and the "go" of "her
# go-to drink" say no yes; "yass" and "yesss" stretch their last letter.
_CONFIRM = re.compile(rf"(?<![\w'-])(?:{source(_CHOICES, 'yes')}|yas+|yess+)(?![\w']|-\w)")
DECLINE = re.compile(matcher(_CHOICES, "no").pattern + r"|^\s*(?:no|non|nan)\s*(?:[,.!]|$)")

# Keeping words (offline_profiles' save); a save needs its context too (a label, "profile",
# "for next time"), so "keep it under 50" or "store pickup" save nothing.
_PROFILES = "offline_profiles"
_SAVE = re.compile(rf"(?<![\w'])(?:{source(_PROFILES, 'save')})(?![\w])(?P<body>[^.!?\n]*)")
_LABEL_AFTER = re.compile(rf"(?<![\w'])(?:{source(_PROFILES, 'label_leads')})\s*(?P<label>.+)$")
_NEXT_TIME = re.compile(rf"\s*(?:{source(_PROFILES, 'label_ends')})\b.*$")
_SAVE_CONTEXT = re.compile(
    rf"{alternatives(_PROFILES, 'save_context')}|(?:as|under|sous|comme)\s|['\"«“]"
)
_NAME_LABEL = matcher(_PROFILES, "name_label")
# What opens a label and is no part of it: "this person", "her" (offline_profiles).
_LEADING = re.compile(
    rf"^(?:{source(_PROFILES, 'label_openers')}\s*"
    rf"|{source(_PROFILES, 'label_pronouns')}\s+|[-\s])+"
)
# Using a kept profile again ("same as last time", "même budget que la dernière fois").
_LOAD = re.compile(rf"(?<![\w']){source(_PROFILES, 'load', 'earlier')}(?![\w])")
_EARLIER = re.compile(rf"(?<![\w']){source(_PROFILES, 'earlier')}(?![\w])")


@dataclass(frozen=True)
class Choice:
    """How the person picked: a position (1-based; -1 is the last, -2 the one before), a
    price end, or title words.

    ``also`` holds the other titles the same words fit equally well, when the words named
    more than one gift and the best-placed one was taken: the reply names them, so the
    person can switch before confirming.
    """

    position: int | None = None
    price: str | None = None  # "min" or "max"
    words: str | None = None  # the chosen title (matched against the shortlist's titles)
    also: tuple[str, ...] = ()
    among: int | None = None  # a price end within the first N (N) or the last N (-N)
    # What the gift is, in the person's words, for the tool to match against the products
    # themselves ("the moka pot", "le moulin en bois"), alone or with a price end ("le moins
    # cher des doudous").
    described: str | None = None


def choice(folded: str, *, whole: bool = True) -> Choice | None:
    """The choice a folded message makes, if it makes one. A bare number is a choice only
    when it is the whole message (``whole``): "actually make it 70" sets a budget."""
    said = _Said(folded, whole)
    return next((c for reader in _CHOICE_READERS if (c := reader(said)) is not None), None)


@dataclass
class _Said:
    """A folded message, and the same with its yes-phrases and praise blanked: "that's the
    one", "mon dernier mot", "ça me tente" point at no position."""

    folded: str
    whole: bool

    @cached_property
    def bare(self) -> str:
        return _without_yes(unpraised(self.folded))


def _price_end(said: _Said) -> Choice | None:
    folded = said.folded
    if _CHEAPEST.search(folded) or _CHEAPER.search(folded):
        return Choice(price="min", among=_scope(folded))
    if _PRICIEST.search(folded) or _PRICIER.search(folded):
        return Choice(price="max", among=_scope(folded))
    return None


def _place(said: _Said) -> Choice | None:
    """A place in the list said without an ordinal: before the last, the end, the top."""
    places = ((_BEFORE_LAST, -2), (_AT_END, -1), (_AT_TOP, 1))
    return next((Choice(position=p) for pattern, p in places if pattern.search(said.folded)), None)


def _number(said: _Said) -> Choice | None:
    """A number: the whole message, "2nd", "number 2"."""
    m = (
        (_ONLY_NUMBER.match(said.bare) if said.whole else None)
        or _SHORT_ORDINAL.search(said.bare)
        or _NUMBERED.search(said.bare)
    )
    return Choice(position=int(m[1])) if m else None


def _number_word(said: _Said) -> Choice | None:
    """A number word after a noun or an article ("number two", "la deux"), as far as the
    ordinals count; "the one" points at something, it counts nothing."""
    for m in _NUMBER_WORD.finditer(said.bare):
        place = _number_places().get(m["n"])
        if place is not None and (m["noun"] or place > 1):
            return Choice(position=place)
    return None


@lru_cache(maxsize=1)
def _number_places() -> dict[str, int]:
    """The number words that name a place in the list, as far as the ordinals count →
    the place (offline_numbers' cardinals, read by text2num); "un" and "une" are articles."""
    from text_to_num import text2num

    articles = union("function_words", "indefinite_articles")
    values = {
        word: text2num(word, lang)
        for lang in LANGUAGES
        for word in words("offline_numbers", "cardinals", lang)
        if word not in articles
    }
    return {word: value for word, value in values.items() if value <= len(_PLACES)}


def _ordinal(said: _Said) -> Choice | None:
    """An ordinal, typos tolerated ("le premeir"), that points into the list."""
    from rapidfuzz import fuzz, process

    folded = said.bare
    for word in re.finditer(r"[a-z]+", folded):
        if len(word[0]) < 4:
            continue
        if (
            word[0] not in ORDINALS
            and is_word(word[0])
            and not _POINTED.search(folded[: word.start()])
            and not _ONE_AFTER.match(folded[word.end() :])
        ):
            continue  # "send to Chicago" is no "second": a real word is a slip only in place
        best = process.extractOne(word[0], ORDINALS.keys(), scorer=fuzz.ratio, score_cutoff=80)
        if (
            best is not None
            and _near_enough(word[0], best[0])
            and _qualifies_a_choice(folded[word.end() :])
        ):
            return Choice(position=ORDINALS[best[0]])
    return None


# The readers of a choice, tried in turn. A price end wins over a place ("the cheaper of
# the last two" is about price); a place said in words wins over numbers ("the one at the
# bottom"); digits are surer than number words, and both surer than an ordinal that may be
# a typo.
_CHOICE_READERS = (_price_end, _place, _number, _number_word, _ordinal)


# Where a misspelt ordinal stands: after "the"/"le", or before "one"/"un" or the end.
_POINTED = re.compile(matcher(_CHOICES, "pointed").pattern + r"\s*$")
_ONE_AFTER = re.compile(rf"\s*{source(_CHOICES, 'one_after')}?[\s.!]*$")


# Asking whether there is such a thing names it as surely as pointing at it ("do you have a
# moka pot?"), when the message opens with the question.
_HAVE_ASK = re.compile(
    rf"^\s*(?:(?:{alternatives(_CHOICES, 'openers')})\W+)?"
    rf"{source(_CHOICES, 'have_ask')}(?![\w'])"
)


def asks_for_one(folded: str) -> bool:
    return _HAVE_ASK.search(folded) is not None


_PHRASE_END = re.compile(rf"[,.;:!?()]|{matcher(_CHOICES, 'kind_ends').pattern}")
_NOUN_BEFORE = re.compile(rf"(?:^|\s){source(_CHOICES, 'noun_before')}\s*$")
_POSTPOSED = re.compile(r"(?:^|\s)(?:le|la|les|l')\s*$")


def price_kind(text: str) -> str | None:
    """The kind a price end ranges over, in the words next to it: after it ("the cheapest
    candle", "le moins cher des doudous", "the priciest of the grinders") or, French-style,
    before it ("la bougie la moins chère"); None when it ranges over the whole list ("show
    me the priciest one and I'll take it")."""
    folded = fold(text, keep_length=True)
    found = [m for p in (_CHEAPEST, _PRICIEST, _CHEAPER, _PRICIER) if (m := p.search(folded))]
    if not found:
        return None
    m = min(found, key=lambda x: x.start())
    after = _PHRASE_END.search(folded, m.end())
    kind = described(text[m.end() : after.start() if after else len(text)])
    if kind is None and (
        folded[m.start() : m.start() + 3] in ("le ", "la ")
        or _POSTPOSED.search(folded[: m.start()])
    ):
        # "la bougie" in "… la bougie la moins chère"
        noun = _NOUN_BEFORE.search(folded[: m.start()])
        kind = described(text[noun.start() : m.start()]) if noun else None
    if kind is not None:
        terms = read_description(kind)
        if not (terms.tags or terms.materials or terms.features):
            return None  # "the most expensive one that fits": no kind, the whole list
    return kind


_PRICE_ENDS = (_CHEAPEST, _PRICIEST, _CHEAPER, _PRICIER)


def described(text: str) -> str | None:
    """The words of a message that say what a gift is, once its yes-words, price ends,
    places in the list and numbers are blanked; None when nothing is left that describes
    ("the cheapest one", "le moins cher des deux premiers")."""
    folded = fold(text, keep_length=True)  # same spans: the kept words keep their accents
    cut = _without_yes(unpraised(folded))
    for pattern in (*_PRICE_ENDS, _SCOPE, _AT_END, _AT_TOP, _PRICEY, _HESITATION):
        cut = pattern.sub(lambda m: " " * len(m[0]), cut)
    words = [
        (m.start(), m.end())
        for m in re.finditer(r"[\w'-]+", cut)
        if m[0] not in ORDINALS and m[0] not in _number_places() and not m[0].isdigit()
    ]
    kept = " ".join(text[a:b] for a, b in words)
    return kept if read_description(kept).size else None


def _without_yes(folded: str) -> str:
    """The message with its yes-phrases blanked (same length), so "that's the one" or "c'est
    mon dernier mot" are not read as a position."""
    return _CONFIRM.sub(lambda m: " " * len(m[0]), folded)


def _near_enough(word: str, ordinal: str) -> bool:
    """A typo of an ordinal, not another word: same first letter and length within 2, and not
    a longer word built on it ("seconds", "finally", "firstly", "lastly")."""
    return (
        word[0] == ordinal[0]
        and abs(len(word) - len(ordinal)) <= 2
        and not (word.startswith(ordinal) and word != ordinal)
    )


def _qualifies_a_choice(rest: str) -> bool:
    """Whether the words after an ordinal leave it pointing into the list: anything but a
    word for another thing it could count ("first time", "last week", "premier
    appartement", "the first two")."""
    m = re.match(r"\s*([a-z'-]+)", rest)
    if m is None or re.match(r"\s*[^\w\s]", rest):
        return True
    return m[1] not in _OTHER_THINGS and m[1].split("'")[0] not in _OTHER_THINGS


@dataclass(frozen=True)
class Candidate:
    """What the person can point at in a shortlisted gift: its title and the interests it
    answers (canonical tags, as the candidate view lists them)."""

    title: str
    answers: tuple[str, ...] = ()


@dataclass(frozen=True)
class Match:
    """The candidates the message's words point at, best first, and how well."""

    best: list[int]  # indexes tied for the best score, in shortlist order
    share: float  # the share of the message's words the best candidate holds


def title_match(text: str, candidates: list[Candidate]) -> Match | None:
    """The candidates the message names, by the words of their titles or by what they are for
    (fuzzy, shortlist only).

    Each word of the message meets its closest title word (a typo, or a cognate such as
    "harnais"/"harness") or, through the vocabulary, the tags of the title and of the
    interests the candidate answers ("the knitting one", "celui pour le chien"). Words found
    in fewer candidates weigh more, so a word shared by two titles does not hide the one that
    tells them apart. ``text`` may keep its accents ("le thé" is tea, "the" is not).
    """
    said = [
        w
        for w in tokenize(text)
        if canonical_tags(w) or (len(fold(w)) >= 3 and fold(w) not in _COMMON and not w.isdigit())
    ]
    if not said or not candidates:
        return None
    scores, matched = _scores(said, candidates)
    top = max(scores)
    if top == 0:
        return None
    best = [i for i, score in enumerate(scores) if score == top]
    return Match(best=best, share=matched[best[0]] / len(said))


def _scores(said: list[str], candidates: list[Candidate]) -> tuple[list[float], list[int]]:
    """Each candidate's score (a word shared by n candidates gives each 1/n) and how many of
    the words it holds."""
    title_words = [
        {w for w in re.findall(r"[a-z0-9]+", fold(c.title)) if len(w) >= 3 and w not in _COMMON}
        for c in candidates
    ]
    tags = [_tags_of(c) for c in candidates]
    scores = [0.0] * len(candidates)
    matched = [0] * len(candidates)
    for word in said:
        hits = _hits(word, title_words, tags)
        parts = compound_parts(fold(word)) if not hits else None
        if parts is not None:  # "the guidebook": the guide, or the book
            hits = sorted(set(_hits(parts[0], title_words, tags) + _hits(parts[1], [], tags)))
        for i in hits:
            scores[i] += 1.0 / len(hits)
            matched[i] += 1
    return scores, matched


def _hits(word: str, title_words: list[set[str]], tags: list[frozenset[str]]) -> list[int]:
    """The candidates whose title spells the word, or whose tags it names (``word`` keeps
    its accents: "thé" is tea, "the" is not)."""
    word_tags = canonical_tags(word)
    return [
        i
        for i in range(len(tags))
        if (i < len(title_words) and spelled_in(fold(word), title_words[i])) or word_tags & tags[i]
    ]


@lru_cache(maxsize=1024)
def _tags_of(candidate: Candidate) -> frozenset[str]:
    """The tags a person may name a candidate by: its title's (whole phrases and single
    words: a "coffee mug" is a mug and is about coffee), the interests it answers, and the
    tags inside their display words ("board games" → games too). The same shortlist is
    shown turn after turn, so each candidate's tags are worked out once."""
    found = set(canonical_tags(candidate.title)) | set(candidate.answers)
    found |= set(canonical_tags(candidate.title.split()))
    for tag in list(found):
        for language in ("en", "fr"):
            for word in describe(tag, language).split():
                found |= canonical_tags(word)
    return frozenset(found)


_COMMON = union("offline_choices", "common", "hesitations")


# "yeah nah" (no), "nah yeah" (yes), "ouais non", "non oui": answer words said one after the
# other, the way people mull a question over aloud, mean what the last of them says; the rest
# of the message is read as usual ("nah yeah, lock it in", "yeah nah, not that one").
_YES_WORD = alternatives("offline_choices", "yes_words")
_NO_WORD_RUN = alternatives("offline_choices", "no_words")
_ANSWER_WORD = re.compile(
    # "yeah no worries": a "no" that says all is well is no answer word
    rf"(?<![\w'])(?:({_YES_WORD})|({_NO_WORD_RUN})(?!\s+(?:{NO_TROUBLE})))(?![\w'])[\s,.!]*"
)


def _answer_run(folded: str) -> tuple[bool, str] | None:
    """When the message opens with a yes and a no one after the other: whether the last of
    them is a yes, and the message after them; else None."""
    at, said = 0, []
    lead = len(folded) - len(folded.lstrip())
    while m := _ANSWER_WORD.match(folded, lead + at):
        said.append(m[1] is not None)
        at = m.end() - lead
    if len(set(said)) < 2:
        return None
    return said[-1], folded[lead + at :]


def confirms(folded: str) -> bool:
    run = _answer_run(folded)
    if run is not None:
        return run[0] and DECLINE.search(run[1]) is None
    return _CONFIRM.search(folded) is not None and not declines(folded)


def declines(folded: str) -> bool:
    run = _answer_run(folded)
    if run is not None:
        return not run[0] or DECLINE.search(run[1]) is not None
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
    if _NAME_LABEL.fullmatch(fold(label)) or (after is None and len(label.split()) > 3):
        return ""  # "note that Clara hates perfume, for next time": under her name
    return label[:40] or None


def save_span(folded: str) -> tuple[int, int] | None:
    """Where the save request is, so its label is not read as facts."""
    m = _SAVE.search(folded)
    return (m.start(), m.end()) if m is not None else None


def wants_load(folded: str) -> bool:
    return _LOAD.search(folded) is not None


def load_spans(folded: str) -> list[tuple[int, int]]:
    """Where the message asks for an earlier search again: no taste is said there ("like
    last time" likes no "last")."""
    return [m.span() for m in _EARLIER.finditer(folded)]


def asks_about_me(folded: str) -> bool:
    """What the assistant is or does ("what can you do?", "comment ça marche ?")."""
    return _ABOUT_ME.search(folded) is not None


def wants_others(folded: str) -> bool:
    """Other ideas than those on show ("show me more", "any other ideas?", "autre chose")."""
    return _OTHERS.search(folded) is not None


def wants_cheaper(folded: str) -> bool:
    """Lower prices than before ("like last time but cheaper", "moins cher")."""
    return _CHEAPER.search(folded) is not None


# A yes that stands even in the message that chooses: "I'll take the second one, confirm it".
_EXPLICIT = matcher(_CHOICES, "order_now")


def explicit_confirm(folded: str) -> bool:
    return _EXPLICIT.search(folded) is not None and not declines(folded)
