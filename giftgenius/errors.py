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


# A tool error's English message, for the model: what went wrong and what to do about it.
# Each has a stable code; the tool result carries the code and its parameters too, so a
# reply can say it in the person's own language (the offline model's ``refusals`` does, for
# every code here). Parameters are JSON values: dates as ISO strings, lists of strings.
TOOL_ERRORS: dict[str, str] = {
    "currency.no_rate": "Unknown currency '{currency}'; use one of {choices}.",
    "currency.unknown": "'{word}' is not a currency I know: pass the budget's ISO 4217 code, "
    "one of {choices}.",
    "currency.unsupported": "A budget cannot be held in {currency}: the catalog converts only "
    "{choices}. Ask the user which of these to use, or convert the amount into one of them.",
    "recipient.empty": "recipient is empty: pass who the gift is for in the user's words, "
    "e.g. 'my uncle'.",
    "country.unknown": "'{place}' is not a place whose country I can tell. Ask the user which "
    "country the gift should be delivered to, then pass its name or its ISO 3166-1 code "
    "(e.g. 'FR').",
    "deadline.past": "The deadline {deadline} is already past (today is {today}).",
    "budget.max_required": "budget_max is required the first time a budget is given.",
    "budget.min_above_max": "budget_min ({minimum} {currency}) is above budget_max "
    "({maximum} {currency}).",
    "budget.not_positive": "budget_max must be above zero ({amount} {currency} was given); "
    "nothing of this call was recorded. Ask the user for a positive amount, and send the "
    "call's other facts again without the budget.",
    "profile.nothing_to_save": "Nothing to save yet: record who the gift is for first.",
    "label.empty": "That label is nothing once spaces and control characters are removed: "
    "save the profile under a plain word, such as 'sister' or 'boss'.",
    "label.too_long": "That label is longer than {limit} characters once personal details in "
    "it are replaced by placeholders: use a short word, such as 'sister' or 'boss'.",
    "label.unknown": "No saved profile is labelled '{label}'. Saved labels: {labels}.",
    "search.incomplete": "Cannot search yet: still missing {missing}.",
    "search.wrong_step": "search_candidates is not available at step '{step}'.",
    "choice.not_ready": "Nothing to choose from yet (step '{step}'): the shortlist comes "
    "once the profile is complete (update_profile).",
    "choice.nothing_described": "'{described}' names no kind, material, feature or title "
    "words: ask the user which gift they mean, or use select_gift with an id.",
    "choice.none_selected": "No gift is selected yet: call select_gift after the user picks one.",
    "gift.unknown": "No gift has id '{gift_id}'. Use an id from the candidate list.",
    "gift.not_candidate": "'{gift_id}' is not one of this run's candidates ({candidates}). "
    "Use one of those ids.",
    "gift.removed": "'{gift_id}' was removed from the catalog; pick another candidate.",
    "gift.fails_filters": "'{title}' no longer passes the filters: {reasons}.",
    "run.finished": "This gift search is finished (the order draft is recorded). "
    "Tell the user they can type /restart to start a new one.",
    "step.illegal": "Cannot go from step '{current}' to '{target}'. Allowed next steps: {allowed}.",
}

ErrorParam = str | int | float | list[str]


class ToolError(GiftGeniusError):
    """A tool call was invalid; the message goes back to the model, never to a stack trace.

    ``code`` names one of ``TOOL_ERRORS`` (an unknown code is a programming error and fails
    at once); ``params`` fill its English message and travel with it, unformatted, so the
    person's language and number/date formats are chosen where the reply is written.
    """

    def __init__(self, code: str, **params: ErrorParam) -> None:
        self.code = code
        self.params = params
        shown = {k: _english(k, v) for k, v in params.items()}
        super().__init__(TOOL_ERRORS[code].format(**shown))

    def result(self) -> dict[str, object]:
        """The tool result the model sees: the message, plus the code and its parameters."""
        return {"ok": False, "error": str(self), "code": self.code, "params": self.params}


def _english(name: str, value: ErrorParam) -> str:
    if isinstance(value, list):
        return ("; " if name == "reasons" else ", ").join(value) or "none"
    return str(value)


class WorkflowError(ToolError):
    """An illegal step transition was attempted."""


class NotFound(GiftGeniusError):
    """An id (gift, demo, run) does not exist or is not the caller's."""


class InvalidCatalogFile(GiftGeniusError):
    """A catalog file to import is unreadable or holds invalid products; nothing was written."""
