"""Numbers written in words (English and French) rewritten as digits.

Every later extractor (money, ages, deadlines, choices) then only has to read digits:
"fifty euros" and "cinquante €" become "50 euros" and "50 €".
"""

from __future__ import annotations

import re

_UNITS = {
    # English
    "zero": 0,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
    # French
    "zéro": 0,
    "deux": 2,
    "trois": 3,
    "quatre": 4,
    "cinq": 5,
    "sept": 7,
    "huit": 8,
    "neuf": 9,
    "dix": 10,
    "onze": 11,
    "douze": 12,
    "treize": 13,
    "quatorze": 14,
    "quinze": 15,
    "seize": 16,
    "vingt": 20,
    "vingts": 20,
    "trente": 30,
    "quarante": 40,
    "cinquante": 50,
    "soixante": 60,
    "septante": 70,
    "huitante": 80,
    "octante": 80,
    "nonante": 90,
}
# Words that mean 1 only inside a bigger number ("a hundred", "one thousand", "vingt et un").
_ONES = {"one": 1, "a": 1, "un": 1, "une": 1}
_SCALES = {"hundred": 100, "cent": 100, "cents": 100, "thousand": 1000, "mille": 1000}
_JOINERS = {"and", "et", "-"}

_TOKEN = re.compile(r"[a-zà-ÿ]+|-", re.IGNORECASE)
_CANDIDATE = re.compile(
    r"\b(?:[a-zà-ÿ]+)(?:(?:\s+|-)(?:[a-zà-ÿ]+))*\b",
    re.IGNORECASE,
)


def _value(words: list[str]) -> int | None:
    """Value of a run of number words, or None if the run is not one number.

    A unit may follow only a bigger tens word ("twenty five", "soixante-dix") or a scale
    ("hundred and five"), so "thirty and sixty" stays two numbers.
    """
    total = 0
    current = 0
    last: int | None = None  # value of the previous number word
    seen_number = False
    if words and words[0] in _JOINERS:
        return None
    for i, word in enumerate(words):
        if word in _UNITS or word in _ONES:
            if word in _ONES:
                nxt = words[i + 1] if i + 1 < len(words) else ""
                prev = words[i - 1] if i else ""
                if nxt not in _SCALES and prev not in _JOINERS:
                    return None
                value = 1
            else:
                value = _UNITS[word]
            if word.startswith("vingt") and last == 4:  # quatre-vingt(s) = 80
                current += 76
                last = 80
                seen_number = True
                continue
            dix_sept = last == 10 and value < 10  # French 17-19, 77-79, 97-99
            if (
                last is not None
                and last < 100
                and not dix_sept
                and (last < 20 or last % 10 or value >= last)
            ):
                return None
            current += value
            last = value
            seen_number = value != 1 or seen_number or i > 0
        elif word in _SCALES:
            scale = _SCALES[word]
            if scale == 100:
                current = (current or 1) * 100
            else:
                total += (current or 1) * scale
                current = 0
            last = scale
            seen_number = True
        elif word not in _JOINERS:
            return None
    return total + current if seen_number else None


def _neighbour(tokens: list[re.Match[str]], j: int, step: int) -> str:
    k = j + step
    while 0 <= k < len(tokens) and tokens[k].group(0).isspace():
        k += step
    return tokens[k].group(0) if 0 <= k < len(tokens) else ""


def _is_number_word(tokens: list[re.Match[str]], j: int, low: str) -> bool:
    """Number words, except the few that mean something else here ("Sept 20", "50 cents")."""
    if low == "sept" and _neighbour(tokens, j, 1)[:1].isdigit():
        return False
    if low == "cents" and _neighbour(tokens, j, -1)[-1:].isdigit():
        return False
    return low in _UNITS or low in _SCALES or low in _ONES or low in _JOINERS


def words_to_digits(text: str) -> str:
    """Rewrite number words as digits; everything else is kept as it was."""
    tokens = list(re.finditer(r"[A-Za-zÀ-ÿ]+|-|\S|\s+", text))
    out: list[str] = []
    i = 0
    while i < len(tokens):
        if tokens[i].group(0).isspace():
            out.append(tokens[i].group(0))
            i += 1
            continue
        best: tuple[int, int] | None = None  # (end index, value)
        j = i
        words: list[str] = []
        while j < len(tokens):
            raw = tokens[j].group(0)
            low = raw.lower()
            if raw.isspace():
                j += 1
                continue
            if _is_number_word(tokens, j, low):
                words.append(low)
                value = _value(words)
                if value is not None and words[-1] not in _JOINERS:
                    best = (j, value)
                j += 1
                continue
            break
        if best is not None:
            end, value = best
            out.append(str(value))
            i = end + 1
        else:
            out.append(tokens[i].group(0))
            i += 1
    return "".join(out)
