"""The scripted gift conversation the turn benchmark and the load test play.

A ``FunctionModel`` (``llm/scripted.py``) answers in-process and at once, served over the
chat-completions wire to the official ``openai`` client (``llm/served.py``), so what is
timed is the agent and the client as production runs them: every turn is the real
``Agent.turn`` on the configured stores, and its model phase is the client's request
building, streaming and parsing plus the function's answer — no network. Turn 1 records
a complete profile, which searches and filters at once (``update_profile`` does the whole
funnel); then turns cycle through a new search (``search_candidates``, filtered in the same
call), then either a plain reply and a new interest (plan ``s``: ``update_profile``, which
searches again) or a budget change and a plain reply (plan ``f``: ``update_profile``
re-runs only the filters over the last search; the plain reply, in the ``finalizing``
step, only re-checks the shortlist against the catalog). Every turn after the first starts
with a shortlist, so it re-checks it first. A failed tool call stops the benchmark: it
would be timing an error path.

Every user line and every reply carries its plan, its session's number and the turn's
(``[s17 t3]``): the model reads its move from it, and the load test finds each line in the
transcript by its text.
"""

from __future__ import annotations

import re
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from giftgenius.agent.runner import Agent
from giftgenius.bench.statements import StatementCounter
from giftgenius.catalog.synthetic import catalog_version
from giftgenius.domain import Message
from giftgenius.errors import ModelError
from giftgenius.language.vocabulary import INTERESTS
from giftgenius.llm.base import ChatRequest
from giftgenius.llm.scripted import (
    SCRIPTED_CONTEXT_WINDOW,
    FunctionModel,
    call,
    position,
    reply,
    tool_errors,
)
from giftgenius.llm.served import served
from giftgenius.messages import speak
from giftgenius.settings import Settings, load_settings
from giftgenius.storage.db import Database
from giftgenius.storage.session_store import make_session_store

SUMMARY = "The user looks for a gift for their sister, 34, in France, within 80 EUR."
_TAG = re.compile(r"^\[([sf])(\d+) t(\d+)\]")
# Interests the synthetic catalog serves (it uses every interest tag), in a fixed order.
_INTERESTS = tuple(sorted(INTERESTS))
_CHATTER = (
    "what else would suit her?",
    "she also likes to spend time outdoors",
    "show me something a bit different",
    "which of these ships the fastest?",
)


def user_line(kind: str, session: int, turn: int) -> str:
    """What the user says at ``turn`` (from 1) of session number ``session``, plan ``kind``."""
    tag = f"[{kind}{session} t{turn}]"
    if turn == 1:
        return f"{tag} a gift for my sister, she is 34, up to 80 euros, shipped to France"
    return f"{tag} {_CHATTER[turn % len(_CHATTER)]}"


def reply_line(kind: str, session: int, turn: int) -> str:
    """The model's reply that ends ``turn``: unique, so the transcript can be counted."""
    return f"[{kind}{session} t{turn}] Here is where we are."


def interest(session: int, turn: int) -> str:
    """The interest session ``session`` asks about at ``turn`` (a new one every cycle)."""
    return _INTERESTS[(session * 7 + turn // 3) % len(_INTERESTS)]


def move(kind: str, turn: int) -> str:
    """What ``turn`` of plan ``kind`` does: ``profile`` (the complete profile: search and
    filter), ``search`` (search and filter), ``filter`` (a budget change: the filters only),
    ``interest`` (a new interest: search and filter) or ``chat`` (no tool: the re-check of
    the shortlist only)."""
    if turn == 1:
        return "profile"
    if turn % 3 == 2:
        return "search"
    if kind == "f":
        return "filter" if turn % 3 == 0 else "chat"
    return "chat" if turn % 3 == 0 else "interest"


def plan(kind: str, session: int, turn: int) -> list[Message]:
    """The tool calls the model makes at ``turn`` of plan ``kind``, before its reply."""
    what = move(kind, turn)
    if what == "profile":
        return [
            call(
                "update_profile",
                recipient="my sister",
                age=34,
                budget_max=80,
                currency="EUR",
                interests=[interest(session, turn)],
                country="FR",
            )
        ]
    if what == "search":
        return [call("search_candidates")]
    if what == "filter":  # 80 EUR at turn 1, then 75 and 80 in turn: always a change
        return [call("update_profile", budget_max=75 if turn % 2 else 80)]
    if what == "chat":
        return []
    return [
        call(
            "update_profile",
            interests=[interest(session, turn)],
            remove_interests=[interest(session, turn - 3)],
        )
    ]


def answer(request: ChatRequest) -> Message:
    """The bench model: the plan's next tool call, then the reply; loud on a failed tool."""
    if request.purpose == "summary":
        return reply(SUMMARY)
    errors = tool_errors(request)
    if errors:
        raise ModelError(speak("bench", "model.tool_failed", errors="; ".join(errors)))
    text, step = position(request)
    # A message a failed turn left unanswered comes first, joined to the newest (roles must
    # alternate): the newest line is the last paragraph.
    tagged = _TAG.match(text.rpartition("\n\n")[2])
    if tagged is None:
        raise ModelError(speak("bench", "model.unknown_line", line=repr(text[:80])))
    kind, session, turn = tagged.group(1), int(tagged.group(2)), int(tagged.group(3))
    calls = plan(kind, session, turn)
    return calls[step] if step < len(calls) else reply(reply_line(kind, session, turn))


@dataclass(frozen=True)
class Stores:
    """Where a benchmark runs: the settings every process loads, and a label for the figures."""

    overrides: dict[str, Any]
    label: str
    separate_catalogs: bool  # one database file per catalog (embedded), or one database
    catalog_cache: str | None = None  # a folder of generated SQLite catalogs, to copy from

    def for_catalog(self, count: int, seed: int) -> Stores:
        """The stores holding the synthetic catalog of ``count`` products."""
        if not self.separate_catalogs:
            return self
        home = Path(self.overrides["home"])
        url = f"sqlite:///{home / catalog_version(count, seed).replace(':', '-')}.db"
        return Stores({**self.overrides, "database_url": url}, self.label, True, self.catalog_cache)

    def settings(self) -> Settings:
        return load_settings(**self.overrides)


def configured_stores(settings: Settings) -> Stores:
    """The configured stores, as a benchmark is given them.

    A benchmark never runs on them: ``bench/scratch.py`` makes stores of its own on the
    same backends (``scratch_stores``). Used directly (by tests), the embedded default
    keeps one SQLite file per synthetic catalog in the home folder. On SQLite, generated
    catalogs are kept in ``$GIFTGENIUS_HOME/bench`` (catalog only, no user ever) and copied
    into the scratch folder: a catalog of 100,000 products takes over a minute to write.
    """
    sessions = "Redis" if settings.redis_url else speak("bench", "stores.sqlite_file")
    base: dict[str, Any] = {
        "redis_url": settings.redis_url,
        "redis_prefix": settings.redis_prefix,
        "context_window": settings.context_window,
        "log_level": settings.log_level,
        "home": str(settings.home),
    }
    cache = str(settings.home / "bench")
    if settings.database_url is None:
        label = speak("bench", "stores.embedded", sessions=sessions, home=settings.home)
        return Stores(base, label, separate_catalogs=True, catalog_cache=cache)
    postgres = settings.database_url.startswith("postgres")
    overrides = {**base, "database_url": settings.database_url}
    database = "PostgreSQL" if postgres else "SQLite"
    label = speak("bench", "stores.server", sessions=sessions, database=database)
    return Stores(
        overrides, label, separate_catalogs=False, catalog_cache=None if postgres else cache
    )


def bench_agent(settings: Settings, model: FunctionModel | None = None) -> Agent:
    """The real agent on these stores, with the instant bench model behind the openai client.

    Built directly rather than by ``app.build_agent``, which would reseed the shipped
    catalog over the synthetic one. ``model`` replaces the bench's function model (a test
    keeps it to read the requests it was sent); it is served over the wire all the same.
    """
    settings.home.mkdir(parents=True, exist_ok=True)
    window = settings.context_window or SCRIPTED_CONTEXT_WINDOW
    function = model or FunctionModel(answer, name="bench", context_window=window)
    return Agent(
        settings=settings,
        db=Database.from_settings(settings),
        sessions=make_session_store(settings),
        model=served(function, context_window=window),
        window=window,
    )


@dataclass
class Sample:
    """One timed turn: its number, wall time around ``Agent.turn``, phases, tools called.

    ``cpu`` is the process's CPU time over the turn (all its threads): on a machine shared
    with other work the wall time mostly measures the wait for a core, the CPU time does
    not. ``statements`` and ``transactions`` are what the turn sent to the database.
    """

    turn: int
    total: float
    phases: dict[str, float]
    tools: tuple[str, ...]
    cpu: float = 0.0
    statements: int = 0
    transactions: int = 0


@dataclass
class Played:
    """One session being played: who, which run, how far, and what it said."""

    number: int
    user_id: str
    run_id: str
    turns: int = 0
    sent: list[str] = field(default_factory=list)
    replies: list[str] = field(default_factory=list)


class Player:
    """Plays numbered sessions through one agent, timing every turn.

    ``filters`` picks plan ``f`` (search, a budget change, chat) over plan ``s`` (search,
    chat, a new interest).
    """

    def __init__(self, agent: Agent, prefix: str | None = None, *, filters: bool = False) -> None:
        self.agent = agent
        self.prefix = prefix or f"bench-{uuid.uuid4().hex[:8]}"
        self.kind = "f" if filters else "s"
        self.counter = StatementCounter(agent.db)

    def open(self, number: int) -> Played:
        user_id = f"{self.prefix}-{number}"
        run = self.agent.open(user_id, new=True).run
        return Played(number, user_id, run.id)

    def turn(self, played: Played) -> Sample:
        played.turns += 1
        text = user_line(self.kind, played.number, played.turns)
        played.sent.append(text)
        statements, transactions = self.counter.snapshot()
        cpu = time.process_time()
        start = time.perf_counter()
        result = self.agent.turn(played.run_id, played.user_id, text)
        total = time.perf_counter() - start
        cpu = time.process_time() - cpu
        played.replies.append(result.reply)
        return Sample(
            played.turns,
            total,
            result.timings.phases(),
            tuple(result.tools_called),
            cpu=cpu,
            statements=self.counter.statements - statements,
            transactions=self.counter.transactions - transactions,
        )

    def forget(self, sessions: list[Played]) -> None:
        """Erase the benchmark's users, rows and live sessions."""
        for user_id in dict.fromkeys(played.user_id for played in sessions):
            self.agent.forget(user_id)
