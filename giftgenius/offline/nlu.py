"""What one user message says: profile facts and intents, in English or French.

The facts are read with the app's shared normalisers — the same ones the tools use for any
model — clause by clause (``clauses``): ``resolve_relation`` (who, in the person's words),
``parse_amount`` (money), ``resolve_country`` (a country, a region or a city),
``parse_deadline`` and ``is_leaving`` (a date only with a deadline cue; leaving words set
nothing). What only free text needs is here: which clause a fact belongs to, negation kept
to its clause, corrections that replace the earlier value, and an age only with an age cue
about the recipient. Interests come from ``interests``; intents from ``intents``.
"""

from __future__ import annotations

import copy
import datetime as dt
import json
import re
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

from giftgenius.catalog.describing import read_description
from giftgenius.domain import Locale
from giftgenius.language.amounts import Amount, parse_amount, refused_amount
from giftgenius.language.detect import detect_locale
from giftgenius.language.folding import fold
from giftgenius.language.lexicon import LANGUAGES, union
from giftgenius.language.lexicon import words as lexicon_words
from giftgenius.language.patterns import alternatives, any_word, matcher, source
from giftgenius.language.places import (
    country_name,
    names_a_land,
    near_country,
    place_alone,
    resolve_country,
    resolve_country_slip,
)
from giftgenius.language.relations import (
    Relation,
    resolve_relation,
    shared_tastes,
    workplace_tags,
)
from giftgenius.language.vocabulary import INTERESTS, analyze, canonical_tags, phrase_words
from giftgenius.language.when import (
    MONTH_NAMES,
    is_leaving,
    leaving_from,
    names_a_day,
    parse_deadline,
    restated_deadline,
)
from giftgenius.offline import intents
from giftgenius.offline.clauses import (
    CORRECTION,
    MARKER,
    NOT_BUT,
    TAKE_BACK,
    Clause,
    Segment,
    contrast_as_negation,
    segments,
    split,
)
from giftgenius.offline.dropped_tastes import dropped_tastes
from giftgenius.offline.interests import (
    LIKING,
    PROPER,
    TASTE_VERB,
    free_words,
    named_tastes,
    segment_tags,
    taste_names,
    verb_tags,
)
from giftgenius.offline.number_kinds import blank, bound_spans, districts
from giftgenius.offline.reading_age import age_in, names_relation, recipient_age
from giftgenius.offline.spelling import is_word, mend
from giftgenius.offline.unknown_tastes import tastes_unknown, unknown_spans
from giftgenius.privacy import PLACEHOLDERS

_PLACES, _PEOPLE, _MONEY = "reading_places", "reading_people", "reading_money"
_REPLIES, _DATES, _TASTES_SAID = "reading_replies", "reading_dates", "reading_tastes"


@dataclass
class Extraction:
    """Facts and intents of one message; ``facts`` are update_profile arguments."""

    facts: dict[str, Any] = field(default_factory=dict)
    choice: intents.Choice | None = None
    confirm: bool = False
    decline: bool = False
    leave: bool = False
    save_label: str | None = None  # "" = under the recipient's name
    load: bool = False  # a saved profile is asked for; ``text`` says which
    text: str = ""
    approximate: float | None = None  # "about N": N was taken, say so
    explicit_confirm: bool = False  # "confirm it", even in the message that chooses
    labelled: bool = False  # the recipient was named like a saved label ("filleul Noé")
    cheaper: bool = False  # an earlier search again, at lower prices ("like last time but…")
    others: bool = False  # other ideas than those on show ("show me more", "autre chose")
    about: bool = False  # what the assistant does ("what can you do?", "comment ça marche ?")

    @property
    def has_facts(self) -> bool:
        return bool(self.facts)


_NOT_A_RECIPIENT = re.compile(rf"(?<![\w'])(?:{alternatives(_PEOPLE, 'not_recipients')})(?![\w])")
# A gift exchange at work draws a colleague: "Secret Santa at the office, mine loves puns",
# "Père Noël secret au boulot". Said so, and no one else named, the colleague is who it is for.
_WORKPLACE_DRAW = re.compile(
    rf"(?<![\w'])(?:{alternatives(_PEOPLE, 'gift_exchanges')})(?![\w]).*?"
    rf"(?<![\w'])(?:{alternatives(_PEOPLE, 'workplaces')})(?![\w])"
    rf"|(?<![\w'])(?:{alternatives(_PEOPLE, 'workplace_nouns')})\s+secret santa(?![\w])"
)
_DRAWN_COLLEAGUE: dict[Locale, str] = {"en": "colleague", "fr": "collègue"}
_RETARGET = matcher(_PEOPLE, "retargets")
_UNKNOWN_RELATION_CUE = re.compile(
    rf"{matcher(_PEOPLE, 'relation_cues').pattern}\s|^\s*(?:my|mon|ma|mes)\s"
)
# What opens a clause to take back the one before ("no, …", "no wait, …", "euh non, …",
# "scrap that, …") says nothing itself: no refusal of "wait", no relation "that".
_LEAD_NO = re.compile(
    rf"^\s*(?:(?:{alternatives(_REPLIES, 'openers')})[\s,]+)?"
    rf"(?:{TAKE_BACK}|{alternatives(_REPLIES, 'noes', 'apologies')})\s*(?:[,!.:]\s*|(?=\d)|$)"
)
# Euros typed as "25e", "25 e", "25eu" (French texting), where money goes: at the end, before
# a budget word or a pause; never an ordinal after a determiner ("son 25e anniversaire", "le
# 25e") nor before a noun ("25e anniversaire", "25e étage").
_NOT_ORDINAL = "".join(rf"(?<!{w} )" for w in union("number_kinds", "ordinal_determiners"))
_E_EURO = re.compile(
    rf"(?<![\w.,]){_NOT_ORDINAL}(\d+)\s?(?:eu|e)(?=\s*(?:{alternatives(_MONEY, 'after_euros')}"
    rf"|{alternatives(_MONEY, 'after_euros_stems')}\w*|[,;!?)]|\.(?!\d)|$))"
)
_PLACE_CUE = matcher(_PLACES, "cues")
_STRONG_CUE = re.compile(matcher(_PLACES, "sure_cues").pattern + "$")
_PHRASE = re.compile(r"\s*([^,.;:!?()\n]+(?:,\s*[A-Z][^,.;:!?()\n]*)?)")
_ARTICLES = union("function_words", "definite_articles")
_NOT_PLACE = (  # "in March": a month, no town
    union(_PLACES, "not_places")
    | union("function_words", "definite_articles", "indefinite_articles", "possessives")
    | MONTH_NAMES
)
_OCCASION_DATE = re.compile(
    rf"{source(_DATES, 'occasions')}\b.*?(?:\b(?:{alternatives(_DATES, 'day_is')})\s+(?:this |ce )?"
    r"|(?=\b(?:dans|in)\s)|(?=\b(?:on|le)\s+(?:the\s+)?\d))(?P<rest>.+)$"
)


def _place(clause: Clause, lang: Locale, short: bool) -> str | None:
    """The country of a place named after a place word ("habite à Lille", "ship to
    Brussels"), or of a message that is only a place ("Lyon", "marseille")."""
    phrases, after_en = _cued_phrases(clause, lang)
    if short:
        phrases.append((clause.text, False, False))
    for phrase, cued, strong in phrases:
        found = _phrase_place(phrase, cued, strong, phrase in after_en, lang)
        if found is not None:
            return found
    found = _bare_place(clause.text, lang) if short else None
    return found if found is not None else _slipped_country(phrases, lang)


def _cued_phrases(clause: Clause, lang: Locale) -> tuple[list[tuple[str, bool, bool]], set[str]]:
    """The phrases after a place word, each as (text, after a place word, after a sure one),
    and those after "en" (a country or a region only)."""
    phrases: list[tuple[str, bool, bool]] = []
    after_en: set[str] = set()
    for cue in _PLACE_CUE.finditer(clause.folded):
        m = _PHRASE.match(clause.text, cue.end())
        if m is None:
            continue
        if cue[0] == "en":
            after_en.add(m[1])
        if lang == "en" and clause.text[cue.start() : cue.end()] == "a" and m[1][:1].islower():
            continue  # the English article, not "à": "a present for Austin from accounts"
        # a lowercase town only after a word that surely introduces a place
        strong = _STRONG_CUE.search(clause.folded[: cue.end()]) is not None
        phrases.append((m[1], True, strong))
        if "," in m[1]:  # "to 12 rue de la Paix, Paris": the town closes an address
            phrases.append((m[1].rsplit(",", 1)[1], True, strong))
    return phrases, after_en


def _phrase_place(
    phrase: str, cued: bool, strong: bool, after_en: bool, lang: Locale
) -> str | None:
    """The country of the longest run of a phrase's first words that names a place."""
    words = _past_article(phrase.split()[:5])
    if not words or fold(words[0]) in _NOT_PLACE:
        return None
    for size in range(len(words), 0, -1):
        candidate = " ".join(words[:size]).strip(" '\"")
        if not candidate:
            return None
        if size == 1 and _everyday(candidate, cued):
            continue  # "mets", "nice", "ça": everyday words before they are places
        found = _country_named(candidate, strong, lang)
        if found is not None and after_en and not names_a_land(candidate, lang):
            found = None  # "il est en grève": "en" goes before a land, not a town
        if found is not None:
            return found
    return None


def _past_article(words: list[str]) -> list[str]:
    """The words of a place phrase after its article: "to the US", "in the Netherlands",
    "vers la Suisse"."""
    return words[1:] if len(words) > 1 and fold(words[0]) in _ARTICLES else words


def _everyday(word: str, cued: bool) -> bool:
    """Whether a one-word candidate is too short or too plain to be taken for a place."""
    return (
        (len(word) < 5 and not word[:1].isupper())
        or (len(word) <= 3 and not word.isupper())
        or (word.islower() and not cued)
    )


def _country_named(candidate: str, strong: bool, lang: Locale) -> str | None:
    """The country of a candidate place; a lowercase one after "à"/"en" alone counts only as
    a country's own name ("en france"), not as a town ("à peine" is not Peine)."""
    found = resolve_country(candidate, lang)
    if not candidate.islower():
        return found
    if not strong:
        if found is not None and _own_name(found, candidate):
            return found
        # a lowercase place after a plain place word ("my buddy in denver", "from lyon"):
        # only a sure name (``place_alone``), so "in time" and "à peine" stay words
        return place_alone(candidate, lang)
    if found is None and len(candidate) >= 5 and not any(c.isdigit() for c in candidate):
        return resolve_country(candidate.title(), lang)
    return found


def _own_name(country: str, text: str) -> bool:
    """Whether ``text`` is the country's own name in either language ("France", "Suisse")."""
    return fold(text) in {fold(country_name(country, lg)) for lg in ("en", "fr")}


def _bare_place(text: str, lang: Locale) -> str | None:
    """A message that is only a place typed in lowercase ("marseille", "new york"), as an
    answer; or a country's name with one slip ("Frange" alone is a word, "frnace" is not)."""
    name = text.strip(" .!?…'\"")
    if not name or canonical_tags(name) or verb_tags(fold(name)):
        return None  # "yoga", "rando": a taste, even where a town shares its name
    if name.islower():
        found = place_alone(name, lang)
        if found is not None:
            return found
    if " " not in name and not is_word(name):
        return resolve_country_slip(name, lang)
    return None


def _slipped_country(phrases: list[tuple[str, bool, bool]], lang: Locale) -> str | None:
    """A country's name with one slip after a place word ("En Frange", "in Germnay",
    "livré en Allemange"): capitalised, as a name is, or no word of either language."""
    for phrase, cued, _ in phrases:
        words = _past_article(phrase.split())
        if not cued or not words:
            continue
        word = words[0].strip(" '\"")
        if word.isalpha() and (word[:1].isupper() or not is_word(word)):
            found = resolve_country_slip(word, lang)
            if found is not None:
                return found
    return None


def _listed_place(message: str, clause: Clause, lang: Locale) -> str | None:
    """A place said as a bare piece of a terse list ("Frère photographe, 45 €, France.",
    "…, 30 dollars, Boston", "…, à lyon"): where the gift goes.

    A name goes where a place might: the message's first piece ("Florence, 30 €") and the
    piece right after the relation it names ("pour ma tante, Florence") hold only a
    country's own name; a taste said alone in lowercase ("…, yoga") is a taste.
    """
    for m in re.finditer(r"[^,]+", clause.text):
        piece = m[0].strip(" .!'\"")
        before = message[: clause.start + m.start()]
        if not piece or not before.strip(" ,.;:!?\n"):
            continue  # the message's first piece
        previous = re.split(r"[,.;:!?\n]", before.rstrip(" ,"))[-1]
        words = analyze(piece)
        if piece.islower() and words.tags & INTERESTS and not words.words:
            continue  # "…, 40 euros, yoga" is a taste; "…, 40 pounds, Reading" the town
        if names_relation(previous, lang):
            found = resolve_country(piece, lang) if piece[:1].isupper() else None
            found = found if found is not None and _own_name(found, piece) else None
        else:
            found = place_alone(piece, lang)
        if found is not None:
            return found
    return None


_BARE_NUMBER = re.compile(r"(?<![\w.,])(\d{2,5})(?![\w.,%])")

# "my ssn is [ssn]": the words naming private data the filter replaced say nothing (private_data).
_PRIVATE_DATA = re.compile(
    rf"\b{source('private_data', 'naming')}\s*(?:(?:is|est|:|=|n°|no\.?|#)\s*)?"
    r"(?:" + "|".join(re.escape(p) for p in PLACEHOLDERS.values()) + r")"
)


def _without_private_data(text: str) -> str:
    """``text`` with each naming of private data (``_PRIVATE_DATA``) cut to one space."""
    for m in reversed(list(_PRIVATE_DATA.finditer(fold(text, keep_length=True)))):
        text = text[: m.start()] + " " + text[m.end() :]
    return text


def extract(
    text: str,
    *,
    today: dt.date,
    dollar: str = "USD",
    profile: dict[str, Any] | None = None,
    candidate_titles: list[str] | None = None,
    locale: str | None = None,
    choosing: bool = False,
    candidate_answers: list[list[str]] | None = None,
) -> Extraction:
    """Read one user message. ``profile`` is the current profile (for corrections);
    ``choosing`` says a shortlist is on show, ``candidate_titles`` its titles when known
    (choices are read only then, and titles only over them), ``candidate_answers`` the
    interests each of them answers, in the same order (to choose one by what it is for).

    The model is asked several times in one turn (after each tool result) about the same
    message and the same state block, so a reading depends on nothing but these arguments
    and is remembered for them; each caller gets its own copy to keep.
    """
    answers = None if candidate_answers is None else tuple(map(tuple, candidate_answers))
    found = _read(
        _without_private_data(text),
        today,
        dollar,
        _Key(json.dumps(profile or {}, sort_keys=True, default=repr), profile or {}),
        tuple(candidate_titles or ()),
        locale,
        choosing,
        answers,
    )
    return copy.deepcopy(found)


@dataclass(frozen=True)
class _Key:
    """A profile as a cache key: compared by its JSON, handed over as it is."""

    json: str
    value: dict[str, Any] = field(compare=False, hash=False)


def _without_leaving(raw: str, folded: str) -> str:
    """``folded`` cut where the person starts stepping away: what follows is put off, not
    said now ("…, mais je reviendrai pour finaliser plus tard", "let me think about it, I'll
    confirm tomorrow"), while the "oui" of "oui je confirme, merci et à plus" stays."""
    for clause in split(raw):
        at = leaving_from(clause.text)
        if at is not None:
            return folded[: clause.start + at]
    return folded


@lru_cache(maxsize=256)
def _read(
    text: str,
    today: dt.date,
    dollar: str,
    profile_key: _Key,
    candidate_titles: tuple[str, ...],
    locale: str | None,
    choosing: bool,
    candidate_answers: tuple[tuple[str, ...], ...] | None,
) -> Extraction:
    profile = profile_key.value
    raw = mend(text.replace("’", "'").replace("‘", "'"))  # typos mended once, for all below
    lang: Locale = "fr" if locale == "fr" else "en" if locale == "en" else detect_locale(raw)
    folded = fold(raw, keep_length=True)
    out = Extraction(text=raw)
    out.leave = is_leaving(raw, lang)
    out.decline = intents.declines(folded)
    # What is put off is not said: "je prends la deuxième, mais je reviendrai pour finaliser
    # plus tard" chooses and stops; only a yes outside the leaving clause confirms.
    staying = _without_leaving(raw, folded) if out.leave else folded
    out.confirm = intents.confirms(staying)
    out.explicit_confirm = intents.explicit_confirm(staying)
    out.save_label = intents.save_label(folded, raw)
    out.load = out.save_label is None and intents.wants_load(folded)
    out.cheaper = out.load and intents.wants_cheaper(folded)
    out.others = not out.load and intents.wants_others(folded)
    out.about = intents.asks_about_me(folded)
    if (choosing or candidate_titles) and not out.load:
        answers = candidate_answers or [() for _ in candidate_titles]
        pairs = zip(candidate_titles, answers, strict=False)
        shortlist = [intents.Candidate(t, tuple(a)) for t, a in pairs]
        # a day or a district is no place in the list ("before the 20th", "Paris 15e")
        bound = bound_spans(raw, lang, lambda clause: _deadline(clause, today, lang))
        out.choice = _choice(blank(raw, bound), blank(folded, bound), shortlist)
        if out.choice is not None and (out.choice.described is None or out.choice.price):
            return out  # "je prends le bonsaï" chooses; it says nothing new about tastes
    quarters = districts(raw, lang)  # "Paris 15e" is no budget of 15 euros
    out.facts = _message_facts(
        blank(raw, quarters), blank(folded, quarters), _Message(lang, today, dollar, profile, out)
    )
    if out.choice is not None:
        # A gift named in words ("the grinder") says nothing new about tastes either; one
        # that also sets a budget, a place or a date ("the one under 40 for Paris") is facts.
        if set(out.facts) - _TASTES:
            out.choice = None
        else:
            out.facts = {}
    return out


@dataclass(frozen=True)
class _Message:
    """What the readers of one message share: its language, the day, what "$" means, the
    profile known, and the extraction being filled."""

    lang: Locale
    today: dt.date
    dollar: str
    profile: dict[str, Any]
    out: Extraction


def _message_facts(raw: str, folded: str, msg: _Message) -> dict[str, Any]:
    """The facts of a message, with what a save request or a gift exchange says set apart."""
    # A labelled save names no one ("save her profile as Laura"); one under the person's name
    # may carry facts ("note bien que Clara déteste les parfums forts, pour la prochaine fois").
    readable = _blank_save(raw, folded) if msg.out.save_label else raw
    exchanges = [m.span() for m in _NOT_A_RECIPIENT.finditer(folded)]
    earlier = intents.load_spans(folded) if msg.out.load else []
    # "no clue what she's into": no taste cued
    readable = blank(readable, exchanges + earlier + unknown_spans(folded))
    facts = _facts(readable, msg)
    if "deadline" not in facts and _NOT_A_RECIPIENT.search(folded):
        # the exchange is an occasion too, read where it is still said: "Secret Santa at
        # work on the 18th" is due on the 18th
        deadline = _exchange_deadline(raw, msg.today, msg.lang)
        if deadline is not None:
            facts["deadline"] = deadline
    if (
        "recipient" not in facts
        and not msg.profile.get("recipient")
        and _WORKPLACE_DRAW.search(folded)
    ):
        facts["recipient"] = _DRAWN_COLLEAGUE[msg.lang]
    if "interests" not in facts and tastes_unknown(folded, msg.profile):
        facts["tastes_unknown"] = True  # "no idea what she likes": popular ideas, no question
    return facts


def _exchange_deadline(raw: str, today: dt.date, lang: Locale) -> dt.date | None:
    """The day of the first clause naming a gift exchange that sets one."""
    for clause in split(raw):
        if _NOT_A_RECIPIENT.search(clause.folded):
            deadline = _deadline(clause, today, lang)
            if deadline is not None:
                return deadline
    return None


_TASTES = frozenset(
    {"interests", "dislikes", "remove_interests", "remove_dislikes", "tastes_unknown"}
)

_NO_WORD = re.compile(rf"(?<![\w'])(?:{alternatives(_REPLIES, 'noes')})\s*[,.!]")

# A gift refused before the one chosen, with no "but": "pas le 2, le 3", "not that one, the
# third", "non pas celui-là ; le bleu". What follows the refused piece is the choice.
_NOT_THIS = re.compile(
    rf"(?<![\w'])(?:{alternatives(_REPLIES, 'refusals')})\s+(?P<what>[^,;.!?]{{1,30}}?)\s*[,;.!?]"
)


def _points(piece: str) -> bool:
    """Whether a refused piece points at a gift of the list ("le 2", "that one", "celui-là")."""
    return _POINTING.match(piece) is not None or intents.choice(piece, whole=False) is not None


def _negated(folded: str) -> bool:
    return any(m.group("neg") for m in MARKER.finditer(folded))


def _blank_save(raw: str, folded: str) -> str:
    """The message without its save request ("save her profile as Laura" names no one)."""
    span = intents.save_span(folded)
    return raw if span is None else blank(raw, [span])


def _choice(raw: str, folded: str, shortlist: list[intents.Candidate]) -> intents.Choice | None:
    """The choice the message makes; after a correction ("le moulin… non, l'Azul") only
    what follows the last correction counts."""
    cues = list(CORRECTION.finditer(folded)) + list(_NO_WORD.finditer(folded))
    cues += [m for m in _NOT_THIS.finditer(folded) if _points(m["what"])]
    whole = True
    chooses = intents.CHOICE_CUE.search(folded) is not None or _likes_one(folded)
    if cues:
        last = max(m.end() for m in cues)
        if folded[last:].strip():
            raw, folded, whole = raw[last:], folded[last:], False
    found = intents.choice(folded, whole=whole)
    if found is not None:
        if found.price is not None and found.among is None:
            # "le moins cher des doudous": the price end among the gifts of that kind
            kind = intents.price_kind(raw)
            if kind is not None:
                return replace(found, described=kind)
        return found
    by_title = _by_title(raw, folded, shortlist, chooses)
    if by_title is not None and (len(by_title.also) == 0 or not _beyond_titles(raw)):
        return by_title
    return _described(raw, folded, chooses) or by_title


def _by_title(
    raw: str, folded: str, shortlist: list[intents.Candidate], cue: bool
) -> intents.Choice | None:
    """A choice by the words of a shortlisted title, or by what the gift is for."""
    match = intents.title_match(raw, shortlist)
    if match is None:
        return None
    # Without a choosing word ("let's go with", "je prends", "the … one", "celui qui"), the
    # message must be mostly the gift's words (half of them when it points at one: "la
    # laisse pour le chien"), refuse nothing and ask nothing: "il déteste les mugs" is no
    # choice of the mug, "what about a tea set?" asks for more.
    pointing = _points_first(folded)
    enough = match.share >= 0.5 if pointing else match.share > 0.5
    if not cue and (not enough or _negated(folded) or folded.rstrip().endswith("?")):
        return None
    best = match.best
    if len(best) > 1:
        # Words that fit several gifts pick one only when the message points at one ("the
        # chess one", "le carnet"); "a board game" asks for more, it picks nothing. The one
        # answering more of the stated interests goes first, then the list's order.
        if not cue and not _POINTING.search(folded):
            return None
        best = sorted(best, key=lambda i: (-len(shortlist[i].answers), i))
    titles = [shortlist[i].title for i in best]
    return intents.Choice(words=titles[0], also=tuple(titles[1:]))


def _beyond_titles(raw: str) -> bool:
    """Whether the words name a material or a feature ("en bois", "numérique"): what only
    the products' own descriptions can tell apart when several titles fit."""
    terms = read_description(raw)
    return bool(terms.materials or terms.features)


def _described(raw: str, folded: str, chooses: bool = False) -> intents.Choice | None:
    """A gift named by what it is, for the tool to find on the shortlist or in the catalog:
    a message that points at one thing ("the moka pot", "le cadre photo numérique si vous en
    avez un", "celui qui mesure la température"), says it chooses or asks whether there is
    one ("vous auriez une lampe en bois ?"), refuses nothing, asks nothing else and declines
    nothing. Whether it also states facts is checked by the caller."""
    pointing = _points_first(folded)
    cue = chooses or intents.CHOICE_CUE.search(folded) is not None
    asking = intents.asks_for_one(folded)  # "do you have a moka pot?" names it too
    if not (pointing or cue or asking) or _negated(folded) or intents.declines(folded):
        return None
    if _SOMETHING.search(folded):
        return None  # "plutôt quelque chose pour le jardin" asks for other ideas
    if folded.rstrip().endswith("?") and not asking:
        return None
    words = intents.described(raw)
    if words and intents.confirms(folded) and not _likes_one(folded):
        terms = read_description(words)
        if not (terms.tags or terms.materials or terms.features):
            return None  # "oui c'est juste, je le prends", "ok c bon jle prend": a yes
    return intents.Choice(described=words) if words else None


_SOMETHING = any_word(_REPLIES, "other_ideas")

# A definite reference to one thing: "the grinder", "le harnais", "that notebook", "l'hôtel".
_POINTING = re.compile(rf"(?<![\w']){source(_REPLIES, 'pointing')}(?:(?<=')|(?![\w']))")


def _points_first(folded: str) -> bool:
    """Whether the message opens on one thing, after any thinking aloud ("hmm, the …")."""
    return _POINTING.match(intents.unhesitating(folded).strip()) is not None


def _likes_one(folded: str) -> bool:
    """Praise of one gift pointed at ("hmm, the guidebook sounds good", "j'aime bien le
    carnet", "le coussin me plaît"): a choice of it, unless the message takes it back."""
    return (
        intents.LIKING.search(folded) is not None
        and _POINTING.search(intents.unpraised(folded)) is not None
        and not _negated(folded)
        and not intents.declines(folded)
    )


def _facts(text: str, msg: _Message) -> dict[str, Any]:
    lang, today, profile = msg.lang, msg.today, msg.profile
    facts: dict[str, Any] = {}
    text = contrast_as_negation(text)
    clauses = [c for c in split(text) if not is_leaving(c.text, lang)]
    folded_all = fold(text, keep_length=True)
    correcting = bool(CORRECTION.search(folded_all) or NOT_BUT.search(folded_all))
    home: str | None = None  # where the speaker lives, said in this message
    for clause in clauses:
        deadline = _deadline(clause, today, lang)
        if deadline is None and "deadline" in facts:
            deadline = restated_deadline(clause.text, today, lang)
        if deadline is not None:
            facts["deadline"] = deadline
        country = _clause_place(clause, clauses, text, lang, correcting)
        if country is not None:
            facts["country"] = country
            if _SPEAKER_LIVES.search(clause.folded):
                home = country
    if "country" in facts and home is None:
        # "lives in Salem, just north of Boston": the landmark says which Salem
        facts["country"] = near_country(text, lang) or facts["country"]
    # after the place: "je vis à Québec et j'ai 45 $" are Canadian dollars
    _budget(clauses, msg, facts, correcting, home)
    age = recipient_age(clauses, lang, text, facts.get("budget_max"))
    if age is not None:
        facts["age"] = age
    _tastes(clauses, lang, profile, facts, correcting)
    recipient = _who(clauses, msg, facts)
    current = profile.get("recipient")
    retargeted = current is None or correcting or _RETARGET.search(folded_all) is not None
    if recipient and retargeted and fold(recipient) != fold(str(current or "")):
        facts["recipient"] = recipient
    return facts


def _clause_place(
    clause: Clause, clauses: list[Clause], text: str, lang: Locale, correcting: bool
) -> str | None:
    """The country of the place a clause names; a short clause may be only a place."""
    short = len(clause.text.split()) <= 3 and (len(text.split()) <= 4 or correcting)
    first = clause is clauses[0] and text[clause.end :].lstrip().startswith(",")
    if short and first and clause.text.strip()[:1].isupper():
        # "Florence, 30 €": a capitalised first piece of a terse list is where a name goes,
        # as in ``_listed_place``; only a country's own name is a place there ("France,
        # 30 €"), and a town typed in lowercase still is ("lyon, 30 €")
        found = resolve_country(clause.text.strip(" .!?"), lang)
        short = found is not None and _own_name(found, clause.text.strip(" .!?"))
    if short and TASTE_VERB.match(fold(" ".join(clause.text.split()[1:3]))):
        short = False  # "Anna reads everything", "Lucy loves jazz": a sentence, no place
    spot = _without_named_tastes(clause)  # "fan de l'OM", "loves Italy": no destination
    return _place(spot, lang, short) or _listed_place(text, spot, lang)


def _who(clauses: list[Clause], msg: _Message, facts: dict[str, Any]) -> str | None:
    """The recipient the message names (``out.labelled`` says whether by a name), and the
    tastes their relation implies added to ``facts``."""
    lang, profile, out = msg.lang, msg.profile, msg.out
    recipient, out.labelled, known = _recipient(clauses, lang)
    if recipient:  # "my chess coach", "mon élève de guitare": a taste they share
        _relation_tastes(resolve_relation(recipient, lang), profile, facts)
    if known or profile.get("recipient") is not None:
        return recipient
    # "pour Karim, un dev de mon équipe": a name says more than a word we do not know
    # sentences stay sentences: "Budget 100 €. Livraison Paris" names no one
    named = _named_person(". ".join(c.text for c in clauses))
    if (
        named is not None
        and facts.get("country")
        and resolve_country(named, lang) == facts["country"]
    ):
        named = None  # "…, elle est sur Marseille": the place this message gave, no name
    recipient = named or recipient
    out.labelled = recipient is not None
    return recipient


def _relation_tastes(
    relation: Relation | None, profile: dict[str, Any], facts: dict[str, Any]
) -> None:
    """A taste a relation shares ("my chess coach"); none of the workplace ("un collègue de
    bureau" likes no office supplies)."""
    if relation is None:
        return
    old = {*(profile.get("interests") or []), *(profile.get("dislikes") or [])}
    new = [
        t for t in shared_tastes(relation) if t not in old and t not in facts.get("interests", [])
    ]
    if new:
        facts["interests"] = [*facts.get("interests", []), *new]
    at_work = workplace_tags(relation)
    if at_work & set(facts.get("interests", [])):
        kept = [t for t in facts["interests"] if t not in at_work]
        facts["interests"] = kept
        if not kept:
            del facts["interests"]


# Which birthday it is is no day of the month ("her 12th birthday"): reading_dates.
_NTH_BIRTHDAY = matcher(_DATES, "nth_birthday")


def _deadline(clause: Clause, today: dt.date, lang: Locale) -> dt.date | None:
    """The day the clause sets, said as a date or as the day of an occasion."""
    said = blank(clause.text, [m.span() for m in _NTH_BIRTHDAY.finditer(clause.folded)])
    deadline = parse_deadline(_E_EURO.sub(r"\1 €", said), today, lang)
    occasion = _OCCASION_DATE.search(clause.folded)
    if deadline is None and occasion is not None:
        # "l'anniv de ma frangine, c'est après-demain": the day of the occasion is due.
        rest = clause.text[occasion.start("rest") :]
        within = re.match(r"\s*(?:dans|in)\s+", rest, re.IGNORECASE)
        if within:
            cue, rest = ("d'ici" if lang == "fr" else "within"), rest[within.end() :]
        else:
            cue = "pour" if lang == "fr" else "by"
        deadline = parse_deadline(f"{cue} {rest}", today, lang)
    return deadline


def _without_named_tastes(clause: Clause) -> Clause:
    """``clause`` with the names said as tastes blanked (same length, spans hold): a team,
    a band or a land someone loves is not where the gift goes."""
    spans = [(taste.start, taste.end) for taste in taste_names(clause.text)]
    return replace(clause, text=blank(clause.text, spans), folded=blank(clause.folded, spans))


def _budget(
    clauses: list[Clause], msg: _Message, facts: dict[str, Any], correcting: bool, home: str | None
) -> None:
    """The last amount named wins; a currency said earlier in the message carries over."""
    profile = msg.profile
    known = profile.get("budget") or {}
    currency: str | None = None
    # In Canada "$" and "piasses" are Canadian dollars, in Switzerland "balles" are francs: where
    # the speaker says they live, else the place known ("she lives in Toronto, 60 dollars" are
    # the speaker's own dollars). In Britain "livres" are pounds (elsewhere they may be books).
    dollar = _LOCAL_DOLLAR.get(home or str(profile.get("country") or ""), msg.dollar)
    british = "GB" in (home, facts.get("country"), profile.get("country"))
    whole = " ".join(c.text for c in clauses)
    for clause in clauses:
        amount = _amount(clause.text, msg.lang, dollar, british, whole)
        if amount is None and _refused(clause.text, msg.lang, dollar, facts):
            continue
        if amount is None and (correcting or clause.corrects) and known and not _dated(clause, msg):
            _bare_budget(clause, facts)
        if amount is None:
            continue
        _record_amount(amount, known, facts)
        if not amount.currency_assumed:
            currency = amount.currency
        elif amount.named and british:
            currency = "GBP"  # "a tenner" said in Britain is ten pounds
        msg.out.approximate = float(amount.amount) if amount.approximate else None
    if "budget_max" in facts and currency is not None:
        facts["currency"] = currency


def _record_amount(amount: Amount, known: dict[str, Any], facts: dict[str, Any]) -> None:
    """The budget facts of one amount: a new single amount replaces a range known ("make it
    70"); a sum on top ("another fiver") raises the cap known, in its currency, floor kept."""
    facts["budget_max"] = float(amount.amount)
    added = amount.added and bool(known.get("amount"))
    if added and (amount.currency_assumed or amount.currency == known.get("currency")):
        facts["budget_max"] += float(known["amount"])
    if amount.minimum is not None and amount.kind in ("between", "at_least"):
        facts["budget_min"] = float(amount.minimum)
    elif added and known.get("min_amount") is not None:
        facts["budget_min"] = float(known["min_amount"])
    else:
        facts.pop("budget_min", None)


def _dated(clause: Clause, msg: _Message) -> bool:
    """Whether a clause sets a day: its figure is that day ("en fait, avant le 20"), no
    budget correction."""
    return _deadline(clause, msg.today, msg.lang) is not None


def _refused(text: str, lang: Locale, dollar: str, facts: dict[str, Any]) -> bool:
    """A budget of zero or less ("-20 euros", "0 dollars") passed on as said: the tool
    refuses it and asks for a positive amount, rather than the reader dropping it."""
    refused = refused_amount(text, lang, dollar)
    if refused is None:
        return False
    facts["budget_max"] = float(refused[0])
    facts.pop("budget_min", None)
    return True


def _amount(text: str, lang: Locale, dollar: str, british: bool, whole: str) -> Amount | None:
    """The amount of money a clause names, if a figure without a currency is money at all."""
    text = _money_words(_E_EURO.sub(r"\1 €", text))
    if british:
        text = _POUNDS.sub(" livres sterling", text)
    amount = parse_amount(text, lang, dollar) or parse_amount(
        text, "fr" if lang == "en" else "en", dollar
    )  # a short line may be misjudged ("quatre-vingts euros max")
    if amount is None or not amount.currency_assumed:
        return amount
    if (
        # "5 expressos par jour" counts cups, not money; "10 more books" counts books
        _counted(_MORE_AFTER.sub(" ", text) if amount.added else text, amount.amount, lang)
        or amount.amount < _LEAST_BUDGET  # a lone "1" is a slip or an answer, not $1
        or _year_of_a_date(whole, amount.amount)  # "by December 20, 2026": a year
    ):
        return None
    return amount


def _bare_budget(clause: Clause, facts: dict[str, Any]) -> None:
    """A correction of the known budget by a bare figure ("non, 40"), unless it is an age."""
    bare = _BARE_NUMBER.search(clause.folded)
    if bare and not age_in(clause.folded):
        facts["budget_max"] = float(bare[1])
        facts.pop("budget_min", None)


_MONTH = rf"(?:{alternatives('calendar', 'months', 'month_abbreviations')})[a-z]*\.?"


def _year_of_a_date(text: str, amount: object) -> bool:
    """Whether a bare figure is the year of a date written with its month ("December 20,
    2026", "le 20 décembre 2026", "March 3rd 2027")."""
    try:
        year = int(str(amount))
    except ValueError:
        return False
    if not 1900 <= year <= 2100:
        return False
    pattern = rf"{_MONTH}\s*(?:\d{{1,2}}(?:st|nd|rd|th|er)?)?,?\s*{year}(?!\d)"
    return re.search(pattern, fold(text)) is not None


_LOCAL_DOLLAR = {"CA": "CAD", "CH": "CHF", "AU": "AUD", "NZ": "NZD"}
# Below this, a figure said without a currency is not taken for a budget ("3 dollars" is).
_LEAST_BUDGET = 5
_CANADIAN = re.compile(rf"\s*{source(_MONEY, 'canadian_dollars')}\b", re.IGNORECASE)
_SPEAKER_LIVES = matcher(_MONEY, "home")  # "I live in Toronto": whose dollars
# In Britain "livres" are pounds, unless counted by the week or the month ("elle lit 3 livres
# par mois" are books).
_POUNDS = re.compile(
    rf"\s*\blivres?\b(?!\s*sterling)(?!\s+{source(_MONEY, 'per_period')}\b)", re.IGNORECASE
)
_MONEY_WORDS = tuple(
    dict.fromkeys(w for lg in LANGUAGES for w in lexicon_words(_MONEY, "mended", lg))
)
_AFTER_FIGURE = re.compile(r"^\s*([^\W\d_]{3,})")
# "200 of them", "une dizaine d'entre eux": a figure said of things named before counts them.
_OF_THEM = re.compile(rf"^\s*{source(_MONEY, 'of_them')}(?![\w'])")
# Words after a figure that are no things counted: money words ("max 80 livres" is pounds,
# wherever the person lives), approximations, per-unit words.
_NOT_A_COUNT = union(_MONEY, "not_counts")


def _money_words(text: str) -> str:
    """Typos of money words fixed ("25 euors maxmum"), "$ canadiens" written CAD."""
    from rapidfuzz import fuzz, process

    text = _CANADIAN.sub(" CAD", text)

    def fix(m: re.Match[str]) -> str:
        word = m[0]
        best = process.extractOne(word.lower(), _MONEY_WORDS, scorer=fuzz.ratio, score_cutoff=80)
        return best[0] if best is not None else word

    return re.sub(r"[^\W\d_]{5,}", fix, text)


# "10 more", "5 euros de plus": read past, to see whether the figure counts things after all.
_MORE_AFTER = re.compile(
    rf"(?<=\d)\s*(?:{alternatives('money_words', 'more_after')})(?![\w'])", re.IGNORECASE
)


def _counted(text: str, value: Any, lang: Locale = "en") -> bool:
    """Whether a figure said without a currency counts things ("5 expressos", "2 guitares",
    "she already has about 200 of them", "about ten of them")."""
    from text_to_num import alpha2digit

    text = alpha2digit(text, lang)
    exact = f"{value:f}"
    exact = exact.rstrip("0").rstrip(".") if "." in exact else exact  # "12.50" → "12.5"
    for m in re.finditer(rf"(?<![\d.,]){re.escape(exact)}(?![\d.,])", text):
        if _OF_THEM.match(fold(text[m.end() :])):
            return True
    # A round figure before a word is money far more often than a count ("around 40 for my
    # niece", "50 is fine"): the word test below reads the figure without its trailing zeros,
    # so "40" never matches it, as it always has.
    figure = f"{value:f}".rstrip("0").rstrip(".")
    for m in re.finditer(rf"(?<![\d.,]){re.escape(figure)}(?![\d.,])", text):
        word = _AFTER_FIGURE.match(text[m.end() :])
        if word is not None and fold(word[1]) not in _NOT_A_COUNT:
            return True
    return False


# Liking words strong enough to keep an object the vocabulary does not know ("loves fishing").
_FREE_LIKE = re.compile(rf"^(?:{LIKING})$")
# A wish about the purchase, not a taste: "I'd like to keep it under 50" (reading_tastes).
_WISH_BEFORE = re.compile(matcher(_TASTES_SAID, "wishes").pattern + r"\s*$")
# What the wish opens: an infinitive ("to keep", "rester", "garder").
_INFINITIVE = re.compile(r"^\s*(?:(?:bien|beaucoup)\s+)?(?:to\s|[a-z]+(?:er|ir|re)(?![\w']))")


def _a_wish(before: str, segment: str) -> bool:
    """Whether a liking word opens a wish to do something rather than a taste (see
    ``_WISH_BEFORE``): then the word after it is no taste the vocabulary lacks."""
    return _WISH_BEFORE.search(before) is not None and _INFINITIVE.match(segment) is not None


_MINE = any_word(_PEOPLE, "mine")


def _own_parts(clauses: list[Clause]) -> list[Clause]:
    """Clauses with "…, le vin c'est moi" cut off at its comma, so only it is the speaker's."""
    out: list[Clause] = []
    for clause in clauses:
        m = _MINE.search(clause.folded)
        cut = clause.folded.rfind(",", 0, m.start()) if m else -1
        if cut <= 0:
            out.append(clause)
            continue
        out.append(Clause(clause.start, clause.start + cut, clause.text[:cut], clause.folded[:cut]))
        out.append(Clause(clause.start + cut, clause.end, clause.text[cut:], clause.folded[cut:]))
    return out


# Refusals strong enough to keep an object the vocabulary does not know ("rien en plastique").
_FREE_DISLIKE = re.compile(
    rf"^(?:{alternatives(_TASTES_SAID, 'free_dislikes')}"
    rf"|{alternatives(_TASTES_SAID, 'free_dislike_stems')}\w*)$"
)


def _tastes(
    clauses: list[Clause],
    lang: Locale,
    profile: dict[str, Any],
    facts: dict[str, Any],
    correcting: bool,
) -> None:
    """Interests and dislikes, each from its own clause; a correction takes values back."""
    said = _Said()
    for clause in _own_parts(clauses):
        said.read(clause, lang)
    said.dropped = dropped_tastes(clauses, lang, list(profile.get("interests") or []))
    _taste_facts(said, profile, facts, correcting)


@dataclass
class _Said:
    """The tastes a message says, clause by clause: liked, refused, and the speaker's own."""

    liked: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    mine: list[str] = field(default_factory=list)
    before: list[str] = field(default_factory=list)  # liked by the last clause naming some
    taken_back: bool = False  # a clause took back what came before and named nothing itself
    dropped: list[str] = field(default_factory=list)  # known interests given up: "no more X"

    def read(self, clause: Clause, lang: Locale) -> None:
        body = _after_lead(clause)
        mine = _MINE.search(body.folded) is not None  # "le vin, c'est moi": not their taste
        liked_before = len(self.liked)
        for segment in segments(body):
            tags = _named_tags(segment, body, lang)
            if mine:
                _add(self.mine, tags)
                continue
            if not tags and _free_taste(segment, body):
                tags = free_words(segment)
            _add(self.liked if segment.positive else self.refused, tags)
        said_now = self.liked[liked_before:]
        corrects = clause.corrects or self.taken_back
        if said_now and corrects and self.before and not _ALSO.search(clause.folded):
            # "she likes candles. scrap that, pottery", "le tricot, euh non, la couture": the
            # tastes of the clause before are taken back, as a correction in a later message
            # takes back the last one known (``_taste_facts``).
            self.liked = [t for t in self.liked if t not in self.before or t in said_now]
        if said_now:
            self.before, self.taken_back = said_now, False
        elif clause.corrects:
            self.taken_back = True  # "scrap that, she's into pottery": the next clause corrects


def _add(target: list[str], tags: list[str]) -> None:
    for tag in tags:
        if tag not in target:
            target.append(tag)


def _after_lead(clause: Clause) -> Clause:
    """``clause`` without what opens it to take back the one before (``_LEAD_NO``)."""
    lead = _LEAD_NO.match(clause.folded)
    start = lead.end() if lead else 0
    return Clause(clause.start + start, clause.end, clause.text[start:], clause.folded[start:])


def _named_tags(segment: Segment, body: Clause, lang: Locale) -> list[str]:
    """The vocabulary's tags of a segment, and tastes said by name ("écoute Angèle")."""
    tags = segment_tags(segment, lang)
    if not segment.cued:  # "my sister in Tokyo" lives there; "loves Tokyo" is a taste
        tags = [t for t in tags if t not in _lived_in(segment.text, lang)]
    if segment.positive:  # "écoute Angèle", "a Star Wars nerd": said by name
        tags = [*tags, *(t for t in named_tastes(segment, body.text) if t not in tags)]
    return tags


def _lived_in(text: str, lang: Locale) -> set[str]:
    """The tags of places named after a place word ("in Tokyo", "à Kyoto"): where someone
    is, not what they love."""
    folded = fold(text, keep_length=True)
    found: set[str] = set()
    for cue in _PLACE_CUE.finditer(folded):
        m = _PHRASE.match(text, cue.end())
        name = m[1].split()[:3] if m else []
        for size in range(len(name), 0, -1):
            phrase = " ".join(name[:size])
            if phrase[:1].isupper() and resolve_country(phrase, lang) is not None:
                found |= canonical_tags(phrase)
                break
    return found


def _free_taste(segment: Segment, body: Clause) -> bool:
    """Whether a segment the vocabulary does not know still says a taste: after a liking word
    that is no wish ("loves fishing"), or a refusal with no figure ("rien en plastique")."""
    if segment.positive:
        return bool(_FREE_LIKE.match(segment.marker)) and not _a_wish(
            body.folded[: segment.start], segment.folded
        )
    return bool(_FREE_DISLIKE.match(segment.marker)) and not any(
        ch.isdigit() for ch in segment.text
    )


def _taste_facts(
    said: _Said, profile: dict[str, Any], facts: dict[str, Any], correcting: bool
) -> None:
    """What the tastes said change in the profile known."""
    old_interests = list(profile.get("interests") or [])
    old_dislikes = set(profile.get("dislikes") or [])
    liked = [t for t in said.liked if t not in said.refused and t not in said.mine]
    liked = [t for t in liked if t not in said.dropped]  # "il ne cuisine plus": given up
    refused, remove = _taken_back(said, liked, old_interests, correcting)
    # "forget the cooking", "not cooking anymore": taken back, not refused
    refused = [t for t in refused if t not in said.dropped]
    remove += [t for t in said.dropped if t not in remove]
    for kind, values in (
        ("interests", [t for t in liked if t not in old_interests]),
        ("dislikes", [t for t in refused if t not in old_dislikes]),
        ("remove_interests", remove),
        ("remove_dislikes", [t for t in liked if t in old_dislikes]),
    ):
        if values:
            facts[kind] = values


def _taken_back(
    said: _Said, liked: list[str], old_interests: list[str], correcting: bool
) -> tuple[list[str], list[str]]:
    """The tastes refused, and the interests known that the message takes back."""
    remove = [t for t in [*said.refused, *said.mine] if t in old_interests]
    if not correcting:
        return said.refused, remove
    # "pas le vélo… c'est la course à pied": the bike is taken back, not refused.
    refused = [t for t in said.refused if t not in old_interests and not liked]
    if not said.refused and liked and old_interests and not set(liked) & set(old_interests):
        remove = [old_interests[-1]]
    return refused, remove


# A correction that adds rather than replaces: "actually she also likes tea".
_ALSO = any_word(_REPLIES, "also")

_QUALIFIER = re.compile(rf"(?<=\s)(?:{alternatives(_PEOPLE, 'qualifiers')})(?=\s)", re.IGNORECASE)
# Someone else's relative: "c'est sa sœur qui…", "her brother is…" (reading_people).
_THIRD_PERSON_RELATIVE = {lang: matcher(_PEOPLE, "someone_elses", lang=lang) for lang in LANGUAGES}
_FR_POSSESSIVE = re.compile(r"(?<![\w'])(?:son|sa|ses)(?![\w'])", re.IGNORECASE)
_DETERMINER = re.compile(rf"(?<![\w']){source(_PEOPLE, 'determiners')}\s*$")


# A capitalised word, or two joined by a hyphen ("Jean-Luc"): a first name or a surname.
_NAME = r"([A-ZÀ-Ý][a-zà-ÿ]+(?:-[A-ZÀ-Ý][a-zà-ÿ]+)?)(?![\w'-])"
_CAPITALIZED = re.compile(rf"(?<![\w'-]){_NAME}")
# Words that are never a person's name, though capitalised at a sentence's start: greetings,
# grammar words, and the months no one is named after ("April", "Mai" are first names).
_GREETINGS = (
    union(_PEOPLE, "hellos", "not_names")
    | union("function_words", "definite_articles")
    | (MONTH_NAMES - union(_PEOPLE, "first_name_months"))
)


def _named_person(text: str) -> str | None:
    """A recipient given only by name ("Salut, Gérard fête ses 30 ans de boîte"): a
    capitalised word that is no greeting, no sentence's usual first word and no place.

    Many first names are also towns somewhere ("Raj", "Florence", "Austin"): such a word is
    a place only when it is a country's own name or follows a place word ("lives in
    Florence"); "a leaving gift for Austin" names a person."""
    titles = [t.span() for t in PROPER.finditer(text) if _TITLE.search(t[0])]
    # "loves the Beatles", "fan de Taylor Swift", "a Star Wars nerd": a taste, not a person
    titles += [(t.start, t.end) for t in taste_names(text)]
    # a word of a vocabulary phrase is read with it: "his Nintendo Switch", "les cartes Pokémon"
    in_phrases = {w.lower() for w in phrase_words(text)}
    for m in _CAPITALIZED.finditer(text):
        word, before = m[1], text[: m.start()]
        if word.lower() in in_phrases or any(start <= m.start() < end for start, end in titles):
            continue  # a word of a title ("The Lord of the Rings"), not a person
        if _names_no_one(word, before, text[m.start() :]) or _opens_sentence(
            before, text[m.end() :]
        ):
            continue
        return word + _surname(text[m.end() :])
    return None


def _names_no_one(word: str, before: str, rest: str) -> bool:
    """Whether a capitalised word is a greeting, a day, a place or a relation word."""
    return (
        fold(word) in _GREETINGS
        # "before December 18th", "avant Noël", "Christmas Eve": a day, no one's name
        or names_a_day(rest)
        or names_a_day(" ".join([*before.split()[-1:], rest]))
        or _said_as_place(word, before)
        # a slip of a country's name only where a place goes: "En Frange" is France,
        # "a gift for Grace" is Grace, not Grèce
        or bool(_PLACE_BEFORE.search(fold(before)) and resolve_country_slip(word))
        or _known_relation(word)
        # "she's in the Ramblers", "il est au Rotary": a club or a team, no one's name
        or _GROUP_BEFORE.search(fold(before)) is not None
    )


_GROUP_BEFORE = re.compile(
    rf"(?<![\w'])(?:{alternatives('offline_pastimes', 'before_a_group')})\s*$"
)


def _opens_sentence(before: str, after: str) -> bool:
    """Whether a word is capitalised only for opening a sentence: no verb follows it."""
    before = before.rstrip()
    if before and before[-1] not in ".!?":
        return False
    words = after.split()
    return not words or not (
        fold(words[0]) in _NAME_VERBS or TASTE_VERB.match(fold(" ".join(words[:3])))
    )


def _known_relation(word: str) -> bool:
    relation = resolve_relation(word)
    return relation is not None and relation.known


_SURNAME = re.compile(rf"^ {_NAME}")


def _surname(after: str) -> str:
    """The family name right after a first name ("Mary Jones"), with its space, or ""."""
    m = _SURNAME.match(after)
    if m is None:
        return ""
    word = m[1]
    # a verb ("Anna Loves"), or what no one is named, said alone
    if fold(word) in _NAME_VERBS or _names_no_one(word, "", word):
        return ""
    return " " + word


# A run of capitalised words that is a title, not a person ("The Lord of the Rings").
_TITLE = re.compile(
    rf"^{source(_PEOPLE, 'title_openers')}\s|\s{source(_PEOPLE, 'title_links')}\s", re.IGNORECASE
)


def _said_as_place(word: str, before: str) -> bool:
    """Whether a capitalised word is a place here rather than a first name."""
    found = resolve_country(word)
    if found is None:
        return False
    if _own_name(found, word):
        return True
    return _PLACE_BEFORE.search(fold(before)) is not None


# A place word right before a name: "lives in", "à", "from", "près de", and the terse
# orders' "Delivery Rotterdam", "Livraison Nantes", "envoi Anvers".
_PLACE_BEFORE = re.compile(rf"(?<![\w'])(?:{alternatives(_PLACES, 'before_names')})\s*$")

_NAME_VERBS = union(_PEOPLE, "name_verbs")

# "for" right before a relation says whom the gift is for, whoever else the message names:
# "my friend just had a baby, something for the little one", "…, un cadeau pour le bébé".
# The birthday of someone named with an indefinite article is theirs to receive the gift:
# "ma fille est invitée à l'anniversaire d'une copine de classe", "a birthday party of a
# boy in his class" (the speaker's own child goes to it).
_FOR_BEFORE = re.compile(
    rf"(?<![\w']){source(_PEOPLE, 'for_before')}\s*$"
    # whose birthday a child is invited to: "invitée à l'anniversaire d'un copain de classe"
    rf"|(?<!\w){source(_PEOPLE, 'party_guests')}\s*$"
)


# "for Father's Day", "for Mother's day-ish": an occasion, not whom the gift is for.
_OCCASION_AFTER = re.compile(r"(?:'?s)?\s*day")

_HELLO = union(_PEOPLE, "hellos")
# A first name closing a clause: "…pour Nathalie", "l'anniversaire de Sandrine".
_NAME_AT_END = re.compile(r"(?<![\w'])([A-ZÀ-Ý][a-zà-ÿ'-]+)[\s,]*$")
_POSSESSIVE_START = re.compile(
    rf"(?:{alternatives('function_words', 'first_person_possessives')})\s"
)


def _apposed_name(before: Clause, clause: Clause) -> str | None:
    """The name said just before ", my manager" / ", ma N+1": the clause before ends with a
    first name and this one opens with a possessive right after its comma."""
    if clause.start - before.end > 2 or not _POSSESSIVE_START.match(clause.folded):
        return None
    m = _NAME_AT_END.search(before.text)
    if m is None:
        return None
    name = m[1]
    if fold(name) in _GREETINGS or _known_relation(name):
        return None
    if _said_as_place(name, before.text[: m.start()]):
        return None
    said_before = fold(before.text[: m.start()]).split()
    if said_before and said_before[-1] in _HELLO:
        return None  # "Bonjour Paul, ma femme…": whom the message is to
    return name


def _cued(relation: Relation, text: str) -> bool:
    """Whether ``text`` names this known relation as the object of "for"/"pour"."""
    said = fold(relation.said or relation.name or "")
    at = fold(text).find(said) if said else -1
    return (
        at >= 0
        and relation.known
        and _FOR_BEFORE.search(fold(text)[:at]) is not None
        and _OCCASION_AFTER.match(fold(text)[at + len(said) :]) is None
    )


def _relation_after_for(text: str, lang: Locale) -> Relation | None:
    """A known relation right after a "for"/"pour" inside one clause, or None."""
    for m in _FOR_WORD.finditer(text):
        relation = resolve_relation(text[m.start() :], lang)
        if relation is not None and _cued(relation, text[m.start() :]):
            return relation
    return None


_FOR_WORD = re.compile(
    rf"(?<![\w'])(?:for|pour)\s|(?<!\w){source(_PEOPLE, 'party_of')}(?:(?<=')|\s)", re.IGNORECASE
)


def _recipient(clauses: list[Clause], lang: Locale) -> tuple[str | None, bool, bool]:
    """Who the gift is for, in the person's words with the name ("uncle Dave"); from the
    positive part of a clause ("my brother, not my sister" → brother). The first relation
    named wins, unless a later one is the object of "for"/"pour" and the first is not."""
    found: list[tuple[str, bool, bool, bool]] = []  # (words, labelled, known, cued)
    for before, clause in zip([None, *clauses], clauses, strict=False):
        said = _clause_recipient(before, clause, lang)
        if said is not None:
            found.append(said)
            if said[3]:
                break
    if not found:
        return None, False, False
    words, labelled, known, _ = next((f for f in found if f[3]), found[0])
    return words, labelled, known


def _clause_recipient(
    before: Clause | None, clause: Clause, lang: Locale
) -> tuple[str, bool, bool, bool] | None:
    """The relation one clause names as the recipient: (words, labelled, known, cued)."""
    body = _without_named_tastes(_after_lead(clause))  # "regarde Friends" names no friends
    # the parts are kept apart, so a relation is not named by a word after a cut-out
    # marker ("mon beauf est fan de BBQ" does not name him BBQ)
    positive = " ; ".join(s.text for s in segments(body) if s.positive)
    said_by_other = _THIRD_PERSON_RELATIVE[lang].search(fold(positive))
    if lang == "fr":  # "son écran" is a possessive, not an English "son"
        positive = _FR_POSSESSIVE.sub(lambda m: " " * len(m[0]), positive)
    relation, positive = _relation_in(positive, lang)
    if relation is None or not (relation.known or _UNKNOWN_RELATION_CUE.search(fold(positive))):
        return None
    if relation.known and relation.name is None and before is not None:
        name = _apposed_name(before, clause)
        if name is not None:  # "pour Nathalie, ma manager"
            relation = relation.model_copy(update={"name": name})
    if said_by_other and fold(relation.said or "~") in said_by_other[0]:
        return None  # "c'est sa sœur qui boit du thé": someone else's relative
    if _said_words(relation) and not _cued(relation, positive):
        # "mon frère se marie, une idée pour ma future belle-sœur"
        later = _relation_after_for(positive, lang)
        relation = relation if later is None else later
    return _named(relation, positive)


def _named(relation: Relation, positive: str) -> tuple[str, bool, bool, bool] | None:
    """A relation as a clause names it: labelled when named or said bare ("filleul Noé")."""
    words = _said_words(relation)
    if not words:
        return None
    at = fold(positive).find(fold(relation.said or relation.name or ""))
    bare = at >= 0 and not _DETERMINER.search(fold(positive)[:at])
    return words[:60], bool(relation.name) or bare, relation.known, _cued(relation, positive)


def _said_words(relation: Relation) -> str:
    return " ".join(w for w in (relation.said, relation.name) if w)


def _relation_in(positive: str, lang: Locale) -> tuple[Relation | None, str]:
    """The relation a clause's positive part names, and that part with a day's name blanked."""
    relation = resolve_relation(positive, lang) if positive.strip() else None
    if relation is not None and not relation.known:
        # "mon meilleur chum": the word the lexicon lacks is the noun, not its adjective.
        relation = resolve_relation(_QUALIFIER.sub(" ", positive), lang) or relation
    if relation is None or "même" in (relation.said or "").lower():
        return None, positive  # "le même budget" folds like "mémé"
    said_at = fold(positive).find(fold(relation.said or "~"))
    if said_at >= 0 and names_a_day(positive[said_at:]):
        # "before Valentine's Day" is a day, not "my valentine"; "mothers day gift for my
        # mom" names the mother after the day
        positive = blank(positive, [(said_at, said_at + len(relation.said or ""))])
        relation = resolve_relation(positive, lang) if positive.strip() else None
    return relation, positive
