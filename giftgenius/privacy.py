"""Keep personal data and terminal control out of what is stored, logged and echoed.

GiftGenius never needs a user's email, phone number, card number, bank account (IBAN), US
social security number or postal address to choose a gift, so the transcript, sessions,
checkpoints and logs keep a placeholder instead (``[email]``, ``[phone]``, ``[card]``,
``[iban]``, ``[ssn]``, ``[address]``). The scrubber runs on every message, tool result and
log line, so it is a handful of precompiled regexes plus small validators, and it leans
towards leaving ordinary text alone: prices, dates, ids, ages, quantities, order numbers,
years and ISO country codes pass through byte-identical. What a library knows better is
left to it, imported on first need only: python-stdnum validates IBANs (per-country
format and mod-97) and SSNs (the never-issued ranges); phonenumbers' matcher finds the
national numbers written without a trunk prefix (``4155552671``, a Spanish ``612345678``)
for the regions in ``GIFTGENIUS_PHONE_REGIONS``.

Passes run in a fixed order — emails, IBANs, cards, SSNs, phones, addresses — so a later
pass never sees digits an earlier one already replaced (an email's digits are not a phone,
an IBAN's groups are not a card, a card is not mistaken for a long phone number).

``strip_controls`` is the other half: text a user typed can hold terminal escape sequences
that would recolour, clear or retitle the terminal when echoed; it is removed at the input
boundary and from stored labels.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import cache
from itertools import pairwise
from typing import Any, Final

__all__ = [
    "ADDRESS",
    "CARD",
    "DEFAULT_PHONE_REGIONS",
    "EMAIL",
    "IBAN",
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
ADDRESS: Final = "[address]"
PLACEHOLDERS: Final = {
    "email": EMAIL,
    "phone": PHONE,
    "card": CARD,
    "iban": IBAN,
    "ssn": SSN,
    "address": ADDRESS,
}

DEFAULT_PHONE_REGIONS: Final = ("US", "CA", "GB", "IE", "FR", "BE", "CH", "DE", "NL", "ES", "IT")
"""Whose national numbers (written without "+country") are recognised; the default of the
``GIFTGENIUS_PHONE_REGIONS`` setting."""

# Every kind of PII we scrub contains a digit or an "@"; text with neither skips all passes.
_TRIGGER = re.compile(r"[\d@]")
_NON_DIGIT_RE = re.compile(r"\D")

# A number that is glued to a word, an id ("g-0042", "call_abc123"), a date ("24/12"), a
# signed value or the decimals of another number ("1,200", "49.99") is never the start of
# PII; the same holds at the end.
_START = r"(?<![\w+\-/])(?<!\d[.,])"
_DIGIT_AHEAD = r"(?=[\d+(])"  # checked before the lookbehinds: most positions fail here, fast
_END = r"(?![\w/]|[.,\-]\d)"

# --- emails -------------------------------------------------------------------------------

_EMAIL_RE = re.compile(
    r"(?<![\w.%+\-])[\w.%+\-]+(?:['’][\w.%+\-]+)*@[\w\-]+(?:\.[\w\-]+)*\.[^\W\d_]{2,}"
    r"(?![\w\-])"
)
"""Local part, "@", dotted domain, alphabetic TLD: RFC 5322 in full would also accept
quoted strings nobody types in a chat; Unicode word characters cover accented names, and
an inner apostrophe ("tom.o'brien@...") is allowed so no half of the name is left behind."""

# --- payment cards ------------------------------------------------------------------------

_CARD_RE = re.compile(r"(?=[1-9])" + _START + r"[1-9]\d{3}(?:[ \-]?\d){9,15}" + _END)
"""13–19 digits, optionally grouped by single spaces or dashes, as printed on cards.

Each step eats exactly one digit, so there is one way to read a run and no backtracking
blow-up. Cards never start with 0 (which also keeps "00 33 ..." phones out), and a run is
only a card if it passes the Luhn check, so long order numbers mostly survive.
"""


def _luhn_ok(digits: str) -> bool:
    """The check digit every issued card carries; random digit runs fail it 9 times in 10."""
    total = 0
    for index, char in enumerate(reversed(digits)):
        value = ord(char) - 48
        if index % 2:
            value = value * 2 - 9 if value > 4 else value * 2
        total += value
    return total % 10 == 0


_CARD_GROUPING_RE = re.compile(
    r"(?:\d{4}[ \-]){2,3}\d{4}(?:[ \-]\d{1,4})?|\d{4}[ \-]\d{6}[ \-]\d{4,5}"
)
"""How cards are printed when grouped: fours (the last group may be short), or Amex and
Diners' 4-6-5 / 4-6-4. A run of other groups ("2026 06 11 22 33 44") is not a card."""


_CARD_SEP_RE = re.compile(r"[ \-]")


def _is_card(text: str) -> bool:
    digits = _NON_DIGIT_RE.sub("", text)
    if not 13 <= len(digits) <= 19 or not _luhn_ok(digits):
        return False
    return len(digits) == len(text) or _CARD_GROUPING_RE.fullmatch(text) is not None


def _card(match: re.Match[str]) -> str:
    """The whole run, or else its longest leading groups ("4111 1111 1111 1111 222")."""
    text = match.group()
    ends = [len(text)] + [m.start() for m in reversed(list(_CARD_SEP_RE.finditer(text)))]
    for end in ends:
        if _is_card(text[:end]):
            return CARD + text[end:]
    return text


# --- bank accounts (IBAN) -----------------------------------------------------------------

_IBAN_RE = re.compile(r"\b(?<!-)[A-Za-z]{2}\d\d(?:[ ]?[A-Za-z\d]){11,30}(?![\w\-])")
"""Country code, check digits, then 11–30 letters or digits, as one token or in groups
separated by single spaces ("FR76 3000 6000 0112 3456 7890 189"). Whether it is an IBAN is
decided by python-stdnum (the country's length and format, the mod-97 check), so "ref AB12
CDEF GHIJ KLMN" stays."""


def _iban(match: re.Match[str]) -> str:
    """The whole run, or else its longest leading groups ("GB29 NWBK 6016 1331 9268 19 OK")."""
    from stdnum import iban

    text = match.group()
    ends = [len(text)] + [at for at in range(len(text) - 1, 14, -1) if text[at] == " "]
    for end in ends:
        if iban.is_valid(text[:end]):
            return IBAN + text[end:]
    return text


# --- US social security numbers -----------------------------------------------------------

_SSN_RE = re.compile(r"(?=\d)" + _START + r"\d{3}(?P<sep>[ \-])\d\d(?P=sep)\d{4}" + _END)
_SSN_ANNOUNCED_RE = re.compile(
    r"(?i:\b(?:ssn|social[ \t]+security(?:[ \t]+(?:number|no\.?))?))[ \t:#]{1,3}(\d{9})" + _END
)
"""AAA-GG-SSSS with dashes or spaces; nine bare digits only right after "SSN" or "social
security (number)", since elsewhere they are any number. python-stdnum rejects what was
never issued (area 000, 666 or 9xx, group 00, serial 0000, the advertised examples)."""


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


def _ssns(text: str) -> str:
    text = _SSN_RE.sub(_ssn_grouped, text)
    lowered = text.lower()
    if "ssn" in lowered or "social" in lowered:  # cheaper than the keyword regex everywhere
        text = _SSN_ANNOUNCED_RE.sub(_ssn_announced, text)
    return text


# --- phone numbers ------------------------------------------------------------------------

_PHONE_SEP = r"(?:[ \t]?[.\-][ \t]?|[ \t])"
_PHONE_RUN_RE = re.compile(
    _DIGIT_AHEAD
    + _START
    + r"(?:\+[ \t]?)?(?:\(\+?\d+\)[ \t]?)?\d+"
    + rf"(?:{_PHONE_SEP}(?:\(\d+\)[ \t]?)?\d+|\(\d+\)[ \t]?\d+){{0,10}}"
    + _END
)
"""A run of digit groups joined by one space, dot or dash, with optional parentheses
("+1 (415) 555-2671", "+44 (0)20 7946 0958") and an optional leading "+".

Every repetition needs a separator or a parenthesis before its digits, so a run of bare
digits has exactly one reading (no catastrophic backtracking). Slashes and commas are not
separators: they make dates ("24/12/2026") and amounts ("1,200"). Whether a run is a phone
number is decided by ``_is_phone``, not by the regex, because the shapes overlap with
ordinary numbers and only the digit count and grouping tell them apart.
"""

_PHONE_GROUP_RE = re.compile(r"\(\+?\d+\)|\+?\d+")

_PHONE_KEYWORD_RE = re.compile(
    r"(?i:\b(?:tel|tél|telephone|téléphone|phone|mobile|cell|cellphone|portable|gsm|"
    r"whatsapp|fax|call\s+me\s+(?:at|on)|text\s+me\s+(?:at|on)|appel(?:le|ez)[- ]moi\s+au|"
    r"joignable\s+au)\b)[^\d\n]{0,12}\Z"
)
"""Words that announce a phone number just before it: after them a short local number
("tel 555-2671") is a phone too, while elsewhere 7 digits are just a number."""

_NANP_SHAPES: Final = ([3, 3, 4], [1, 3, 3, 4])


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
        digits = sum(sizes[first:])
        for last in range(len(groups) - 1, first - 1, -1):
            # 7-17 digits are the only stretches _is_phone could accept.
            if 7 <= digits <= 17 and cuttable[first] and cuttable[last + 1]:
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
        if len(run) < 7:  # fewer than 7 digits is never a phone: the common case, kept cheap
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
                _GLUED_BEFORE_RE.search(text, max(0, found.start - 2), found.start)
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
"""A house number starts every address we recognise; without one, "rue de la Paix" is a
place, not somebody's home."""


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
    lambda text: _EMAIL_RE.sub(EMAIL, text) if "@" in text else text,
    lambda text: _IBAN_RE.sub(_iban, text),
    lambda text: _CARD_RE.sub(_card, text),
    _ssns,
    _phone,
    _library_phones,
    lambda text: _ADDRESS_RE.sub(ADDRESS, text),
)


def scrub(text: str) -> str:
    """Return ``text`` with emails, phones, cards, IBANs, SSNs and postal addresses replaced.

    Idempotent; text without PII comes back equal to what went in, byte for byte.
    """
    if not _TRIGGER.search(text):
        return text
    for scrub_pass in _PASSES:
        text = scrub_pass(text)
    return text


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
