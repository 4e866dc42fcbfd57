"""Checkpoints: their stored format, its upgrades, and the repository that writes and reads
their rows.

A checkpoint row is metadata columns (id, run id, user id, step, session version, agent
version, format version, created_at) beside a JSON payload (``Checkpoint.payload()``);
``encode_checkpoint`` and ``decode_checkpoint`` are the two directions, and ``CheckpointRepo``
(``Repos.checkpoints``) the only code that touches the ``checkpoints`` table besides erasure
(``Repos.forget_user``). The format is described in the package README ("The checkpoint
format").

Checkpoint format 1 is the course's camelCase shape (``profileDraft``, ``ageRange: "30-40"``,
``budget: "50 USD"``, ``locale: "fr-FR"``, no summary); format 2 is ``Checkpoint.payload()``
with a profile of one ``recipient`` word; format 3 adds ``recipient_name`` and ``audience``.
The session blob holds the same state, so its upgrades are here too, on the same profile
step: session schema 1 is the blob with that one-word profile, schema 2 the current one
(``decode_session``, used by both session stores). Saved recipient profiles carry no
version: one written before format 3 lacks ``audience`` (``storage/repositories.py``
upgrades it with ``upgrade_profile_v2`` below).
A format newer than this code is refused rather than half-read.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any, cast

import sqlalchemy as sa
from pydantic import ValidationError
from sqlalchemy.orm import Session as DbSession

from giftgenius.catalog import RECIPIENTS
from giftgenius.domain import (
    CHECKPOINT_FORMAT_VERSION,
    MAX_CANDIDATES,
    SESSION_SCHEMA_VERSION,
    Budget,
    Checkpoint,
    CheckpointStep,
    Locale,
    RunStatus,
    Session,
    SessionState,
    Summary,
)
from giftgenius.errors import StorageError, UsageError
from giftgenius.language.currency import BUDGET_CURRENCIES, currency_code
from giftgenius.language.relations import resolve_relation
from giftgenius.messages import speak
from giftgenius.storage.tables import CheckpointRow, RunRow

_AMOUNT = re.compile(r"\d+(?:[.,]\d+)?")


def parse_budget(text: str | None, default_currency: str = "USD") -> Budget | None:
    """ "50 USD", "$50", "50€", "20-50 EUR" → Budget; None when no amount can be read."""
    if not text:
        return None
    amounts = [float(a.replace(",", ".")) for a in _AMOUNT.findall(text)]
    if not amounts or max(amounts) <= 0:
        return None
    rest = _AMOUNT.sub(" ", text.lower()).replace("-", " ")
    currency = default_currency
    for word in rest.split():
        if code := currency_code(word, within=BUDGET_CURRENCIES):
            currency = code
            break
    else:  # a symbol stuck to other characters, e.g. "(€)"
        for symbol in ("€", "£", "$"):
            if symbol in rest:
                currency = currency_code(symbol, within=BUDGET_CURRENCIES) or currency
                break
    low = min(amounts) if len(amounts) > 1 else None
    return Budget(amount=max(amounts), currency=currency, min_amount=low)


def parse_age(text: str | int | None) -> int | None:
    """ "30-40" → 35 (midpoint, rounded down), "30" or "30+" → 30; anything else → None."""
    if text is None:
        return None
    if isinstance(text, int):
        return text if 0 <= text <= 120 else None
    numbers = [int(n) for n in re.findall(r"\d+", text)]
    if not numbers:
        return None
    age = (min(numbers) + max(numbers)) // 2
    return age if 0 <= age <= 120 else None


def _locale(tag: str | None) -> str:
    primary = (tag or "en").replace("_", "-").split("-")[0].lower()
    return primary if primary in ("en", "fr") else "en"


def upgrade_v1(payload: Mapping[str, Any]) -> dict[str, Any]:
    """The course's camelCase snapshot → a format-2 payload (no summary, so an empty one)."""
    state = payload.get("state") or {}
    draft = state.get("profileDraft") or {}
    profile = {
        "recipient": draft.get("recipientType"),
        "age": parse_age(draft.get("ageRange")),
        "budget": parse_budget(draft.get("budget")),
        "interests": list(draft.get("interests") or []),
        "dislikes": list(draft.get("dislikes") or []),
    }
    return {
        "format_version": CHECKPOINT_FORMAT_VERSION,
        "state": {
            "step": state.get("step") or "collecting_profile",
            "profile": profile,
            "candidate_ids": list(state.get("candidateIds") or [])[:MAX_CANDIDATES],
            "selected_gift_id": state.get("selectedGiftId"),
            "locale": _locale(state.get("locale")),
        },
        "summary": Summary().model_dump(),
        "next_seq": 1,
    }


def upgrade_profile_v2(profile: Mapping[str, Any], locale: str = "en") -> dict[str, Any]:
    """A profile of one ``recipient`` word → one with ``recipient_name`` and ``audience``.

    Before format 3 the recipient was stored as the catalog's word when the vocabulary knew
    it ("colleague", "mother"), else as the person's words, lowercased ("tante", "my
    hairdresser"). The catalog word is its own audience; other words are read with the
    relation lexicon (``coloc`` → friend), and what it does not hold is "anyone". The
    recipient itself is kept as stored; names were not kept then, so there is none.
    """
    data = dict(profile)
    recipient = data.get("recipient")
    audience = "anyone"
    if isinstance(recipient, str) and recipient.strip():
        if recipient in RECIPIENTS:
            audience = recipient
        else:
            language: Locale = "fr" if locale == "fr" else "en"
            relation = resolve_relation(recipient, language)
            audience = relation.audience if relation is not None else "anyone"
    data["recipient_name"] = None
    data["audience"] = audience
    return data


def _with_profile_v2_upgraded(blob: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of a checkpoint payload or session blob whose state's profile is upgraded."""
    data = dict(blob)
    state = dict(data.get("state") or {})
    if isinstance(state.get("profile"), Mapping):
        state["profile"] = upgrade_profile_v2(state["profile"], state.get("locale") or "en")
    data["state"] = state
    return data


def upgrade_v2(payload: Mapping[str, Any]) -> dict[str, Any]:
    """A format-2 payload → format 3: the profile gains ``recipient_name`` and ``audience``."""
    return {**_with_profile_v2_upgraded(payload), "format_version": 3}


_Upgrade = Callable[[Mapping[str, Any]], dict[str, Any]]


def _labelled(version: int, step: Callable[[Mapping[str, Any]], dict[str, Any]]) -> _Upgrade:
    """``step`` with its result labelled ``version``.

    ``upgrade_v1`` labels its result with ``CHECKPOINT_FORMAT_VERSION``, which was 2 when it
    was written; it is kept as it is (old steps are never edited), and its result is put
    back to the format it produces so the later steps still run on it.
    """

    def run(payload: Mapping[str, Any]) -> dict[str, Any]:
        return step(payload) | {"format_version": version}

    return run


_UPGRADES: dict[int, _Upgrade] = {1: _labelled(2, upgrade_v1), 2: upgrade_v2}


def encode_checkpoint(cp: Checkpoint, payload: dict[str, Any] | None = None) -> dict[str, Any]:
    """A ``Checkpoint`` as its row's columns: the metadata, and the payload for the JSON one
    (``payload``, when the caller has it already)."""
    return {
        "id": cp.id,
        "run_id": cp.run_id,
        "user_id": cp.user_id,
        "step": CheckpointStep(cp.step).value,
        "session_version": cp.session_version,
        "agent_version": cp.agent_version,
        "format_version": cp.format_version,
        "created_at": cp.created_at,
        "payload": cp.payload() if payload is None else payload,
    }


def decode_checkpoint(row: Mapping[str, Any], payload: Mapping[str, Any]) -> Checkpoint:
    """Build a current ``Checkpoint`` from a row's metadata columns and its JSON payload.

    ``row`` holds id, run_id, user_id, step, session_version, agent_version, created_at and
    (optionally) format_version; the payload's own ``format_version`` wins when present.
    """
    version = payload.get("format_version", row.get("format_version"))
    if not isinstance(version, int) or version < 1:
        raise StorageError(
            speak("storage", "checkpoint.no_version", id=row.get("id"), version=repr(version))
        )
    if version > CHECKPOINT_FORMAT_VERSION:
        raise StorageError(
            speak(
                "storage",
                "checkpoint.newer",
                id=row.get("id"),
                version=version,
                known=CHECKPOINT_FORMAT_VERSION,
            )
        )
    data = dict(payload)
    while version < CHECKPOINT_FORMAT_VERSION:
        data = _UPGRADES[version](data)
        version = data["format_version"]
    try:
        return Checkpoint(
            format_version=version,
            id=row["id"],
            run_id=row["run_id"],
            user_id=row["user_id"],
            step=row["step"],
            session_version=row["session_version"],
            agent_version=row["agent_version"],
            created_at=_aware(row["created_at"]),
            state=SessionState.model_validate(data["state"]),
            summary=Summary.model_validate(data.get("summary") or {}),
            next_seq=data.get("next_seq", 1),
        )
    except (KeyError, ValidationError) as exc:
        version = payload.get("format_version")
        raise StorageError(
            speak("storage", "checkpoint.unreadable", id=row.get("id"), version=version, reason=exc)
        ) from exc


def _aware(value: datetime) -> datetime:
    if value.tzinfo is None:
        raise StorageError("A checkpoint's created_at lost its time zone; store UTC datetimes.")
    return value


def upgrade_session_v1(data: Mapping[str, Any]) -> dict[str, Any]:
    """A schema-1 session blob → schema 2: its profile gains a name and an audience."""
    return {**_with_profile_v2_upgraded(data), "schema_version": 2}


_SESSION_UPGRADES: dict[int, _Upgrade] = {1: upgrade_session_v1}


def decode_session(data: Mapping[str, Any]) -> Session:
    """A current ``Session`` from a stored blob's fields, upgrading an older schema.

    Raises ``ValueError`` (pydantic's ``ValidationError`` is one) for a blob this code
    cannot read, including a schema newer than it knows: the session stores treat that as
    an unreadable cache entry, drop it and let the agent rebuild from durable data.
    """
    version = data.get("schema_version", 1)
    if not isinstance(version, int) or version < 1:
        raise ValueError(f"session schema version {version!r} is not valid")
    if version > SESSION_SCHEMA_VERSION:
        raise ValueError(
            f"session schema version {version} is newer than this GiftGenius understands "
            f"({SESSION_SCHEMA_VERSION})"
        )
    fields = dict(data)
    while version < SESSION_SCHEMA_VERSION:
        fields = _SESSION_UPGRADES[version](fields)
        version = fields["schema_version"]
    return Session.model_validate(fields)


_STEP_RANK = {step.value: rank for rank, step in enumerate(CheckpointStep)}
# Checkpoints are written in every turn that reaches a key step, so they go through the
# table, not the mapped class (see ``storage/repositories.py``).
_CHECKPOINTS = cast(sa.Table, CheckpointRow.__table__)


def _checkpoint(row: CheckpointRow) -> Checkpoint:
    meta = {
        "id": row.id,
        "run_id": row.run_id,
        "user_id": row.user_id,
        "step": row.step,
        "session_version": row.session_version,
        "agent_version": row.agent_version,
        "format_version": row.format_version,
        "created_at": row.created_at,
    }
    return decode_checkpoint(meta, row.payload)


def _newest_first() -> list[Any]:
    """Newest checkpoint first; several made in one turn share a version, so step order."""
    rank = sa.case(_STEP_RANK, value=CheckpointRow.step, else_=-1)
    return [CheckpointRow.created_at.desc(), CheckpointRow.session_version.desc(), rank.desc()]


class CheckpointRepo:
    """Checkpoint rows over one SQLAlchemy session; like every repository, it never commits."""

    def __init__(self, session: DbSession) -> None:
        self._s = session

    def add(self, cp: Checkpoint) -> int:
        """Stage the checkpoint's row; the size of its payload as JSON, in bytes (metrics)."""
        text = cp.payload_json()
        self._s.execute(_CHECKPOINTS.insert().values(**encode_checkpoint(cp, json.loads(text))))
        return len(text.encode())

    def latest(self, run_id: str, *, user_id: str | None = None) -> Checkpoint | None:
        query = sa.select(CheckpointRow).where(CheckpointRow.run_id == run_id)
        if user_id is not None:
            query = query.where(CheckpointRow.user_id == user_id)
        row = self._s.scalars(query.order_by(*_newest_first()).limit(1)).first()
        return None if row is None else _checkpoint(row)

    def list(self, user_id: str, run_id: str | None = None) -> list[Checkpoint]:
        """The user's checkpoints (of one run of theirs, if given), oldest first."""
        query = sa.select(CheckpointRow).where(CheckpointRow.user_id == user_id)
        if run_id is not None:
            query = query.where(CheckpointRow.run_id == run_id)
        rows = list(self._s.scalars(query.order_by(*_newest_first())))
        return [_checkpoint(r) for r in reversed(rows)]

    def prune(self, older_than: datetime, keep_last: int | None = None) -> int:
        """Delete checkpoints created before ``older_than``; returns how many.

        Spared whatever their age: the ``keep_last`` newest of each run, and always the
        latest checkpoint of an unfinished run (it is what a resume starts from).
        """
        if older_than.tzinfo is None:
            raise UsageError("prune needs a timezone-aware cutoff (UTC).")
        if keep_last is not None and keep_last < 0:
            raise UsageError(speak("storage", "prune.keep_last", keep_last=keep_last))
        rank = (
            sa.func.row_number()
            .over(partition_by=CheckpointRow.run_id, order_by=_newest_first())
            .label("rank")
        )
        ranked = (
            sa.select(CheckpointRow.id, CheckpointRow.created_at, RunRow.status, rank)
            .join(RunRow, RunRow.id == CheckpointRow.run_id)
            .subquery()
        )
        doomed = sa.select(ranked.c.id).where(
            ranked.c.created_at < older_than,
            sa.not_(sa.and_(ranked.c.rank == 1, ranked.c.status == RunStatus.active.value)),
        )
        if keep_last is not None:
            doomed = doomed.where(ranked.c.rank > keep_last)
        ids = list(self._s.scalars(doomed))
        deleted = 0
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            result = self._s.execute(
                sa.delete(CheckpointRow)
                .where(CheckpointRow.id.in_(chunk))
                .execution_options(synchronize_session=False)
            )
            # A DELETE's result is a ``CursorResult`` at run time.
            deleted += cast("sa.CursorResult[Any]", result).rowcount
        return deleted
