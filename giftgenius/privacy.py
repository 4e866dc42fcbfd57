"""Keep personal data and terminal control out of what is stored, logged and echoed.

GiftGenius never needs a user's email, phone number, card number, bank account (IBAN),
social security number (US SSN, French NIR), passport number or postal address to choose a
gift, so the transcript, sessions, checkpoints and logs keep a placeholder instead
(``[email]``, ``[phone]``, ``[card]``, ``[iban]``, ``[ssn]``, ``[passport]``,
``[address]``). People type these in many forms — a card grouped by dots or underscores, an
IBAN with dashes, an email spelt "jo at example dot com" — and each form is recognised in
the one place of its kind below. The scrubber runs on every message, tool result and log
line, so it is a handful of precompiled regexes plus small validators, and it leans towards
leaving ordinary text alone: prices, dates, ids, ages, quantities, order numbers, years,
long decimals and ISO country codes pass through byte-identical. What a library knows
better is left to it, imported on first need only: python-stdnum validates IBANs
(per-country format and mod-97), card numbers (Luhn), US SSNs (the never-issued ranges) and
French NIRs (the mod-97 key), once separators are removed; phonenumbers' matcher finds the
national numbers written without a trunk prefix (``4155552671``, a Spanish ``612345678``)
for the regions in ``GIFTGENIUS_PHONE_REGIONS``. No maintained library finds addresses
inside free text for the countries we serve (pyap covers US, CA and GB only, usaddress
parses a US address it is given), so addresses are a tested pattern set per country.

Passes run in a fixed order — emails, IBANs, French NIRs, cards, US SSNs, passports,
phones, addresses — so a later pass never sees digits an earlier one already replaced (an
email's digits are not a phone, an IBAN's groups are not a card, a NIR that happens to pass
Luhn is still a NIR, a card is not mistaken for a long phone number, a NIR's groups are not
phones). Addresses come last, and when one is found the number passes run once more over
what it left: a German house number can be the head of a run of digits whose rest is a
phone of its own ("Hauptstraße 1 9 1111 1111").

``strip_controls`` is the other half: text a user typed can hold terminal escape sequences
that would recolour, clear or retitle the terminal when echoed; it is removed at the input
boundary and from stored labels.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import cache, lru_cache
from itertools import pairwise
from typing import Any, Final

__all__ = [
    "ADDRESS",
    "CARD",
    "DEFAULT_PHONE_REGIONS",
    "EMAIL",
    "IBAN",
    "PASSPORT",
    "PHONE",
    "PLACEHOLDERS",
    "SSN",
    "configure_phone_regions",
    "contains_pii",
    "scrub",
    "scrub_obj",
    "strip_controls",
]

EMAIL: Final = "[email]"
PHONE: Final = "[phone]"
CARD: Final = "[card]"
IBAN: Final = "[iban]"
SSN: Final = "[ssn]"
PASSPORT: Final = "[passport]"
ADDRESS: Final = "[address]"
PLACEHOLDERS: Final = {
    "email": EMAIL,
    "phone": PHONE,
    "card": CARD,
    "iban": IBAN,
    "ssn": SSN,
    "passport": PASSPORT,
    "address": ADDRESS,
}

DEFAULT_PHONE_REGIONS: Final = ("US", "CA", "GB", "IE", "FR", "BE", "CH", "DE", "NL", "ES", "IT")
"""Whose national numbers (written without "+country") are recognised; the default of the
``GIFTGENIUS_PHONE_REGIONS`` setting."""

# Every kind of PII we scrub contains a digit or an "@", except an email spelt out ("jo at
# example dot com"); text with none of these skips all passes.
_TRIGGER = re.compile(r"[\d@]|(?i:\bat\b|arobase)")
_NON_DIGIT_RE = re.compile(r"\D")

# A number that is glued to a word, an id ("g-0042", "call_abc123"), a date ("24/12"), a
# signed value or the decimals of another number ("1,200", "49.99") is never the start of
# PII; the same holds at the end.
_START = r"(?<![\w+\-/])(?<!\d[.,])"
_DIGIT_AHEAD = r"(?=[\d+(])"  # checked before the lookbehinds: most positions fail here, fast
_END = r"(?![\w/]|[.,\-]\d)"

_DECIMAL_RE = re.compile(r"\d+[.,]\d+")
"""One decimal point or comma between two digit runs ("16800.6875", "0.062500000000"): a
number, however valid a phone or a NIR its digits would make ("0.0625..." is no "00"
prefix, "71962.3505398868" no social security number)."""

# --- emails -------------------------------------------------------------------------------

_EMAIL_RE = re.compile(
    r"(?:\"[^\"\r\n@]{1,64}\"|(?<![\w.%+\-])[\w.%+\-]+(?:['’][\w.%+\-]+)*)"
    r"@[\w\-]+(?:\.[\w\-]+)*\.[^\W\d_]{2,}(?![\w\-])"
)
"""Local part, "@", dotted domain, alphabetic TLD. The local part is a quoted string
(\"jo\"@example.com, as RFC 5322 allows) or the usual characters; Unicode word characters
cover accented names, and an inner apostrophe ("tom.o'brien@...") is allowed so no half of
the name is left behind. An address in angle brackets ("Jo <jo@example.com>") is found
inside them."""

_SPOKEN_AT = (
    r"(?:[ \t]*[\[({<][ \t]*(?i:at|@|arobase)[ \t]*[\])}>][ \t]*|[ \t]*@[ \t]*"
    r"|[ \t]+(?i:arobase)[ \t]+|(?P<bare_at>[ \t]+(?i:at)[ \t]+))"
)
_SPOKEN_DOT = (
    r"(?:[ \t]*[\[({<][ \t]*(?i:dot|point|\.)[ \t]*[\])}>][ \t]*|[ \t]+(?i:dot|point)[ \t]+"
    r"|\.|[ \t]+\.[ \t]+)"
)
_SPOKEN_EMAIL_RE = re.compile(
    rf"(?<![\w.%+\-'’])(?P<local>[\w.%+\-]+){_SPOKEN_AT}"
    rf"(?P<domain>[\w\-]+(?:{_SPOKEN_DOT}[\w\-]+){{1,4}})(?![\w\-])"
)
"""An email written to dodge harvesters: "jo [at] example [dot] com", "jo (at) example
(dot) co (dot) uk", "jo @ example . com", "jo@example dot com", "jo arobase exemple point
fr", "jo at example dot com". A literal dot counts inside the domain or with spaces on
both sides, never as a full stop ("me @ home. Call"). Which of these readings is an email
is ``_spoken_email``'s call."""

_SPOKEN_GUARD_RE = re.compile(
    r"@|(?i:\b(?:at|arobase)\b[ \t\])}>]+[\w\-]+(?:[ \t]*[\[({<.]|[ \t]+(?:dot|point)\b))"
)
"""An "at" (or "@") followed by a word and some kind of dot: only then is the full pattern
worth trying, since " at " alone is in every other English sentence."""
_SPOKEN_SPACED_DOT_RE = re.compile(r"[ \t]\.")
_SPOKEN_TLD_RE = re.compile(r"[^\W\d_]{2,24}")
_MAIL_CUE_RE = re.compile(
    r"(?<![\[\w])(?i:e-?mail|mail|courriel|adress|address|contact|write|écri|reach|joindre"
    r"|send|envo)"
)
"""Words that ask for an email just before one; at the start of a word only, so the
``[email]`` and ``[address]`` placeholders are none (a second scrub finds nothing new)."""
_EMAILISH_LOCAL_RE = re.compile(r"[\d._+%]")
_MAIL_LABEL_RE = re.compile(
    r"(?<![\[\w])(?i:e-?mail|mail|courriel|adresse(?:[ \t]+(?:e-?)?mail)?|address|contact)"
    r"[ \t]*:[ \t]*\Z"
)
"""A label that names what follows as an email ("email: ", "courriel : "): after it even a
common word is the local part ("email: is at example dot com" is the address of "is")."""


_AT_WORDS: Final = frozenset(
    """
    it its them this that these those one ones me us him her you there here look looking
    looked check see seen sold sell sells selling buy bought shop shops shopping order
    ordered find found get got available cheaper cheap cheapest online also only even
    stock sale is was are were be been work works worked working live lives lived stay
    meet arrive arrives home price priced listed
    """.split()  # noqa: SIM905 - a word list reads better as text
)
"""Words that come before " at " in ordinary sentences ("look at etsy dot com", "it's
cheaper at amazon dot com"): never the local part of a spelt-out email."""
_CLAUSE_START_RE = re.compile(r"(?:\A|[:;(!?.\n])[ \t]*\Z")


def _spoken_email(match: re.Match[str]) -> str:
    """Replace the match when it can only be an email.

    The domain must end in an alphabetic TLD. A bracketed or spaced "@", "arobase" and a
    bracketed "at" say "email" by themselves. A bare " at " is an ordinary word ("they sell
    it at etsy dot com"), so it counts only after a local part that is no common word before
    "at" (``_AT_WORDS``) and where the sentence asks for an email (a mail word just before),
    the local part looks like one ("jo.smith", "jo75"), or the address opens the message or
    a clause; a label just before ("email: ") says it is an address whatever its local part
    is; a sentence's full stop ("at home. Call") is never its dot.
    """
    domain = match["domain"]
    labels = re.split(_SPOKEN_DOT, domain)
    if not _SPOKEN_TLD_RE.fullmatch(labels[-1]):
        return match.group()
    if match["bare_at"] is not None:
        local, start = match["local"], match.start()
        before = match.string[max(0, start - 40) : start]
        labelled = _MAIL_LABEL_RE.search(before) is not None
        if (
            _SPOKEN_SPACED_DOT_RE.search(domain)
            or (local.lower() in _AT_WORDS and not labelled)
            or not (
                _MAIL_CUE_RE.search(before)
                or _EMAILISH_LOCAL_RE.search(local)
                or _CLAUSE_START_RE.search(before)
            )
        ):
            return match.group()
    return EMAIL


def _emails(text: str) -> str:
    if "@" in text:
        text = _EMAIL_RE.sub(EMAIL, text)
    if _SPOKEN_GUARD_RE.search(text):
        text = _SPOKEN_EMAIL_RE.sub(_spoken_email, text)
    return text


# --- payment cards ------------------------------------------------------------------------

_CARD_RE = re.compile(r"(?=[1-9])" + _START + r"[1-9](?:[ \-._]?\d){12,18}" + _END)
"""13–19 digits, optionally grouped by single spaces, dashes, dots or underscores.

Each step eats exactly one digit, so there is one way to read a run and no backtracking
blow-up. Cards never start with 0 (which also keeps "00 33 ..." phones out). Which part of
the run is a card, if any, is ``_card``'s call: the digits must pass the Luhn check (so
long order numbers mostly survive) and the grouping must be one a person would type.
"""

_CARD_GROUPING_RE = re.compile(
    r"(?:\d{4}[ \-._]){2,3}\d{4}(?:[ \-._]\d{1,4})?|\d{4}[ \-._]\d{6}[ \-._]\d{4,5}"
)
"""How cards are printed when grouped: fours (the last group may be short), or Amex and
Diners' 4-6-5 / 4-6-4. A run of other groups ("2026 06 11 22 33 44") is not a card, unless
``_is_oddly_grouped_card`` says so."""

_CARD_SEP_RE = re.compile(r"[ \-._]")
_CARD_START_CUT_RE = re.compile(r" ")
_CARD_END_CUT_RE = re.compile(r"[ \-]")
_MORE_DIGITS_BEFORE_RE = re.compile(r"\d[ \-._]\Z")
_MORE_DIGITS_AFTER_RE = re.compile(r"[ \-._]\d")
_CARD_GROUP_RE = re.compile(r"\d+")
_AMOUNT_GROUPING_RE = re.compile(r"\d{1,3}(?:([ .])\d{3})(?:\1\d{3})*")
"""Thousands grouping ("3 500 000 000 006", "1.000.000.000.000"): an amount, not a card."""


def _has_card_prefix(digits: str) -> bool:
    """The issuer prefixes of the card networks: 3 (Amex, Diners, JCB), 4 (Visa), 5
    (Mastercard, Maestro), 6 (Discover, UnionPay, Maestro) and Mastercard's 2221–2720."""
    return digits[0] in "3456" or 2221 <= int(digits[:4]) <= 2720


def _is_oddly_grouped_card(text: str, digits: str) -> bool:
    """A card typed in groups of its own ("41 111 111 1111 1111", "4111.1111111.11111").

    Only a whole run counts (see ``_card``), and only with one separator throughout, three
    or more groups of at most six digits, a card network's prefix and no thousands grouping:
    so IP addresses, decimals ("26.086956521739"), dates with times and amounts stay.
    """
    if len(set(_CARD_SEP_RE.findall(text))) != 1 or _AMOUNT_GROUPING_RE.fullmatch(text):
        return False
    groups = _CARD_GROUP_RE.findall(text)
    return len(groups) >= 3 and max(map(len, groups)) <= 6 and _has_card_prefix(digits)


def _is_card(text: str, whole_run: bool) -> bool:
    from stdnum import luhn

    digits = _NON_DIGIT_RE.sub("", text)
    if not 13 <= len(digits) <= 19 or not luhn.is_valid(digits):
        return False
    return (
        len(digits) == len(text)
        or _CARD_GROUPING_RE.fullmatch(text) is not None
        or (whole_run and _is_oddly_grouped_card(text, digits))
    )


def _card(match: re.Match[str]) -> str:
    """The whole run, or else its first stretch of whole groups that is a card.

    A run may hold a card next to other numbers ("order 12 4111 1111 1111 1111", "4111 1111
    1111 1111 222"), so when the whole run is not a card we look for the earliest, longest
    stretch of groups that is one, and carry on after it. An odd grouping is believed only
    for the whole run: inside two phone numbers in a row some stretch would pass Luhn.
    """
    start, end = match.span()
    before, after = match.string[max(0, start - 2) : start], match.string[end : end + 2]
    whole_run = not (_MORE_DIGITS_BEFORE_RE.search(before) or _MORE_DIGITS_AFTER_RE.match(after))
    return _cards_in_run(match.group(), whole_run)


def _cards_in_run(text: str, whole_run: bool) -> str:
    """A stretch starts after a blank and ends before a blank or dash: a dot or underscore
    binds its neighbours into one number (the decimals of "128.7696089614687" are no card)."""
    cuts = [0] + [sep.end() for sep in _CARD_START_CUT_RE.finditer(text)]
    ends = [sep.start() for sep in _CARD_END_CUT_RE.finditer(text)] + [len(text)]
    for start in cuts:
        if text[start] == "0":
            continue
        for end in reversed(ends):
            if end - start < 13:
                break
            if _is_card(text[start:end], whole_run and start == 0 and end == len(text)):
                rest = text[end:]
                tail = rest.lstrip(" -._")
                scanned = _cards_in_run(tail, False) if len(tail) >= 13 else tail
                return text[:start] + CARD + rest[: len(rest) - len(tail)] + scanned
    return text


# --- bank accounts (IBAN) -----------------------------------------------------------------

_IBAN_RE = re.compile(r"\b(?<![\-.])[A-Za-z]{2}\d\d(?:[ \-.]?[A-Za-z\d]){11,30}(?![\w\-])")
"""Country code, check digits, then 11–30 letters or digits, as one token or in groups
separated by single spaces, dashes or dots ("FR76 3000 6000 0112 3456 7890 189",
"FR76-3000-6000-0112-3456-7890-189"), the separators python-stdnum removes. Whether it is
an IBAN is decided by python-stdnum (the country's length and format, the mod-97 check), so
"ref AB12 CDEF GHIJ KLMN" stays."""

_IBAN_SEP = " -."


def _iban(match: re.Match[str]) -> str:
    """The whole run, or else its longest leading groups ("GB29 NWBK 6016 1331 9268 19 OK")."""
    from stdnum import iban

    text = match.group()
    ends = [len(text)] + [at for at in range(len(text) - 1, 14, -1) if text[at] in _IBAN_SEP]
    for end in ends:
        if iban.is_valid(text[:end]):
            return IBAN + text[end:]
    return text


# --- social security numbers (US SSN, French NIR) -----------------------------------------

_SSN_RE = re.compile(r"(?=\d)" + _START + r"\d{3}(?P<sep>[ \-])\d\d(?P=sep)\d{4}" + _END)
_SSN_ANNOUNCED_RE = re.compile(
    r"(?i:\b(?:ssn|social[ \t]+security)(?:[ \t]+(?:number|num|no\.?|#))?"
    r"(?:[ \t]*[:#=][ \t]*|[ \t]+(?:is|was)?[ \t:]*))(\d{9})" + _END
)
"""AAA-GG-SSSS with dashes or spaces; nine bare digits only when said to be one ("SSN:
536904399", "my ssn is 123456789", "social security number 536904399"), since elsewhere
they are any number. python-stdnum rejects what was never issued (area 000, 666 or 9xx,
group 00, serial 0000, the advertised examples)."""


def _is_ssn(number: str) -> bool:
    from stdnum.us import ssn

    return bool(ssn.is_valid(_NON_DIGIT_RE.sub("", number)))


def _ssn_grouped(match: re.Match[str]) -> str:
    return SSN if _is_ssn(match.group()) else match.group()


def _ssn_announced(match: re.Match[str]) -> str:
    """Keep the keyword ("SSN: "), replace the nine digits after it."""
    if not _is_ssn(match[1]):
        return match.group()
    return match.group()[: match.start(1) - match.start()] + SSN


_NIR_SEP = r"[ .]?"
_NIR_RE = re.compile(
    r"(?=[1-478])"
    + _START
    + rf"[1-478]{_NIR_SEP}\d\d{_NIR_SEP}\d\d{_NIR_SEP}(?:\d\d|2[AaBb]){_NIR_SEP}\d{{3}}"
    + rf"{_NIR_SEP}\d{{3}}{_NIR_SEP}\d\d"
    + _END
)
"""The French NIR (numéro de sécurité sociale): sex, year, month, department, commune,
order and a two-digit key, 15 characters, written whole ("185057800608491") or with a
space or dot between its fields, as printed on the carte Vitale ("1 85 05 78 006 084 91").
Corsican departments are 2A and 2B."""

_NIR_PRINTED_RE = re.compile(
    r"[1-478]([ .])\d\d\1(?:0[1-9]|1[0-2]|[2-9]\d)\1(?:\d\d|2[AaBb])\1\d{3}\1\d{3}\1\d\d"
)
"""All seven fields, one separator throughout and a month that can be one (01–12, or 20
and up for the special cases): a NIR as the carte Vitale prints it, which no price, date
or order number looks like."""


_NIR_CUE_RE = re.compile(r"(?i:s[ée]cu|social|\bnir\b|insee|vitale)")
"""Words that say a NIR follows ("numéro de sécu", "sécurité sociale", "NIR", "carte
Vitale"), looked for just before it."""


def _nir(match: re.Match[str]) -> str:
    """python-stdnum checks the key (97 minus the first 13 digits mod 97). A number said to
    be a NIR, or printed exactly as one, is one even when the key was mistyped, so it goes
    too; elsewhere 15 digits with a wrong key are some other number. Nor is a decimal one
    ("71962.3505398868": one dot between two runs of digits is a decimal point, not a field
    separator), unless it is said to be a NIR: about one such decimal in 97 passes the key.
    """
    from stdnum.fr import nir

    text = match.group()
    if _NIR_CUE_RE.search(match.string, max(0, match.start() - 40), match.start()):
        return SSN
    if _DECIMAL_RE.fullmatch(text):
        return text
    digits = text.replace(" ", "").replace(".", "").upper()
    return SSN if nir.is_valid(digits) or _NIR_PRINTED_RE.fullmatch(text) else text


def _ssns(text: str) -> str:
    text = _SSN_RE.sub(_ssn_grouped, text)
    lowered = text.lower()
    if "ssn" in lowered or "social" in lowered:  # cheaper than the keyword regex everywhere
        text = _SSN_ANNOUNCED_RE.sub(_ssn_announced, text)
    return text


# --- passport numbers ---------------------------------------------------------------------

_PASSPORT_RE = re.compile(
    r"(?i:\b(?:passports?|passeports?|reisepass|pasaportes?|passaport[oi])"
    r"(?:[ \t]+(?:number|num(?:éro|ero)?|no\.?|nr\.?|n[°º]|#|id))?"
    r"(?:[ \t]*[:#=,][ \t]*|[ \t]+(?:(?:is|est|ist|es|è|was)[ \t:]+)?))"
    r"((?=[A-Za-z]*\d)[A-Za-z0-9]{6,9})(?![\w\-])"
)
"""A passport number only where the sentence says it is one ("passport 12AB34567",
"passeport n° 12AB34567", "my passport number is X1234567", "Reisepass Nr. C01X00T47"):
6–9 letters and digits, at least one a digit. Alone, such a token is any reference."""


def _passport(match: re.Match[str]) -> str:
    """Keep the words ("passeport n° "), replace the number."""
    return match.group()[: match.start(1) - match.start()] + PASSPORT


def _passports(text: str) -> str:
    if "pas" not in text.lower():  # cheaper than the keyword regex everywhere
        return text
    return _PASSPORT_RE.sub(_passport, text)


# --- phone numbers ------------------------------------------------------------------------

_PHONE_SEP = r"(?:[ \t]?[.\-][ \t]?|[ \t])"
_PHONE_RUN_RE = re.compile(
    _DIGIT_AHEAD
    + _START
    + r"(?:\+[ \t]?)?(?:\(\+?\d+\)[ \t]?)?\d+"
    + rf"(?:{_PHONE_SEP}(?:\(\d+\)[ \t]?)?\d+|\(\d+\)[ \t]?\d+)*"
    + _END
)
"""A run of digit groups joined by one space, dot or dash, with optional parentheses
("+1 (415) 555-2671", "+44 (0)20 7946 0958") and an optional leading "+".

Every repetition needs a separator or a parenthesis before its digits, so a run of bare
digits has exactly one reading (no catastrophic backtracking). The run is not capped: a cap
would leave a phone number at the end of a long list of small numbers unseen, since a run
never starts inside another; ``_phones_in_run`` bounds the work per group instead. Slashes
and commas are not separators: they make dates ("24/12/2026") and amounts ("1,200").
Whether a run is a phone number is decided by ``_is_phone``, not by the regex, because the
shapes overlap with ordinary numbers and only the digit count and grouping tell them apart.
"""

_PHONE_GROUP_RE = re.compile(r"\(\+?\d+\)|\+?\d+")

_PHONE_KEYWORD_RE = re.compile(
    r"(?i:\b(?<!\[)(?:tel|tél|telephone|téléphone|phone|mobile|cell|cellphone|portable|gsm|"
    r"whatsapp|fax|call\s+me\s+(?:at|on)|text\s+me\s+(?:at|on)|appel(?:le|ez)[- ]moi\s+au|"
    r"joignable\s+au)\b)[^\d\n]{0,12}\Z"
)
"""Words that announce a phone number just before it: after them a short local number
("tel 555-2671") is a phone too, while elsewhere 7 digits are just a number. The
``[phone]`` placeholder is no such word, or a second scrub would find more than the first."""

_NANP_SHAPES: Final = ([3, 3, 4], [1, 3, 3, 4])
_MOST_PHONE_DIGITS: Final = 17  # "00" + the 15 digits E.164 allows


def _is_phone(run: str, announced: bool) -> bool:
    """Decide by digit count and grouping, the only things that separate phones from numbers.

    - "+" or "00" first: international, 8–15 digits after the prefix (E.164 allows 15);
      "000..." is never a phone, country and area codes do not start with 0.
    - "0" first: a national trunk prefix (FR, UK, DE...), 9–11 digits; unseparated, 10–11,
      so a zero-padded reference like "000123" stays.
    - Otherwise only the North American 3-3-4 grouping (optionally after a "1") counts,
      because "123 456 789" is how French and English write large amounts.
    - After a phone keyword, a national number may be as short as 7 digits ("tel 555-2671").
    """
    digits = _NON_DIGIT_RE.sub("", run)
    count = len(digits)
    if count < 7:
        return False
    groups = _PHONE_GROUP_RE.findall(run)
    if run.startswith(("+", "(+")):
        return 8 <= count <= 15
    if digits.startswith("000"):
        return False  # no country code or area code starts with 0: a zero-padded number
    if digits.startswith("00"):
        return 8 <= count - 2 <= 15
    if digits.startswith("0"):
        if announced:
            return 7 <= count <= 11
        return count in (10, 11) if len(groups) == 1 else 9 <= count <= 11
    if announced:
        return 7 <= count <= 11
    if len(groups) not in (3, 4):
        return False  # no North American shape: skip counting (long runs try many stretches)
    lengths = [sum(char.isdigit() for char in group) for group in groups]
    return lengths in _NANP_SHAPES and (len(lengths) == 3 or digits.startswith("1"))


def _phones_in_run(run: str, announced: bool) -> str:
    """Replace the phone numbers inside one run of digit groups.

    A run may hold a phone number next to another number ("06 12 34 56 78 2026"), so when
    the whole run is not a phone we look for the earliest, longest stretch of whole groups
    that is, and carry on after it. A stretch is only cut out at a blank: a dot or dash
    binds its neighbours into one token (the "07-036822-8" inside an ISBN is no phone).
    """
    if _CARD_GROUPING_RE.fullmatch(run):
        return run  # printed like a card that failed Luhn: a reference, not phones inside it
    groups = list(_PHONE_GROUP_RE.finditer(run))
    sizes = [sum(char.isdigit() for char in group.group()) for group in groups]
    cuttable = (
        [True]
        + [not run[before.end() : after.start()].strip(" \t") for before, after in pairwise(groups)]
        + [True]
    )  # cuttable[i]: may a stretch begin at group i / end before group i
    for first in range(len(groups)):
        # A stretch holds at most 17 digits, so at most 17 groups: the work per group is
        # bounded however long the run (a list of small numbers, a pasted table).
        stop = min(len(groups), first + _MOST_PHONE_DIGITS)
        digits = sum(sizes[first:stop])
        for last in range(stop - 1, first - 1, -1):
            # 7-17 digits are the only stretches _is_phone could accept.
            if 7 <= digits <= _MOST_PHONE_DIGITS and cuttable[first] and cuttable[last + 1]:
                start, end = groups[first].start(), groups[last].end()
                if _is_phone(run[start:end], announced and first == 0):
                    return run[:start] + PHONE + _phones_in_run_tail(run[end:])
            digits -= sizes[last]
    return run


def _phones_in_run_tail(rest: str) -> str:
    """Keep the separator after a replaced phone, then scan what follows as a new run."""
    tail = rest.lstrip(" \t.-")
    return rest[: len(rest) - len(tail)] + (_phones_in_run(tail, False) if tail else "")


def _phone(text: str) -> str:
    def replace(match: re.Match[str]) -> str:
        run = match.group()
        if len(run) < 7 or _DECIMAL_RE.fullmatch(run):  # never a phone; common, kept cheap
            return run
        scrubbed = _phones_in_run(run, False)
        if scrubbed != run or len(_NON_DIGIT_RE.sub("", run)) < 7:
            return scrubbed
        # Only a leftover 7+ digit run is worth looking back for a phone keyword.
        before = text[max(0, match.start() - 40) : match.start()]
        return _phones_in_run(run, True) if _PHONE_KEYWORD_RE.search(before) else run

    return _PHONE_RUN_RE.sub(replace, text)


_NATIONAL_RUN_RE = re.compile(r"[1-9](?<![\d+][1-9])(?:[ \t().\-]?\d){8,10}(?!\d)")
"""9–11 digits not starting with 0 or "+": the national numbers the passes above leave
(NANP without grouping, Spanish and Italian mobiles) — and the only text worth the
library's time, since a date, a price or a year never has that many digits in a row."""

_GLUED_BEFORE_RE = re.compile(r"(?:[\w+\-/]|\w[.,])\Z")
_GLUED_AFTER_RE = re.compile(r"[\w/]|[.,\-]\w")
"""Like ``_START`` and ``_END``, and a dash or dot before a letter binds too: the digits of
an id ("01000000-a000-...") are not a phone however valid they look."""

_phone_regions: tuple[str, ...] = DEFAULT_PHONE_REGIONS


def configure_phone_regions(regions: Iterable[str]) -> None:
    """Use ``regions`` (ISO 3166 codes, from the ``phone_regions`` setting) from now on."""
    global _phone_regions
    _phone_regions = tuple(regions)


@cache
def _matcher_regions(regions: tuple[str, ...]) -> tuple[str, ...]:
    """One region per calling code: national numbers of US and CA (both +1) parse alike."""
    import phonenumbers

    seen: dict[int, str] = {}
    for region in regions:
        seen.setdefault(phonenumbers.country_code_for_region(region), region)
    return tuple(seen.values())


def _library_phones(text: str) -> str:
    """Replace the phone numbers phonenumbers' matcher finds, once cheaper passes are done."""
    if not _NATIONAL_RUN_RE.search(text):
        return text
    import phonenumbers

    valid = phonenumbers.Leniency.VALID
    spans: list[tuple[int, int]] = []
    for region in _matcher_regions(_phone_regions):
        for found in phonenumbers.PhoneNumberMatcher(text, region, leniency=valid):
            # "+" and trunk-prefixed ("0...") numbers are the grouped pass's to judge; it
            # keeps "SKU 0012345" on purpose, however valid some region finds it.
            if found.raw_string[0] in "123456789(" and not (
                _DECIMAL_RE.fullmatch(found.raw_string)
                or _GLUED_BEFORE_RE.search(text, max(0, found.start - 2), found.start)
                or _GLUED_AFTER_RE.match(text, found.end)
            ):
                spans.append((found.start, found.end))
    for start, end in sorted(_merged(spans), reverse=True):
        text = text[:start] + PHONE + text[end:]
    return text


def _merged(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Overlapping spans (the same number found for two regions) as one."""
    out: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if out and start < out[-1][1]:
            out[-1] = (out[-1][0], max(end, out[-1][1]))
        else:
            out.append((start, end))
    return out


# --- postal addresses ---------------------------------------------------------------------

_UPPER = "A-ZÀ-ÖØ-ÞŒ"
_LETTER = r"[^\W\d_]"
_CAP = rf"[{_UPPER}]{_LETTER}*(?:[-'’]{_LETTER}+)*"
"""A capitalised word, hyphens and apostrophes included ("Saint-Germain", "O'Connell")."""
_WORD = rf"{_LETTER}+(?:[-'’]{_LETTER}+)*"
_PARTICLE = r"(?i:[dl]['’]|(?:de|du|des|la|le|les|à|au|aux|sur|sous|en|et|lès)[ \t]+)"
"""The small words of French street names ("rue de la Paix", "place d'Italie")."""

_FR_NUMBER = r"\d{1,4}(?:[A-Da-d]\b)?(?:[ \t]+(?i:bis|ter|quater)\b)?"
_FR_STREET_CLEAR = (
    r"(?i:rue|avenue|av|boulevard|bd|bld|allée|allee|impasse|quai|faubourg|fbg|"
    r"chaussée|ruelle|rond-point|esplanade|parvis)\b\.?"
)
"""Street types that are not ordinary words: what follows them is a street name even when
the user types it in lower case ("12 rue de la paix")."""
_FR_STREET_AMBIGUOUS = (
    r"(?i:place|pl|chemin|route|cours|passage|square|villa|cité|voie|promenade|sentier|"
    r"hameau|résidence|lotissement|traverse|montée)\b\.?"
)
"""Street types that are also common words ("10 cours de cuisine", "2 place de concert"):
only a capitalised name after them ("cours Mirabeau") makes an address."""
_FR_NAME_TAIL = rf"(?:[ \t]+{_PARTICLE}*{_CAP}){{0,5}}"
_FR_NAME_STRICT = rf"(?:{_PARTICLE}+\d{{1,4}}\b|{_PARTICLE}*{_CAP}){_FR_NAME_TAIL}"
_FR_NAME_LOOSE = rf"(?:{_PARTICLE}+\d{{1,4}}\b|{_PARTICLE}*{_WORD}){_FR_NAME_TAIL}"
"""Name words after the street type: particles then capitalised words, a number only
after a particle ("rue du 8 Mai"); the loose form lets the first word be lower case."""
_FR_CITY_JOIN = r"(?:[ \t]+|[ \t]*-[ \t]*)(?:(?i:sur|sous|en|le|la|les|de|du|des|lès)[ \t-]+)?"
_FR_POSTCODE_CITY = (
    rf"(?:[ \t]*,?\s*(?:\d{{5}}|\d{{2}}[ \t]\d{{3}})[ \t]+{_WORD}(?:{_FR_CITY_JOIN}{_CAP}){{0,3}}"
    r"(?:[ \t]+(?i:cedex)(?:[ \t]+\d{1,2}\b)?)?)?"
)
"""Five-digit postcode and the city after it ("75002 Paris", "06400 Cannes Cedex"); the
postcode is strong evidence, so the city's first word may be lower case."""
_FR_ADDRESS = (
    rf"{_FR_NUMBER},?[ \t]+(?:{_FR_STREET_CLEAR}[ \t]+{_FR_NAME_LOOSE}"
    rf"|{_FR_STREET_AMBIGUOUS}[ \t]+{_FR_NAME_STRICT}){_FR_POSTCODE_CITY}"
)
"""French order: number (with "bis"/"ter" or a letter), street type, then name."""

_US_SUFFIX_WORDS = (
    "Street|St|Avenue|Ave|Av|Boulevard|Blvd|Road|Rd|Drive|Dr|Lane|Ln|Ct|Pl|Terrace|Ter|"
    "Parkway|Pkwy|Cir|Highway|Hwy|Sq|Trl|Plz"
)
_US_SUFFIX_NOUNS = (
    "Way|Court|Place|Circle|Square|Trail|Plaza|Alley|Crescent|Close|Mews|Row|Gardens|Grove|Loop"
)
_LOWER_WORD_AHEAD = r"(?![ \t]+[a-zß-öø-ÿ])"
_US_SUFFIX = (
    rf"(?:(?:{_US_SUFFIX_WORDS}|{_US_SUFFIX_WORDS.upper()})\b\.?"
    rf"|(?:{_US_SUFFIX_NOUNS}|{_US_SUFFIX_NOUNS.upper()})\b\.?{_LOWER_WORD_AHEAD})"
)
"""English order puts the type last; it must be capitalised, as in a written address, so
"2 new road bikes" stays a sentence. Types that are also nouns in names of things ("Milky
Way", "Death Row") end an address only where the sentence does not go on with a lower-case
word: "2 Milky Way bars" is a quantity, "1 Infinite Loop, Cupertino" an address."""
_US_NAME_WORD = rf"(?:{_CAP}|\d{{1,3}}(?:st|nd|rd|th)\b)"
_US_NAME = rf"{_US_NAME_WORD}(?:[ \t]+{_US_NAME_WORD}){{0,3}}"
"""One to four capitalised words or ordinals ("Fifth", "42nd"), then the suffix."""
_US_DIRECTION = r"(?:[ \t]+(?:NE|NW|SE|SW|N|S|E|W|North|South|East|West)\b\.?)?"
_US_UNIT = r"(?:,?[ \t]+(?:Apt|Apartment|Suite|Ste|Unit|Floor|Fl|#)\.?[ \t]*#?\w{1,5}\b)?"
_US_STATES = (
    "AL|AK|AZ|AR|CA|CO|CT|DE|DC|FL|GA|HI|ID|IL|IN|IA|KS|KY|LA|ME|MD|MA|MI|MN|MS|MO|MT|NE|NV|"
    "NH|NJ|NM|NY|NC|ND|OH|OK|OR|PA|PR|RI|SC|SD|TN|TX|UT|VT|VA|WA|WV|WI|WY"
)
_US_ZIP = r"\d{5}(?:-\d{4})?\b"
_UK_POSTCODE = r"[A-Z]{1,2}\d[A-Z\d]?[ \t]?\d[A-Z]{2}\b"
_US_CITY = rf"{_CAP}(?:[ \t]+{_CAP}){{0,2}}"
_US_TAIL = (
    rf"(?:,[ \t]*{_US_CITY},?[ \t]+(?:{_US_STATES})\b(?:[ \t]+{_US_ZIP})?"
    rf"|,?[ \t]+(?:{_US_CITY}[ \t]+)?{_UK_POSTCODE}"
    rf"|,?[ \t]+{_US_ZIP})?"
)
"""City with a state code and ZIP ("Washington, DC 20500"), or a UK postcode ("London
NW1 6XE"); a bare city is not taken, since "..., Mary loves tea" is not an address."""
_US_ADDRESS = (
    rf"\d{{1,6}}(?:[A-Za-z]\b)?[ \t]+{_US_NAME}[ \t]+{_US_SUFFIX}{_US_DIRECTION}{_US_UNIT}"
    rf"{_US_TAIL}"
)

_ADDRESS_RE = re.compile(rf"(?=\d){_START}(?:{_FR_ADDRESS}|{_US_ADDRESS})(?![\w\-])")
"""A house number starts every French, US and UK address we recognise; without one, "rue de
la Paix" is a place, not somebody's home."""

_DE_SUFFIXES_CLEAR = """
    straße strasse str gasse allee chaussee damm weg platz markt ufer steig pfad graben
    """.split()  # noqa: SIM905 - a word list reads better as text
"""German, Austrian and Swiss street types, written as the end of one word ("Hauptstraße",
"Karl-Marx-Allee", "Lindenstr."); no English word ends so, so the name and a house number
are enough."""
_DE_SUFFIXES_AMBIGUOUS = ("ring", "wall", "berg")
"""Street types that also end English words ("Spring", "Firewall", "Iceberg"): only with a
postcode and a city after the house number ("Ostring 7, 44787 Bochum")."""


def _word_ending_in(suffixes: Iterable[str]) -> str:
    """A capitalised word (hyphens allowed) ending in one of ``suffixes``, after at least one
    other letter. The word is read once, possessively, and its ending checked looking back,
    so a capitalised word that is no street costs one pass, not one try per letter."""
    endings = "|".join(rf"(?<=(?:{_LETTER}|-)(?i:{suffix}))" for suffix in suffixes)
    return rf"[{_UPPER}](?:{_LETTER}|-)*+(?:{endings})"


_DE_STREET_WORD = rf"{_word_ending_in(_DE_SUFFIXES_CLEAR)}(?:(?<=(?i:str))\.)?"
_DE_STREET_WORD_AMBIGUOUS = _word_ending_in(_DE_SUFFIXES_AMBIGUOUS)
_DE_PREFIX = r"(?:(?:Am|Im|An[ \t]+der|Auf[ \t]+der|In[ \t]+der|Zum|Zur)[ \t]+)?"
_DE_SEPARATE_TYPE = r"(?:Straße|Strasse|Str\.|Gasse|Allee|Weg|Platz|Damm|Ufer|Chaussee|Markt)\b\.?"
_DE_HOUSE = r"[ \t]+\d{1,4}(?:[a-zA-Z]\b)?(?:[ \t]*[-/][ \t]*\d{1,4}[a-zA-Z]?\b)?"
"""The house number after the street: "5", "12a", "5-7", "12/1"."""
_DE_POSTCODE_CITY = (
    rf",?[ \t]+(?:(?:D|A|CH)-)?\d{{4,5}}[ \t]+{_CAP}(?:[ \t-]+{_CAP}){{0,2}}"
    rf"(?:[ \t]+(?:am|an[ \t]+der|im|ob[ \t]+der)[ \t]+{_CAP})?"
)
"""Postcode (five digits in Germany, four in Austria and Switzerland) and the city after it
("10115 Berlin", "1010 Wien", "60311 Frankfurt am Main")."""
_DE_ADDRESS = (
    rf"{_DE_PREFIX}(?:(?:{_DE_STREET_WORD}|{_CAP}[ \t]+{_DE_SEPARATE_TYPE})"
    rf"{_DE_HOUSE}(?:{_DE_POSTCODE_CITY})?"
    rf"|{_DE_STREET_WORD_AMBIGUOUS}{_DE_HOUSE}{_DE_POSTCODE_CITY})"
)
"""German order: street, then house number, then postcode and city ("Hauptstraße 5, 10115
Berlin", "Berliner Straße 12", "Am Sonnenweg 3, 1010 Wien")."""

_PO_BOX_NUMBER = r"[ \t]*(?:(?i:no|n°|nº)\.?[ \t]*|#[ \t]*)?(?:\d\d(?:[ \t]\d\d){1,3}|\d{1,6})\b"
_PO_BOX = (
    r"(?:(?i:p\.?[ \t]?o\.?[ \t]?box|post[ \t]+office[ \t]+box|bo[iî]te[ \t]+postale)|Postfach)"
    rf"{_PO_BOX_NUMBER}(?:{_DE_POSTCODE_CITY}|{_US_TAIL})"
    rf"|(?:B\.P\.|BP){_PO_BOX_NUMBER}{_DE_POSTCODE_CITY}"
)
"""A post-office box ("PO Box 1234", "P.O. Box 1234", "Postfach 10 20 30") with the
postcode and city that may follow: it is where someone's mail goes, like a street. The
French "BP 42" only with its postcode and city ("BP 42, 75001 Paris"), since "BP 2024" is
the oil company's year and "BP 120" a blood pressure."""

_ADDRESS_WORD_FIRST_RE = re.compile(
    rf"\b(?=[{_UPPER}pb])(?:{_DE_ADDRESS}|{_PO_BOX})(?![\w\-]|[.,]\d)"
)
"""The addresses that start with a word: German-speaking streets, post-office boxes. Each
starts with a capital or with "p" or "b" (a lower-case "po box"), which the lookahead checks
first, so most words are passed over at once. A number that goes on as a decimal
("Hauptstraße 49.90") is a price, not a house number: taking its head would leave a tail
that a second scrub reads as a phone."""


def _addresses(text: str) -> str:
    text = _ADDRESS_RE.sub(ADDRESS, text)
    return _ADDRESS_WORD_FIRST_RE.sub(ADDRESS, text)


# --- terminal control ---------------------------------------------------------------------

_CONTROL_RE = re.compile(
    r"\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)"  # OSC: window title, hyperlink... up to BEL or ST
    r"|\x1b[P_^X][^\x1b]*\x1b\\"  # DCS, APC, PM, SOS strings up to ST
    r"|(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?"  # CSI (7- and 8-bit): colours, cursor, clear screen
    r"|\x1b[ -/]*[0-~]?"  # any other escape ("ESC c" resets the terminal), or a lone ESC
    r"|[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]"
)
"""Escape sequences as whole units (so no "[31m" debris is left), then single C0/C1 control
characters, DEL and the bidirectional overrides that make text display other than it
reads. Tab and newline stay; so do zero-width joiners (emoji) and U+FFFD. A string whose
terminator never comes (an OSC without BEL) loses only its introducer, not the text after."""


def strip_controls(text: str) -> str:
    """``text`` without terminal escape sequences and control characters (tab, newline kept).

    Applied where user text enters (the chat's input) and where labels are stored, so what
    is echoed back or shown later can never recolour, clear or retitle a terminal.
    """
    return _CONTROL_RE.sub("", text)


# --- public API ---------------------------------------------------------------------------

_PASSES: Final[tuple[Callable[[str], str], ...]] = (
    _emails,
    lambda text: _IBAN_RE.sub(_iban, text),
    lambda text: _NIR_RE.sub(_nir, text),
    lambda text: _CARD_RE.sub(_card, text),
    _ssns,
    _passports,
    _phone,
    _library_phones,
)
"""Every pass but the addresses', in order."""


def scrub(text: str) -> str:
    """Return ``text`` with emails, phones, cards, IBANs, social security numbers, passport
    numbers and postal addresses replaced.

    Idempotent; text without PII comes back equal to what went in, byte for byte. An
    address takes its house number out of whatever run of digits it heads, so what follows
    ("Hauptstraße 1 9 1111 1111" leaves "9 1111 1111", a Madrid number) is read again by
    the other passes, as a second scrub would read it.
    """
    if not _TRIGGER.search(text):
        return text
    if len(text) <= SHORT_TEXT:
        return _scrub_short(text, _phone_regions)
    return _scrub(text)


SHORT_TEXT: Final = 64
"""Texts this short are scrubbed once per process and remembered (``_scrub_short``): ids
and labels come back in every log record of a turn — a run id of hex digits holding nine
decimal ones in a row sends phonenumbers' matcher through every region, close to a
millisecond a record, only to find the digits glued to letters."""


@lru_cache(maxsize=4096)
def _scrub_short(text: str, regions: tuple[str, ...]) -> str:
    """``scrub`` of a short text, kept per text and phone regions (``regions`` is the key:
    the passes read the configured ones)."""
    return _scrub(text)


def _scrub(text: str) -> str:
    for scrub_pass in _PASSES:
        text = scrub_pass(text)
    addressed = _addresses(text)
    if addressed == text:
        return text
    for scrub_pass in _PASSES:
        addressed = scrub_pass(addressed)
    return addressed


def contains_pii(text: str) -> bool:
    """Whether ``scrub`` would change ``text`` (placeholders themselves are not PII)."""
    return scrub(text) != text


def scrub_obj(obj: Any) -> Any:
    """Scrub every string inside nested dicts, lists and tuples (a JSON payload), keys too.

    Keys are scrubbed because user text can end up as a key (a map keyed by what the user
    typed); other values (numbers, booleans, None, objects) are returned as they are.
    """
    if isinstance(obj, str):
        return scrub(obj)
    if isinstance(obj, dict):
        return {scrub_obj(key): scrub_obj(value) for key, value in obj.items()}
    if isinstance(obj, list):
        return [scrub_obj(item) for item in obj]
    if isinstance(obj, tuple):
        return tuple(scrub_obj(item) for item in obj)
    return obj
