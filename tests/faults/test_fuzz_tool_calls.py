"""Fuzzing the tool calls a model may send, with hypothesis.

A model is untrusted input: it may call tools that do not exist, send arguments of the
wrong type, leave fields out or add its own (``user_id``…), invent ids or copy another
user's, send huge strings, or never stop calling tools. Whatever it sends:

- nothing raises: every call is answered ``{"ok": …}`` and the turn ends with a reply;
- nothing is corrupted: the state validates after every call, a refused call changes
  nothing, what the tools staged commits, the run's version and the live session agree,
  and the transcript is append-only and consistent (each tool call answered once);
- nothing of another user is read: their saved profile, run and order draft never appear
  in a tool result (an id the call itself sent may be quoted back in its error).

``test_tool_dispatch_*`` drives the tools through their dispatch (``tools.execute``) with a
real ``TurnContext`` on the embedded database, several calls per example, then commits what
they staged as the run-cycle would; ``test_run_cycle_*`` plays drawn calls through the
whole run-cycle (``Agent.turn``) with a ``FunctionModel`` that may never stop, so the tool
loop's cap is exercised for real. Both run a fixed, derandomized number of examples.
"""

from __future__ import annotations

import datetime as dt
import itertools
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from giftgenius.agent import tools
from giftgenius.agent.runner import CONTEXT_TOO_LARGE, TOOL_ROUNDS_EXHAUSTED, Agent
from giftgenius.catalog import load_rates
from giftgenius.domain import (
    Message,
    OrderDraft,
    ProfileDraft,
    RecipientProfile,
    RunStatus,
    SessionState,
    Step,
    ToolCall,
    new_id,
)
from giftgenius.errors import ModelError
from giftgenius.llm.base import ChatRequest
from giftgenius.llm.scripted import FunctionModel, position
from giftgenius.protocol import StateView
from giftgenius.settings import load_settings
from giftgenius.storage.db import Database
from giftgenius.storage.sqlite_sessions import SqliteSessionStore
from giftgenius.storage.turn_rows import Fence
from giftgenius.workflow import check_transition

pytestmark = pytest.mark.slow

FUZZ = settings.get_profile("fuzz")  # tests/faults/conftest.py: 2,000 examples, fixed
# Through the whole run-cycle each example costs about four times a dispatch one, so fewer:
# the payloads are covered by the dispatch test; this one is for the loop cap and the
# turn's consistency whatever the model sends.
CYCLE_EXAMPLES = 500
TODAY = dt.date(2026, 11, 29)
RATES = load_rates()
ATTACKER = "fuzzer"
VICTIM = "victim"
# What only the victim's rows hold: no tool result of the attacker may ever contain it.
VICTIM_SECRETS = ("Zebulon", "victim-secret-interest")
MAX_TOOL_ROUNDS = 4
# Tool-call arguments longer than this (in all) may not fit the model's context once sent
# back to it; the turn then ends with CONTEXT_TOO_LARGE (a real endpoint caps its output).
HUGE = 16_000


@dataclass(frozen=True)
class Victim:
    """Another user's rows in the same database, and the ids a model might copy."""

    run_id: str = "run-of-the-victim-0001"
    order_id: str = "order-of-the-victim-0001"
    profile_id: str = "profile-of-the-victim-0001"
    label: str = "sister"

    @property
    def ids(self) -> tuple[str, ...]:
        return (self.run_id, self.order_id, self.profile_id)


VICTIM_ROWS = Victim()
# A few catalog ids, as a model copies them; the seeded catalog's ids are g-0001 onwards.
SOME_GIFTS = ["g-0001", "g-0002", "g-0100", "g-0831"]


class World:
    """What every example shares (a plain class: hypothesis reports it by its short repr)."""

    def __init__(self, db: Database, victim: Victim, catalog_ids: list[str]) -> None:
        self.db, self.victim = db, victim
        self.catalog_ids = catalog_ids

    def __repr__(self) -> str:
        return "World(...)"

    def __iter__(self) -> Iterator[Any]:
        return iter((self.db, self.victim, self.catalog_ids))


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory, seeded_db_file: Path) -> Iterator[World]:
    """One seeded database for every example, holding the victim's run, profile and order."""
    target = tmp_path_factory.mktemp("fuzz-tools") / "gg.db"
    target.write_bytes(seeded_db_file.read_bytes())
    db = Database(f"sqlite:///{target}")
    victim = VICTIM_ROWS
    profile = ProfileDraft(
        recipient="sister",
        recipient_name="Zebulon",
        interests=["victim-secret-interest"],
    )
    with db.write() as repos:
        repos.users.ensure(VICTIM)
        repos.runs.start(VICTIM, victim.run_id)
        gift = repos.catalog.get(SOME_GIFTS[0])
        assert gift is not None
        repos.profiles.upsert(
            RecipientProfile(
                id=victim.profile_id, user_id=VICTIM, label=victim.label, profile=profile
            )
        )
        repos.orders.upsert(
            OrderDraft(
                id=victim.order_id,
                run_id=victim.run_id,
                user_id=VICTIM,
                gift_id=gift.id,
                price=gift.price,
                currency=gift.currency,
            )
        )
        repos.users.ensure(ATTACKER)
        catalog_ids = [p.id for page in repos.catalog.pages() for p in page]
    assert set(SOME_GIFTS) <= set(catalog_ids)
    try:
        yield World(db, victim, catalog_ids)
    finally:
        db.dispose()


# -- what a model may send -------------------------------------------------------------------

CANDIDATE = "$candidate"  # replaced by one of the run's candidate ids when the call is made
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=40),
    st.integers(1_000, 200_000).map(lambda n: "x" * n),  # huge strings
    st.sampled_from([*VICTIM_ROWS.ids, VICTIM_ROWS.label, *SOME_GIFTS, CANDIDATE, "g-9999", ""]),
)
JUNK = st.one_of(
    SCALARS,
    st.lists(SCALARS, max_size=3),
    st.dictionaries(st.text(max_size=10), SCALARS, max_size=2),
)


def _plausible(*values: Any) -> st.SearchStrategy[Any]:
    """Mostly one of ``values`` (what a model would send), sometimes anything at all."""
    return st.one_of(st.sampled_from(values), st.sampled_from(values), JUNK)


WORDS = ["coffee", "board games", "jardinage", "books", "Sister", "a@b.co", "\x1b[1m", " ", ""]
FIELD_VALUES: dict[str, st.SearchStrategy[Any]] = {
    "recipient": _plausible(
        "my sister",
        "votre oncle Dave",
        "Karen, my boss",
        "Bob",
        "my uncle " + "Bartholomew" * 8,  # a "name" longer than any name
        "Wolfeschlegelsteinhausenbergerdorffwelchevoralternwarengewissenhaftschaferswessen",
        "\x1b[31mmy dad\x1b[0m",
        "call me at 415 555 2671",
    ),
    "age": _plausible(0, 7, 45, 120, -1, 121),
    "budget_max": _plausible(5, 40, 60.5, 300, 1e308, 0),
    "budget_min": _plausible(0, 10, 500),
    "currency": _plausible("USD", "euros", "CHF", "balles", "XXX", " "),
    "interests": st.one_of(st.lists(st.sampled_from(WORDS), max_size=13), JUNK),
    "remove_interests": st.one_of(st.lists(st.sampled_from(WORDS), max_size=3), JUNK),
    "dislikes": st.one_of(st.lists(st.sampled_from(WORDS), max_size=3), JUNK),
    "remove_dislikes": st.one_of(st.lists(st.sampled_from(WORDS), max_size=3), JUNK),
    "country": _plausible("FR", "Toronto", "la Belgique", "Atlantis", "US", "zz"),
    "deadline": _plausible("2026-12-24", "2020-01-01", "tomorrow", "9999-12-31"),
    "clear": st.one_of(
        st.lists(st.sampled_from(["age", "country", "deadline", "dislikes", "budget"])), JUNK
    ),
    # Labels that are nothing once cleaned, or longer than a label once PII is replaced.
    "label": _plausible(
        "sister",
        "Sister ",
        " ",
        "\t",
        "\x1b[31m",
        "\u202e",
        "\x1b]0;title\x07",
        "a@b.co " * 5 + "bosss",
    ),
    "gift_id": _plausible(CANDIDATE, *SOME_GIFTS, *VICTIM_ROWS.ids, "g-9999"),
    "extra_keywords": st.one_of(st.lists(st.sampled_from(WORDS), max_size=9), JUNK),
}
OTHER_FIELDS = ["user_id", "run_id", "order_draft_id", "profile_id", "id"]  # never accepted


def _arguments(tool: tools.Tool) -> st.SearchStrategy[str]:
    """Arguments shaped like the tool's own (plausible values, now and then a bad one or
    a field it does not take), as JSON text."""
    fields = {name: FIELD_VALUES.get(name, JUNK) for name in tool.args.model_fields}
    extra = {name: JUNK for name in OTHER_FIELDS}
    shaped = st.fixed_dictionaries({}, optional=fields) | st.fixed_dictionaries(
        {}, optional={**fields, **extra}
    )
    return shaped.map(lambda args: json.dumps(args, allow_nan=True))


COMPLETE_PROFILE = json.dumps(
    {"recipient": "my sister", "interests": ["coffee"], "budget_max": 60, "currency": "USD"}
)
WELL_FORMED = st.one_of(
    *[st.tuples(st.just(name), _arguments(item)) for name, item in tools.TOOLS.items()],
    # the workflow's own steps, so that later calls meet every step
    st.sampled_from(
        [
            ("update_profile", COMPLETE_PROFILE),
            ("search_candidates", "{}"),
            ("update_profile", json.dumps({"budget_max": 20})),  # the filters again
            ("select_gift", json.dumps({"gift_id": CANDIDATE})),
            ("confirm_choice", "{}"),
            ("save_recipient_profile", json.dumps({"label": "sister"})),
            ("load_recipient_profile", json.dumps({"label": "sister"})),
        ]
    ),
)
MALFORMED = st.tuples(
    st.one_of(
        st.sampled_from(list(tools.TOOLS)),
        st.text(max_size=30),
        st.sampled_from(["delete_user", "read_profile", "UPDATE_PROFILE", "update_profile "]),
    ),
    st.one_of(
        JUNK.map(lambda v: json.dumps(v, allow_nan=True)),  # not an object
        st.text(max_size=200),  # not JSON
        st.just(""),
    ),
)
TOOL_CALLS = st.one_of(WELL_FORMED, WELL_FORMED, MALFORMED)
"""One call: a tool name (real or invented) and its raw arguments text."""


def _made(arguments: str, candidate_ids: list[str]) -> str:
    """The arguments with ``$candidate`` replaced, as a model copies an id it was shown."""
    if CANDIDATE not in arguments or not candidate_ids:
        return arguments
    return arguments.replace(CANDIDATE, candidate_ids[-1])


# -- the properties -----------------------------------------------------------------------------


_QUOTED: set[str] = set()
"""The victim's ids the attacker itself has sent, in any example so far. The world is one
database for the module's examples, so an id an earlier call quoted (say, as the label of a
profile it saved) may rightly come back in a later example's result: it is the attacker's
own text, not the victim's row."""


def _no_cross_user_read(result_text: str, sent: str, victim: Victim) -> None:
    for secret in VICTIM_SECRETS:
        assert secret not in result_text, result_text[:500]
    _QUOTED.update(victim_id for victim_id in victim.ids if victim_id in sent)
    for victim_id in victim.ids:
        if victim_id in result_text:  # only quoted back from what the attacker sent
            assert victim_id in _QUOTED, result_text[:500]


def _valid_state(state: SessionState, catalog_ids: set[str]) -> None:
    SessionState.model_validate(state.model_dump())  # every field and cap still holds
    StateView.of(state, TODAY)
    assert set(state.candidate_ids) <= catalog_ids
    assert set(state.search_pool) <= catalog_ids
    if state.selected_gift_id is not None:
        assert state.selected_gift_id in state.candidate_ids
    if state.step == Step.done:
        assert state.order_draft_id is not None
    if state.step != Step.collecting_profile:
        assert state.profile.complete


def _victim_untouched(db: Database, victim: Victim) -> None:
    with db.read() as repos:
        run = repos.runs.get(victim.run_id)
        saved = repos.profiles.get(VICTIM, victim.label)
        orders = repos.orders.list_for(VICTIM)
    assert run is not None and run.session_version == 0
    assert saved is not None and saved.profile.recipient_name == "Zebulon"
    assert [o.id for o in orders] == [victim.order_id]


@given(data=st.data())
@settings(FUZZ)
def test_tool_dispatch_survives_any_payload(world, data: st.DataObject) -> None:
    db, victim, catalog_ids = world
    known = set(catalog_ids)
    with db.write() as repos:  # a run of its own (an example that failed left one open)
        active = repos.runs.active_for(ATTACKER)
        if active is not None:
            repos.runs.set_status(active.id, RunStatus.abandoned)
        run_id = repos.runs.start(ATTACKER, new_id()).id
    ctx = tools.TurnContext(
        user_id=ATTACKER,
        run_id=run_id,
        state=SessionState(),
        db=db,
        rates=RATES,
        today=TODAY,
        default_currency="USD",
    )
    # Every step the tools move through: one call may take several (a complete profile
    # searches and filters at once: collecting, generating, filtering, finalizing).
    moves: list[tuple[Step, Step]] = []
    move_to = ctx.move_to

    def recorded(target: Step) -> None:
        moves.append((ctx.state.step, target))
        move_to(target)

    ctx.move_to = recorded  # type: ignore[method-assign]
    calls = data.draw(st.lists(TOOL_CALLS, min_size=1, max_size=8))
    for name, raw in calls:
        moves.clear()
        sent = _made(raw, ctx.state.candidate_ids)
        before = ctx.state.model_copy(deep=True)
        step_before = before.step
        staged_before, checkpoints_before = len(ctx.staged), len(ctx.checkpoints)
        result = tools.execute(ctx, name, sent)
        assert isinstance(result.get("ok"), bool), result
        text = json.dumps(result, ensure_ascii=False, default=str)  # as the runner sends it
        _no_cross_user_read(text, sent, victim)
        if result["ok"]:
            StateView.model_validate(result["state"])
            # The step changed only by legal moves, one after the other, from where it was.
            path = [step_before]
            for current, target in moves:
                if target != current:  # moving to the step it is on changes nothing
                    assert current == path[-1], (path, moves)
                    check_transition(current, target)
                    path.append(target)
            assert path[-1] == ctx.state.step, (path, ctx.state.step)
        else:  # a refused call changes nothing
            assert isinstance(result["error"], str) and result["error"]
            assert ctx.state == before
            assert (len(ctx.staged), len(ctx.checkpoints)) == (staged_before, checkpoints_before)
        _valid_state(ctx.state, known)
    for checkpoint in ctx.checkpoints:
        assert (checkpoint.run_id, checkpoint.user_id) == (run_id, ATTACKER)
    # Commit what the tools staged, as the run-cycle does: it must go in as it is.
    for checkpoint in ctx.checkpoints:
        checkpoint.session_version = 1
    # abandoned, so the next example starts a run of its own
    fence = Fence(run_id, 0, 1, step=ctx.state.step, status=RunStatus.abandoned)
    db.turns.commit([], ctx.checkpoints, fence, ctx.staged)
    _victim_untouched(db, victim)


# -- through the run-cycle -------------------------------------------------------------------


class Cycle:
    """The agent every run-cycle example uses (reported by its short repr)."""

    def __init__(self, agent: Agent, victim: Victim, catalog_ids: list[str]) -> None:
        self.agent, self.victim, self.catalog_ids = agent, victim, catalog_ids

    def __repr__(self) -> str:
        return "Cycle(...)"

    def __iter__(self) -> Iterator[Any]:
        return iter((self.agent, self.victim, self.catalog_ids))


class LooseFunctionModel(FunctionModel):
    """A ``FunctionModel`` that sends what a misbehaving endpoint may: unknown tools,
    arguments that are not a JSON object. The request is still checked (protocol valid:
    every tool call answered), since that is the agent's part."""

    def _check_answer(self, request: ChatRequest, message: Any) -> None:
        if not message.tool_calls and not (message.content or "").strip():
            raise ModelError("empty reply")


@pytest.fixture(scope="module")
def cycle(world, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """An agent on the fuzz database and an embedded session store; its model is swapped in."""
    db, victim, catalog_ids = world
    folder = tmp_path_factory.mktemp("fuzz-cycle")
    config = load_settings(home=folder).model_copy(update={"max_tool_rounds": MAX_TOOL_ROUNDS})
    sessions = SqliteSessionStore(
        folder / "sessions.db", session_ttl=1800, max_lifetime=604800, lease_ttl=8
    )
    agent = Agent(
        settings=config,
        db=db,
        sessions=sessions,
        model=LooseFunctionModel(lambda request: "unused"),
        window=16384,
    )
    try:
        yield Cycle(agent, victim, catalog_ids)
    finally:
        sessions.close()


@given(data=st.data())
@settings(FUZZ, max_examples=CYCLE_EXAMPLES)
def test_run_cycle_survives_any_model(cycle, data: st.DataObject) -> None:
    agent, victim, catalog_ids = cycle
    endless = data.draw(st.booleans(), label="endless")
    rounds = data.draw(
        st.lists(
            st.lists(TOOL_CALLS, min_size=1, max_size=3),
            min_size=1,
            max_size=MAX_TOOL_ROUNDS + 2,
        ),
        label="rounds",
    )

    def play(request: ChatRequest) -> Message | str:
        _, step = position(request)
        if step >= len(rounds) and not endless:
            return "Done."
        shown = _candidates_shown(request)
        return Message(
            role="assistant",
            tool_calls=[
                ToolCall(id=f"call_{new_id()[:20]}", name=name, arguments=_made(raw, shown))
                for name, raw in rounds[step % len(rounds)]
            ],
        )

    agent.model.fn = play  # one model for all examples: its token counter loads once
    run = agent.open(ATTACKER, new=True).run
    result = agent.turn(run.id, ATTACKER, "go")

    capped = endless or len(rounds) >= MAX_TOOL_ROUNDS
    sent = sum(len(raw) for calls in rounds for _, raw in calls)
    with agent.db.read() as repos:
        committed = repos.runs.get(run.id)
        entries = repos.transcript.for_run(run.id)
    if sent > HUGE and result.reply == CONTEXT_TOO_LARGE["en"]:
        pass  # the model's own calls outgrew the context: said plainly, the turn committed
    elif result.reply != (TOOL_ROUNDS_EXHAUSTED["en"] if capped else "Done."):
        # A round that settled the turn (a shortlist, a choice…) is presented by the agent:
        # only after calls that all succeeded, and in words.
        last_round = list(itertools.takewhile(lambda e: e.role == "tool", entries[-2::-1]))
        assert last_round and all(json.loads(e.content)["ok"] is True for e in last_round)
        assert result.reply.strip() and "Done." not in result.reply
    live = agent.sessions.load(run.id)
    assert committed is not None and committed.session_version == 1
    assert live is not None and live.version == 1 and live.state == result.state
    _valid_state(live.state, set(catalog_ids))
    # The transcript: numbered without a gap, the user's line first, the reply last, every
    # tool call answered exactly once, no more model rounds than the cap.
    assert [e.seq for e in entries] == list(range(1, len(entries) + 1))
    assert entries[0].role == "user" and entries[-1].role == "assistant"
    assert entries[-1].content == result.reply and not entries[-1].tool_calls
    asked = [c.id for e in entries for c in e.tool_calls]
    answered = [e.tool_call_id for e in entries if e.role == "tool"]
    assert asked == answered
    assert sum(1 for e in entries if e.tool_calls) <= MAX_TOOL_ROUNDS
    for entry in entries:
        if entry.role == "tool":
            assert json.loads(entry.content or "")["ok"] in (True, False)
            _no_cross_user_read(entry.content or "", json.dumps([*rounds]), victim)
    _victim_untouched(agent.db, victim)


def _candidates_shown(request: ChatRequest) -> list[str]:
    """The candidate ids of the newest state a tool result showed the model."""
    for message in reversed(request.messages):
        if message.get("role") == "tool":
            try:
                shown = json.loads(message.get("content") or "")
            except ValueError:
                continue
            if isinstance(shown, dict) and isinstance(shown.get("state"), dict):
                return list(shown["state"].get("candidate_ids") or [])
    return []
