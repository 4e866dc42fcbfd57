"""Phrase patterns as data: a small notation over words, compiled once to a regular expression.

The readers of free text look for phrases, not characters: "at the very end", "celui du
bas", "allergic to", "moins cher". A lexicon file holds them beside its word lists, under
``[patterns]`` (kind → phrases), so a new way of saying something is a data diff. Each phrase
is a sequence of words in this notation, matched on folded text (see ``folding.fold``):

====================  =====================================================================
``word``              that word; words are separated by any whitespace in the text
``a|b|c``             one of these words
``(a b)|(c d e)|f``   one of these phrases (groups nest)
``…?``                the word or group before the ``?`` may be left out
``stem*``             a word beginning with ``stem`` ("deteste*": deteste, detestes, …)
``*ending``           a word ending with ``ending`` ("*ieme": deuxieme, douzieme, …)
``_``                 any one word ("the _ one": "the blue one", "the go-to one")
``…+``                the word or group before, said once or more ("(so|really)+? like")
``<kind>``            any word of that kind of the same topic, in either language
``<topic.kind>``      any word of a kind of another topic
``#``                 a number (digits); the word after it may touch it ("# th": "12th")
``!word``, ``!(…)``   not followed by that word or group ("la fin !de": not "la fin de")
``&word``, ``&(…)``   followed by that word or group, which the match leaves out
                      ("# th &birthday": the "12th" of "12th birthday")
====================  =====================================================================

``|`` binds tighter than the space, also inside a group, so a group that mixes a word list
with other words is refused when loaded: write ``(a (b|c))`` or ``((a b)|c)``, which say
what they mean.

A word ending in an apostrophe ("l'", "d'") may touch the next one ("l'avant-dernier"), and
one opening with it ("'d", "'s") the word before ("I'd like", "he's"). A phrase matches
whole words only: no letter, digit or apostrophe on either side. The
alternatives of a kind are tried in the file's order, English before French, and a reader's
precedence between kinds stays in the reader (one ordered tuple there, with its reason).

Why not spaCy's ``Matcher``: it costs 0.7 s to import and 330 MB to install, paid at every
start of the terminal chat and of every test process that reads a message, for what ``re``
does here once the notation is compiled; the tokens are the same whitespace-separated words.
"""

from __future__ import annotations

import functools
import re

from giftgenius.language.folding import alternation, fold
from giftgenius.language.lexicon import LANGUAGES, LexiconError, phrases, union, words

# Between two words: whitespace; none after an apostrophe ("l'avant-dernier") or where the
# word before was left out (nothing but a space or the phrase's start stands before); none
# before an apostrophe ("he's").
_SEPARATOR = r"(?:\s+|(?<=')|(?<![\w'])|(?='))"
_AFTER_NUMBER = r"\s*"  # "12th", "12 th"
_BEFORE = r"(?<![\w'])"
_PHRASE_BEFORE = r"(?:(?<![\w'])|(?='))"  # a phrase may open with "'d": "I'd like"
_AFTER = r"(?![\w'])"
_LOOKAHEAD = None  # the mark of a "!" or "&" item in a sequence: it matches no text of its own
_NOTATION = re.compile(r"\s*(\(|\)|\||\?|\+|!|&|<[\w.]+>|#|[^\s()|?+!&<>#]+)")
_NUMBER = r"\d+"
_ANY_WORD = r"[\w'-]+"


class _Parser:
    """Recursive descent over one phrase: sequence := item+, item := ('!'|'&') atom | atom
    '+'? '?'?, atom := choice ('|' choice)*, choice := single | '(' sequence ('|' sequence)*
    ')', single := word | '_' | '<kind>' | '#'."""

    def __init__(self, topic: str, phrase: str) -> None:
        self.topic, self.phrase = topic, phrase
        self.tokens = self._lex(phrase)
        self.at = 0

    def _lex(self, phrase: str) -> list[str]:
        found, end = [], 0
        for match in _NOTATION.finditer(phrase):
            if match.start() != end:
                break
            found.append(match.group(1))
            end = match.end()
        if phrase[end:].strip():
            raise self.error(f"cannot read {phrase[end:].strip()!r}")
        return found

    def error(self, why: str) -> LexiconError:
        return LexiconError(
            f"lexicons of {self.topic!r}, pattern {self.phrase!r}: {why}; see language/patterns.py."
        )

    def peek(self) -> str | None:
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def take(self) -> str:
        token = self.peek()
        if token is None:
            raise self.error("it ends too soon")
        self.at += 1
        return token

    def whole(self) -> str:
        source = self.sequence(in_group=False)
        if self.peek() is not None:
            raise self.error(f"unexpected {self.peek()!r}")
        return source

    def sequence(self, *, in_group: bool) -> str:
        items: list[tuple[str, bool | None]] = []
        word_lists = 0
        while self.peek() not in (None, ")", "|"):
            if self.peek() in ("!", "&"):
                sign = "!" if self.take() == "!" else "="
                items.append((f"(?{sign}{_SEPARATOR}{self.atom()[0]}{_AFTER})", _LOOKAHEAD))
                continue
            atom, choices = self.atom()
            word_lists += choices > 1
            if self.peek() == "+":
                self.take()
                atom = f"(?:{atom}(?:{_SEPARATOR}{atom})*)"
            optional = self.peek() == "?"
            if optional:
                self.take()
            items.append((atom, optional))
        if not items:
            raise self.error("an empty phrase")
        if in_group and word_lists and len(items) > 1:
            raise self.error(
                "in a group, a word list beside other words needs its own group: "
                "(a (b|c)) or ((a b)|c)"
            )
        return _joined(items)

    def atom(self) -> tuple[str, int]:
        """One item of a sequence and how many choices its ``|`` joined."""
        choices = [self.choice()]
        while self.peek() == "|":
            self.take()
            choices.append(self.choice())
        source = choices[0] if len(choices) == 1 else "(?:" + "|".join(choices) + ")"
        return source, len(choices)

    def choice(self) -> str:
        """What ``|`` separates: a word, a word list (``<kind>``), a number or a group."""
        if self.peek() != "(":
            return self.single()
        self.take()
        branches = [self.sequence(in_group=True)]
        while self.peek() == "|":
            self.take()
            branches.append(self.sequence(in_group=True))
        if self.take() != ")":
            raise self.error("a group is not closed")
        return "(?:" + "|".join(branches) + ")"

    def single(self) -> str:
        """One word, one word list (``<kind>``) or a number."""
        token = self.take()
        if token == "#":
            return _NUMBER
        if token == "_":
            return _ANY_WORD
        if token.startswith("<"):
            return self.reference(token[1:-1])
        if token in ("(", ")", "|", "?", "+", "!", "&"):
            raise self.error(f"unexpected {token!r}")
        return _word(token)

    def reference(self, name: str) -> str:
        topic, _, kind = name.rpartition(".")
        try:
            listed = union(topic or self.topic, kind)
        except LexiconError as exc:
            raise self.error(str(exc)) from None
        return "(?:" + alternation({fold(word) for word in listed}) + ")"


def _word(token: str) -> str:
    """One word of the notation (folded as the text it reads is): literal, a stem, or an
    ending."""
    if token.startswith("*") and len(token) > 1:
        return r"[^\W\d_]+" + re.escape(fold(token[1:]))
    if token.endswith("*"):
        return re.escape(fold(token[:-1])) + r"\w*"
    return re.escape(fold(token))


def _joined(items: list[tuple[str, bool | None]]) -> str:
    """A sequence: a word left out takes its separator with it, and the separator is empty
    where no word stands just before it, so "the very? end" reads "the end" and "the very
    end", and "the? top one" reads "top one"; after a number it may be empty ("12th")."""
    out, previous = "", None
    for index, (atom, optional) in enumerate(items):
        if optional is _LOOKAHEAD:
            out += atom
            continue
        separator = _AFTER_NUMBER if previous == _NUMBER else _SEPARATOR
        part = atom if index == 0 else separator + atom
        previous = atom
        out += f"(?:{part})?" if optional else part
    return out


def compile_phrase(topic: str, phrase: str) -> str:
    """The regular expression of one phrase (no word edges)."""
    return _Parser(topic, phrase).whole()


@functools.cache
def source(topic: str, *kinds: str, lang: str | None = None) -> str:
    """The phrases of these kinds as one alternation (no word edges), for a reader that
    builds a longer expression around them; ``lang`` keeps one language's phrases."""
    compiled = [
        compile_phrase(topic, phrase)
        for language in ((lang,) if lang else LANGUAGES)
        for kind in kinds
        for phrase in phrases(topic, kind, language)
    ]
    return "(?:" + "|".join(compiled) + ")"


@functools.cache
def matcher(topic: str, *kinds: str, lang: str | None = None) -> re.Pattern[str]:
    """The phrases of these kinds as whole words, compiled once per process."""
    return re.compile(_PHRASE_BEFORE + source(topic, *kinds, lang=lang) + _AFTER)


def any_word(topic: str, *kinds: str) -> re.Pattern[str]:
    """Any word of these kinds (both languages), as a whole word."""
    return re.compile(_BEFORE + "(?:" + alternation(union(topic, *kinds)) + ")" + _AFTER)


def alternatives(topic: str, *kinds: str, lang: str | None = None) -> str:
    """Any word of these kinds (both languages, or ``lang``'s) as one alternation with no
    word edges, for a reader that builds a longer expression around a word list."""
    listed = (
        union(topic, *kinds) if lang is None else [w for k in kinds for w in words(topic, k, lang)]
    )
    return alternation(listed)
