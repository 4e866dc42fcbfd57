"""One error tree. Every message says what happened *and what to do about it*.

The CLI maps the tree to exit codes (see ``exit_code``); nothing below it prints.
"""

from __future__ import annotations

from giftgenius import messages


class GiftGeniusError(Exception):
    """Base of every error the application raises on purpose."""

    exit_code = 1


class UsageError(GiftGeniusError):
    """The caller asked for something malformed (bad user id, bad flag value)."""

    exit_code = 2


class NothingToResume(GiftGeniusError):
    """No unfinished run matches what the user asked to resume."""

    exit_code = 3


class ConfigError(GiftGeniusError):
    """Settings are missing or contradictory; the message names the setting to fix."""


class ModelError(GiftGeniusError):
    """The model endpoint failed or answered something unusable."""


class ContextLengthExceeded(ModelError):
    """The endpoint refused the request as larger than its context window."""


class StorageError(GiftGeniusError):
    """A store (database, session store) is unreachable or refused an operation."""


class SchemaOutdated(StorageError):
    """The database schema is older than this code; run ``giftgenius db upgrade``."""


class VersionConflict(StorageError):
    """A check-and-set lost: somebody else saved a newer version first."""


class RunClosed(VersionConflict):
    """The run was abandoned (``--new``/``/restart`` in another window) or erased (forget)
    while this window still used it: its turns are refused, never committed to it."""


class RunErased(RunClosed):
    """The session store refused to save a session: ``forget`` erased its run and left a
    tombstone, so no turn in flight can write the erased session back."""


class SessionBusy(StorageError):
    """Another process holds the session lease (it is mid-turn on this run)."""


ErrorParam = str | int | float | list[str]


class ToolError(GiftGeniusError):
    """A tool call the domain refuses; it goes back to the model, never to a stack trace.

    ``code`` is a key of the message catalogue's ``refusals`` section, whose one sentence per
    language tells the person what went wrong and what to do (an unknown code is a
    programming error and fails at once). ``params`` travel with it unformatted (JSON values:
    dates as ISO strings, lists of strings), so the model can mend its call from them and the
    sentence is filled in the person's language and formats where the result is made
    (``agent/tools/registry.py``). The exception's own text is the English sentence, for logs.
    """

    def __init__(self, code: str, **params: ErrorParam) -> None:
        if code not in messages.keys("refusals"):
            raise KeyError(f"no sentence for tool error {code!r} in messages/<lang>.toml")
        self.code = code
        self.params = params
        shown = {k: _plain(k, v) for k, v in params.items()}
        super().__init__(messages.text("refusals", code, "en").format_map(_Blank(shown)))

    def result(self) -> dict[str, object]:
        """The tool result: the sentence, plus the code and its parameters."""
        return {"ok": False, "error": str(self), "code": self.code, "params": self.params}


class _Blank(dict[str, str]):
    """Fills a sentence's placeholders, a missing one with nothing (a log line is no place
    to fail)."""

    def __missing__(self, key: str) -> str:
        return ""


def _plain(name: str, value: ErrorParam) -> str:
    if isinstance(value, list):
        return ("; " if name == "reasons" else ", ").join(value) or "none"
    return str(value)


class WorkflowError(ToolError):
    """An illegal step transition was attempted."""


class NotFound(GiftGeniusError):
    """An id (gift, demo, run) does not exist or is not the caller's."""


class InvalidCatalogFile(GiftGeniusError):
    """A catalog file to import is unreadable or holds invalid products; nothing was written."""
