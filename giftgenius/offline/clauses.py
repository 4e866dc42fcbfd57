"""A message cut into clauses, each with its polarity and whether it corrects what came before.

People put several things in one line ("gift for my uncle who loves fishing, 60 dollars, he
lives in Toronto"), and a negation or a correction reaches only as far as its own clause:
"surtout pas un mug, y en a déjà 30 dans la cuisine du bureau" refuses mugs, not kitchens or
offices. So a message is split at sentence punctuation, at "but"/"mais", and at the commas
that start a new clause (a subject, a correction or a number follows), and each clause is
read on its own.

Everything here works on text folded with ``keep_length=True`` so positions line up with the
original (names and accents are read from the original).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from giftgenius.language.folding import alternation, fold
from giftgenius.language.lexicon import union
from giftgenius.language.patterns import matcher, source

# Where a clause ends: sentence punctuation, a contrast ("but", "mais"), a comma before a
# word that opens a new clause (offline_clauses' openers: subjects, corrections, figures,
# someone named or speaking for the person) or before a figure.
_CLAUSES = "offline_clauses"
_BREAK = re.compile(
    r"[.;!?\n…]+|\s[-–—]+\s|\.\.\.|"
    rf"\b{source(_CLAUSES, 'contrasts')}\b|"
    rf",\s*(?={source(_CLAUSES, 'joiners')} \b|(?:{source(_CLAUSES, 'openers')}|\d)\b)|"
    r",\s*(?=[\d$€£])|"
    # a taste given up ends its clause: "not cooking anymore, running" likes running
    r"(?:(?<=\banymore)|(?<=\bany more)|(?<=\bno more)),"
)

# Words that take back what was just said: "scrap that", "nvm", "no wait", "euh non",
# "laisse tomber". Shared with ``nlu``, which drops them from the front of a clause.
TAKE_BACK = (
    r"scrap that|scratch that|forget that|forget it|never ?mind|nvm|no wait|wait no|oh wait|"
    r"(?:euh|heu|hum|hmm|uh|um|er|ah) (?:no|non|nan)|non attends|attends non|laisse tomber|"
    r"oublie ca|oublie ce que j'ai dit"
)
# A correction replaces the earlier value instead of adding to it.
CORRECTION = re.compile(
    rf"(?<![\w'])(?:{source(_CLAUSES, 'corrections')}|{TAKE_BACK})(?![\w'])"
    r"|^\s*(?:no|non|nope|nan)\s*[,!.]"
)
# "not X but Y" / "pas X mais Y": X is taken back, Y is the new value.
# "pas de X mais Y" refuses X and likes Y: no correction there.
NOT_BUT = re.compile(
    r"(?<![\w'])(?:not|pas|non pas)\s+(?!(?:de|d'|des|du|any|fan|trop|plus)\b)[^.;!?]*?"
    r"\b(?:but|mais|c'est)\b"
)

# Negation markers: what follows them in the same clause is refused.
_NEG = (
    r"n'aime (?:pas|plus|guere)|n'aime|ne supporte pas|ne veut pas|ne boit pas|ne mange pas|"
    r"ne joue pas|ne porte pas|deteste\w*|hait|a horreur d(?:es|e|u|')|horreur d(?:es|e|u|')|"
    r"allergique (?:a|au|aux)|allergic to|"
    r"a deja (?:trop |beaucoup |plein |assez )?(?:de |d'|des |un |une |le |la |les )|"
    r"possede deja|en a deja (?:trop|plein|assez)|"
    r"already (?:has|have|owns|got)(?: (?:too many|plenty of|lots of|a lot of|enough))?|"
    r"has too many|has enough|trop de|pas de|pas d'|pas les|pas des|pas la|pas le|pas un|"
    r"pas une|pas du|sans|rien en|rien de|rien avec|aucun|aucune|"
    r"without|no more|(?:doesn'?t|does not|don'?t|do not|didn'?t|never|won'?t) (?:like|want|"
    r"drink|eat|need|care for|wear|get|read|watch|play|use|cook|bake|listen to|collect)s?|"
    # what not to offer: "please don't suggest candles", "ne me proposez pas de bougies"
    r"(?:please )?(?:don'?t|do not|never|no need to) (?:even )?(?:suggest|recommend|propose|"
    r"offer|show|send|buy|give|pick)(?: (?:me|him|her|them|us))?(?: any)?|"
    r"(?:ne )?(?:me |lui |leur )?(?:propose|proposez|suggere|suggerez|montre|montrez|"
    r"conseille|conseillez|offre|offrez)(?:-moi|-lui)? (?:surtout )?(?:pas|jamais|plus)|"
    r"dislikes?|hates?|can'?t stand|cannot stand|avoids?|avoiding|evite[rz]?|except|sauf|"
    r"nothing with|nothing in|nothing (?:too|overly|very|that'?s(?: too)?|that is(?: too)?)|"
    r"nothing(?! (?:but|else|more|less|much|like|special))|"
    r"not into|isn'?t into|not a fan of|pas fan d(?:e |')|never|jamais|"
    r"ni|nor|neither|"
    r"no|not|pas"
)
# Stretches of time someone spends on what they love ("passe ses soirées à", "spends her
# weekends"), as the liking cues below read them.
_FR_TIME = (
    r"(?:journees?|soirees?|nuits?|matinees?|aprems?|apres-midis?|week-ends?|weekends?|we|"
    r"vacances|dimanches?|samedis?|heures|temps(?: libre)?|loisirs|vie|retraite)"
)
_EN_TIME = (
    r"(?:free time|spare time|time|days?|evenings?|nights?|mornings?|afternoons?|weekends?|"
    r"summers?|holidays?|sundays?|saturdays?|lunch ?breaks?|life|retirement)"
)
# Whose or how many of those stretches: "his weekends", "every afternoon", "most of her days".
_EN_SPAN = r"(?:(?:all|every|each|most|many|of|his|her|their|the)\s+){1,3}"
_FR_SPAN = r"(?:ses|son|sa|des|tout son|toute sa|tous ses|toutes ses|chaque|tous les|toutes les)"
# Keenness in more words than "loves": how people say someone is taken with something
# ("mad about", "hooked on", "fou de"), would welcome it ("could use", "would love"), does or
# practises it, is trying to, or lives for it. Shared with the free-word reading in ``nlu``.
KEEN = (
    r"(?:mad|crazy|nuts|wild|potty|bonkers|gaga|obsessed|passionate|hooked|besotted|smitten|"
    r"big|huge|serious|enthusiastic) (?:about|on|with|for)|can'?t get enough of|"
    r"(?:fou|folle|dingue|mordue?|gaga|accro) (?:de|d'|du|des)|raffole\w* (?:de|d'|du|des)|"
    r"lives for|spends (?:all )?(?:his|her|their) "
    r"(?:\w+ )?(?:time|weekends|evenings|days) (?:at|in|on|with|doing)|"
    r"(?:practically |basically |pretty much )?lives (?:at|in|on|by) (?:his|her|their)|"
    # "basically lives on minecraft": with the adverb, no address ("lives on a farm")
    r"(?:practically|basically|pretty much|literally) lives (?:on|in|for)|"
    # a fondness: "partial to a good whisky", "a soft spot for gin", "un faible pour le thé"
    r"partial to|(?:a )?soft spot for|(?:a )?weakness for|(?:un )?faible pour|"
    r"(?:a|has a) thing for"
)
# What someone does, misses or is trying to, what would be welcome, or the one thing left
# after a refusal ("no coffee, only tea"): a cue for the tags it names, too weak to keep a
# word the vocabulary does not know ("how long does delivery take" names no taste).
WELCOME = (
    r"misses|miss|does|doing|practi[sc]es?|practi[sc]ing|"
    r"(?:trying|learning|wanting|hoping|starting) to|(?:tries|wants|learns|hopes|starts) to|"
    r"could (?:use|do with)|would (?:love|like|enjoy|appreciate)|deserves?|merite\w*|"
    r"only|seulement|uniquement|(?<=, )(?:just|juste)"
)
# Liking cues: what follows them is an interest.
_POS = (
    rf"{KEEN}|{WELCOME}|"
    r"aime\w*|adore\w*|kiff\w*|passionne\w* (?:par|pour|de|d')|passionne\w*|"
    r"fan (?:de|d'|of)|fond of|likes|loves?|enjoys?|"
    # what someone was told they like, in the past: "sa maman m'a dit qu'il aimait les voitures"
    r"aim(?:ai[st]|aient)|ador(?:ai[st]|aient)|(?<!i )(?<!we )(?:loved|liked|enjoyed|adored)|"
    # "like" after a comma is the talker's filler or a comparison, no one's liking: "he's
    # gone full plant dad, like the whole windowsill is covered"
    r"(?<![,;:] )(?<![,;:])like|"
    # reading or watching without end: "dévore les BD", "devours thrillers", "binges anime"
    r"devore\w*|devours?|devouring|binges?|binge-watch\w*|enchaine\w*|"
    # taking a taste up with others: "joined the chess club", "s'est inscrite au club de judo"
    r"joined|has joined|signed up (?:for|to|with)|enrolled in|a rejoint|rejoint|"
    r"vient de rejoindre|(?:s'est |s'|vient de s')inscrit\w* (?:a|au|aux|en|dans)|"
    # leading one: "runs D&D on Fridays", "runs the chess club", "anime un club de lecture"
    r"(?:runs|run|ran|leads|hosts|organi[sz]es)(?= (?:an?|the|his|her|their|our|\w+&\w+)\b)|"
    r"anime (?:un|une|le|la|des)(?= )|"
    r"is into|into|keen on|interested in|s'interesse (?:a|au|aux)|interesse\w* par|"
    r"fait du|fait de la|fait des|fait de l'|plays?|joue (?:a|au|aux|du|de la)|collectionne|"
    r"collects?|is crazy about|obsessed with|dingue d(?:e|')|accro (?:a|au|aux)|"
    r"branche\w* par|amateur de|amatrice de|passion(?: pour| for)?|hobby|hobbies|loisirs?|"
    r"se (?:met|mettre|lance|lancer) (?:a|au|aux|dans)|s'est (?:mise?|lancee?) (?:a|au|aux|dans)|"
    r"took up|taken up|taking up|got into|getting into|is learning|apprend (?:a|le|la)|"
    r"(?:lui |leur )?offrir|give (?:her|him|them)|get (?:her|him|them)|looking for|"
    r"(?:je )?cherche\w*|pensais a|thinking of|besoin d(?:e|')|needs? (?:some|a|an)|"
    r"(?:ne )?boit(?: que)?|drinks?|(?:ne )?jure que par|swears by|ne vit que pour|"
    r"c'est(?! pour)|it'?s(?! for)|plutot|rather|instead|"
    # passion and habit, as people say it: "fou de", "passe ses journées à", "carbure au café",
    # "dans sa phase maquillage", "tripe sur" (Québec); "mad about", "spends her weekends"
    r"(?:fou|folle|fous|folles|fana|fanas|mordue?s?|toquee?|gaga|raffole\w*|entichee?) "
    r"(?:de|d'|du|des)|"
    rf"passe {_FR_SPAN} {_FR_TIME} "
    r"(?:a|au|aux|sur|dans|devant|avec)|carbure (?:a|au|aux)|vit pour|"
    r"(?:a fond|a donf|full) (?:dans|sur)|(?:d')?adopt\w*|"
    r"(?:a|has|have|just) (?:got|gotten|eu) (?:a|an|un|une|des|deux|two) (?:new )?|"
    r"(?:est )?dans (?:sa|son|une|un) "
    r"(?:phase|periode|trip|delire|vibe)|"
    r"trip+e (?:sur|ben gros sur)|capote (?:sur|pour)|craque (?:pour|sur)|"
    r"s'eclate (?:a|au|aux|avec|en|dans)|est (?:calee?|douee?) en|"
    r"(?:crazy|mad|nuts|wild|gaga) (?:about|for|over)|hooked on|can'?t get enough of|"
    rf"lives for|big on|spends {_EN_SPAN}{_EN_TIME}|"
    r"(?:in|through) (?:a|an|her|his|their)(?= [\w-]+ phase)|"
    # fondness for what someone cares for, a goal trained for: "dotes on his dog"
    rf"{alternation(union('offline_pastimes', 'fondness'))}|"
    # what someone is or does for a living says what they care for: "il est chef", "is a dev"
    r"est|etait|bosse (?:comme|en tant que)|travaille (?:comme|en tant que)|"
    r"works as(?: an?)?|(?:he|she|who)(?:'s| is| was) an?|"
    # the gift wished for: "lui envoyer un bijou", "je voudrais une peluche", "un truc rigolo"
    r"(?:lui |leur )?(?:envoyer|acheter)|"
    r"(?:voudrai[st]?|veux|veut|aimerai[st]?|souhaite\w*) (?:un|une|des|du|de la|quelque)|"
    r"(?:un|une) (?:truc|chose|objet|cadeau|kdo|idee)|quelque chose|"
    r"(?:pour )?qu'(?:il|elle|iel)s? (?:puisse\w*|peu\w*)|so (?:that )?(?:she|he|they) can|"
    r"(?:vous )?(?:avez|auriez)(?:-vous)? (?:des|un|une|du|quelque)|do you (?:have|sell)|"
    r"have you got|"
    r"(?:send|buy|find) (?:her|him|them)|(?:want|would like|'d like) (?:a|an|some|something)|"
    r"something"
)
# "No worries", "no rush", "pas de souci": saying all is well refuses nothing. Shared with
# ``intents``, where "yeah no worries" is a yes.
NO_TROUBLE = alternation(union(_CLAUSES, "no_trouble"))
# Not knowing what to give is no refusal: "I have no idea what to get my wife", "aucune idée
# de quoi offrir à ma sœur", "not sure what to buy him". The words after it are still read
# (who the gift is for, what they like), but nothing is refused and nothing is cued by it.
_HEDGE = source(_CLAUSES, "hedges")
# French "ne … que" restricts, it does not deny: "il ne parle que de dinosaures", "elle ne
# jure que par les chevaux", "il ne pense qu'au foot", "n'écoute que du rap" say what the
# person is all about. Read before the negations ("n'aime que le foot" loves football). The
# verbs are those of talking, thinking, doing and liking, not "ne sait que faire".
ONLY = (
    r"(?:ne\s+|n')(?:se\s+|s'|en\s+|y\s+)?"
    r"(?:parl\w*|pens\w*|jur\w*|vi[tv]\w*|li[ts]\w*|lisai\w*|regard\w*|ecout\w*|jou\w*|"
    r"fai[ts]|faisai\w*|font|veu[tx]|veulent|voul\w*|mang\w*|boi[ts]|boivent|buv\w*|aim\w*|"
    r"ador\w*|interess\w*|passionn\w*|rev\w*|dessin\w*|demand\w*|collectionn\w*|"
    r"connai\w*|jure\w*|a d'yeux|avait d'yeux|ont d'yeux|a|avait|ont|habill\w*)"
    r"(?:\s+(?:plus|presque|quasiment|pratiquement|vraiment|d'yeux))?\s+qu(?:e\b|')"
    # the preposition goes with the marker: "de licornes" names no one's "fille de …"
    r"(?:\s*(?:(?:de|du|des|par|pour|au|aux|a)(?![\w'])|d'))?"
)
# A fondness said with a negation word, read before the negations: "never says no to a gin",
# "can't say no to chocolate", "ne dit jamais non à un bon vin", "ne refuse jamais un café".
_FOND = (
    r"(?:never|rarely|won'?t|can'?t|cannot|would never) (?:says?|turns?) (?:no to|down)|"
    r"ne (?:dit|dira|disent) jamais non (?:a|au|aux)|ne (?:refuse|refusera|crache) jamais"
    r"(?: sur)?"
)
MARKER = re.compile(
    rf"(?<![\w'])(?:(?P<hedge>{_HEDGE})|(?P<fond>{_FOND}|{ONLY})|(?P<neg>{_NEG})|(?P<pos>{_POS}))"
    r"(?:(?<=')|(?![\w]))"
)


# A habit describes the person's tastes: "il fait son café à la V60 tous les matins".
_HABIT = matcher(_CLAUSES, "habits")
# "est" describes the person after a name, a pronoun or "mon frère", not after "le bureau".
_THING_IS = re.compile(r"(?<![\w'])(?:le|la|les|l'|un|une|du|des|ce|cet|cette|ces)\s*[\w-]+\s+$")


@dataclass(frozen=True)
class Clause:
    """One clause: its span in the message, its text (original and folded)."""

    start: int
    end: int
    text: str
    folded: str

    @property
    def corrects(self) -> bool:
        return CORRECTION.search(self.folded) is not None


@dataclass(frozen=True)
class Segment:
    """A stretch of a clause with one polarity; ``cued`` when a liking word introduced it."""

    text: str
    folded: str
    positive: bool
    cued: bool
    marker: str = ""  # the folded negation or liking word that opened it
    start: int = 0  # where it starts in its clause


_RATHER_THAN = re.compile(r"(?<![\w'])(?:plutot|rather)\b[^,.;!?]*?\s(que|than)\s")
# "anything but mugs", "everything but candles": "but" refuses here, it opens no clause.
_ANYTHING_BUT = re.compile(r"(?<![\w'])(?:anything|everything|whatever)\s+(but)(?![\w'])")


def contrast_as_negation(text: str) -> str:
    """ "plutôt le whisky que le vin", "rather tea than coffee": the part after "que"/"than"
    is refused, as what follows "anything but"; the word is rewritten as a negation of the
    same length, so spans still hold."""
    folded = fold(text, keep_length=True)
    for m in _RATHER_THAN.finditer(folded):
        word = "pas" if m[1] == "que" else "not "
        text = text[: m.start(1)] + word + text[m.end(1) :]
    for m in _ANYTHING_BUT.finditer(folded):
        text = text[: m.start(1)] + "not" + text[m.end(1) :]
    return text


def split(text: str) -> list[Clause]:
    """The clauses of ``text``, in order, empty ones dropped."""
    folded = fold(text, keep_length=True)
    clauses: list[Clause] = []
    cursor = 0
    for m in [*_BREAK.finditer(folded), None]:
        end = m.start() if m is not None else len(text)
        if text[cursor:end].strip():
            clauses.append(Clause(cursor, end, text[cursor:end], folded[cursor:end]))
        if m is not None:
            # "but"/"mais" open the next clause (they carry its polarity), punctuation not.
            cursor = m.start() if m[0].strip(" ,").isalpha() else m.end()
    return clauses


def segments(clause: Clause) -> list[Segment]:
    """The clause cut at its polarity markers; a clause starts positive and uncued."""
    out: list[Segment] = []
    # a habit describes the person's tastes: "il fait son café à la V60 tous les matins"
    habit = _HABIT.search(clause.folded) is not None
    positive, cued, cursor, marker = True, habit, 0, ""
    for m in MARKER.finditer(clause.folded):
        if _THING_IS.search(clause.folded[: m.start()]) and m[0] in ("est", "etait"):
            continue  # "la livraison est à Lyon": a thing, not the person, is described
        refused = marker and not positive and not clause.folded[cursor : m.start()].strip()
        if (m.group("pos") or m.group("fond")) is not None and refused:
            continue  # "pas quelque chose de sportif", "not something loud": still refused
        if m.start() > cursor:
            out.append(_segment(clause, cursor, m.start(), positive, cued, marker))
        positive = m.group("neg") is None
        cued = m.group("pos") is not None or m.group("fond") is not None
        cursor = m.end()
        marker = m[0]
    if cursor < len(clause.text):
        out.append(_segment(clause, cursor, len(clause.text), positive, cued, marker))
    return [s for s in out if s.text.strip()]


def _segment(
    clause: Clause, start: int, end: int, positive: bool, cued: bool, marker: str
) -> Segment:
    text, folded = clause.text[start:end], clause.folded[start:end]
    return Segment(text, folded, positive, cued, marker, start)
