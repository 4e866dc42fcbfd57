"""An interest said as what someone does: "he fishes", "elle jardine", "il pêchait".

People name a hobby with its verb more often than with its noun, in any person and tense.
The verb is found by its place in the sentence — right after someone (a pronoun, a relation
word: "my godfather fishes", "ma collègue brode"), after a verb of going ("goes fishing",
"va à la pêche"), or after "and"/"et" that joins a second doing ("knits and bakes") — never
anywhere in the text, so a noun that looks like a verb ("boxes of books") stays a noun.

Its inflection is taken off (English -s/-es/-ies/-ed/-ing, French -e/-es/-ent/-ait/-er…) and
what is left must start one of the vocabulary's own words for an interest with the ending
that makes an activity or its doer of a verb (fish → fishing, box → boxer, jardin →
jardinage, brod → broder, bricol → bricolage). The vocabulary is the one place that knows
interests; nothing here lists hobbies. Everyday verbs ("makes" → maker, "lives", "habite")
are a closed class of their own, listed once below.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from giftgenius.language.folding import fold
from giftgenius.language.lexicon import union
from giftgenius.language.relations import lexicon
from giftgenius.language.vocabulary import INTERESTS, synonyms, tokenize

# Who does something: a pronoun (a relation word or a name does too, see ``_subject``).
_PRONOUNS = union("offline_doings", "doers")
# Words between the doer and the verb: clitics, negation-free adverbs.
_BETWEEN = union("offline_doings", "between")
# Verbs of going: the doing comes after them ("goes fishing", "va à la pêche").
_GOING = union("offline_doings", "going")
# What may stand between a verb of going and the doing.
_GOING_TO = union("offline_doings", "after_going")
_AND = union("offline_doings", "joining")
# An English verb clipped onto its doer ("he's", "they're", "she'd", "who'll"): the doer has
# said a verb, so "and" may join a doing after what it said ("he's 67 and golfs").
_CLIPPED_VERB = union("offline_doings", "clipped_verbs")

# Everyday verbs, the grammar of saying what someone does: never an interest themselves
# ("makes" would be a maker, "works" a workout, "drives" a driver, French "ce qui traîne"
# — what lies about — training).
_EVERYDAY = union("offline_doings", "everyday_verbs")

# Inflections taken off a verb, and the endings that make an activity or its doer of a
# stem (offline_doings); the word itself is its own stem and its own activity ("fish").
_ENDINGS = (*union("offline_doings", "inflections"), "")
_DERIVED = ("", *union("offline_doings", "derivations"))
_VOWELS = frozenset("aeiouy")
_WORD = re.compile(r"[^\W\d_]+")


@lru_cache(maxsize=2)
def one_word_synonyms(tags: frozenset[str]) -> dict[str, tuple[str, ...]]:
    """Each one-word synonym of these tags (folded) → the tags it names."""
    words: dict[str, dict[str, None]] = {}
    for tag in tags:
        for phrase in synonyms(tag):
            parts = tokenize(phrase)
            if len(parts) == 1:
                words.setdefault(fold(parts[0]), {})[tag] = None
    return {word: tuple(named) for word, named in words.items()}


@lru_cache(maxsize=1)
def _interest_words() -> dict[str, str]:
    """Each one-word synonym of an interest → its tag; a word two interests share names
    neither."""
    return {w: tags[0] for w, tags in one_word_synonyms(INTERESTS).items() if len(tags) == 1}


@lru_cache(maxsize=1)
def relation_words() -> frozenset[str]:
    """Every word of the relations' names ("beau-frère", "godfather")."""
    return frozenset(w for table in lexicon().values() for k in table for w in k.split())


@lru_cache(maxsize=1)
def _doers() -> frozenset[str]:
    """The relation words that may do something ("my godfather fishes")."""
    return frozenset(w for w in relation_words() if len(w) >= 3 and w not in _BETWEEN | _PRONOUNS)


@lru_cache(maxsize=1)
def _grammar() -> frozenset[str]:
    """The reader's grammar words ("dans", "celle", "my"): never a verb."""
    from giftgenius.offline.interests import GRAMMAR_WORDS  # loaded by then: it imports us

    return GRAMMAR_WORDS


def _stems(word: str) -> list[str]:
    stems: list[str] = []
    for ending in _ENDINGS:
        if ending and not word.endswith(ending):
            continue
        stem = word[: len(word) - len(ending)]
        if ending == "ies":
            stem += "y"
        if len(stem) >= 3 and stem not in stems:
            stems.append(stem)
    return stems


@lru_cache(maxsize=4096)
def doing(word: str) -> str | None:
    """The interest a verb names ("fishes" → fishing, "brode" → embroidery), or None.

    A word the vocabulary derives from the stem (fishing, boxer, jardinage) speaks before
    the stem alone; a stem that leads to two interests names none.
    """
    if word in _EVERYDAY or word in _grammar() or len(word) < 4:  # "the" folds like "thé"
        return None
    words = _interest_words()
    derived: set[str] = set()
    bare: set[str] = set()
    noun = word in words  # "pêche", "cuisine" are verbs too; "jardin", "barbecue" are not
    for stem in _stems(word):
        if noun and stem == word:
            continue  # a noun said as it is is a verb only when it is inflected: pêch-e
        doubled = stem + stem[-1] if stem[-1] not in _VOWELS else stem  # run → running
        for suffix in _DERIVED:
            for base in dict.fromkeys((stem, doubled)) if suffix else (stem,):
                if noun and base + suffix == word and suffix != "ing":
                    continue  # "barbecue" is no "barbecu-e"; "fishing" is fish-ing
                tag = words.get(base + suffix)
                if tag is not None:
                    (derived if suffix else bare).add(tag)
    found = derived or bare
    return next(iter(found)) if len(found) == 1 else None


# Forms that are surely a verb right after a liking word: "loves to fish", "loves boxing",
# "aime pêcher", "adore coudre"; a bare noun there ("loves trains") is read as a noun.
_VERB_FORM = re.compile(r"(?:ing|er|ir|re)$")


def _verb_form(words: list[str], i: int) -> bool:
    return (i > 0 and words[i - 1] == "to") or _VERB_FORM.search(words[i]) is not None


def _subject(word: str, original: str) -> bool:
    """A pronoun, a relation word or a name; never a grammar or number word ("one", "I")."""
    if word in _PRONOUNS:
        return True
    from giftgenius.offline.interests import NUMBER_WORDS

    if word in _grammar() or word in NUMBER_WORDS or len(word) < 2:
        return False
    return word in _doers() or original[:1].isupper()


# Punctuation ends who is doing what: "pour Isabelle, celle que…" has no verb of Isabelle's.
_TOKEN = re.compile(r"[^\W\d_]+|[,;:.!?()]")
# An English verb joined by "and" carries its inflection ("knits and bakes", "fished and
# sailed"); "cooking and Italian food", "cycling and craft beer" join nouns.
_EN_INFLECTED = re.compile(r"(?:s|ed)$")


def doing_tags(text: str, locale: str = "en", cued: bool = False) -> list[str]:
    """The interests ``text`` says someone does, in the order said (see the module
    docstring). ``cued``: a liking word opened the text, so its first word may be a doing
    too when it has a verb's form ("loves to fish", "aime pêcher", not "loves trains")."""
    tokens = [m[0] for m in _TOKEN.finditer(text)]
    reader = _Doings([fold(t).lower() for t in tokens], tokens, locale, cued, expecting=cued)
    for i in range(len(tokens)):
        reader.read(i)
    return reader.found


@dataclass
class _Doings:
    """Reading a text word by word: who is doing something, and the doings they do."""

    words: list[str]  # folded
    tokens: list[str]  # as written
    locale: str
    cued: bool
    found: list[str] = field(default_factory=list)
    expecting: bool = False  # a doer was said: a verb may come
    going: bool = False  # after a verb of going: "to", "à la" may come before the doing
    joined: bool = False  # after "and"/"et" that joins a second doing
    did: bool = False  # a verb was read: "and"/"et" may join another

    def read(self, i: int) -> None:
        word = self.words[i]
        if not word.isalpha():
            self.expecting = self.going = self.joined = False
        elif self.expecting:
            self._after_doer(i)
        elif self.did and word in _AND:  # "knits and bakes", "tricote et elle cuisine"
            self.expecting = self.joined = True
        elif _subject(word, self.tokens[i]) and word not in _BETWEEN:
            self.expecting = True

    def _after_doer(self, i: int) -> None:
        word = self.words[i]
        if self.locale != "fr" and word in _CLIPPED_VERB and not self.joined and not self.did:
            self.expecting, self.did = False, True
            return
        if self._doer_goes_on(i):
            return  # "mon beau-frère", "uncle Dave"
        self.expecting = self.going = word in _GOING
        if self.going:
            return
        first_cued = self.cued and not self.did and not self.joined  # right after the liking
        if self._no_verb(i, first_cued):
            self.expecting = self.joined = False  # "For my aunt", "loves trains"
            return
        # a gerund after a liking word is a noun to "and": "loves running and novels"
        self.did = self.did or not first_cued
        self.joined = False
        tag = doing(word)
        if tag is not None and tag not in self.found:
            self.found.append(tag)

    def _doer_goes_on(self, i: int) -> bool:
        """Whether the word still belongs to the doer or leads to the verb: an adverb, a
        pronoun, "to" after a liking word or what follows a verb of going, another doer."""
        word = self.words[i]
        skip = _BETWEEN | _PRONOUNS | (_GOING_TO if self.going else frozenset())
        doer = not self.joined and _subject(word, self.tokens[i])
        return word in skip or (self.cued and word == "to") or doer

    def _no_verb(self, i: int, first_cued: bool) -> bool:
        """Whether the word cannot be the doing: a grammar word, a noun right after a liking
        word, or an uninflected English word after "and" ("cooking and Italian food")."""
        word = self.words[i]
        if word in _grammar() or (first_cued and not _verb_form(self.words, i)):
            return True
        return self.joined and self.locale != "fr" and not _EN_INFLECTED.search(word)
