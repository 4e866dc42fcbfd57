"""Who the gift is for: the relation as the person said it, a name, and a catalog audience.

"your uncle Dave", "votre marraine", "my boss Karen", "la sœur de ma femme": the profile keeps
the words the person used (``said``) and the name they gave, so the agent can talk about
"your uncle Dave" later; the catalog needs one of its ``recipients`` values (``audience``) to
rank products. The relation lexicon (``lexicons/<lang>/relations.toml``) maps kinship and role
terms in both languages to that
audience and, where the word implies it, a gender.

Audiences follow what suits the person, not the family tree: in-laws and step-parents take
the parent's or sibling's audience, nephews, nieces, grandchildren and godchildren are
``child`` (as in the catalog vocabulary), a cousin or a flatmate is a ``friend``, a coach or
a mentor a ``teacher``, a client or an intern a ``colleague``; relatives and roles whose age
and tastes the word does not tell (uncle, godmother, nurse, landlord) are ``anyone``, as is
any relation word the lexicon does not hold ("my hairdresser").

The audience says whose tastes; the ages say who can use a gift. Every relation word also
files the ages it implies when none is said (``ages_<lo>_to_<hi>``: an uncle or a marraine
18 to 99, a kid 3 to 12, a bébé 0 to 2), and ``Relation.ages`` carries them to the search,
which never offers a product whose age range cannot meet them. A word that does not tell
(nephew, cousin, sœur) spans both (0 to 99), and the audience alone decides.

Grammar decides which word is the recipient when there are several: in English the
possessed noun ("my wife's sister" → sister) and the last noun of a compound ("my chef
friend" → friend); in French the first noun ("la sœur de ma femme" → sœur).
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from functools import lru_cache

from pydantic import BaseModel, ConfigDict, Field, field_validator

from giftgenius.domain import Locale
from giftgenius.language import lexicon as word_lists
from giftgenius.language.folding import Token, fold, key, tokens
from giftgenius.language.patterns import matcher
from giftgenius.language.vocabulary import RECIPIENTS, Gender, canonical_tags, relation_words

# The relation lexicon is data: ``lexicons/<lang>/relations.toml`` files each relation word
# under its audience and gender (read by ``vocabulary.relation_words``, which the catalog's
# ``canonical_recipient`` reads too), and holds the words around relations read below.
# Words are compared folded, so one spelling of each will do for accents and hyphens.


def _kind(name: str) -> frozenset[str]:
    """One kind of the relation lexicon, both languages, folded as tokens are."""
    return frozenset(fold(word) for word in word_lists.union("relations", name))


def _function_words(*kinds: str) -> frozenset[str]:
    return word_lists.union("function_words", *kinds)


# Words before a term that belong to how the person said it ("little sister", "grand frère").
_QUALIFIERS = _kind("qualifiers")
_TEEN_QUALIFIERS = _kind("teen_qualifiers")
_OWNERS = _function_words("possessives")
_ARTICLES = _function_words("definite_articles", "indefinite_articles")
_POSSESSIVES = _OWNERS | _ARTICLES  # what may stand before a relation word
_DETERMINERS = _POSSESSIVES | _function_words("demonstratives")
_NAMING = _kind("naming")
# Capitalised words that are not names ("For my boss", "Mon oncle", "I").
_NOT_NAMES = _kind("not_names") | _function_words(
    "definite_articles",
    "indefinite_articles",
    "possessives",
    "subject_pronouns",
    "conjunctions",
    "prepositions",
)


def _age_pattern() -> re.Pattern[str]:
    """An age said with its unit ("15-year-old", "12 yrs old", "9 yo", "8 ans"), from the
    ``ages`` lexicon: a language with words of "old" needs one after the unit."""
    forms: list[str] = []
    for lang in word_lists.LANGUAGES:
        table = word_lists.table("ages", lang)
        units = "|".join(re.escape(w) for w in sorted(table["years"], key=len, reverse=True))
        old = "|".join(re.escape(w) for w in table["old"])
        if units:
            forms.append(rf"(?:{units})[\s-]*(?:{old})" if old else f"(?:{units})")
        forms.extend(re.escape(w) for w in table["abbreviations"])
    return re.compile(rf"(?<!\d)(\d{{1,2}})[\s-]*(?:{'|'.join(forms)})\b")


# An age decides between child and teen: "my 15-year-old nephew", "mon neveu de 8 ans".
_AGE = _age_pattern()
# The words of an age said before the relation: English only ("12-year-old nephew"); French
# says it after ("neveu de 8 ans").
_AGE_WORDS = frozenset(
    word
    for kind in ("years", "old", "abbreviations")
    for word in word_lists.words("ages", kind, "en")
    if word.isalpha()
)
_SPACES = re.compile(r"\s+")
_NAME_GAP = re.compile(r"[\s,:()'’-]*")  # "my uncle Dave", "my manager, Priya": no ";" or "."
_MAX_SAID = 60  # as ProfileDraft.recipient
_MAX_NAME = 60  # as ProfileDraft.recipient_name: a longer "name" is not one


AgeRange = tuple[int, int]
_AGES_KIND = re.compile(r"ages_(\d+)_to_(\d+)")


def _ages_table(lang: Locale, meanings: Collection[str]) -> dict[str, AgeRange]:
    """Folded relation word → the ages it tells (the ``ages_<lo>_to_<hi>`` kinds), checked:
    every relation word and every word for nobody in particular has one range, and no
    range names a word that is neither."""
    kinds = word_lists.table("relations", lang)
    found: dict[str, AgeRange] = {}
    for kind, words in kinds.items():
        bounds = _AGES_KIND.fullmatch(kind)
        if bounds is None:
            continue
        ages = (int(bounds[1]), int(bounds[2]))
        for word in words:
            if found.setdefault(key(word), ages) != ages:
                raise word_lists.LexiconError(
                    f"lexicons/{lang}/relations.toml files {word!r} under two ages_ kinds."
                )
    known = {key(w) for w in (*meanings, *kinds["nobody_in_particular"])}
    unfiled = sorted(w for w in meanings if key(w) not in found)
    stray = sorted(set(found) - known)
    if unfiled or stray:
        raise word_lists.LexiconError(
            f"lexicons/{lang}/relations.toml: every relation word needs one ages_ kind "
            f"(missing: {unfiled}); an ages_ kind holds relation words only (stray: {stray})."
        )
    return found


class Relation(BaseModel):
    """The recipient as the person put it, plus what the catalog and the replies need."""

    model_config = ConfigDict(frozen=True)

    said: str | None = Field(
        None, max_length=_MAX_SAID, description='The relation in the person\'s words: "uncle"'
    )
    name: str | None = Field(None, max_length=_MAX_NAME, description='A name they gave: "Dave"')
    audience: str = Field("anyone", description="One of the catalog's recipients values")
    gender: Gender | None = Field(None, description="Only when the relation word implies it")
    known: bool = Field(True, description="False when the lexicon does not hold the word")
    ages: AgeRange | None = Field(
        None, description="The ages the words tell when no age is said: uncle (18, 99)"
    )

    @field_validator("audience")
    @classmethod
    def _catalog_audience(cls, value: str) -> str:
        if value not in RECIPIENTS:
            raise ValueError(f"audience must be one of {', '.join(RECIPIENTS)}, got {value!r}")
        return value


@dataclass(frozen=True)
class _Term:
    audience: str
    gender: Gender | None
    ages: AgeRange
    after: frozenset[str] | None = None  # a relation only right after one of these words


def _terms(lang: Locale) -> dict[str, _Term]:
    """Folded term → meaning for one language; a word read only after a possessive ("ma
    blonde") or a determiner ("un monsieur") says so."""
    kinds = word_lists.table("relations", lang)
    after = {word: _OWNERS for word in kinds["only_after_possessive"]}
    after.update({word: _DETERMINERS for word in kinds["only_after_determiner"]})
    meanings = relation_words(lang)
    stray = sorted(set(after) - set(meanings))
    if stray:
        raise word_lists.LexiconError(
            f"lexicons/{lang}/relations.toml: {stray} are read only after a possessive or a "
            "determiner but filed under no audience: file them under one."
        )
    ages = _ages_table(lang, meanings)
    return {
        key(word): _Term(audience, gender, ages[key(word)], after.get(word))
        for word, (audience, gender) in meanings.items()
    }


@lru_cache(maxsize=1)
def lexicon() -> dict[Locale, dict[str, _Term]]:
    """Folded term → meaning, per language (read once)."""
    return {"en": _terms("en"), "fr": _terms("fr")}


@dataclass(frozen=True)
class _Match:
    start: int  # token indexes, end exclusive
    end: int
    term: _Term


# Parts a relation's hyphenated word may have besides the relation ("ex-boss", "beau-papa",
# "mum-to-be", "petit-frère"): the lexicon's own compound parts, qualifiers, "to be".
_TO_BE = frozenset({"to", "be"})


@lru_cache(maxsize=1)
def _compound_parts() -> frozenset[str]:
    parts = {w for table in lexicon().values() for term in table for w in term.split()}
    return frozenset(parts | _QUALIFIERS | _TO_BE)


def _part_of_a_word(words: list[Token], text: str, start: int, end: int) -> bool:
    """Whether ``words[start:end]`` are only part of a hyphenated word whose other parts are
    no relation's ("k-pop", "pop-up", "hip-hop"): a hyphenated word is one word, and what
    it names is not read out of its pieces."""
    first, last = start, end - 1
    while first > 0 and text[words[first - 1].end : words[first].start] == "-":
        first -= 1
    while last + 1 < len(words) and text[words[last].end : words[last + 1].start] == "-":
        last += 1
    others = [w.folded for w in (*words[first:start], *words[end : last + 1])]
    return any(word not in _compound_parts() for word in others)


def _singular(word: str) -> list[str]:
    if len(word) <= 3:
        return []
    forms = []
    if word.endswith("aux"):
        forms.append(word[:-3] + "al")
    if word.endswith(("s", "x")):
        forms.append(word[:-1])
    return forms


def _lookup(phrase: str, locale: Locale) -> _Term | None:
    """The term in the person's language first, then in the other ("patron" in English)."""
    other: Locale = "en" if locale == "fr" else "fr"
    table = lexicon()
    words = phrase.split(" ")
    forms = [phrase] + [" ".join([*words[:-1], s]) for s in _singular(words[-1])]
    for language in (locale, other):
        for form in forms:
            term = table[language].get(form)
            if term is not None:
                return term
    return None


def _follows(words: list[Token], index: int, before: frozenset[str]) -> bool:
    """Whether one of ``before`` precedes word ``index``, adjectives aside ("la vieille dame")."""
    i = index - 1
    while i >= 0 and words[i].folded in _QUALIFIERS:
        i -= 1
    return i >= 0 and words[i].folded in before


def _matches(words: list[Token], locale: Locale, text: str) -> list[_Match]:
    """Every lexicon term in the text, longest first, left to right."""
    found: list[_Match] = []
    i = 0
    while i < len(words):
        for size in range(min(5, len(words) - i), 0, -1):
            term = _lookup(" ".join(t.folded for t in words[i : i + size]), locale)
            if term is not None and term.after and not _follows(words, i, term.after):
                term = None  # "une bière blonde" is no girlfriend, "Bonjour monsieur" no gift
            if term is not None and _part_of_a_word(words, text, i, i + size):
                term = None  # "k-pop", "pop-up": no dad ("pop") read out of one word
            if term is not None:
                found.append(_Match(i, i + size, term))
                i += size
                break
        else:
            i += 1
    return found


def _head(matches: list[_Match], words: list[Token], text: str, locale: Locale) -> int:
    """Which match is the recipient (see the module docstring)."""
    if locale == "fr":
        return 0
    candidates = []
    for n, match in enumerate(matches):
        after = text[words[match.end - 1].end : words[match.end - 1].end + 2]
        possessive = after in ("'s", "’s") or (after[:1] in ("'", "’") and after != "")
        if not possessive:
            candidates.append(n)
    if not candidates:
        return len(matches) - 1
    n = candidates[0]
    while n + 1 < len(matches) and matches[n + 1].start == matches[n].end:
        n += 1  # a compound: "chef friend" is a friend
    return n


def _joined(words: list[Token], modifier: _Match, head: _Match) -> bool:
    """Whether ``modifier`` qualifies ``head`` directly: only "'s", articles or adjectives
    stand between them ("wife's sister", "chef friend", "kid's piano teacher")."""
    between = {t.folded for t in words[modifier.end : head.start]}
    return between <= {"s"} | _POSSESSIVES | _QUALIFIERS


def _name_after(words: list[Token], text: str, index: int) -> str | None:
    """A capitalised name right after the relation ("my uncle Dave", "mon oncle Jean-Pierre")."""
    if index < len(words) and words[index].folded in _NAMING:
        index += 1
        return _name_at(words, text, index, any_case=True)
    if index + 1 < len(words) and (words[index].folded, words[index + 1].folded) in (
        ("qui", "s"),
        ("s", "appelle"),
    ):
        index += 3 if words[index].folded == "qui" else 2
        return _name_at(words, text, index, any_case=True)
    return _name_at(words, text, index, any_case=False)


def _name_at(words: list[Token], text: str, index: int, *, any_case: bool) -> str | None:
    parts: list[Token] = []
    while index < len(words) and len(parts) < 3:
        word = words[index]
        if word.folded in _NOT_NAMES or not word.text.isalpha():
            break
        if not (word.capitalized or (any_case and not parts)):
            break
        if any(_lookup(word.folded, lang) for lang in ("en", "fr")):
            break
        if index and not _NAME_GAP.fullmatch(text[words[index - 1].end : word.start]):
            break
        if parts and word.start - parts[-1].end > 1:
            break
        parts.append(word)
        index += 1
    if not parts or parts[-1].end - parts[0].start > _MAX_NAME:
        return None
    return text[parts[0].start : parts[-1].end]  # as typed: "Jean-Pierre", "Mary Jane"


def _name_before(words: list[Token], index: int, text: str) -> str | None:
    """A name that comes first: "Karen, my boss", "Léa (ma nièce)"."""
    i = index - 1
    while i >= 0 and words[i].folded in _POSSESSIVES | _QUALIFIERS:
        i -= 1
    # A name stands right before its relation's determiner ("Léa la coloc") or across a comma
    # or a bracket ("Léa, ma nièce"); "Kdo pour un collègue" or "Idée pour mon frère" name no one.
    if (
        i < 0
        or not words[i].capitalized
        or (i == index - 1 and not re.search(r"[,(]", text[words[i].end : words[i + 1].start]))
    ):
        return None
    start = i
    while (
        start > 0
        and words[start - 1].capitalized
        and words[start - 1].end + 1 == words[start].start
    ):
        start -= 1  # "Mary Jane, my sister"
    return _name_at(words, text, start, any_case=False)


def _said(words: list[Token], text: str, first: int, last: int) -> str:
    return _SPACES.sub(" ", text[words[first].start : words[last].end]).strip()


def _taste(folded: str) -> bool:
    """A word naming something people like ("chess" in "my chess coach"): it belongs to how
    the person said who it is, and tells a taste they share."""
    return (
        len(folded) >= 3
        and folded not in _POSSESSIVES | _QUALIFIERS
        and not any(_lookup(folded, lang) for lang in ("en", "fr"))
        and bool(canonical_tags(folded))
    )


def shared_tastes(relation: Relation) -> list[str]:
    """The catalog tags the words of ``relation.said`` name besides the relation ("chess
    coach" → chess), for the reader to take as interests."""
    found: list[str] = []
    for token in tokens(relation.said or ""):
        if _taste(token.folded) and token.folded not in _AT_WORK:
            found.extend(t for t in sorted(canonical_tags(token.folded)) if t not in found)
    return found


def workplace_tags(relation: Relation) -> set[str]:
    """The catalog tags of the words of ``relation.said`` that say where the person works
    ("collègue de bureau" → office): how the relation was named, not what they like."""
    return {
        tag
        for token in tokens(relation.said or "")
        if token.folded in _AT_WORK
        for tag in canonical_tags(token.folded)
    }


# "an engineer on my team", "a designer at work", "une graphiste de mon équipe": the role is
# a colleague's, whatever the noun (the lexicon cannot hold every job title).
# Where people work names no taste: "collègue de bureau", "office mate" share no office supplies.
_AT_WORK = _kind("workplaces")
_WORKPLACE = matcher("relations", "at_work")
_FOR = _kind("gift_for")


def _colleague(words: list[Token], text: str) -> Relation | None:
    """The gift is for the noun ("for a designer at work"), not just near the workplace
    ("a mug in the office kitchen")."""
    folded = fold(text, keep_length=True)
    for n, word in enumerate(words[2:], start=2):
        article = n - 1
        if words[article].folded in _QUALIFIERS and article > 1:
            article -= 1
        if (
            word.text.isalpha()
            and len(word.text) >= 3
            and word.folded not in _NOT_NAMES
            and words[article].folded in _ARTICLES
            and article > 0
            and words[article - 1].folded in _FOR
            and _WORKPLACE.match(folded[word.end :].lstrip())
        ):
            return Relation(said=word.text.lower()[:_MAX_SAID], audience="colleague")
    return None


def _fallback(words: list[Token], text: str) -> Relation | None:
    """No lexicon term: "my hairdresser" → hairdresser, audience anyone; "Dave" → a name;
    "a developer on my team" → developer, a colleague."""
    colleague = _colleague(words, text)
    if colleague is not None:
        return colleague
    for n, word in enumerate(words[:-1]):
        if word.folded in _OWNERS:
            noun = words[n + 1]
            if noun.text.isalpha() and noun.folded not in _NOT_NAMES:
                return Relation(
                    said=(noun.text if noun.text.isupper() else noun.text.lower())[:_MAX_SAID],
                    name=_name_after(words, text, n + 2),
                    known=False,
                )
    if len(words) == 1 and words[0].text.isalpha() and words[0].folded not in _NOT_NAMES:
        if len(words[0].text) > _MAX_NAME:
            return None  # a word of 80 letters names nobody
        if words[0].capitalized:
            return Relation(name=words[0].text, known=False)
        return Relation(said=words[0].text[:_MAX_SAID], known=False)
    return None


# A department named after the people it serves names none of them: "Milan du service client",
# "Jo from customer support".
_DEPARTMENT = matcher("relations", "departments")


def _without_departments(text: str) -> str:
    """``text`` with each department blanked out, the rest where it stood."""
    for m in _DEPARTMENT.finditer(fold(text, keep_length=True)):
        text = text[: m.start()] + " " * (m.end() - m.start()) + text[m.end() :]
    return text


def resolve_relation(text: str, locale: Locale = "en") -> Relation | None:
    """The recipient ``text`` describes, or None when it describes nobody.

    ``text`` is what the person said about the recipient: "my uncle Dave", "votre
    marraine", "Karen, my boss", "mon grand frère Léo", "my wife's sister". ``locale`` is the
    conversation's language: it reads the grammar and breaks ties ("cousin", "nan").
    """
    if not text or not text.strip():
        return None
    text = _without_departments(text)
    words = tokens(text)
    matches = _matches(words, locale, text)
    if not matches:
        return _fallback(words, text)
    head_index = _head(matches, words, text, locale)
    head = matches[head_index]
    first = _said_from(words, matches, head_index, locale)
    last = _said_to(words, matches, head_index, locale)
    audience = _audience(head.term.audience, words[first : last + 1], text)
    ages = _ages(head.term, audience, text)
    name = _name_after(words, text, last + 1) or _name_before(words, first, text)
    said = _said(words, text, first, last)
    if len(said) > _MAX_SAID:
        said = _said(words, text, head.start, head.end - 1)
    return Relation(
        said=said[:_MAX_SAID],
        name=name,
        audience=audience,
        gender=head.term.gender,
        ages=ages,
    )


def _said_from(words: list[Token], matches: list[_Match], head_index: int, locale: Locale) -> int:
    """The first word of the relation as said: English modifiers come before the head ("my
    wife's sister", "my chef friend"), as do qualifiers, an age and a taste ("little
    sister", "12-year-old nephew", "chess coach")."""
    first = matches[head_index].start
    n = head_index
    while locale != "fr" and n > 0 and _joined(words, matches[n - 1], matches[n]):
        n -= 1
        first = matches[n].start
    while first > 0 and (
        words[first - 1].folded in _QUALIFIERS | _AGE_WORDS
        or words[first - 1].text.isdigit()
        or (locale != "fr" and _taste(words[first - 1].folded))
    ):
        first -= 1
    return first


def _said_to(words: list[Token], matches: list[_Match], head_index: int, locale: Locale) -> int:
    """The last word of the relation as said: French modifiers follow the head, joined by
    "de" ("la sœur de ma femme"), as does a taste ("prof de yoga"); a teen qualifier in
    either language ("mon fils ado")."""
    head = matches[head_index]
    last = head.end - 1
    if locale == "fr" and head_index + 1 < len(matches):
        following = matches[head_index + 1]
        between = {t.folded for t in words[head.end : following.start]}
        if between and between <= _POSSESSIVES | {"de", "d", "du", "des"}:
            last = following.end - 1
    if (
        locale == "fr"
        and last + 2 < len(words)
        and words[last + 1].folded in ("de", "d")
        and _taste(words[last + 2].folded)
    ):
        last += 2
    if last + 1 < len(words) and words[last + 1].folded in _TEEN_QUALIFIERS:
        last += 1
    return last


def _audience(audience: str, said: list[Token], text: str) -> str:
    """The head's audience, unless the words said or an age make a child a teenager (or a
    grown-up): "my teenage nephew", "mon neveu de 15 ans", "my 25-year-old son"."""
    if any(word.folded in _TEEN_QUALIFIERS for word in said):
        audience = "teen"
    age = _AGE.search(text)
    if age is not None and audience in ("child", "teen"):
        years = int(age[1])
        audience = "teen" if 13 <= years <= 19 else "child" if years < 13 else "anyone"
    return audience


def _ages(term: _Term, audience: str, text: str) -> AgeRange:
    """The ages the words tell: an age said with its unit ("my 12-year-old nephew"), else
    the teenager's range when a qualifier or an age made the relation one ("my teenage
    nephew"), else the relation word's own (its ``ages_`` kind)."""
    said = _AGE.search(text)
    if said is not None and term.audience in ("child", "teen"):
        return (int(said[1]), int(said[1]))
    if audience == "teen" and term.audience != "teen":
        teen = _lookup("teen", "en")
        return teen.ages if teen is not None else term.ages
    return term.ages


def told_ages(said: str | None, locale: Locale = "en") -> AgeRange | None:
    """The ages the relation as said tells ("uncle" → (18, 99), "tante" → (18, 99), "kid" →
    (3, 12)); None when nobody or only a name is said, or the word is not a relation's."""
    relation = resolve_relation(said, locale) if said else None
    return None if relation is None else relation.ages
