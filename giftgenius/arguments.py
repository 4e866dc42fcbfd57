"""argparse types for numbers a person types, with bounds that say what is allowed.

Every command line of GiftGenius (the main one and the benchmarks', which are parsed by
their own modules) reads counts and durations through these, so a negative count, a
20-digit number or ``1e999`` seconds is one plain usage line — never a traceback, an
overflow deep in a driver, or a run that never ends.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable


def whole(low: int, high: int | None = None, *, what: str = "whole number") -> Callable[[str], int]:
    """A whole number from ``low`` (to ``high``)."""

    def read(text: str) -> int:
        try:
            number = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a {what}") from None
        if high is not None and not low <= number <= high:
            noun = what.split()[0]
            raise argparse.ArgumentTypeError(f"give a {noun} from {low} to {high}, not {number}")
        if number < low:
            floor = "0 or more" if low == 0 else f"at least {low}"
            raise argparse.ArgumentTypeError(f"must be {floor}, not {number}")
        return number

    return read


def seconds(low: float, high: float) -> Callable[[str], float]:
    """A finite number of seconds from ``low`` to ``high`` (``nan`` and ``1e999`` refused)."""

    def read(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
        if not math.isfinite(value) or not low <= value <= high:
            raise argparse.ArgumentTypeError(f"give seconds from {low:g} to {high:g}, not {text}")
        return value

    return read


def command_parser(prog: str, doc: str | None) -> argparse.ArgumentParser:
    """A command's parser whose help a person reads: the first paragraph of the module's
    docstring as plain text (no reST markup), and every option's default after its help."""
    summary = " ".join((doc or "").split("\n\n")[0].replace("``", "").split())
    return argparse.ArgumentParser(
        prog=prog, description=summary, formatter_class=argparse.ArgumentDefaultsHelpFormatter
    )
