"""One error tree. Every message says what happened *and what to do about it*.

The CLI maps the tree to exit codes (see ``exit_code``); nothing below it prints.
"""

from __future__ import annotations


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


class ToolError(GiftGeniusError):
    """A tool call was invalid; the message goes back to the model, never to a stack trace."""


class WorkflowError(ToolError):
    """An illegal step transition was attempted."""


class NotFound(GiftGeniusError):
    """An id (gift, demo, run) does not exist or is not the caller's."""


class InvalidCatalogFile(GiftGeniusError):
    """A catalog file to import is unreadable or holds invalid products; nothing was written."""
