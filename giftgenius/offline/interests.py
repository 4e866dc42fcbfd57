"""Interests and dislikes in the words and verbs people use, without ordinary words colliding.

The catalog vocabulary (``canonical_tags``) knows nouns in both languages; people also say
what someone *does* ("elle tricote", "he bakes", "lit énormément"), which the verb table below
maps to the same tags. Ordinary words must not collide with a synonym, so a tag counts only:

- in a segment a liking word introduced ("loves", "adore", "fait du"), or a negated one;
- or in a segment that is nothing but interests ("cooking and jazz", "jeux de société, café"):
  "Je montre la liste à mon mari" or "livraison au bureau" are about something else;
- never for what the speaker owns or does ("who feeds my cat when I travel"), nor for the
  gift kinds someone makes or does things for ("elle tricote des écharpes pour toute la
  famille" is knitting, not scarves or family games);
- and word by word in the message's language: a word written with accents must be the
  vocabulary's own accented word ("livré" is not "livre", "été" is nothing), and a French
  message does not read the English-only false friends of French words ("pendant").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

from giftgenius.language.currency import CURRENCY_WORDS
from giftgenius.language.folding import alternation, fold
from giftgenius.language.lexicon import mapping, pattern_kinds, union, words
from giftgenius.language.materials import idiom_at
from giftgenius.language.patterns import alternatives, any_word, matcher, source
from giftgenius.language.vocabulary import (
    INTERESTS,
    TAGS,
    analyze,
    canonical_tags,
    phrase_words,
    synonyms,
    tags_in_order,
    tokenize,
)
from giftgenius.offline.clauses import KEEN, ONLY, Segment
from giftgenius.offline.doings import doing_tags, one_word_synonyms, relation_words
from giftgenius.offline.number_kinds import blank

_TASTES = "offline_tastes"

# What someone does → a catalog tag (offline_verbs: one kind of phrases per tag, in the order
# the tags are read). Folded, whole words; "lit"/"court" need a subject.
_VERB = [
    (re.compile(rf"(?<![\w'-]){source('offline_verbs', tag)}(?![\w'-])"), tag)
    for tag in pattern_kinds("offline_verbs", "en")
]

# English-only synonyms that are everyday French words: never read in a French message.
_FALSE_FRIENDS_IN_FR = frozenset(words("offline_tastes", "false_friends", "fr"))
# French short names of sports that are other things in English ("le basket" is the game, a
# basket is not): read only in a French message, singular ("des baskets" are shoes).
_FRENCH_ONLY = mapping("offline_tastes", "french_only")

# Words a list of interests may hold besides the interests themselves.
_FILLER = union("offline_tastes", "filler") | union(
    "function_words", "definite_articles", "indefinite_articles", "conjunctions"
)
_WORD = re.compile(r"[^\W\d_]{3,}")
_FAN = any_word("offline_tastes", "fans")
_JOINERS = alternatives("offline_tastes", "list_joiners")
_LIST = re.compile(rf"(?<![\w'])(?:{_JOINERS})(?![\w'])|,")


@lru_cache(maxsize=1)
def _accented() -> frozenset[str]:
    """Every accented word of the vocabulary, as written there (lowercase)."""
    words: set[str] = set()
    for tag in TAGS:
        for phrase in synonyms(tag):
            words.update(w for w in tokenize(phrase) if fold(w) != w)
    return frozenset(words)


# Small words inside a name: "Lord of the Rings".
_JOINER = alternatives("offline_tastes", "name_joiners")
# A run of capitalised words is a name ("Harry Potter", "Lord of the Rings"): its words are
# no tastes unless the whole run is a vocabulary phrase.
PROPER = _PROPER = re.compile(
    rf"(?<![\w'])(?:[A-Z][\w'-]*)(?:\s+(?:{_JOINER}\s+){{0,2}}[A-Z][\w'-]*)+"
)


# Liking words strong enough to keep an object the vocabulary does not know ("loves
# fishing", "fan de Stromae"); ``nlu`` keeps free words after them, names are read after them.
LIKING = rf"{source('offline_clauses', 'liking')}|like|{KEEN}|{ONLY}|loved|liked|enjoyed|adored"
# Verbs whose object is a taste and says what kind of thing a name is: what someone listens
# to is music, what they read is books, whom they support is a team (the vocabulary's
# "sport": which sport a team plays, its name does not say). What they watch is a taste the
# catalog does not tell apart by kind.
_KIND_VERBS = (
    ("listening", "music"),
    ("reading", "book"),
    ("supporting", "sport"),
    ("watching", None),
)
_KIND_VERB = [(matcher("offline_tastes", kind), tag) for kind, tag in _KIND_VERBS]
_TASTE_VERBS = source("offline_tastes", *(kind for kind, _ in _KIND_VERBS))
# A taste verb opening what follows a word: "Lucy adores…", "Tom supports…", "Léa écoute…".
TASTE_VERB = re.compile(rf"(?:{LIKING}|{_TASTE_VERBS})(?![\w'])")
_ARTICLES = union("function_words", "definite_articles", "indefinite_articles")
# Where a capitalised word is the object of a taste, not a person: after a taste verb or
# "mostly"/"surtout"/"like"/"comme", with an article or "huge"/"big" between ("loves the
# Beatles", "fan de l'OM", "reads a lot, mostly Agatha Christie"), or after "a" and such an
# adjective ("a huge Harry Potter fan"). An article alone says nothing: "delivery to the
# US", "dans le Vaucluse" are places.
_ARTICLE = alternation(
    [w + "'" if len(w) == 1 and w != "a" else w for w in _ARTICLES]
    + list(union("offline_tastes", "determiners"))
)
_BIG = alternatives("offline_tastes", "big")
_OBJECT_BEFORE = re.compile(
    rf"(?:(?<![\w'])(?:{LIKING}|{_TASTE_VERBS}|{source('offline_tastes', 'examples')})"
    rf"(?:\s+{_ARTICLE})?)(?:\s*{_BIG})*\s*$"
    rf"|(?<![\w'])(?:a|an|un|une)(?:\s+{_BIG})+\s*$"
)


# A name followed by one of these is what someone is a fan of: "a Star Wars nerd"; a team's
# supporter follows its sport ("a Chelsea supporter"). Either may be plural ("Trekkie nerds").
_FAN_AFTER = re.compile(
    rf"^\s*(?:(?:{alternatives('offline_tastes', 'after_a_name')})s?|"
    rf"(?P<team>(?:{alternatives('offline_tastes', 'supporters')})s?))(?![\w'])"
)
# A list goes on with the same verb: "loves Disney and Pixar", "écoute Angèle, Stromae".
_LIST_ON = re.compile(rf"^\s*(?:,|{_JOINERS})\s*(?:{_ARTICLE}\s*)?$")
# A run of capitalised words, in any alphabet's capitals, all-capital ones too ("PSG").
_NAME_RUN = re.compile(rf"(?<![\w-])[A-ZÀ-Ý][\w'-]*(?:\s+(?:{_JOINER}\s+){{0,2}}[A-ZÀ-Ý][\w'-]*)*")


@dataclass(frozen=True)
class NamedTaste:
    """A title, a band, an author, a team or a brand said as a taste, where it is in the
    text, and the tag its verb gives it (``None`` when the verb does not say)."""

    start: int
    end: int
    name: str
    kind: str | None
    qualifier: bool = False  # "Italian food": a kind of the taste after it, nothing more


def taste_names(text: str) -> list[NamedTaste]:
    """The capitalised words of ``text`` that stand where a taste goes, not a person: the
    object of a taste verb, after an article or "mostly", before "fan"/"nerd", or listed
    after such a one ("loves Disney and Pixar"); and the word that qualifies a taste right
    after it ("Japanese whisky", "French wine": ``qualifier``). Read by position only,
    never by a list of famous names; a person's name goes elsewhere (a clause's subject,
    after "for"/"pour", after a relation, greeted), which ``nlu`` reads. What the speaker
    loves is someone dear ("I love Mary", "on adore Mamie Jo"), not a taste."""
    folded = fold(text, keep_length=True)
    found: list[NamedTaste] = []
    for m in _NAME_RUN.finditer(text):
        before = folded[: m.start()]
        listed = bool(found) and _LIST_ON.match(folded[found[-1].end : m.start()]) is not None
        fan = _FAN_AFTER.match(folded[m.end() :])
        verb = _OBJECT_BEFORE.search(before)
        if verb is not None and _SPEAKER_BEFORE.search(before[: verb.start()]):
            verb = None
        qualifier = _qualifies_a_taste(m[0], text[m.end() :], before)
        if not (listed or fan or verb or qualifier):
            continue
        name = m[0].strip(" '-")
        if name.lower() in {"i", "i'm", "i'd", "i've", "i'll"}:
            continue
        kind = found[-1].kind if listed else "sport" if fan and fan["team"] else _kind_of(before)
        end = m.start() + len(name)
        found.append(NamedTaste(m.start(), end, name, kind, qualifier))
    return found


# The speaker as the subject of a taste verb: "I love…" (offline_tastes' speakers).
_SPEAKER_BEFORE = re.compile(matcher(_TASTES, "speakers").pattern + r"\s*$")
# Where a person is named, a word after the name is no taste it qualifies ("pour Julie").
_PERSON_BEFORE = re.compile(matcher(_TASTES, "person_before").pattern + r"\s*$")
_NEXT_WORD = re.compile(r"^ ([a-zà-ÿ][\w-]*)")


def _qualifies_a_taste(name: str, after: str, before: str) -> bool:
    """Whether a capitalised word qualifies the taste right after it, in lowercase: "Italian
    food", "Japanese whisky", "Disney movies" — a kind of the taste, no one's name."""
    word = _NEXT_WORD.match(after)
    if word is None or " " in name.strip() or _PERSON_BEFORE.search(before):
        return False
    if fold(name) in relation_words():
        return False  # "Frère photographe amateur": the recipient, said with a taste
    return bool(analyze(word[1]).tags)


def _kind_of(before: str) -> str | None:
    """The tag of the last kind-telling verb before a name, in its clause."""
    clause = re.split(r"[.;!?]|(?<![\w'])(?:but|mais)(?![\w'])", before)[-1]
    last: tuple[int, str | None] = (-1, None)
    for pattern, tag in _KIND_VERB:
        for m in pattern.finditer(clause):
            if m.start() > last[0]:
                last = (m.start(), tag)
    return last[1] if last[1] in TAGS else None


def named_tastes(segment: Segment, clause: str) -> list[str]:
    """The tastes a segment of ``clause`` names by a title, a band, an author, a team or a
    brand, kept as said (so what the catalog cannot serve is said plainly), each followed
    by the tag its verb gives ("écoute Angèle" → Angèle, music). The whole clause is read,
    for the verb and its subject before the segment. A name the vocabulary knows ("Lego")
    or that only qualifies a taste ("Italian food") is left to the vocabulary's reading."""
    end = segment.start + len(segment.text)
    found: list[str] = []
    for taste in taste_names(clause):
        if not segment.start <= taste.start < end:
            continue
        if taste.qualifier or _a_vocabulary_phrase(taste.name):
            continue
        for word in (taste.name, taste.kind):
            if word and word not in found:
                found.append(word)
    return found


def _a_vocabulary_phrase(name: str) -> bool:
    """Whether a capitalised run is, whole, what the vocabulary knows ("Lego", "Board
    Games"), rather than a name one of whose words it knows ("Harry Potter" is no pottery)."""
    analysis = analyze(name)
    return bool(analysis.tags) and not [w for w in analysis.words if w not in _FILLER]


def _names_blanked(text: str) -> str:
    return blank(text, [m.span() for m in _PROPER.finditer(text) if not _a_vocabulary_phrase(m[0])])


def _in_language(text: str, locale: str) -> str:
    """``text`` with the words that must not meet the vocabulary blanked out."""
    text = _names_blanked(text)
    accented = _accented()

    def foreign(word: str) -> bool:
        if fold(word) != word and not any(
            w in accented for w in (word, word[:-1], word[:-2], word.rstrip("sx"))
        ):
            return True
        return locale == "fr" and fold(word) in _FALSE_FRIENDS_IN_FR

    return blank(text, [m.span() for m in re.finditer(r"[^\W\d_]+", text) if foreign(m[0].lower())])


_DOUBLED = re.compile(r"([a-z])\1+")


# "runs a bookshop", "walks my dog": leading, minding, no doing (offline_tastes' not_doings).
_RUNS_SOMETHING = re.compile(
    rf"(?<![\w'-])(?:{source(_TASTES, 'not_doings')}|(?:runs|run|ran)\s+(?=\w+&\w+\b))", re.I
)


def _verb_words(folded: str) -> set[str]:
    """The words the doing readings took ("l'espace" → espace): no free taste besides."""
    return {
        w for pattern, _ in _VERB for m in pattern.finditer(folded) for w in _WORD.findall(m[0])
    }


def verb_tags(folded: str) -> list[str]:
    """Tags from what the person says someone does.

    A typed word with a doubled letter ("cuisinner", "joggging") is read as well with the
    letter single, so the common slip of the key does not hide the activity.
    """
    squeezed = _DOUBLED.sub(r"\1", folded)
    found: list[str] = []
    for pattern, tag in _VERB:
        if tag not in TAGS or tag in found:
            continue
        if pattern.search(folded) or pattern.search(squeezed):
            found.append(tag)
    return found


# "my cat", "mon jardin": the speaker's own things, unless a relation follows ("my golf buddy").
_SPEAKERS = re.compile(
    rf"(?<![\w'])(?:{alternatives('function_words', 'first_person_possessives')})\s+"
    r"([^\W\d_]+)((?:[\s-]+[\w']+){0,2})",
    re.IGNORECASE,
)
# "when I travel", "je cuisine pour elle": what the speaker does (offline_tastes' speaker_does).
_SPEAKER_DOES = re.compile(
    rf"(?<![\w']){source(_TASTES, 'speaker_does')}(?:\s+|(?<='))([^\W\d_]+)", re.IGNORECASE
)


def _without_speakers_things(text: str) -> str:
    """``text`` with the speaker's own things and doings blanked out (same length, spans hold)."""

    def names_someone(m: re.Match[str]) -> bool:  # "my golf buddy"
        return bool(
            {fold(w) for w in re.findall(r"[^\W\d_]+", f"{m[1]} {m[2]}")} & relation_words()
        )

    text = blank(text, [m.span(1) for m in _SPEAKERS.finditer(text) if not names_someone(m)])
    return blank(text, [m.span(1) for m in _SPEAKER_DOES.finditer(text)])


# "something relaxing", "quelque chose de gourmand": the kind of gift wanted is a taste.
_SOMETHING = re.compile(
    rf"(?<![\w']){source(_TASTES, 'something')}(?:(?<=')|(?![\w']))\s*(?P<what>[^\W\d_]+)"
)
# "a cycling + hiking guy", "a real coffee snob": the words just before such a noun.
_KIND_NOUN = any_word("offline_tastes", "kind_nouns")
_KIND_WORD = re.compile(r"[^\W\d_]+|[+&/]")
_CONNECTORS = union("offline_tastes", "list_joiners") | {"/"}
# "a chocoholic", "a bookaholic": a taste with a suffix of craving.
_HOLIC = re.compile(r"(?<![\w'])([a-z]{3,}?)[ao]?holi(?:c|k|que)s?(?![\w'])")
# Owning an animal says they love it ("has two dogs", "just adopted a kitten", "a deux chats");
# minding one does not ("garde mon chat").
_ANIMALS = frozenset({"cat", "dog", "horse", "bird", "pet", "aquarium"})


def _owned_animals(folded: str, locale: str) -> list[str]:
    owns = source("offline_pastimes", "owning", lang="fr" if locale == "fr" else "en")
    pattern = rf"(?<![\w']){owns}\s+((?:[\w']+\s*){{1,4}})"
    found: list[str] = []
    for m in re.finditer(pattern, folded):
        for word in m[1].split():
            found.extend(t for t in sorted(analyze(word).tags & _ANIMALS) if t not in found)
    return found


def _kind_of_person(folded: str) -> list[str]:
    found: list[str] = []
    for m in _KIND_NOUN.finditer(folded):
        before = _KIND_WORD.findall(folded[: m.start()])
        words: list[str] = []
        while before and (before[-1] in _CONNECTORS or analyze(before[-1]).tags):
            words.insert(0, before.pop())
        found.extend(t for t in tags_in_order(" ".join(words)) if t not in found)
    for m in _HOLIC.finditer(folded):
        found.extend(t for t in _stem_tags(m[1]) if t not in found)
    for m in _SOMETHING.finditer(folded):
        found.extend(t for t in tags_in_order(m["what"]) if t not in found)
    return found


def _stem_tags(stem: str) -> list[str]:
    """The tag a cut word stands for: itself, or the one tag of the vocabulary's words it
    starts ("choc" → chocolate)."""
    tags = sorted(analyze(stem).tags)
    if tags or len(stem) < 4:
        return tags
    starting = {tag for word, tag in vocabulary_words().items() if word.startswith(stem)}
    return sorted(starting) if len(starting) == 1 else []


@lru_cache(maxsize=1)
def vocabulary_words() -> dict[str, str]:
    """Each one-word synonym of the vocabulary (folded) → its first tag."""
    return {word: tags[0] for word, tags in one_word_synonyms(TAGS).items()}


# Flowers someone has or grows are plants, not a bouquet (offline_tastes' growing).
_GROWN = re.compile(matcher(_TASTES, "growing").pattern + r"\s+((?:[\w'-]+\s*){1,2})")


def _grown_flowers(tags: list[str], folded: str) -> list[str]:
    """``tags`` with flowers someone has or grows read as plants (``_GROWN``)."""
    if "flower" not in tags:
        return tags
    for m in _GROWN.finditer(folded):
        if "flower" in canonical_tags(m[1].split()):
            swapped = [t if t != "flower" else "plant" for t in tags]
            return list(dict.fromkeys(swapped))
    return tags


def segment_tags(segment: Segment, locale: str) -> list[str]:
    """The tags a segment names, when it names them as tastes (see the module docstring)."""
    tags = _segment_tags(segment, locale)
    if segment.positive:
        said = fold(segment.text)
        tags = _merge(_merge(tags, _kind_of_person(said)), _owned_animals(said, locale))
        tags = _grown_flowers(tags, said)
    return tags


# An article or a possessive makes the next word a noun (offline_tastes' noun_openers).
_NOUN_AFTER = source(_TASTES, "noun_openers")


def _phrases_blanked(text: str) -> str:
    """``text`` with the phrases of several words the vocabulary knows blanked (same length)
    where an article makes them nouns, for the verb readings: "la cuisine japonaise" has
    given its tag already, and is no cooking ("elle cuisine" still is)."""
    words = phrase_words(text)
    if not words:
        return text
    phrase = re.compile(
        rf"(?<![\w'-]){_NOUN_AFTER}\s*((?:(?:{alternation(words)})(?:\s+|$))+)", re.IGNORECASE
    )
    return blank(text, [m.span(1) for m in phrase.finditer(text)])


def _gift_forms(text: str, locale: str) -> set[str]:
    """Kinds of gift that only give a taste its form: "whisky tasting", "coffee mug" — in
    English the word right after a taste names how it comes, not a second taste. (In French
    the word after the noun qualifies it: "jeux coopératifs" are both.)"""
    if locale == "fr":
        return set()
    words = tokenize(text)
    forms: set[str] = set()
    for first, second in pairwise(words):
        kinds = set(tags_in_order(second)) - INTERESTS
        if kinds and set(tags_in_order(first)) & INTERESTS:
            forms |= kinds
    return forms


# "to watch", "who'll watch": the verb, not a wristwatch (offline_tastes' watch_verbs).
_WATCH_VERB = matcher(_TASTES, "watch_verbs")


@dataclass(frozen=True)
class _Reading:
    """A segment read every way, before the rules say which readings count as tastes."""

    segment: Segment
    found: list[str]  # the vocabulary's tags, as said (compounds too), gift forms left out
    verbs: list[str]  # the tags of what someone does
    leftover: list[str]  # the words that gave no tag
    extra: list[str]  # words the vocabulary lacks, kept as items of a short list of tastes


def _segment_tags(segment: Segment, locale: str) -> list[str]:
    reading = _read(segment, locale)
    return next((t for rule in _TASTE_RULES if (t := rule(reading)) is not None), [])


def _read(segment: Segment, locale: str) -> _Reading:
    own = _without_speakers_things(segment.text)
    watch = _WATCH_VERB.finditer(fold(own, keep_length=True))
    own = blank(own, [(m.end() - len(m[0].split()[-1]), m.end()) for m in watch])
    text = _in_language(own, locale)
    forms = _gift_forms(text, locale)
    # as said: the first taste said is served first
    found = [t for t in tags_in_order(text) if t not in forms]
    if locale == "fr":
        found += _french_only(own, found)
    # "runs D&D" leads it; "loves Star Trek" is no trekking: names give no doing either
    led = _RUNS_SOMETHING.sub(lambda m: " " * len(m[0]), _names_blanked(own))
    led = _phrases_blanked(led)  # "la cuisine japonaise" is a cuisine, not "cuisine" the verb
    verbs = _merge(verb_tags(fold(led)), doing_tags(led, locale, cued=segment.cued))
    leftover = [w for w in analyze(text).words if _unread(w, locale)]
    compounds = {w: compound_tags(w) for w in leftover}
    found = _merge(found, [t for w in leftover for t in compounds[w] if t not in forms])
    taken = _verb_words(fold(led))
    leftover = [w for w in leftover if not compounds[w] and w not in taken]
    return _Reading(segment, found, verbs, leftover, _listed_extra(segment, found, leftover))


def _french_only(own: str, found: list[str]) -> list[str]:
    """The French short names of sports in ``own`` (``_FRENCH_ONLY``) not found yet."""
    folded = fold(own)
    return [
        tag
        for word, tag in _FRENCH_ONLY.items()
        if tag in TAGS and tag not in found and re.search(rf"(?<![\w'-]){word}(?![\w'-])", folded)
    ]


def _unread(word: str, locale: str) -> bool:
    """Whether a word the vocabulary gave no tag may still say something: no filler, no
    relation, no number."""
    return (
        len(word) > 1
        and not word.isdigit()
        and word not in _FILLER
        and word not in relation_words()
        and not (locale == "fr" and word in _FRENCH_ONLY)
    )


def _listed_extra(segment: Segment, found: list[str], leftover: list[str]) -> list[str]:
    """ "cooking and jazz": a short list of tastes; a word the catalog does not know is kept
    as it is, for the tools to match or to say they cannot serve."""
    listed = (
        len(leftover) <= 1
        and len(segment.text.split()) <= 6
        and _LIST.search(segment.folded) is not None
    )
    if not (listed and found and segment.positive):
        return []
    return [w for w in leftover if _free(w) and not _qualifies_a_listed_taste(w, segment.text)]


def _said_as_tastes(r: _Reading) -> list[str] | None:
    """After a liking word, a verb that tells the kind, "fan", or a negation: all of it."""
    segment = r.segment
    listens = any(tag and pattern.search(segment.folded) for pattern, tag in _KIND_VERB)
    if segment.cued or listens or _FAN.search(segment.folded) or not segment.positive:
        return _merge(_merge(r.found, r.verbs), r.extra)
    return None


def _someone_does(r: _Reading) -> list[str] | None:
    """ "elle tricote des écharpes pour toute la famille": what someone makes or does it for
    is no gift kind they want (scarves, family games); only interests stand."""
    if r.verbs and _subject_verb(fold(r.segment.text)):
        return _merge([t for t in r.found if t in INTERESTS], r.verbs)
    return None


def _nothing_but_tastes(r: _Reading) -> list[str] | None:
    return r.found if r.found and not r.leftover else None


def _a_list_of_tastes(r: _Reading) -> list[str] | None:
    return _merge(r.found, r.extra) if r.extra else None


# How a segment's readings count, the first rule that answers wins: words said as tastes
# count whole; then what someone is said to do; then a segment of nothing but tastes, or a
# short list of them. Anything else is about something else (a wish such as "something
# outdoorsy" is read with the kind of person, in ``segment_tags``).
_TASTE_RULES = (_said_as_tastes, _someone_does, _nothing_but_tastes, _a_list_of_tastes)


def _qualifies_a_listed_taste(word: str, text: str) -> bool:
    """Whether ``word`` sits in an item of the list that names a taste of its own: then it
    says what kind ("board games and terrible puns", "le jazz et les vieux vinyles"), it is
    no item of the list."""
    for item in _LIST.split(fold(text)):
        analysis = analyze(item)
        if word in analysis.words:
            return bool(analysis.tags)
    return False


# "walking", "swimming", "games" after "hill", "wild", "board": shorter parts are too often
# pieces of other words ("face|book" is no "fac|ebook").
_MIN_HEAD = 5
_MIN_QUALIFIER = 4


def compound_tags(word: str) -> list[str]:
    """The tags of a word written as one with what qualifies it ("hillwalking",
    "wildswimming", "fellrunning", "boardgames"): in English the last part of a compound is
    what it is, so its longest ending the vocabulary or the doing words know gives the
    tags, after a qualifier of four letters or more that is a word itself ("hill", "wild"),
    so "impeccable" is no "impec" cable. Words the vocabulary knows whole are read whole
    before this is asked."""
    from giftgenius.offline.spelling import is_word, longest_word

    if len(word) < _MIN_HEAD + _MIN_QUALIFIER or not word.isalpha():
        return []
    for cut in range(_MIN_QUALIFIER, len(word) - _MIN_HEAD + 1):
        if len(fold(word[:cut])) > longest_word():
            # No qualifier is longer than the dictionary's longest word, and a longer cut
            # only folds longer: a pasted run of 4,000 letters is not tried at every length.
            break
        if not is_word(word[:cut]):
            continue
        head = word[cut:]
        tags = sorted(analyze(head).tags) or verb_tags(head)
        if tags:
            return tags
    return []


def _free(word: str) -> bool:
    """Whether a word the vocabulary lacks may stand as a taste: a content word, no place,
    no currency ("got like 40 cad to spend": the lowercase code is the money's, no taste)."""
    from giftgenius.language.places import resolve_country

    return (
        len(word) >= 3
        and word.isalpha()
        and word not in _STOP
        and word not in _FILLER
        and word not in NUMBER_WORDS
        and word not in CURRENCY_WORDS
        and word not in relation_words()
        and resolve_country(word.capitalize()) is None
    )


# A subject pronoun, alone, with its verb or after "qu'" (offline_tastes' subject_pronouns).
_SUBJECT_PRONOUN = re.compile(matcher(_TASTES, "subject_pronouns").pattern + r"\s")


def _subject_verb(folded: str) -> bool:
    """Someone before the doing word: a pronoun ("elle tricote", "he bakes") or a relation
    ("mon beau-frère part camper"). A pronoun may carry its verb ("he's 67 and golfs",
    "they're retired and fish") or stand after "que" ("je sais qu'il peint")."""
    if _SUBJECT_PRONOUN.search(folded):
        return True
    return any(
        len(w) >= 3 and w in relation_words() and w not in _FILLER
        for w in re.findall(r"[^\W_]+", folded)
    )


def _merge(first: list[str], second: list[str]) -> list[str]:
    return first + [tag for tag in second if tag not in first]


def free_words(segment: Segment, limit: int = 1) -> list[str]:
    """The object of a taste or a refusal the vocabulary does not know: "loves fishing" →
    fishing, "rien en plastique" → plastique (the tools keep such words as they are). A
    title or a name of capitalised words ("The Lord of the Rings", "Harry Potter") is one
    object, kept whole."""
    idiom = idiom_at(segment.text)
    if idiom is not None:
        return [idiom]  # "sans argent liquide" refuses cash, not silver
    title = _PROPER.match(segment.text.strip())
    if title is not None and limit == 1:
        return [title[0]]
    words: list[str] = []
    for m in _WORD.finditer(segment.text):
        word = m[0].lower()
        if fold(word) in _FILLER:
            continue
        if not _free(fold(word)):
            break  # "pas de budget précis": the object is "budget", not "précis"
        words.append(word)
        if len(words) == limit:
            break
    return words


# Words that never name a taste: pronouns, adverbs, money, feelings (and "this", "that").
_STOP = union("offline_tastes", "stop") | frozenset(words("function_words", "demonstratives", "en"))

# Numbers in words (closed classes in both languages), never a taste ("like forty dollars").
NUMBER_WORDS = union("offline_numbers", "cardinals")

# Words that never name a taste: a typo is mended into one of them rather than into a taste.
GRAMMAR_WORDS = _STOP | _FILLER
