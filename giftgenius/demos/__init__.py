"""Scripted demo conversations shipped in the package, each with expectations it checks.

A demo drives the same ``Agent`` the chat uses; "leaving" steps drop the live session (as
its TTL would) and build a fresh agent instance, so coming back is a real restore.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable
from importlib import resources
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from giftgenius.agent.runner import Agent
from giftgenius.catalog import Product, load_rates, price_in
from giftgenius.domain import Currency, Locale, SessionState, utcnow
from giftgenius.errors import GiftGeniusError, NotFound
from giftgenius.messages import speak


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class DemoStep(_Strict):
    say: str | None = None
    expire_session: bool = False
    new_agent: bool = False
    days_later: int = 0
    restart: bool = False


class PriceCap(_Strict):
    amount: float
    currency: Currency


class Expectations(_Strict):
    step: str = "done"
    checkpoints: list[str] = Field(default_factory=list)
    max_price: PriceCap | None = None
    not_tags: list[str] = Field(default_factory=list)
    ships_to: str | None = None
    locale: Locale | None = None
    resumed_from: str | None = None


class Demo(_Strict):
    name: str
    description: str
    user_id: str
    script: list[DemoStep]
    expect: Expectations


class Verdict(BaseModel):
    passed: bool
    failures: list[str]


class DemoReport(BaseModel):
    demo: str
    user_id: str
    run_id: str
    step: str
    selected_gift_id: str | None
    checkpoints: list[str]
    resumed_from: str | None
    turns: int
    expectations: Verdict

    @property
    def passed(self) -> bool:
        return self.expectations.passed


def _scripts() -> dict[str, Demo]:
    folder = resources.files("giftgenius.demos") / "scripts"
    demos = [Demo.model_validate_json(f.read_text("utf-8")) for f in folder.iterdir()]
    return {d.name: d for d in sorted(demos, key=lambda d: d.name)}


def list_demos() -> list[Demo]:
    return list(_scripts().values())


def get_demo(name: str) -> Demo:
    demos = _scripts()
    if name not in demos:
        raise NotFound(speak("demo", "unknown", name=repr(name), names=", ".join(demos)))
    return demos[name]


def load_demo_file(path: Path) -> Demo:
    """A demo from a JSON file; what is wrong with it is said in one line, field by field."""
    try:
        text = path.read_text("utf-8")
    except UnicodeDecodeError:
        raise GiftGeniusError(speak("demo", "not_utf8", path=path)) from None
    except OSError as exc:
        reason = exc.strerror or exc
        raise GiftGeniusError(speak("demo", "unreadable", path=path, reason=reason)) from None
    try:
        return Demo.model_validate_json(text)
    except ValidationError as exc:
        raise GiftGeniusError(
            speak("demo", "invalid", path=path, problems=_problems(exc))
        ) from None


def _problems(exc: ValidationError, shown: int = 3) -> str:
    """pydantic's errors as "where: what" (no input dump, no documentation URL)."""
    errors = exc.errors(include_url=False, include_input=False)
    parts = []
    for err in errors[:shown]:
        where = ".".join(str(part) for part in err["loc"])
        parts.append(f"{where}: {err['msg']}" if where else err["msg"])
    if len(errors) > shown:
        parts.append(f"and {len(errors) - shown} more")
    return "; ".join(parts)


AgentFactory = Callable[[Callable[[], dt.datetime]], Agent]
Say = Callable[[str, str], None]  # (speaker, text)


def run_demo(
    demo: Demo,
    make_agent: AgentFactory,
    say: Say,
    *,
    start: Callable[[], dt.datetime] = utcnow,
) -> DemoReport:
    """Play ``demo`` from ``start``'s day; ``say`` receives the transcript lines
    ("you"/"genius"/"note")."""
    offset = dt.timedelta()

    def clock() -> dt.datetime:
        return start() + offset

    agent = make_agent(clock)
    opened = agent.open(demo.user_id, new=True)
    run_id = opened.run.id
    resumed_from: str | None = None
    turns = 0
    for step in demo.script:
        if step.restart:
            run_id = agent.open(demo.user_id, new=True).run.id
            say("note", speak("demo", "note.restart", run=run_id[:8]))
        if step.expire_session:
            agent.sessions.delete(run_id)
            say("note", speak("demo", "note.expire"))
        if step.new_agent:
            offset += dt.timedelta(days=step.days_later)
            agent.close()
            agent = make_agent(clock)
            resumed = agent.resume(demo.user_id)
            run_id, resumed_from = resumed.run.id, resumed.loaded.source
            later = speak("demo", "note.later", days=step.days_later, source=resumed_from)
            say("note", later)
        if step.say:
            say("you", step.say)
            result = agent.turn(run_id, demo.user_id, step.say)
            say("genius", result.reply)
            turns += 1
    report = _report(demo, agent, run_id, resumed_from, turns)
    agent.close()
    return report


def _reached_in_order(written: list[str], expected: list[str]) -> bool:
    """Whether every expected step was reached, first reached in the expected order.

    Judged by outcome, not by the exact sequence: a model that records the facts of one
    message in two calls writes one more ``filtered`` than one that records them at once,
    and does the job as well.
    """
    first = list(dict.fromkeys(written))
    wanted = list(dict.fromkeys(expected))
    return [step for step in first if step in wanted] == wanted


def _report(
    demo: Demo, agent: Agent, run_id: str, resumed_from: str | None, turns: int
) -> DemoReport:
    with agent.db.read() as repos:
        run = repos.runs.get(run_id)
        checkpoints = [str(c.step) for c in repos.checkpoints.list(demo.user_id, run_id)]
        order = repos.orders.for_run(run_id)
        product = repos.catalog.get(order.gift_id) if order else None
    loaded = agent.inspect(demo.user_id)
    state = loaded.loaded.session.state if loaded else None
    assert run is not None
    final_step = str(state.step) if state else str(run.step)
    failures = [
        *_run_failures(demo.expect, final_step, checkpoints, state, resumed_from),
        *_gift_failures(demo.expect, product),
    ]
    return DemoReport(
        demo=demo.name,
        user_id=demo.user_id,
        run_id=run_id,
        step=final_step,
        selected_gift_id=order.gift_id if order else (state.selected_gift_id if state else None),
        checkpoints=checkpoints,
        resumed_from=resumed_from,
        turns=turns,
        expectations=Verdict(passed=not failures, failures=failures),
    )


def _run_failures(
    exp: Expectations,
    final_step: str,
    checkpoints: list[str],
    state: SessionState | None,
    resumed_from: str | None,
) -> list[str]:
    """What the run did that ``exp`` did not expect: its final step, the key steps it
    reached, its language, where the last resume started from."""
    failures: list[str] = []
    if final_step != exp.step:
        failures.append(speak("demo", "expect.step", found=final_step, expected=exp.step))
    if exp.checkpoints and not _reached_in_order(checkpoints, exp.checkpoints):
        expected = ", ".join(exp.checkpoints)
        failures.append(speak("demo", "expect.checkpoints", found=checkpoints, expected=expected))
    if exp.locale and state and state.locale != exp.locale:
        failures.append(speak("demo", "expect.locale", found=state.locale, expected=exp.locale))
    if exp.resumed_from and resumed_from != exp.resumed_from:
        expected = exp.resumed_from
        failures.append(speak("demo", "expect.resumed", found=resumed_from, expected=expected))
    return failures


def _gift_failures(exp: Expectations, product: Product | None) -> list[str]:
    """What is wrong with the chosen gift (``product``, None when there is no order draft)
    for ``exp``: its price, its tags, where it ships."""
    failures: list[str] = []
    needs_gift = exp.max_price or exp.not_tags or exp.ships_to
    if needs_gift and product is None:
        failures.append(speak("demo", "expect.no_gift"))
    if product is None:
        return failures
    if exp.max_price:
        price = price_in(product, exp.max_price.currency, load_rates())
        if price > exp.max_price.amount:
            failures.append(
                speak(
                    "demo",
                    "expect.over",
                    gift=product.id,
                    price=price,
                    currency=exp.max_price.currency,
                    most=exp.max_price.amount,
                )
            )
    bad = sorted(set(exp.not_tags) & set(product.tags))
    if bad:
        failures.append(speak("demo", "expect.tags", gift=product.id, tags=bad))
    if exp.ships_to and "*" not in product.ships_to and exp.ships_to not in product.ships_to:
        failures.append(speak("demo", "expect.ships", gift=product.id, country=exp.ships_to))
    return failures


def report_json(report: DemoReport) -> str:
    return json.dumps(report.model_dump(), ensure_ascii=False, indent=2)
