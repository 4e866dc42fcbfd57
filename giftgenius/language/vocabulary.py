"""Words people type → canonical tags and recipient kinds, in English and French.

Users say "jeux de société", "board games" or "boardgame"; the catalog only knows
``board-game``. Matching folds case and accents (except where folding would be ambiguous:
"thé" is tea, "the" is not), singularizes plurals against the known vocabulary, and takes the
longest known phrase first ("stylo plume" is a fountain pen, not a pen). Unknown words are
ignored here; search.py matches them against titles and descriptions itself.

The words are data, so a new synonym is a data change: ``data/vocabulary.toml`` holds every
tag (display words in both languages, whether it is a kind of gift, its synonyms), the
phrases that mean two tags, what products contain and which kinds hold which; it is
validated when read (``VocabularyError`` names the file and what to fix). Recipient kinds
come from the one relation lexicon, ``lexicons/<lang>/relations.toml``, which
``language/relations.py`` reads too (``relation_words``). This module holds the reading
rules, and keeps the tables it builds on disk under a key made of the bytes of the files
they come from (``sources``).
"""

from __future__ import annotations

import re
import tomllib
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    StringConstraints,
    ValidationError,
    field_validator,
    model_validator,
)

from giftgenius.domain import Locale
from giftgenius.language import lexicon
from giftgenius.language.folding import fold, key, spell_ligatures

# The tags, their display words and synonyms, the combined phrases, what a product can
# contain and which kinds hold which: one file for both languages, since the reader is one
# table for both (see its header).
_DATA = Path(__file__).parent / "data" / "vocabulary.toml"

# The catalog's audiences: every product's ``recipients`` are among them, and every relation
# word of ``lexicons/<lang>/relations.toml`` is filed under one (its kind).
RECIPIENTS: tuple[str, ...] = (
    "colleague",
    "friend",
    "partner",
    "mother",
    "father",
    "sister",
    "brother",
    "child",
    "teen",
    "grandparent",
    "boss",
    "teacher",
    "neighbor",
    "anyone",
)

Gender = Literal["female", "male"]

_Phrase = Annotated[str, StringConstraints(min_length=1, pattern=r"^\S(?:.*\S)?$")]
_TAG_NAME = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


class VocabularyError(ValueError):
    """A vocabulary data file is missing or malformed: the message names the file and the fix."""


class _Tag(BaseModel):
    """One tag: how to show it in each language, whether it is a kind of gift, its synonyms."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    en: _Phrase
    fr: _Phrase
    kind: bool = False
    words: tuple[_Phrase, ...] = ()

    @field_validator("words")
    @classmethod
    def _each_once(cls, words: tuple[str, ...]) -> tuple[str, ...]:
        repeated = sorted({w for w in words if words.count(w) > 1})
        if repeated:
            raise ValueError(f"synonyms listed twice: {repeated}; list each once")
        return words


class _VocabularyFile(BaseModel):
    """``data/vocabulary.toml`` as written; the checks say which entry to fix."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    version: Literal[1]
    ingredients: tuple[str, ...]
    holds: dict[str, tuple[str, ...]]
    combos: dict[_Phrase, tuple[str, ...]]
    popular: dict[str, tuple[str, ...]] = {}
    tags: dict[str, _Tag]

    @model_validator(mode="after")
    def _consistent(self) -> _VocabularyFile:
        bad_names = [t for t in self.tags if not _TAG_NAME.fullmatch(t)]
        if bad_names:
            raise ValueError(f"tags {bad_names}: a tag is lowercase words joined by hyphens")
        owner: dict[str, str] = {}
        for tag, entry in self.tags.items():
            for phrase in (tag, entry.en, entry.fr, *entry.words):
                if owner.setdefault(phrase, tag) != tag:
                    raise ValueError(
                        f"{phrase!r} is a synonym of both {owner[phrase]!r} and {tag!r}: "
                        "give it one tag (a phrase meaning both belongs in [combos])"
                    )
        named = {*self.ingredients, *self.holds}
        named.update(t for tags in (*self.holds.values(), *self.combos.values()) for t in tags)
        named.update(t for tags in self.popular.values() for t in tags)
        audiences = sorted(set(self.popular) - set(RECIPIENTS))
        if audiences or (self.popular and "anyone" not in self.popular):
            raise ValueError(
                f"popular names unknown audiences {audiences}: use the catalog's audiences, "
                "and give 'anyone' a list (the one used for the others)"
            )
        unknown = sorted(named - set(self.tags))
        if unknown:
            raise ValueError(
                f"ingredients, holds or combos name unknown tags {unknown}: "
                "fix the spelling or add them under [tags]"
            )
        repeated = sorted(set(self.combos) & set(owner))
        if repeated:
            raise ValueError(f"combos {repeated} are also one tag's synonyms: keep one of them")
        return self


def _read_vocabulary(path: Path | None = None) -> _VocabularyFile:
    """The vocabulary file, validated; a malformed one raises naming the file and the fix."""
    path = path or _DATA
    try:
        return _VocabularyFile.model_validate(tomllib.loads(path.read_text(encoding="utf-8")))
    except FileNotFoundError:
        raise VocabularyError(f"{path} is missing: the catalog vocabulary lives there.") from None
    except tomllib.TOMLDecodeError as exc:
        raise VocabularyError(f"{path} is not valid TOML: {exc}") from None
    except ValidationError as exc:
        raise VocabularyError(f"{path} is not a valid vocabulary: {exc}") from None


# Kinds of ``relations.toml`` besides the audiences (``<audience>``, ``<audience>_female``,
# ``<audience>_male``): read by ``language/relations.py``, listed here so that a misspelt
# kind is refused rather than silently left out.
RELATION_WORD_KINDS = frozenset(
    {
        "only_after_possessive",
        "only_after_determiner",
        "qualifiers",
        "teen_qualifiers",
        "naming",
        "nobody_in_particular",
        "not_names",
        "workplaces",
        "gift_for",
        "of_the_child",
    }
)
# Kinds ``ages_<youngest>_to_<oldest>`` of ``relations.toml``: the ages a relation word tells
# (read by ``language/relations.py``), not an audience.
RELATION_AGES_PREFIX = "ages_"
_GENDERS: dict[str, Gender | None] = {"": None, "_female": "female", "_male": "male"}
_AUDIENCE_KINDS: dict[str, tuple[str, Gender | None]] = {
    f"{audience}{suffix}": (audience, gender)
    for audience in RECIPIENTS
    for suffix, gender in _GENDERS.items()
}


def relation_words(lang: str) -> dict[str, tuple[str, Gender | None]]:
    """The relation words of one language as written → (catalog audience, gender or None).

    The one relation lexicon (``lexicons/<lang>/relations.toml``), read by the relation
    reader (``language/relations.py``) and by the catalog (``canonical_recipient``). Words
    are compared folded, so a word filed under two audiences (in any spelling) is refused.
    """
    found: dict[str, tuple[str, Gender | None]] = {}
    meaning_of: dict[str, tuple[str, Gender | None]] = {}
    for kind, words in lexicon.table("relations", lang).items():
        if kind in RELATION_WORD_KINDS or kind.startswith(RELATION_AGES_PREFIX):
            continue
        meaning = _AUDIENCE_KINDS.get(kind)
        if meaning is None:
            raise lexicon.LexiconError(
                f"lexicons/{lang}/relations.toml, kind {kind!r}: an audience is one of "
                f"{', '.join(RECIPIENTS)}, optionally followed by _female or _male."
            )
        for word in words:
            if meaning_of.setdefault(key(word), meaning) != meaning:
                raise lexicon.LexiconError(
                    f"lexicons/{lang}/relations.toml gives {word!r} two meanings: keep one."
                )
            found[word] = meaning
    return found


# Folding these would collide with common words of the other language ("thé" → "the").
_AMBIGUOUS_FOLDS = frozenset({"the"})
_WORD = re.compile(r"[^\W_]+")


def tokenize(text: str) -> list[str]:
    """Lowercased words (accents kept, for "thé"); hyphens and apostrophes separate words.

    Each word is folded later (``giftgenius.language.folding.fold``), unless its fold is ambiguous.
    """
    return _WORD.findall(unicodedata.normalize("NFC", spell_ligatures(text.lower())))


def _singulars(word: str) -> list[str]:
    if len(word) <= 3:
        return []
    out = []
    if word.endswith("ies"):
        out.append(word[:-3] + "y")
    if word.endswith("aux"):
        out.append(word[:-3] + "al")
    if word.endswith("es"):
        out.append(word[:-2])
    if word.endswith(("s", "x")):
        out.append(word[:-1])
    return out


class _PhraseTable:
    """Longest-first phrase lookup over folded, singularized tokens.

    Two phrases that read alike with different meanings are an error in the data, unless
    ``first_wins``: the relation lexicon is two languages' (a "nana" is a grandmother in
    English, a girlfriend in French), and the first said is read.
    """

    def __init__(self, phrases: dict[str, tuple[str, ...]], *, first_wins: bool = False) -> None:
        raw = {phrase: tokenize(phrase) for phrase in phrases}
        self._special: set[str] = set()  # accented words whose fold is ambiguous
        self._known: set[str] = set()
        for tokens in raw.values():
            for token in tokens:
                if fold(token) in _AMBIGUOUS_FOLDS and fold(token) != token:
                    self._special.add(token)
                else:
                    self._known.add(fold(token))
        self.keys: dict[tuple[str, ...], tuple[str, ...]] = {}
        lemmatized = {phrase: tuple(self.lemma(token) for token in raw[phrase]) for phrase in raw}
        if first_wins:  # a phrase as written before one read as another ("copains": copain)
            order = sorted(raw, key=lambda p: lemmatized[p] != tuple(map(fold, raw[p])))
            raw = {phrase: raw[phrase] for phrase in order}
        for phrase in raw:
            lemmas = lemmatized[phrase]
            previous = self.keys.get(lemmas)
            if previous is not None and previous != phrases[phrase]:
                if first_wins:
                    continue
                raise ValueError(
                    f"Vocabulary conflict: {phrase!r} means both {previous} and "
                    f"{phrases[phrase]}; give the phrase one meaning in its data file."
                )
            self.keys[lemmas] = phrases[phrase]
        self.longest = max(len(lemmas) for lemmas in self.keys)

    def lemma(self, token: str) -> str:
        """The known form of a word (singular if the singular is known), else its folded stem."""
        if token in self._special:
            return token
        for singular in _singulars(token):
            if singular in self._special:
                return singular
        folded = fold(token)
        for candidate in (*_singulars(folded), folded):
            if candidate in self._known:
                return candidate
        # Unknown word: a plain "-s" plural still meets its singular ("lighthouses").
        if len(folded) > 3 and folded.endswith("s") and not folded.endswith("ss"):
            return folded[:-1]
        return folded

    def scan(self, text: str) -> tuple[list[tuple[str, ...]], list[str]]:
        """Meanings found (in order), and the lemmas of the words no phrase used."""
        lemmas = [self.lemma(token) for token in tokenize(text)]
        found: list[tuple[str, ...]] = []
        rest: list[str] = []
        i = 0
        while i < len(lemmas):
            for size in range(min(self.longest, len(lemmas) - i), 0, -1):
                meaning = self.keys.get(tuple(lemmas[i : i + size]))
                if meaning is not None:
                    found.append(meaning)
                    i += size
                    break
            else:
                rest.append(lemmas[i])
                i += 1
        return found, rest

    def phrase_words(self, text: str) -> set[str]:
        """The words of ``text`` (as ``tokenize`` gives them) that a phrase of two words or
        more took ("cuisine" and "japonaise" in "la cuisine japonaise")."""
        words = tokenize(text)
        lemmas = [self.lemma(token) for token in words]
        taken: set[str] = set()
        i = 0
        while i < len(lemmas):
            for size in range(min(self.longest, len(lemmas) - i), 1, -1):
                if tuple(lemmas[i : i + size]) in self.keys:
                    taken.update(words[i : i + size])
                    i += size
                    break
            else:
                i += 1
        return taken


@dataclass(frozen=True)
class _Vocabulary:
    """What the data file says, in the shapes the readers ask for, and the phrase tables."""

    display: dict[str, tuple[str, str]]  # tag → (English, French)
    synonyms: dict[str, tuple[str, ...]]  # tag → the tag, both display words, its words
    kinds: frozenset[str]
    ingredients: frozenset[str]
    holds: dict[str, frozenset[str]]
    popular: dict[str, tuple[str, ...]]
    tags: _PhraseTable
    recipients: _PhraseTable


def _tag_phrases(data: _VocabularyFile) -> dict[str, tuple[str, ...]]:
    phrases: dict[str, tuple[str, ...]] = {}
    for tag, entry in data.tags.items():
        for phrase in (tag, entry.en, entry.fr, *entry.words):
            phrases[phrase] = (tag,)
    phrases.update(data.combos)
    return phrases


def _recipient_phrases() -> dict[str, tuple[str, ...]]:
    """What the catalog reads as an audience, from the one relation lexicon: every relation
    word of either language (English first where a word means two things: "nana"), the
    qualifiers that make a teenager, and the words for nobody in particular ("someone").

    The catalog reads without knowing the language, so it leaves out the everyday words
    that name a relation only after a possessive or a determiner ("blonde", "man"), and
    reads a relation word that is another language's function word only after a possessive
    of its own ("my son", while "son père" is French for his father).
    """
    function_words = lexicon.union("function_words", *lexicon.table("function_words", "en"))
    phrases: dict[str, tuple[str, ...]] = {}
    for lang in lexicon.LANGUAGES:
        kinds = lexicon.table("relations", lang)
        only_after = {*kinds["only_after_possessive"], *kinds["only_after_determiner"]}
        for word, (audience, _) in relation_words(lang).items():
            if word in only_after:
                continue
            if key(word) in function_words:
                for owner in lexicon.words("function_words", "possessives", lang):
                    phrases.setdefault(f"{owner} {word}", (audience,))
            else:
                phrases.setdefault(word, (audience,))
        for word in kinds["teen_qualifiers"]:
            phrases.setdefault(word, ("teen",))
        for word in kinds["nobody_in_particular"]:
            phrases.setdefault(word, ("anyone",))
    return phrases


def _build() -> _Vocabulary:
    data = _read_vocabulary()
    return _Vocabulary(
        display={tag: (entry.en, entry.fr) for tag, entry in data.tags.items()},
        synonyms={tag: (tag, entry.en, entry.fr, *entry.words) for tag, entry in data.tags.items()},
        kinds=frozenset(tag for tag, entry in data.tags.items() if entry.kind),
        ingredients=frozenset(data.ingredients),
        holds={kind: frozenset(tags) for kind, tags in data.holds.items()},
        popular=dict(data.popular),
        tags=_PhraseTable(_tag_phrases(data)),
        recipients=_PhraseTable(_recipient_phrases(), first_wins=True),
    )


_TOPICS = ("relations", "function_words")  # the lexicons the recipient table is built from


def sources() -> list[Path]:
    """Every file the vocabulary is built from: its data, and the code that reads it (what
    a table derived from the vocabulary, such as the catalog's term index, depends on)."""
    from giftgenius.language import folding

    lexicons = Path(lexicon.__file__).parent / "lexicons"
    words = [lexicons / lang / f"{topic}.toml" for lang in lexicon.LANGUAGES for topic in _TOPICS]
    return [Path(__file__), Path(folding.__file__), Path(lexicon.__file__), _DATA, *words]


def _load() -> _Vocabulary:
    """The vocabulary, built by the first process and kept on disk.

    Building it validates the data file, then folds and singularizes every phrase: 0.1 s of
    CPU at the start of every command that reads text or the catalog
    (``giftgenius.diskcache``). It depends on nothing but its data files, this module and
    the folding rule, so those files' bytes are the key: an edited data file is read again.
    """
    from giftgenius.diskcache import cached, fingerprint

    return cached("vocabulary", fingerprint([], sources()), _build)


_VOCABULARY = _load()
_TAGS, _RECIPIENT_WORDS = _VOCABULARY.tags, _VOCABULARY.recipients

TAGS: frozenset[str] = frozenset(_VOCABULARY.display)
# Tags that say what a gift *is* or how it is made (``kind = true`` in the data file); every
# other tag is an interest, something people say a recipient enjoys.
INTERESTS: frozenset[str] = TAGS - _VOCABULARY.kinds
# What a product can contain or serve, so that a refusal finds it in the description too.
INGREDIENTS: frozenset[str] = _VOCABULARY.ingredients


def popular_tags(audience: str) -> tuple[str, ...]:
    """The kinds of gift broadly liked by an audience (``[popular]`` in the data file), for
    a search when the person does not know the recipient's tastes; "anyone"'s for an
    audience without its own list."""
    popular = _VOCABULARY.popular
    return popular.get(audience) or popular.get("anyone", ())


def within(tags: Iterable[str]) -> frozenset[str]:
    """The tags with every tag their kinds hold (``holds`` in the data file: refusing sweets
    refuses chocolate and honey): what a refusal of them hits."""
    found = set(tags)
    for tag in list(found):
        found |= _VOCABULARY.holds.get(tag, frozenset())
    return frozenset(found)


@dataclass(frozen=True)
class Analysis:
    """What a text means to the catalog: canonical tags, plus the words left over."""

    tags: frozenset[str]
    words: tuple[str, ...]


def analyze(text_or_words: str | Iterable[str]) -> Analysis:
    """Tags found in the text and the leftover (folded, singularized) words.

    A list is read item by item, so a phrase never spans two items.
    """
    if isinstance(text_or_words, str):
        return _analyze_text(text_or_words)
    parts = [_analyze_text(item) for item in text_or_words]
    return Analysis(
        frozenset().union(*(part.tags for part in parts)),
        tuple(word for part in parts for word in part.words),
    )


@lru_cache(maxsize=8192)
def _analyze_text(text: str) -> Analysis:
    """One text's analysis. The offline model asks about the same words and clauses many
    times per message (every word of a message against every shortlisted title), so the
    answers, immutable, are remembered."""
    found, rest = _TAGS.scan(text)
    return Analysis(frozenset(tag for meaning in found for tag in meaning), tuple(rest))


def lemmas(text: str) -> list[str]:
    """Every word of the text in the form the vocabulary compares (folded, singularized)."""
    return [_TAGS.lemma(token) for token in tokenize(text)]


def phrase_words(text: str) -> set[str]:
    """The words of ``text`` that belong to a vocabulary phrase of several words: such a word
    is read with its phrase, not again on its own ("cuisine japonaise" is no cooking)."""
    return _TAGS.phrase_words(text)


def canonical_tags(text_or_words: str | Iterable[str]) -> set[str]:
    """Canonical tags named in free text or a list of words; unknown words are ignored."""
    return set(analyze(text_or_words).tags)


def canonical_recipient(text: str) -> str | None:
    """The recipient kind named first in the text ("ma sœur" → sister), or None."""
    if fold(text).strip() in RECIPIENTS:
        return fold(text).strip()
    found, _ = _RECIPIENT_WORDS.scan(text)
    return found[0][0] if found else None


def describe(tag: str, locale: Locale | str = "en") -> str:
    """A display word for a tag in the user's language; unknown tags are shown as they are."""
    entry = _VOCABULARY.display.get(tag)
    if entry is None:
        return tag
    return entry[1] if locale == "fr" else entry[0]


def synonyms(tag: str) -> list[str]:
    """Every phrase that means ``tag`` (for tests and for showing users what we understand)."""
    return list(_VOCABULARY.synonyms[tag])


def interests() -> list[str]:
    """Every interest tag, sorted: what a recipient can love, as opposed to kinds of gift."""
    return sorted(INTERESTS)


def tags_in_order(text: str) -> list[str]:
    """The canonical tags of ``text`` in the order the text names them ("fishing and
    camping" → fishing, camping): the first taste said is the first one served."""
    found, _ = _TAGS.scan(text)
    ordered: list[str] = []
    for meaning in found:
        ordered.extend(tag for tag in meaning if tag not in ordered)
    return ordered
