"""The chat loop, apart from the command: fed any iterable of lines, so tests can script it."""

from __future__ import annotations

from collections.abc import Iterable

from giftgenius import messages as catalogue
from giftgenius.agent.reader import Opened
from giftgenius.agent.runner import Agent
from giftgenius.cli import recap
from giftgenius.cli.lines import clean_line
from giftgenius.cli.render import ChatUI
from giftgenius.domain import RunInfo, Usage
from giftgenius.errors import (
    GiftGeniusError,
    ModelError,
    SessionBusy,
    StorageError,
    UsageError,
    VersionConflict,
)
from giftgenius.tokens import price_per_million


def run_chat(agent: Agent, opened: Opened, lines: Iterable[str], ui: ChatUI) -> int:
    """Play a conversation; returns the exit code. Bad input never ends the chat.

    ``lines`` are raw: each is cleaned here (``clean_line``), before anything else sees it.
    """
    user_id = opened.run.user_id
    recapped = opened.continued and opened.loaded.source != "new"  # an empty run needs none
    if recapped:
        ui.recap(recap.welcome_back(opened))
    run = opened.run
    locale = opened.loaded.session.state.locale
    if ui.rich:  # a person at the prompt: say once how to find the commands and leave
        ui.notice(catalogue.text("chat", "hint" if recapped else "greeting", locale))
    told = set(opened.notices)
    for raw in lines:
        line = clean_line(raw)
        if line.note:
            ui.notice(line.note)
        text = line.text.strip()
        if not text:
            continue
        if text.startswith("/"):
            command = text.split()[0].lower()
            if command == "/quit":
                break
            run = _command(agent, command, user_id, run, ui, locale)
            continue
        try:
            with ui.working(locale):
                result = agent.turn(run.id, user_id, text)
        except (SessionBusy, UsageError, VersionConflict, ModelError) as exc:
            ui.error(str(exc))
            continue
        except StorageError as exc:
            ui.error(str(exc))
            return exc.exit_code
        except GiftGeniusError as exc:
            ui.error(str(exc))
            continue
        locale = result.state.locale
        budget = result.state.profile.budget
        for notice in result.notices:
            if notice not in told:
                ui.notice(recap.since_you_left(notice, locale))
        ui.reply(
            result.reply,
            result.candidates,
            locale=locale,
            budget_currency=budget.currency if budget else None,
        )
    return 0


def _command(
    agent: Agent, command: str, user_id: str, run: RunInfo, ui: ChatUI, locale: str
) -> RunInfo:
    """Carry out a chat command other than /quit; the run the chat goes on with (a new
    one after /restart)."""
    if command == "/restart":
        run = agent.open(user_id, new=True).run
        ui.notice(recap.restarted(locale))
    elif command == "/state":
        current = agent.inspect(user_id)
        if current is not None:
            session = current.loaded.session
            ui.state(
                session.state,
                run_id=current.run.id,
                source=current.loaded.source,
                version=session.version,
            )
    elif command == "/checkpoints":
        with agent.db.read() as repos:
            ui.checkpoints(repos.checkpoints.list(user_id, run.id))
    elif command == "/usage":
        current = agent.inspect(user_id)
        usage = current.loaded.session.usage if current else None
        if usage is not None:
            ui.usage(usage, estimated_cost(agent.model.name, usage), agent.model.name)
    elif command == "/help":
        ui.info(catalogue.text("chat", "help", locale))
    else:
        help_text = catalogue.text("chat", "help", locale)
        ui.error(catalogue.say("chat", "unknown_command", locale, command=command, help=help_text))
    return run


def estimated_cost(model: str, usage: Usage) -> float | None:
    prices = price_per_million(model)
    if prices is None:
        return None
    prompt = usage.prompt_tokens + usage.summary_prompt_tokens
    completion = usage.completion_tokens + usage.summary_completion_tokens
    return (prompt * prices[0] + completion * prices[1]) / 1_000_000
