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

from giftgenius.language.folding import fold
from giftgenius.language.patterns import alternatives, matcher, source

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

# Words that take back what was just said: "scrap that", "nvm", "laisse tomber". Shared with
# ``nlu``, which drops them from the front of a clause.
TAKE_BACK = source(_CLAUSES, "take_back")
# A correction replaces the earlier value instead of adding to it.
CORRECTION = re.compile(
    rf"(?<![\w'])(?:{source(_CLAUSES, 'corrections')}|{TAKE_BACK})(?![\w'])"
    rf"|^\s*(?:{alternatives('reading_replies', 'noes')})\s*[,!.]"
)
# "not X but Y" / "pas X mais Y": X is taken back, Y is the new value.
# "pas de X mais Y" refuses X and likes Y: no correction there.
NOT_BUT = re.compile(
    r"(?<![\w'])(?:not|pas|non pas)\s+(?!(?:de|d'|des|du|any|fan|trop|plus)\b)[^.;!?]*?"
    r"\b(?:but|mais|c'est)\b"
)

# The markers of a clause are offline_clauses' phrases, each kind tried in its files' order;
# here is only what the phrase notation cannot say (a word before, "D&D").
# Negations: what follows them in the same clause is refused.
_NEG = source(_CLAUSES, "negations")
# Keenness in more words than "loves" ("mad about", "hooked on", "fou de"). Shared with the
# free-word reading in ``nlu``.
KEEN = source(_CLAUSES, "keen")
# What someone does, misses or is trying to, what would be welcome, or the one thing left
# after a refusal ("no coffee, only tea", ", just tea"): a cue for the tags it names, too
# weak to keep a word the vocabulary does not know ("how long does delivery take").
WELCOME = rf"{source(_CLAUSES, 'welcome')}|(?<=, )(?:just|juste)"
# Liking cues: what follows them is an interest.
_POS = (
    rf"{KEEN}|{WELCOME}|{source(_CLAUSES, 'liking', 'taste_cues')}|"
    # what the speaker loved is no one else's taste: "I loved it"
    r"(?<!i )(?<!we )(?:loved|liked|enjoyed|adored)|"
    # "like" after a comma is the talker's filler or a comparison, no one's liking: "he's
    # gone full plant dad, like the whole windowsill is covered"
    r"(?<![,;:] )(?<![,;:])like|"
    # leading one: "runs D&D on Fridays"; what something is; "in a … phase"
    rf"{source(_CLAUSES, 'leading_and_being')}"
    r"|(?:runs|run|ran|leads|hosts|organi[sz]es)(?= \w+&\w+\b)"
)
# "No worries", "no rush", "pas de souci": saying all is well refuses nothing. Shared with
# ``intents``, where "yeah no worries" is a yes.
NO_TROUBLE = alternatives(_CLAUSES, "no_trouble")
# Not knowing what to give is no refusal: "I have no idea what to get my wife", "aucune idée
# de quoi offrir à ma sœur", "not sure what to buy him". The words after it are still read
# (who the gift is for, what they like), but nothing is refused and nothing is cued by it.
_HEDGE = source(_CLAUSES, "hedges")
# French "ne … que" restricts, it does not deny ("il ne parle que de dinosaures"): read
# before the negations, "n'aime que le foot" loves football (offline_clauses' only).
ONLY = source(_CLAUSES, "only")
# A fondness said with a negation word, read before the negations: "never says no to a gin",
# "ne dit jamais non à un bon vin", "ne refuse jamais un café".
_FOND = source(_CLAUSES, "fondness")
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
