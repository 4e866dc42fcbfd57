"""Long-term memory, the agent's side: what a finished search taught, kept to be found again.

When a search ends (the order is confirmed), and when a summary folds a run's old history,
``MemoryBook.remember`` writes the run's one short note (rewritten each time: a run keeps
one, under its own id) from the run's STRUCTURED facts — the day as the run's clock has it,
the recipient, their age, tastes and dislikes, the budget, the gift chosen and the
interests it answers — never from the transcript, in the run's language (the catalogue's
``[memory]`` sentences), PII scrubbed (``privacy.scrub``), embedded through the model
endpoint (``Embedder``) and stored with the user, the recipient, the run and the time
(``MemoryStore``; retention counts from that real time). ``recall`` is what the
``recall_memories`` tool calls: the user's notes closest to a text — or the newest, when
there is no text ("like last time") — optionally for one recipient. ``block`` is the
bounded text of a known recipient's notes that the model is given at the head of its
context (``prompt_window.MEMORY_PREFIX``).

Who the recipient is, for ``recall(recipient=…, name=…)``: the folded name when one was
given ("Clara", "sister" + "Clara" → "clara"), else the relation, a kin word read in either
language ("mum", "maman" → "mother": ``language/kin.py``).

A note is written after the turn's commit and save; it never fails the turn (an endpoint
or store that fails is logged and the note is lost: memory is a convenience, the run is
the record), and a run erased meanwhile (its tombstone) keeps none.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass

from giftgenius import formats
from giftgenius import messages as catalogue
from giftgenius.domain import ProfileDraft, SessionState, utcnow
from giftgenius.language.kin import recipient as comparable
from giftgenius.llm.base import Embedder
from giftgenius.privacy import scrub
from giftgenius.protocol import CandidateView
from giftgenius.storage.memories import MAX_TEXT_CHARS, Memory, MemoryStore

BLOCK_TOKENS = 300  # the memory block's bound, inside the context's token budget
BLOCK_NOTES = 5  # notes read for it: a few whole notes fill 300 tokens


@dataclass(frozen=True)
class Recalled:
    """A note found again: the text (scrubbed when written), whose search and when it was
    written (the text names the day as the run's clock had it: ``GIFTGENIUS_TODAY``)."""

    text: str
    run_id: str
    date: dt.date
    recipient: str | None
    score: float


class MemoryBook:
    """Notes in, notes out: a ``MemoryStore`` with the ``Embedder`` that fills it."""

    def __init__(
        self,
        store: MemoryStore,
        embedder: Embedder,
        clock: Callable[[], dt.datetime],
    ) -> None:
        self.store = store
        self.embedder = embedder
        self.clock = clock

    def remember(
        self, user_id: str, run_id: str, state: SessionState, chosen: CandidateView | None
    ) -> Memory | None:
        """Keep the note of a finished run (None when the run says nothing worth keeping)."""
        text = note_text(state, chosen, self.clock().date())
        if not text:
            return None
        (vector,) = self.embedder.embed([text])
        profile = state.profile
        memory = Memory(
            id=run_id,  # one note a run: a later one replaces it
            user_id=user_id,
            run_id=run_id,
            text=text,
            vector=vector,
            model=self.embedder.name,
            created_at=utcnow(),  # what retention counts from; the text says the run's day
            recipient=recipient_label(profile),
            recipient_key=recipient_key(profile.recipient, profile.recipient_name),
        )
        self.store.add(memory)
        return memory

    def recall(
        self,
        user_id: str,
        text: str | None,
        *,
        recipient: str | None = None,
        name: str | None = None,
        k: int = 5,
    ) -> list[Recalled]:
        """The user's notes closest to ``text``, best first, or the newest first when there is
        no text; only one recipient's with ``recipient`` and/or ``name`` (as a profile holds
        them: "sister", "Clara")."""
        key = recipient_key(recipient, name)
        model = self.embedder.name
        query = scrub(text or "").strip()
        if not query:
            hits = self.store.latest(user_id, model=model, recipient_key=key, k=k)
        else:
            (vector,) = self.embedder.embed([query])
            if not any(vector):
                return []
            hits = self.store.search(user_id, vector, model=model, recipient_key=key, k=k)
        return [
            Recalled(
                text=hit.text,
                run_id=hit.run_id,
                date=hit.created_at.date(),
                recipient=hit.recipient,
                score=hit.score,
            )
            for hit in hits
        ]

    def block(
        self,
        user_id: str,
        profile: ProfileDraft,
        *,
        run_id: str,
        count: Callable[[str], int],
        max_tokens: int = BLOCK_TOKENS,
    ) -> str:
        """What the model is told of a known recipient at the start of a run: their notes,
        the newest first (this run's own left out), as many whole notes as fit in
        ``max_tokens`` by ``count``; "" when there is none."""
        if not profile.recipient and not profile.recipient_name:
            return ""
        said, name = profile.recipient, profile.recipient_name
        notes = self.recall(user_id, None, recipient=said, name=name, k=BLOCK_NOTES)
        lines: list[str] = []
        for note in notes:
            if note.run_id == run_id:
                continue
            line = f"- {note.text}"
            if count("\n".join([*lines, line])) > max_tokens:
                break
            lines.append(line)
        return "\n".join(lines)


def recipient_label(profile: ProfileDraft) -> str | None:
    """The recipient as the run named them: "sister Clara", "uncle", "Clara"."""
    said, name = profile.recipient, profile.recipient_name
    label = f"{said} {name}" if said and name and name.casefold() not in said.casefold() else None
    label = scrub(label or said or name or "")  # a careless model may put anything there
    return label[:60] or None


def recipient_key(said: str | None, name: str | None) -> str | None:
    """What a search by recipient matches: the folded name if any, else the relation (a kin
    word in either language as one person: "mum", "maman" → "mother")."""
    if not said and not name:
        return None
    who = comparable(said, name)
    return (who.name or who.relation)[:120] or None


def note_text(state: SessionState, chosen: CandidateView | None, today: dt.date) -> str:
    """The note, one sentence per known fact, in the run's language; scrubbed."""
    profile, locale = state.profile, state.locale
    parts: list[str] = []
    who, day = recipient_label(profile), formats.date(today, locale)
    if who:
        parts.append(catalogue.say("memory", "note.for", locale, recipient=who, day=day))
    else:
        parts.append(catalogue.say("memory", "note.search", locale, day=day))
    if profile.age is not None:
        parts.append(catalogue.count("memory", "note.age", locale, profile.age))
    if profile.interests:
        likes = formats.join(profile.interests, locale)
        parts.append(catalogue.say("memory", "note.likes", locale, interests=likes))
    if profile.dislikes:
        dislikes = formats.join(profile.dislikes, locale)
        parts.append(catalogue.say("memory", "note.dislikes", locale, dislikes=dislikes))
    if profile.budget is not None:
        top = formats.money(profile.budget.amount, profile.budget.currency, locale)
        parts.append(catalogue.say("memory", "note.budget", locale, budget=top))
    if chosen is not None:
        price = formats.money(chosen.price, chosen.currency, locale)
        parts.append(catalogue.say("memory", "note.chose", locale, title=chosen.title, price=price))
        if chosen.answers:
            why = formats.join(chosen.answers, locale)
            parts.append(catalogue.say("memory", "note.why", locale, interests=why))
    if len(parts) == 1:
        return ""  # the day alone: nothing was learned
    return scrub(" ".join(parts))[:MAX_TEXT_CHARS]
