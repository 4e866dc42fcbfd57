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
import sys
from collections.abc import Callable
from typing import Any, NoReturn

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


class Parser(argparse.ArgumentParser):
    """argparse whose own words in ``--help`` — the groups' titles and ``-h``'s help — are the
    catalogue's ``help`` section, in the environment's language, like every option's help,
    and so is the "error:" before a refused command line (what argparse itself says is
    wrong, "the following arguments are required", stays in its English)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for action in self._actions:
            if "-h" in action.option_strings:
                action.help = speak("help", "argparse.help")

    def error(self, message: str) -> NoReturn:
        """Usage, then "PROG: error: MESSAGE" in the environment's language; exit code 2."""
        self.print_usage(sys.stderr)
        self.exit(2, speak("help", "argparse.error", prog=self.prog, message=message) + "\n")

    def add_argument_group(self, *args: Any, **kwargs: Any) -> Any:
        """A group; argparse's own two ("positional arguments", "options") titled in the
        environment's language as they are made, so a parent parser's groups merge with
        its children's by the same title."""
        title = kwargs.pop("title", args[0] if args else None)
        key = _GROUPS.get(title) if isinstance(title, str) else None
        return super().add_argument_group(speak("help", key) if key else title, *args[1:], **kwargs)


_GROUPS = {"positional arguments": "argparse.positionals", "options": "argparse.options"}


class Formatter(argparse.ArgumentDefaultsHelpFormatter):
    """Help with its "usage:" and each option's "(default: …)" in the environment's
    language; an option whose help already says its default in its own words, or whose
    default is nothing worth showing (a flag that is off, a value left unset), shows none."""

    def add_usage(self, usage: Any, actions: Any, groups: Any, prefix: str | None = None) -> None:
        prefix = speak("help", "argparse.usage") if prefix is None else prefix
        super().add_usage(usage, actions, groups, prefix)

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        unset = action.default is None or action.default is False
        said = speak("help", "argparse.says_default") in text or "%(default)" in text
        if unset or said or action.default is argparse.SUPPRESS:
            return text
        if action.option_strings or action.nargs in (argparse.OPTIONAL, argparse.ZERO_OR_MORE):
            return text + speak("help", "argparse.default")
        return text


def command_parser(prog: str, description: str) -> argparse.ArgumentParser:
    """A command's parser whose help a person reads, in the environment's language:
    ``description`` (a sentence of the catalogue's ``help`` section) and every option's
    default after its help."""
    return Parser(prog=prog, description=description, formatter_class=Formatter)
