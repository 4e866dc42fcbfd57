"""argparse types for numbers a person types, with bounds that say what is allowed.

Every command line of GiftGenius (the main one and the benchmarks', which are parsed by
their own modules) reads counts and durations through these, so a negative count, a
20-digit number or ``1e999`` seconds is one plain usage line — never a traceback, an
overflow deep in a driver, or a run that never ends. The line is the catalogue's ``usage``
section, in the environment's language; argparse writes "argument --flag:" before it.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable

from giftgenius.messages import keys, speak


def whole(low: int, high: int | None = None, *, what: str = "number") -> Callable[[str], int]:
    """A whole number from ``low`` (to ``high``). ``what`` names what is counted: the
    ``usage`` sentences ``whole.not.<what>`` and ``whole.range.<what>`` say it (a missing
    one fails here, when the parser is built, not when a person mistypes)."""
    refused, out_of_range = f"whole.not.{what}", f"whole.range.{what}"
    missing = {refused, out_of_range} - keys("usage")
    if missing:
        raise KeyError(f"no sentence {sorted(missing)} in the usage section of messages")

    def read(text: str) -> int:
        try:
            number = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(speak("usage", refused, text=repr(text))) from None
        if high is not None and not low <= number <= high:
            raise argparse.ArgumentTypeError(
                speak("usage", out_of_range, low=low, high=high, number=number)
            )
        if number < low:
            if low == 0:
                raise argparse.ArgumentTypeError(
                    speak("usage", "whole.zero_or_more", number=number)
                )
            raise argparse.ArgumentTypeError(
                speak("usage", "whole.at_least", low=low, number=number)
            )
        return number

    return read


def seconds(low: float, high: float) -> Callable[[str], float]:
    """A finite number of seconds from ``low`` to ``high`` (``nan`` and ``1e999`` refused)."""

    def read(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                speak("usage", "seconds.not", text=repr(text))
            ) from None
        if not math.isfinite(value) or not low <= value <= high:
            raise argparse.ArgumentTypeError(
                speak("usage", "seconds.range", low=f"{low:g}", high=f"{high:g}", text=text)
            )
        return value

    return read


def command_parser(prog: str, doc: str | None) -> argparse.ArgumentParser:
    """A command's parser whose help a person reads: the first paragraph of the module's
    docstring as plain text (no reST markup), and every option's default after its help."""
    summary = " ".join((doc or "").split("\n\n")[0].replace("``", "").split())
    return argparse.ArgumentParser(
        prog=prog, description=summary, formatter_class=argparse.ArgumentDefaultsHelpFormatter
    )
