"""Who the gift is for: the relation as the person said it, a name, and a catalog audience.

"your uncle Dave", "votre marraine", "my boss Karen", "la sœur de ma femme": the profile keeps
the words the person used (``said``) and the name they gave, so the agent can talk about
"your uncle Dave" later; the catalog needs one of its ``recipients`` values (``audience``) to
rank products. The lexicon below maps kinship and role terms in both languages to that
audience and, where the word implies it, a gender.

Audiences follow what suits the person, not the family tree: in-laws and step-parents take
the parent's or sibling's audience, nephews, nieces, grandchildren and godchildren are
``child`` (as in the catalog vocabulary), a cousin or a flatmate is a ``friend``, a coach or
a mentor a ``teacher``, a client or an intern a ``colleague``; relatives and roles whose age
and tastes the word does not tell (uncle, godmother, nurse, landlord) are ``anyone``, as is
any relation word the lexicon does not hold ("my hairdresser").

Grammar decides which word is the recipient when there are several: in English the
possessed noun ("my wife's sister" → sister) and the last noun of a compound ("my chef
friend" → friend); in French the first noun ("la sœur de ma femme" → sœur).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from giftgenius.domain import Locale
from giftgenius.language.folding import Token, fold, key, tokens
from giftgenius.language.vocabulary import RECIPIENTS, canonical_tags

Gender = Literal["female", "male"]

# "audience gender = term|term|…": the gender is f, m or - (the word does not say); an indented
# line continues the terms above. Terms are compared folded, so one spelling of each will do
# for accents and hyphens ("belle-mère" also reads "belle mere"). A term marked * is an
# everyday word that names a relation only after a possessive ("ma blonde" in Québec is a
# girlfriend, "une bière blonde" is not; "mon homme", not "un cadeau pour homme"); one marked
# + only after a determiner ("un monsieur que j'aide", not "Bonjour monsieur").
_EN = """
mother f = mother|mom|mum|mommy|mummy|mama|momma|mother-in-law|mom-in-law|stepmother|stepmom|
    step-mom|stepmum
father m = father|dad|daddy|papa|pop|pops|father-in-law|stepfather|stepdad|step-dad
anyone - = parents|parent|in-laws|in laws|step-parents|stepparents|folks
sister f = sister|sis|stepsister|step-sister|half-sister|half sister|sister-in-law|twin sister
brother m = brother|bro|stepbrother|step-brother|half-brother|half brother|brother-in-law|
    twin brother
anyone - = sibling|siblings
child m = son|stepson|step-son|grandson|nephew|godson
child f = daughter|stepdaughter|step-daughter|granddaughter|niece|goddaughter
child - = child|kid|kiddo|baby|toddler|grandchild|grandkid|godchild|little one|newborn
child m = boy|little boy
child f = girl|little girl
teen - = teen|teenager|adolescent|tween
anyone m = son-in-law
anyone f = daughter-in-law
grandparent f = grandmother|grandma|granny|gran|nan|nana|nanna|grandmom|grandmama|
    great-grandmother|great-grandma|granma
grandparent m = grandfather|grandpa|grandad|granddad|gramps|grandpapa|great-grandfather|
    great-grandpa|grampa
grandparent - = grandparents|grandparent|great-grandparents
anyone m = uncle|great-uncle|great uncle|godfather
anyone f = aunt|auntie|aunty|great-aunt|great aunt|godmother
anyone - = godparent|godparents
friend - = cousin|cousins
partner f = wife|missus|missis|fiancée|fiancee|girlfriend|gf
partner m = husband|hubby|fiancé|fiance|boyfriend|bf
partner - = partner|spouse|other half|significant other|better half|valentine|sweetheart|
    darling|love
friend - = friend|buddy|pal|mate|bestie|best friend|bff|best mate|childhood friend|old friend|
    flatmate|flat mate|roommate|room mate|roomie|housemate|classmate|bandmate|penpal|pen pal
neighbor - = neighbour|neighbor|next-door neighbour|next door neighbor
colleague - = colleague|coworker|co-worker|workmate|teammate|team mate|intern|trainee|
    apprentice|assistant|secretary|employee|direct report|client|customer|business partner|
    associate
boss - = boss|manager|line manager|supervisor|ceo|director|team lead|team leader|
    head of department|manageress
teacher - = teacher|tutor|coach|mentor|professor|lecturer|instructor|trainer|headteacher|
    head teacher|principal|headmaster|headmistress|teaching assistant|schoolteacher|
    nursery teacher|music teacher|piano teacher
anyone - = nurse|doctor|dentist|vet|midwife|caregiver|carer|therapist|physio
anyone - = babysitter|nanny|childminder|au pair
anyone - = landlord|landlady|host|hostess|housekeeper|cleaner|postman|mailman|mail carrier|
    doorman|concierge|hairdresser|barber|pastor|priest
anyone - = ex|ex-wife|ex-husband|ex-girlfriend|ex-boyfriend
anyone - = student|pupil|learner|mentee|protégé|protégée
anyone m = +gentleman|+guy|+man|+bloke|+chap|+fella|+fellow|+young man
anyone f = +lady|+woman|+gal|+young lady
"""

_FR = """
mother f = mère|maman|belle-mère|marâtre|môman|mamounette|daronne|reum|moman|belle-doche
father m = père|papa|beau-père|paternel|papounet|daron|reup|pôpa|paps|pater
anyone - = parents|beaux-parents|parent|darons
sister f = sœur|soeur|frangine|demi-sœur|demi-soeur|belle-sœur|belle-soeur|sœur jumelle|
    sœurette|soeurette|reus|sista
brother m = frère|frangin|demi-frère|beau-frère|frère jumeau|frérot|frr|frero|reuf|beauf|bro
child m = fils|petit-fils|neveu|filleul|garçon|petit garçon|beau-fils
child f = fille|petite-fille|nièce|filleule|fillette
child - = enfant|enfants|gamin|gamine|gosse|bébé|petits-enfants|marmot|bambin|loulou|minot
teen - = ado|adolescent|adolescente|ados
anyone m = gendre
anyone f = bru|belle-fille
grandparent f = grand-mère|mamie|mamy|mémé|mamie gâteau|grand-maman|mamita|arrière-grand-mère|
    bonne-maman|mémère|mamina
grandparent m = grand-père|papi|papy|pépé|grand-papa|papet|arrière-grand-père|bon-papa|pépère
grandparent - = grands-parents|grand-parent|aïeul
anyone m = oncle|tonton|grand-oncle|parrain|mononcle|götti|getti
anyone f = tante|tata|tatie|tantine|grand-tante|marraine|matante|gotte
friend m = cousin|cousins
friend f = cousine|cousines
partner f = femme|épouse|compagne|copine|petite amie|petite copine|fiancée|chérie|meuf|nana|
    amoureuse|bien-aimée|dulcinée|*blonde|*douce|*régulière
partner m = mari|époux|compagnon|copain|petit ami|petit copain|fiancé|chéri|mec|jules|amoureux|
    bien-aimé|chum|keum|*homme|zhom
partner - = conjoint|conjointe|partenaire|moitié|douce moitié|valentin|valentine|amour
friend m = ami|pote|meilleur ami|ami d'enfance|camarade|copain d'enfance|poto|meilleur chum|
    chum d'enfance|pote d'enfance
friend - = amie|meilleure amie|amie d'enfance|copine d'enfance|bff|bestie|coloc|colocataire|
    colloc|correspondant|correspondante|camarade de classe|meilleure chum|copinette|
    camarade de promo|pote de promo|potes|amis|amies|copains|copines|
    copain de classe|copine de classe|copain d'école|copine d'école|pote de classe
neighbor m = voisin
neighbor f = voisine
neighbor - = voisins|voisinage
colleague - = collègue|collègues|collaborateur|collaboratrice|coéquipier|coéquipière|stagiaire|
    alternant|alternante|apprenti|apprentie|assistant|assistante|secrétaire|employé|employée|
    client|cliente|associé|associée|binôme
boss m = patron|chef|n+1|supérieur|directeur|pdg|manager|responsable|chef d'équipe|boss
boss f = patronne|cheffe|supérieure|directrice|manageuse
teacher f = maîtresse|maitresse|institutrice|enseignante|professeure|éducatrice|
    entraîneuse|monitrice|tutrice|atsem|mentore
teacher m = maître|maitre|instituteur|instit|enseignant|professeur|éducateur|entraîneur|
    moniteur|tuteur
teacher - = prof|coach|mentor|profs
anyone - = kiné|dentiste|médecin|docteur|véto|vétérinaire|aide à domicile|propriétaire|
    proprio|concierge|baby-sitter|babysitter
anyone f = infirmière|nounou|sage-femme|aide-soignante|logeuse|gardienne|factrice|
    femme de ménage|coiffeuse|hôtesse
anyone m = infirmier|aide-soignant|logeur|gardien|facteur|coiffeur|curé|pasteur|hôte
anyone - = ex|ex-femme|ex-mari|ex-copine|ex-copain
anyone m = +monsieur|+gars|+bonhomme|+jeune homme
anyone f = +dame|+madame|+jeune femme|+demoiselle|+mademoiselle
anyone - = élève|étudiant|étudiante|apprenant|apprenante
"""

# Words before a term that belong to how the person said it ("little sister", "grand frère").
_QUALIFIERS = frozenset(
    """
    little big older elder younger baby kid twin teenage teenaged oldest eldest youngest
    dear dearest favourite favorite beloved new old best lovely sweet future  petit petite
    grand grande jeune cadet cadette aine ainee cher chere vieux vieille  nouveau nouvelle
    futur future adore adoree meilleur meilleure
    """.split()  # noqa: SIM905 - a word list reads better as text
)
_TEEN_QUALIFIERS = frozenset({"teenage", "teenaged", "ado", "adolescent", "adolescente"})
# An age decides between child and teen: "my 15-year-old nephew", "mon neveu de 8 ans".
_AGE = re.compile(r"(?<!\d)(\d{1,2})[\s-]*(?:years?[\s-]*old|yrs?[\s-]*old|yo|y/o|ans)\b")
_AGE_WORDS = frozenset({"year", "years", "old", "yo", "yr", "yrs"})
_POSSESSIVES = frozenset(
    """
    my our your his her their mon ma mes ton ta tes son sa ses notre nos votre vos leur
    leurs the a an le la les l un une
    """.split()  # noqa: SIM905 - a word list reads better as text
)
_OWNERS = _POSSESSIVES - {"the", "a", "an", "le", "la", "les", "l", "un", "une"}
_DETERMINERS = _POSSESSIVES | {"ce", "cet", "cette", "this", "that"}
_AFTER = {"*": _OWNERS, "+": _DETERMINERS}
_NAMING = ("named", "called", "nomme", "nommee", "prenomme", "prenommee", "appele", "appelee")
# Capitalised words that are not names ("For my boss", "Mon oncle", "I").
_NOT_NAMES = frozenset(
    """
    i i'm im it its it's my our your his her their for to a an the and or but he she they
    we you hi hello hey ok okay yes no please thanks so also just gift present  mon ma mes
    ton ta tes son sa ses notre nos votre vos leur pour un une le la les et ou  mais il elle
    on nous vous ils elles je tu bonjour salut oui non merci cadeau c'est  c est de du des a
    au aux chez avec nobody
    """.split()  # noqa: SIM905 - a word list reads better as text
)
_SPACES = re.compile(r"\s+")
_NAME_GAP = re.compile(r"[\s,:()'’-]*")  # "my uncle Dave", "my manager, Priya": no ";" or "."
_MAX_SAID = 60  # as ProfileDraft.recipient
_MAX_NAME = 60  # as ProfileDraft.recipient_name: a longer "name" is not one


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
    after: frozenset[str] | None = None  # a relation only right after one of these words


def _parse_lexicon(table: str) -> dict[str, _Term]:
    terms: dict[str, _Term] = {}
    genders: dict[str, Gender | None] = {"f": "female", "m": "male", "-": None}
    entries: list[tuple[str, str]] = []
    for line in table.strip().splitlines():
        if line.startswith(" "):
            meaning, words = entries[-1]
            entries[-1] = (meaning, words.rstrip("|") + "|" + line.strip())
        else:
            meaning, _, words = line.partition(" = ")
            entries.append((meaning, words))
    for meaning, words in entries:
        audience, gender = meaning.split()
        for word in words.split("|"):
            term = _Term(audience, genders[gender], _AFTER.get(word[0]))
            k = key(word.lstrip("*+"))
            if terms.get(k, term) != term:
                raise ValueError(f"The relation lexicon gives {word!r} two meanings.")
            terms[k] = term
    return terms


@lru_cache(maxsize=1)
def lexicon() -> dict[Locale, dict[str, _Term]]:
    """Folded term → meaning, per language (parsed once)."""
    return {"en": _parse_lexicon(_EN), "fr": _parse_lexicon(_FR)}


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
_WORKPLACE_WORDS = (
    "team|office|work|job|company|firm|department|dept|workplace|accounting|accounts|finance|"
    "hr|sales|marketing|legal|engineering|equipe|bureau|boulot|travail|boite|service|taf|"
    "compta|comptabilite|entreprise|societe|agence|labo"
)
_WORKPLACE = re.compile(
    r"^\s*(?:on|in|at|from|of|de|du|d'|dans|au|a|chez)\s*(?:(?:my|our|the|his|her|mon|ma|notre|"
    rf"la|le|l'|nos)\s*)?(?:{_WORKPLACE_WORDS})(?![\w])"
)
# Where people work names no taste: "collègue de bureau", "office mate" share no office supplies.
_AT_WORK = frozenset(_WORKPLACE_WORDS.split("|"))
_ARTICLES = frozenset({"a", "an", "the", "un", "une", "le", "la", "l"})


_FOR = frozenset({"for", "pour", "to", "a"})


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
            and _WORKPLACE.match(folded[word.end :])
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
_DEPARTMENT = re.compile(
    r"(?<![\w'])(?:service (?:aux )?clients?|service client[eè]le|relation clients?|"
    r"(?:customer|client|guest|patient) (?:service|services|support|care|success|relations))"
    r"(?![\w'])",
    re.IGNORECASE,
)


def resolve_relation(text: str, locale: Locale = "en") -> Relation | None:
    """The recipient ``text`` describes, or None when it describes nobody.

    ``text`` is what the person said about the recipient: "my uncle Dave", "votre
    marraine", "Karen, my boss", "mon grand frère Léo", "my wife's sister". ``locale`` is the
    conversation's language: it reads the grammar and breaks ties ("cousin", "nan").
    """
    if not text or not text.strip():
        return None
    text = _DEPARTMENT.sub(lambda m: " " * len(m[0]), text)
    words = tokens(text)
    matches = _matches(words, locale, text)
    if not matches:
        return _fallback(words, text)
    head_index = _head(matches, words, text, locale)
    head = matches[head_index]
    first, last = head.start, head.end - 1
    n = head_index
    while locale != "fr" and n > 0 and _joined(words, matches[n - 1], matches[n]):
        n -= 1  # "my wife's sister", "my chef friend": the modifiers come first
        first = matches[n].start
    if locale == "fr" and head_index + 1 < len(matches):
        # "la sœur de ma femme": the modifiers follow the head, joined by "de".
        following = matches[head_index + 1]
        between = {t.folded for t in words[head.end : following.start]}
        if between and between <= _POSSESSIVES | {"de", "d", "du", "des"}:
            last = following.end - 1
    while first > 0 and (
        words[first - 1].folded in _QUALIFIERS | _AGE_WORDS
        or words[first - 1].text.isdigit()
        or (locale != "fr" and _taste(words[first - 1].folded))
    ):
        first -= 1  # "little sister", "12-year-old nephew", "chess coach"
    if (
        locale == "fr"
        and last + 2 < len(words)
        and words[last + 1].folded in ("de", "d")
        and _taste(words[last + 2].folded)
    ):
        last += 2  # "prof de yoga", "élève de guitare"
    audience, gender = head.term.audience, head.term.gender
    if last + 1 < len(words) and words[last + 1].folded in _TEEN_QUALIFIERS:
        last += 1  # "mon fils ado"
    if any(words[i].folded in _TEEN_QUALIFIERS for i in range(first, last + 1)):
        audience = "teen"
    age = _AGE.search(text)
    if age is not None and audience in ("child", "teen"):
        audience = "teen" if 13 <= int(age[1]) <= 19 else "child" if int(age[1]) < 13 else "anyone"
    name = _name_after(words, text, last + 1) or _name_before(words, first, text)
    said = _said(words, text, first, last)
    if len(said) > _MAX_SAID:
        said = _said(words, text, head.start, head.end - 1)
    return Relation(
        said=said[:_MAX_SAID],
        name=name,
        audience=audience,
        gender=gender,
    )
