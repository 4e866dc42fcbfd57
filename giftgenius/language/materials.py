"""What a gift is made of, in English and French: "pas d'argent" rules out sterling silver.

People rule materials out for allergies and ethics ("elle est allergique à l'argent", "no
leather, she's vegan", "rien en plastique"), in their own language, while product records
are written in English and a metal is often named only in the description ("a sterling
silver disc on a chain"). A material is not a catalog tag, so a refusal of one is matched
against every word of the product's title and description, through the family of words
for that material in both languages (``lexicons/<lang>/materials.toml``).

Words too common in one language to stand for a material are left out: French "or" (gold)
is also "or/ou", English "pin" is a badge, "ash" is cinders.
"""

from __future__ import annotations

import re
from functools import lru_cache

from giftgenius.language import lexicon
from giftgenius.language.folding import fold

# Every material, in the order of the lexicon's kinds.
MATERIALS = tuple(lexicon.table("materials", "en"))

# Set phrases in which a material's word means something else: "pas d'argent liquide" is no
# cash on the speaker, "golden hour" no gold. Folded; read where a refusal's object is cut.
_IDIOMS = tuple(
    w for lang in lexicon.LANGUAGES for w in lexicon.words("material_phrases", "set_phrases", lang)
)
_IDIOM = re.compile(r"^\s*(" + "|".join(_IDIOMS) + r")(?![\w])")


def idiom_at(text: str) -> str | None:
    """The set phrase ``text`` starts with when a material's word in it means something else
    ("argent liquide …" → "argent liquide"), so the phrase, not the material, is refused."""
    m = _IDIOM.match(fold(text))
    return m[1] if m else None


_WORD = re.compile(r"[^\W\d_]+")
# Words before a refused material that name nothing: articles, "pas", "sans", "any"…
_ARTICLES = lexicon.union("function_words", "definite_articles") | lexicon.union(
    "material_phrases", "leading"
)


@lru_cache(maxsize=1)
def _index() -> dict[str, str]:
    """Every folded word → its material."""
    return {
        fold(word): name
        for name in MATERIALS
        for lang in lexicon.LANGUAGES
        for word in lexicon.words("materials", name, lang)
    }


def material_of(phrase: str) -> str | None:
    """The material a short phrase names ("argent", "Sterling silver", "cuir") or None.

    Every content word of the phrase must belong to the same material, so "silver ring" or
    "pas d'argent liquide" is not read as a bare material.
    """
    words = [w for w in folded_words(phrase) if len(w) > 2 and w not in _ARTICLES]
    found = {_index().get(w) for w in words}
    return found.pop() if len(found) == 1 and None not in found else None


def folded_words(text: str) -> frozenset[str]:
    """The words of a text, folded; apostrophes and hyphens separate them ("d'argent")."""
    return frozenset(_WORD.findall(fold(text)))


def words_for(material: str) -> frozenset[str]:
    """The folded words of a material in both languages (empty for an unknown one)."""
    return frozenset(w for w, name in _index().items() if name == material)


def mentions(material: str, words: frozenset[str]) -> bool:
    """Whether a set of folded words (a product's title and description) names the material."""
    own = words_for(material)
    return any(w in own or w.rstrip("s") in own for w in words)
