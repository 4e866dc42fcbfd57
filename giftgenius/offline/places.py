"""Delivery countries named in English or French, as ISO 3166-1 alpha-2 codes."""

from __future__ import annotations

import re

COUNTRY_NAMES = {
    "france": "FR", "belgium": "BE", "belgique": "BE", "germany": "DE", "allemagne": "DE",
    "united kingdom": "GB", "royaume-uni": "GB", "royaume uni": "GB", "great britain": "GB",
    "grande-bretagne": "GB", "grande bretagne": "GB", "england": "GB", "angleterre": "GB",
    "scotland": "GB", "ecosse": "GB", "wales": "GB", "the uk": "GB", "u.k.": "GB",
    "united states": "US", "etats-unis": "US", "etats unis": "US", "the us": "US",
    "the usa": "US", "u.s.": "US", "america": "US", "amerique": "US", "canada": "CA",
    "spain": "ES", "espagne": "ES", "italy": "IT", "italie": "IT", "switzerland": "CH",
    "suisse": "CH", "netherlands": "NL", "the netherlands": "NL", "pays-bas": "NL",
    "pays bas": "NL", "holland": "NL", "hollande": "NL", "portugal": "PT", "ireland": "IE",
    "irlande": "IE", "luxembourg": "LU", "austria": "AT", "autriche": "AT", "sweden": "SE",
    "suede": "SE", "norway": "NO", "norvege": "NO", "denmark": "DK", "danemark": "DK",
    "finland": "FI", "finlande": "FI", "poland": "PL", "pologne": "PL", "greece": "GR",
    "grece": "GR", "czechia": "CZ", "czech republic": "CZ", "republique tcheque": "CZ",
    "japan": "JP", "japon": "JP", "australia": "AU", "australie": "AU",
    "new zealand": "NZ", "nouvelle-zelande": "NZ", "mexico": "MX", "mexique": "MX",
    "brazil": "BR", "bresil": "BR", "india": "IN", "inde": "IN", "china": "CN", "chine": "CN",
    "south korea": "KR", "coree du sud": "KR", "morocco": "MA", "maroc": "MA",
    "quebec": "CA", "monaco": "MC",
}  # fmt: skip
_CODE_ALIASES = {"UK": "GB"}
_KNOWN_CODES = frozenset(COUNTRY_NAMES.values()) | frozenset(_CODE_ALIASES)

_NAME = re.compile(
    r"(?<![\w-])(?:in|to|en|au|aux|vers|pour|ships? to|shipping to|deliver(?:ed|y)? to|"
    r"livraison (?:en|au|aux|a))?\s*("
    + "|".join(re.escape(n) for n in sorted(COUNTRY_NAMES, key=len, reverse=True))
    + r")(?![\w-])"
)
# A bare code needs a delivery context, so "US" the pronoun or "IT" stay what they are.
_CODE = re.compile(
    r"(?i:\b(?:in|to|en|au|aux|vers|country|pays|ship(?:s|ping)? to|deliver(?:ed|y)? to|"
    r"livraison (?:en|au|aux|a|à))\s+(?:the\s+)?)([A-Z]{2})\b"
)


def extract_country(folded: str, original: str) -> tuple[str | None, tuple[int, int] | None]:
    """The last country named (a correction comes after) and its span.

    ``folded`` is the lowercase, accent-free text; ``original`` keeps the user's case, which
    is what tells the code "FR" from a word.
    """
    found: list[tuple[int, int, str]] = []
    for m in _NAME.finditer(folded):
        found.append((m.start(), m.end(), COUNTRY_NAMES[m[1]]))
    for m in _CODE.finditer(original):
        code = _CODE_ALIASES.get(m[1], m[1])
        if m[1] in _KNOWN_CODES:
            found.append((m.start(), m.end(), code))
    stripped = original.strip()
    if not found and re.fullmatch(r"[A-Z]{2}", stripped) and stripped in _KNOWN_CODES:
        found.append((0, len(original), _CODE_ALIASES.get(stripped, stripped)))
    if not found:
        return None, None
    start, end, code = max(found)
    return code, (start, end)
