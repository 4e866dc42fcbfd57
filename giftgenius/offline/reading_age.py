"""The recipient's age in one message, only where it is said about them.

"20 ans de mariage", "depuis 5 ans", "5 years at the company" and a budget of 50 are no
ages: a figure is an age after a cue about the recipient ("she turns 8", "il aura 7 ans"),
as the age of whose birthday it is ("les 7 ans de mon fils"), or set right after a relation
("mon neveu, 7 ans", "my grandson, 9, loves trains").
"""

from __future__ import annotations

import re

from giftgenius.domain import Locale
from giftgenius.language.folding import fold
from giftgenius.language.patterns import alternatives, matcher, source
from giftgenius.language.relations import resolve_relation
from giftgenius.offline.clauses import Clause

_TOPIC = "reading_ages"


def _cue(kind: str) -> str:
    """The phrases of a kind said right before a figure, as a whole word and its space."""
    return rf"(?<![\w']){source(_TOPIC, kind)}\s+"


_NOT_AGE_UNITS = alternatives(_TOPIC, "not_age_units", lang="en")  # "is 20 dollars"
# "N ans" said of someone, not of something ("20 ans de mariage").
_YEARS = r"(\d{1,3})\s*ans(?!\s*(?:de(?![\w])|d'))(?![\w])"
# An age only with a cue about the recipient; "20 ans de mariage", "depuis 5 ans" are not.
_AGE = [
    # "she turns 8", "he's 7", a coming age: "she'll be 6 next month", "about to turn 9"
    re.compile(rf"{_cue('cued')}(\d{{1,3}})(?!\s*(?:[$€£%]|{_NOT_AGE_UNITS}|\d))"),
    re.compile(r"(?<![\w'])(\d{1,3})\s*(?:-|\s)?(?:years?|yrs?|ans?)(?:\s*-?\s*old)(?![\w])"),
    re.compile(r"(?<![\w'])(\d{1,3})\s*(?:yo|y/o|year-old|yr-old)(?![\w])"),
    re.compile(_cue("said_of_someone") + _YEARS),
    # a coming age said by its verb alone, whoever the subject: "mon neveu va avoir 7 ans",
    # "aura bientôt 9 ans", "va sur ses 8 ans"; "a N ans" needs its subject ("il y a 3 ans")
    re.compile(r"(?<!ca )(?<!cela )" + _cue("coming") + _YEARS),
    # an ordinal birthday: "for her 12th birthday", "his 7th bday", "pour son 10e anniversaire";
    # not a couple's or a firm's ("our 10th anniversary", "son 30e anniversaire de mariage")
    re.compile(
        r"(?<![\w'])(?<!our )(?<!notre )(?<!nos )(?<!leur )(\d{1,3})\s*(?:st|nd|rd|th|e|eme|"
        r"ieme|er|°)\s+(?:birthday|bday|b-day|anniversaire|anniv)(?![\w])"
        r"(?!\s*(?:de(?!\s+(?:ma|mon|ta|ton)\s)|d'|du|des|of|dans|chez|au sein|at)(?![\w]))"
    ),
    re.compile(_cue("celebrating") + _YEARS),
    re.compile(
        rf"(?<![\w']){source(_TOPIC, 'aged')}\s*{_YEARS}(?<!depuis \d ans)(?<!depuis \d\d ans)"
    ),
]


def names_relation(piece: str, lang: Locale) -> bool:
    """Whether ``piece`` ends with a relation word ("pour ma tante"): a name may follow."""
    relation = resolve_relation(piece, lang)
    if relation is None or not relation.known or not relation.said:
        return False
    return fold(piece).rstrip().endswith(fold(relation.said))


# "mon neveu 15 ans", "Ma nièce, 16 ans.", "ma fille a 14 ans": "N ans" about someone;
# not after "depuis", "il y a", "pendant", "nos", "ses … de" (durations and anniversaries).
_BARE_AGE = re.compile(
    r"(?<![\w'])(\d{1,3})\s*(?:ans|years?|yrs?)\s*(?:[,.;!?)]|$)"
    r"|(?<![\w'])(?:a|has|is|aura)\s+(\d{1,3})\s*(?:ans|years?)(?!\s*(?:de|d'|of|qu'|que))(?![\w])"
    # "my little brother is 7 and…", "my niece's 9 now": a bare figure said of a relation,
    # ending the clause or followed by a linking word (never a unit or a currency)
    r"|(?:(?<![\w'])(?:is|just turned|turned)|(?<=\w)'s)\s+(\d{1,3})"
    r"(?=\s*(?:[,.;!?)]|$|(?:and|but|now|already|so|soon|next|this)(?![\w'])))"
)
# What a bare "is N" may be said of besides a person: money and quantities.
_NOT_AGED = re.compile(
    rf"{matcher(_TOPIC, 'amounts').pattern}|(?<![\w'])(?:{alternatives(_TOPIC, 'pointers')})\s*$"
)
_NOT_AGE_BEFORE = re.compile(rf"(?:{alternatives(_TOPIC, 'durations')})\s*$")


# "for her first birthday", "son premier anniversaire": the figure the ordinal patterns read.
_FIRST_BIRTHDAY = matcher(_TOPIC, "first_birthday")
# An age set next to whom it is about, in a terse list: "garçon 8 ans 25€ france", "pour mon
# neveu, 7 ans, passionné de…", "my grandson, 9, loves trains", "my son (8) loves lego".
_APPOSED_AGE = re.compile(
    r"(?<![\w'.,$€£])(\d{1,3})(?:\s*(ans|years?|yrs?)(?![\w']))?(?![\w'.,]\d)(?!\s*[$€£%])"
)
# What turns "N ans" after a relation into a stretch of time: "ma femme, 10 ans de mariage",
# "mon boss, 5 years at the company", "mon frère, 3 ans plus tard".
_TIME_AFTER = re.compile(rf"\s*(?:{alternatives(_TOPIC, 'time_after')})(?![\w])")
_ABOUT_BEFORE = re.compile(rf"(?<![\w'])(?:{alternatives(_TOPIC, 'about')})\s*$", re.IGNORECASE)
# The oldest a bare figure between commas may be and still be a child's age: beyond it, "for
# my dad, 50, France" may as well be the budget.
_BARE_CHILD_AGE = 17


def _apposed_age(text: str, lang: Locale, budget: float | None) -> int | None:
    """An age right after the relation it is about, with "ans"/"years" or, for a child's
    age, a bare figure between commas or in brackets that is not the budget."""
    from text_to_num import alpha2digit

    said = alpha2digit(text, lang)
    digits = fold(said, keep_length=True)
    for m in _APPOSED_AGE.finditer(digits):
        value = int(m[1])
        before = _ABOUT_BEFORE.sub("", said[: m.start()])  # "my niece, almost 7, …"
        after = digits[m.end() :]
        if m[2] is None:
            # "my grandson, 9, …", "my son (8) …", "Nephew 11, into Minecraft, 40 bucks"
            closed = re.match(r"\s*(?:[,)]|$)", after) and re.search(r"(?:[,(]|\w)\s*$", before)
            if not closed or value > _BARE_CHILD_AGE or value == budget:
                continue
        elif _TIME_AFTER.match(after) or (
            m[2] != "ans" and not re.match(r"\s*(?:[,.;!?)]|$)", after)
        ):
            continue
        piece = re.split(r"[.;:!?\n]", before)[-1].rstrip(" ,(")
        if 0 < value <= 120 and names_relation(piece, lang):
            return value
    return None


# A birthday said by whose it is: "pour les 7 ans de mon fils", "fête les 10 ans de ma
# fille", "for my son's 8th"; "les 10 ans de notre mariage", "my son's 8th grade" are not.
_WHOSE_AGE = re.compile(
    r"(?<![\w'])(?:les|ses)\s+(?P<years>\d{1,3})\s*ans\s+(?:de|d')\s*"
    r"(?P<who>(?:mon|ma|ton|ta|son|sa)\s+[\w-]+(?:\s+[\w-]+)?)"
    r"|(?P<owner>\w+)'s\s+(?P<nth>\d{1,3})(?:st|nd|rd|th)(?=\s*(?:[,.;!?)]|$|birthday|bday|b-day|party))"
)


def _whose_age(digits: str, lang: Locale) -> int | None:
    """The age of a birthday said with whose it is, a relation's ("les 7 ans de mon fils")."""
    for m in _WHOSE_AGE.finditer(digits):
        if m["who"] is not None:
            words = m["who"].split()
            if names_relation(" ".join(words[:3]), lang) or names_relation(
                " ".join(words[:2]), lang
            ):
                return int(m["years"])
        elif names_relation(digits[: m.end("owner")], lang):
            return int(m["nth"])
    return None


def recipient_age(
    clauses: list[Clause], lang: Locale, message: str = "", budget: float | None = None
) -> int | None:
    """The recipient's age, from the first clause that says one, else set next to a relation
    in the whole message (``budget`` is the figure a bare number must not be)."""
    from text_to_num import alpha2digit

    for clause in clauses:
        digits = _FIRST_BIRTHDAY.sub("1st", fold(alpha2digit(clause.text, lang)))
        for reader in _CLAUSE_AGES:
            found = reader(digits, lang)
            if found is not None and 0 < found <= 120:
                return found
    return _apposed_age(message, lang, budget) if message else None


def age_in(folded: str) -> bool:
    """Whether a clause says an age with a cue: then a bare figure in it is no budget."""
    return any(p.search(folded) for p in _AGE)


def _cued_age(digits: str, _lang: Locale) -> int | None:
    """An age after a cue about the recipient (``_AGE``): the first pattern that fits."""
    for pattern in _AGE:
        m = pattern.search(digits)
        if m and 0 < int(m[1]) <= 120:
            return int(m[1])
    return None


def _bare_age(digits: str, lang: Locale) -> int | None:
    """ "N ans" or "is N" said right after a relation, not a duration nor an amount."""
    m = _BARE_AGE.search(digits)
    if m is None:
        return None
    before = digits[: m.start()]
    if (
        _NOT_AGE_BEFORE.search(before)
        or (m[3] and _NOT_AGED.search(before.rstrip(" '")))
        or resolve_relation(before, lang) is None
    ):
        return None
    return int(m[1] or m[2] or m[3])


# The readers of one clause, tried in turn: an age with a cue ("she turns 8") is the surest,
# then a birthday said by whose it is ("les 7 ans de mon fils"), then a bare "N ans" after a
# relation, which a duration or an amount may also be.
_CLAUSE_AGES = (_cued_age, _whose_age, _bare_age)
