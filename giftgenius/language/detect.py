"""Which language to answer in: English or French, from the user's own words.

A cheap word-vote is enough here: the two languages share few function words, and a tie
(``"ok"``, ``"42"``) falls back to what the conversation already used.
"""

from __future__ import annotations

import re

from giftgenius.domain import Locale
from giftgenius.language.folding import fold

_FRENCH = frozenset(
    """
    je j j' tu il elle on nous vous ils elles le la les l un une des du de d au aux et est
    c ce cet cette ces mon ma mes ton ta tes son sa ses notre votre leur pour avec sans pas
    ne n plus tres trop aussi mais ou oui non merci bonjour bonsoir salut cadeau cadeaux
    aime aimerait adore deteste prends prend veux voudrais besoin cherche qui que quoi
    ans sous chez dans sur valide confirme parfait daccord ouais plutot finalement comme
    fois derniere dernier premier premiere deuxieme troisieme jusqu jusqua entre environ
    reviendrai revenir plus tard livraison avant noel soeur frere pere mere fille fils ami
    amie copine copain collegue patron enregistre profil ca ete etait sera
    voisin voisine tante tata oncle tonton cousin cousine neveu niece marraine parrain mamie
    papy deux trois quatre cinq sept huit neuf dix onze douze vingt trente quarante
    cinquante soixante cent
    """.split()  # noqa: SIM905 - a word list reads better as text
)

_ENGLISH = frozenset(
    """
    i i'm im you he she they we it the a an and is are was be for with without not no yes
    my your his her their our of to in on at by from this that these those please thanks
    thank hello hi gift present need looking want would like likes love loves hates hate
    doesn't dont don't into take ll i'll one first second third last budget up under
    around between about max confirm sounds good great perfect okay sure yeah yep later
    bye back come same time as save profile friend sister brother mother father mom dad
    colleague boss wife husband son daughter years old turning next days weeks christmas
    neighbor neighbour aunt uncle cousin niece nephew grandma grandpa two three four five
    seven eight nine ten eleven twelve twenty thirty forty fifty sixty hundred
    """.split()  # noqa: SIM905 - a word list reads better as text
)

_WORD = re.compile(r"[a-z']+")


def detect_locale(text: str | None, default: Locale = "en", *, settled: bool = False) -> Locale:
    """'fr' or 'en' by a vote of function words and accents; ``default`` on a tie.

    ``settled``: the conversation already speaks ``default``. A line then needs a lead of
    two votes to change it, so a short line ("30€ max", "max 60 livres", "on reste a
    Montreal") never flips a French conversation to English on one shared word.
    """
    if not text:
        return default
    accents = sum(1 for ch in text.lower() if ch in "éèêàâçùûôîœëïü")
    words = _WORD.findall(fold(text))  # 'déteste' and 'deteste' vote alike
    fr = accents
    en = 0
    for word in words:
        bare = word.strip("'")
        if bare in _FRENCH or word in _FRENCH:
            fr += 1
        if bare in _ENGLISH or word in _ENGLISH:
            en += 1
        if "'" in word and word.split("'", 1)[0] in {"j", "l", "d", "n", "c", "qu", "s", "m"}:
            fr += 1
    lead = 2 if settled else 1
    if fr - en >= lead:
        return "fr"
    if en - fr >= lead:
        return "en"
    return default
