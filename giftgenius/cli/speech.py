"""What language the operator commands speak, and their sentences from the catalogue.

The chat answers in the person's language, read from what they type. The commands
(``state``, ``checkpoints``, ``prune``, ``forget``, ``catalog``, ``db``, the errors they
end on) have nobody's words to go by, so they do as any Unix tool does and follow the
environment: the first of ``GIFTGENIUS_LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``
that is set names the language (``fr_FR.UTF-8`` → French); a language the catalogue lacks,
``C`` or ``POSIX`` reads English. The catalogue decides it
(``messages.environment_language``), for the stores' and settings' errors as well.

The sentences are the catalogue's ``commands`` section, and the option help (``--help``)
its ``help`` section, in the same language (the flags, variables and metavars keep their
names). Counting ("3 checkpoints") goes through babel's plural rules, imported on first
use: a command that counts nothing does not load babel.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TextIO

from giftgenius import messages

if TYPE_CHECKING:
    from rich.console import Console

SECTION = "commands"


def command_language(environ: Mapping[str, str] | None = None) -> str:
    """The catalogue language the commands speak: the environment's
    (``messages.environment_language``)."""
    return messages.environment_language(environ)


def say(key: str, **values: Any) -> str:
    """The commands' sentence ``key`` in the environment's language, filled with ``values``."""
    return messages.say(SECTION, key, command_language(), **values)


def count(key: str, n: int, **values: Any) -> str:
    """The sentence ``key.one`` or ``key.other`` for ``n``, as the language's plural rule
    says ("1 checkpoint", "0 checkpoints"; French "0 étape"), filled with ``values``."""
    return messages.count(SECTION, key, command_language(), n, **values)


def number(value: float) -> str:
    """A number with the language's separators ("1,234.5" / "1 234,5")."""
    from giftgenius import formats

    return formats.number(value, command_language())


def confirm(question: str, console: Console, stdin: TextIO) -> bool:
    """Whether the person answers yes to ``question`` in a terminal, in the commands'
    language ("[y/n]", "[o/n]"); no is the default, and so is end of input."""
    from rich.markup import escape
    from rich.prompt import Confirm

    class Answer(Confirm):
        choices = [say("confirm.yes"), say("confirm.no")]
        validate_error_message = f"[prompt.invalid]{escape(say('confirm.invalid'))}"

    stream = None if stdin is sys.stdin else stdin
    try:
        return Answer.ask(question, console=console, default=False, stream=stream)
    except EOFError:
        return False
