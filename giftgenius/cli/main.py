"""The command line: a thin ``main(argv) -> int`` over the agent (the contract in README.md).

``--json`` prints exactly one JSON document on stdout; human text, the offline-model
notice and progress go to stderr. Exit codes: 0 ok, 1 error, 2 usage, 3 nothing to
resume, 5 a demo's expectation failed (or, for ``eval``, a dialogue failed).

Start-up time is part of the contract: this module imports only the standard library, the
error tree and the catalogue reader, and each command imports what it needs when it runs
— the stores for the commands that read them, the model (and the tokenizer) only for
those that talk — so ``--help`` and ``state`` never pay for an agent they do not use. A
new command is a subparser here and a ``Cli`` method that imports its own code.

What a command says to the person comes from the catalogue's ``commands`` section, in the
environment's language (``cli/speech.py``), and so does its ``--help`` (the ``help``
section, through ``arguments.Parser``); argparse's own error messages stay in English.
"""

from __future__ import annotations

import argparse
import json
import re
import signal
import sys
from collections.abc import Iterator, Sequence
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TextIO

from giftgenius import __version__, messages
from giftgenius.arguments import Formatter as _Formatter
from giftgenius.arguments import Parser, whole
from giftgenius.cli.speech import command_language, confirm, count, say
from giftgenius.errors import GiftGeniusError, NothingToResume, UsageError

if TYPE_CHECKING:
    from rich.console import Console

    from giftgenius.agent.reader import RunReader
    from giftgenius.agent.runner import Agent
    from giftgenius.catalog import Product
    from giftgenius.cli.render import ChatUI
    from giftgenius.settings import Settings

EXIT_DEMO_FAILED = 5
MAX_KEEP_LAST = 1_000_000
"""``prune --keep-last`` above this is refused: the databases take at most 64-bit integers,
and no run keeps a million checkpoints."""


class _Parser(Parser):
    """argparse whose errors are ``UsageError``s: they reach the same stream as every other
    error (the injected stderr, not ``sys.stderr``), with the same prefix and exit code 2."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(say("usage.see_help", message=message, prog=self.prog))


def _h(key: str) -> str:
    """The option help ``key`` in the environment's language (the catalogue's ``help``)."""
    return messages.speak("help", key)


def _command(sub: Any, name: str, common: argparse.ArgumentParser, about: str, **kw: Any) -> Any:
    """A subcommand whose ``--help`` opens with what it does (argparse shows its ``help``
    only in the parent's list)."""
    kw.setdefault("description", about[:1].upper() + about[1:] + ".")
    return sub.add_parser(name, parents=[common], help=about, formatter_class=_Formatter, **kw)


def _parser() -> argparse.ArgumentParser:
    common = _Parser(add_help=False)
    common.add_argument("--home", default=argparse.SUPPRESS, help=_h("home"))
    common.add_argument("--database-url", default=argparse.SUPPRESS, help=_h("database_url"))
    common.add_argument("--redis-url", default=argparse.SUPPRESS, help=_h("redis_url"))
    common.add_argument("--model", default=argparse.SUPPRESS, help=_h("model"))

    parser = _Parser(
        prog="giftgenius", parents=[common], formatter_class=_Formatter, description=_h("about")
    )
    parser.add_argument(
        "--version", action="version", version=f"%(prog)s {__version__}", help=_h("version")
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", title=_h("commands"))

    chat = _command(sub, "chat", common, _h("chat"))
    chat.add_argument("--user", required=True, help=_h("user"))
    chat.add_argument("--new", action="store_true", help=_h("chat.new"))

    resume = _command(sub, "resume", common, _h("resume"))
    resume.add_argument("--user", required=True, help=_h("user"))
    resume.add_argument("--run", dest="run_id", help=_h("resume.run"))

    demo = _command(sub, "demo", common, _h("demo"))
    demo.add_argument("name", nargs="?", help=_h("demo.name"))
    demo.add_argument("--list", action="store_true", help=_h("demo.list"))
    demo.add_argument("--file", type=Path, help=_h("demo.file"))
    demo.add_argument("--json", action="store_true", help=_h("json"))

    cps = _command(sub, "checkpoints", common, _h("checkpoints"))
    cps.add_argument("--user", required=True, help=_h("user"))
    cps.add_argument("--run", dest="run_id", help=_h("checkpoints.run"))
    cps.add_argument("--json", action="store_true", help=_h("json"))

    state = _command(sub, "state", common, _h("state"))
    state.add_argument("--user", required=True, help=_h("user"))
    state.add_argument("--json", action="store_true", help=_h("json"))

    given = _command(sub, "history", common, _h("history"))
    given.add_argument("--user", required=True, help=_h("user"))
    given.add_argument("--recipient", metavar="LABEL", help=_h("history.recipient"))
    given.add_argument("--json", action="store_true", help=_h("json"))

    prune = _command(sub, "prune", common, _h("prune"))
    prune.add_argument("--older-than", type=_duration, help=_h("prune.older_than"))
    prune.add_argument(
        "--keep-last",
        type=whole(0, MAX_KEEP_LAST, what="checkpoints"),
        default=None,
        help=_h("prune.keep_last"),
    )
    prune.add_argument("--yes", action="store_true", help=_h("yes"))

    forget = _command(sub, "forget", common, _h("forget"))
    forget.add_argument("--user", required=True, help=_h("user"))
    forget.add_argument("--yes", action="store_true", help=_h("yes"))

    catalog = _command(sub, "catalog", common, _h("catalog"))
    csub = catalog.add_subparsers(dest="catalog_command", required=True, metavar="COMMAND")
    show = _command(csub, "show", common, _h("catalog.show"))
    show.add_argument("gift_id", help=_h("catalog.show.gift_id"))
    show.add_argument("--json", action="store_true", help=_h("json"))
    find = _command(csub, "search", common, _h("catalog.search"))
    find.add_argument("words", nargs="+", help=_h("catalog.search.words"))
    find.add_argument("--json", action="store_true", help=_h("json"))
    load = _command(csub, "import", common, _h("catalog.import"))
    load.add_argument("file", type=Path, help=_h("catalog.import.file"))
    load.add_argument("--replace", action="store_true", help=_h("catalog.import.replace"))
    generate = _command(csub, "generate", common, _h("catalog.generate"))
    generate.add_argument(
        "--products", type=_product_count, required=True, help=_h("catalog.generate.products")
    )
    generate.add_argument("--seed", type=int, default=0, help=_h("catalog.generate.seed"))
    generate.add_argument("--yes", action="store_true", help=_h("catalog.generate.yes"))

    db = _command(sub, "db", common, _h("db"))
    dsub = db.add_subparsers(dest="db_command", required=True, metavar="COMMAND")
    up = _command(dsub, "upgrade", common, _h("db.upgrade"))
    up.add_argument("revision", nargs="?", default="head", help=_h("db.upgrade.revision"))
    down = _command(dsub, "downgrade", common, _h("db.downgrade"))
    down.add_argument("revision", nargs="?", default="-1", help=_h("db.downgrade.revision"))
    down.add_argument("--yes", action="store_true", help=_h("yes"))
    _command(dsub, "current", common, _h("db.current"))

    benches = ["context", "state", "search", "turn", "load", "http", "memory"]
    bench = _command(
        sub,
        "bench",
        common,
        _h("bench"),
        description=_h("bench.description"),
        usage="giftgenius bench [-h] {context,state,search,turn,load,http,memory} [OPTIONS...]",
    )
    bench.add_argument("what", choices=benches, help=_h("bench.what"))
    bench.add_argument("rest", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)

    model = _command(sub, "model", common, _h("model.server"))
    msub = model.add_subparsers(dest="model_command", required=True, metavar="COMMAND")
    serve = _command(
        msub, "serve", common, _h("model.serve"), description=_h("model.serve.description")
    )
    serve.add_argument("--host", default="127.0.0.1", help=_h("model.serve.host"))
    serve.add_argument(
        "--port", type=whole(0, 65535, what="port"), default=8000, help=_h("model.serve.port")
    )
    serve.add_argument("--quiet", action="store_true", help=_h("model.serve.quiet"))

    http = _command(sub, "serve", common, _h("serve"), description=_h("serve.about"))
    http.add_argument("--host", default="127.0.0.1", help=_h("serve.host"))
    http.add_argument(
        "--port", type=whole(0, 65535, what="port"), default=8000, help=_h("serve.port")
    )
    http.add_argument(
        "--workers", type=whole(1, 64, what="processes"), default=1, help=_h("serve.workers")
    )
    http.add_argument("--quiet", action="store_true", help=_h("serve.quiet"))

    keys = _command(sub, "keys", common, _h("keys"))
    ksub = keys.add_subparsers(dest="keys_command", required=True, metavar="COMMAND")
    kmake = _command(ksub, "create", common, _h("keys.create"))
    kmake.add_argument("--user", required=True, help=_h("user"))
    klist = _command(ksub, "list", common, _h("keys.list"))
    klist.add_argument("--user", help=_h("keys.list.user"))
    klist.add_argument("--json", action="store_true", help=_h("json"))
    kdrop = _command(ksub, "revoke", common, _h("keys.revoke"))
    kdrop.add_argument("key_id", help=_h("keys.revoke.key_id"))
    ktoken = _command(ksub, "token", common, _h("keys.token"))
    ktoken.add_argument("--user", required=True, help=_h("user"))
    ktoken.add_argument("--ttl", type=_duration, default="1h", help=_h("keys.token.ttl"))

    ev = _command(sub, "eval", common, _h("eval"), description=_h("eval.description"))
    ev.add_argument("directory", nargs="?", type=Path, help=_h("eval.directory"))
    ev.add_argument("--json", action="store_true", help=_h("json"))
    ev.add_argument("--replays", type=whole(0), default=1, help=_h("eval.replays"))
    ev.add_argument("--seed", type=int, default=0, help=_h("eval.seed"))
    ev.add_argument("--jobs", type=whole(1), default=None, help=_h("eval.jobs"))
    ev.add_argument("--only", nargs="+", metavar="ID", help=_h("eval.only"))
    ev.add_argument("--fresh", action="store_true", help=_h("eval.fresh"))
    ev.add_argument("--record", type=Path, metavar="DIR", help=_h("eval.record"))
    return parser


def _older_than(age: timedelta) -> str:
    """Which checkpoints ``prune`` deletes, the age as it was given, in its largest whole
    unit ("every checkpoint older than 90 days", "… older than a day"); an age of zero is
    said as what it means: every checkpoint, whatever its age."""
    seconds = int(age.total_seconds())
    if seconds <= 0:
        return say("prune.any_age")
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds % size == 0:
            return count(f"prune.older.{unit}", seconds // size)
    return count("prune.older.second", seconds)


_ERASED = frozenset(
    {"transcript", "checkpoints", "order_drafts", "recipient_profiles", "runs", "users"}
)
"""The tables ``forget`` counts as a person does (the catalogue's ``forget.erased.*``);
another table's rows are counted as rows of that table."""


_UNSAID = frozenset({"memory_tallies"})
"""Tables ``forget`` empties that hold no more than bookkeeping of another's rows."""


def _erased(table: str, n: int) -> str:
    where = {
        "api_keys": ("service", "keys.erased"),
        "gift_history": ("history", "erased"),
        "memories": ("memory", "erased"),
    }
    if table in where:
        from giftgenius import messages

        section, key = where[table]
        return messages.count(section, key, command_language(), n)
    if table in _ERASED:
        return count(f"forget.erased.{table}", n)
    return count("forget.erased.rows", n, table=table)


def _product_count(text: str) -> int:
    from giftgenius.catalog.synthetic import MAX_PRODUCTS

    try:
        number = int(text.replace("_", "").replace(",", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(say("usage.not_products", text=repr(text))) from None
    if not 0 < number <= MAX_PRODUCTS:
        raise argparse.ArgumentTypeError(
            say("usage.products_range", most=f"{MAX_PRODUCTS:,}", count=f"{number:,}")
        )
    return number


def _duration(text: str) -> timedelta:
    """A positive age like 90d; one reaching back before year 1 is a usage error, not a crash."""
    from giftgenius.domain import utcnow

    match = re.fullmatch(r"(\d+)([dhms])", text.strip())
    if not match:
        raise argparse.ArgumentTypeError(say("usage.duration", text=repr(text)))
    unit = {"d": "days", "h": "hours", "m": "minutes", "s": "seconds"}[match.group(2)]
    try:
        age = timedelta(**{unit: int(match.group(1))})
        utcnow() - age  # the cutoff prune computes must be a date
    except OverflowError:
        raise argparse.ArgumentTypeError(say("usage.duration_too_long", text=repr(text))) from None
    return age


class Cli:
    def __init__(self, args: argparse.Namespace, stdin: TextIO, out: Console, err: Console):
        self.args = args
        self.stdin = stdin
        self.out = out
        self.err = err
        from giftgenius.logs import configure_logging
        from giftgenius.privacy import configure_phone_regions
        from giftgenius.settings import load_settings

        self.settings: Settings = load_settings(
            home=getattr(args, "home", None),
            database_url=getattr(args, "database_url", None),
            redis_url=getattr(args, "redis_url", None),
            model=getattr(args, "model", None),
        )
        configure_phone_regions(self.settings.phone_regions)
        configure_logging(self.settings)

    def agent(self) -> Agent:
        """The agent, model included, for the commands that talk (it announces the model)."""
        from giftgenius.app import build_agent

        self.announce_model()
        return build_agent(self.settings)

    def reader(self) -> RunReader:
        """The stores without a model, for the commands that only read or erase runs."""
        from giftgenius.app import build_reader

        return build_reader(self.settings)

    def announce_model(self) -> None:
        if self.settings.is_offline_model:
            self.err.print(say("offline_model"), markup=False, highlight=False)

    def emit_json(self, data: Any) -> None:
        self.out.file.write(json_for_terminal(data) + "\n")
        self.out.file.flush()

    def print_plain(self, text: str) -> None:
        """Stored text (a product's title, a search's words) as plain lines on stdout."""
        from giftgenius.privacy import strip_controls

        self.out.print(strip_controls(text), markup=False, highlight=False)

    def lines(self) -> Iterator[str]:
        """What the user types: prompted in a terminal (with line editing and the user's
        history when it is this process's own), one message per line when piped."""
        from giftgenius.cli.lines import piped_lines, terminal_lines

        if not self.stdin.isatty():
            return piped_lines(self.stdin)
        if self.stdin is not sys.stdin:
            return terminal_lines(self.out, self.stdin)
        from giftgenius.cli.history import History, history_path

        history = History(history_path(self.settings.home, self.args.user))
        return terminal_lines(self.out, self.stdin, history)

    def ui(self) -> ChatUI:
        from giftgenius.cli.render import ChatUI

        return ChatUI(self.out, self.err, rich=self.stdin.isatty())

    # -- commands -------------------------------------------------------------------------

    def chat(self) -> int:
        from giftgenius.cli.chat import run_chat
        from giftgenius.domain import check_user_id

        check_user_id(self.args.user)
        agent = self.agent()
        try:
            opened = agent.open(self.args.user, new=self.args.new)
            lines = self.lines()
            return run_chat(agent, opened, lines, self.ui())
        finally:
            agent.close()

    def resume(self) -> int:
        """Continue the unfinished search; after a finished one, say how it ended (exit 3,
        which scripts rely on, with words a person can act on)."""
        from giftgenius.cli.chat import run_chat
        from giftgenius.cli.recap import finished
        from giftgenius.domain import RunStatus, check_user_id

        check_user_id(self.args.user)
        agent = self.agent()
        try:
            try:
                opened = agent.resume(self.args.user, self.args.run_id)
            except NothingToResume:
                latest = agent.inspect(self.args.user)
                if latest is None or latest.run.status != RunStatus.done:
                    raise self._nothing_to_resume() from None
                if self.args.run_id and latest.run.id != self.args.run_id:
                    raise self._nothing_to_resume() from None
                self.ui().recap_finished(finished(latest, self.args.user))
                return NothingToResume.exit_code
            ui = self.ui()
            lines = self.lines()
            return run_chat(agent, opened, lines, ui)
        finally:
            agent.close()

    def _nothing_to_resume(self) -> NothingToResume:
        """The agent's refusal to resume, said in the command's language (the agent says it
        in English, having no person's words to go by)."""
        from giftgenius import messages

        user, run = self.args.user, self.args.run_id
        key, named = ("resume.run", {"run": run}) if run else ("resume.none", {})
        return NothingToResume(
            messages.say("errors", key, command_language(), quoted=repr(user), user=user, **named)
        )

    def demo(self) -> int:
        from giftgenius.app import build_agent
        from giftgenius.demos import get_demo, list_demos, load_demo_file, report_json, run_demo

        if self.args.list:
            for demo in list_demos():
                self.out.print(f"{demo.name}  {demo.description}", markup=False, highlight=False)
            return 0
        if self.args.file:
            demo = load_demo_file(self.args.file)
        elif self.args.name:
            demo = get_demo(self.args.name)
        else:
            raise UsageError(say("demo.unnamed"))
        from giftgenius.cli.render import plain

        text = self.err if self.args.json else self.out
        self.announce_model()

        def show(speaker: str, line: str) -> None:
            prefix = {"you": "you> ", "genius": "genius> ", "note": "   "}[speaker]
            line = line if text.is_terminal else plain(line)  # piped: plain text
            text.print(prefix + line, markup=False, highlight=False)

        report = run_demo(
            demo,
            lambda clock: build_agent(self.settings, clock=clock),
            show,
            start=self.settings.clock(),
        )
        if self.args.json:
            self.out.file.write(report_json(report) + "\n")
        else:
            verdict = say(
                "demo.passed" if report.passed else "demo.failed",
                name=demo.name,
                step=report.step,
                gift=report.selected_gift_id or "—",
                checkpoints=", ".join(report.checkpoints),
            )
            self.out.print(verdict, markup=False, highlight=False)
            for failure in report.expectations.failures:
                self.out.print(say("demo.expectation_failed", failure=failure), markup=False)
        return 0 if report.passed else EXIT_DEMO_FAILED

    def checkpoints(self) -> int:
        from giftgenius.agent.documents import checkpoints_document, read_checkpoints

        agent = self.reader()
        try:
            found = read_checkpoints(
                agent, self.args.user, self.args.run_id, locale=command_language()
            )
        finally:
            agent.close()
        if self.args.json:
            self.emit_json(checkpoints_document(self.args.user, found))
        else:
            self.ui().checkpoints(found, locale=command_language())
        return 0

    def state(self) -> int:
        from giftgenius.agent.documents import read_state, state_document
        from giftgenius.domain import check_user_id

        check_user_id(self.args.user)
        agent = self.reader()
        try:
            current, reached = read_state(agent, self.args.user)
        finally:
            agent.close()
        if self.args.json:
            self.emit_json(state_document(self.args.user, current, reached))
            return 0
        if current is None:
            self.out.print(say("state.no_run", user=self.args.user), markup=False)
            return 0
        from giftgenius.cli.render import render_state

        session = current.loaded.session
        self.out.print(
            render_state(
                session.state,
                run_id=current.run.id,
                source=current.loaded.source,
                version=session.version,
            ),
            markup=False,
            highlight=False,
        )
        return 0

    def history(self) -> int:
        """The gifts the user confirmed, newest first (``cli/given_cmd.py``)."""
        from giftgenius.cli.given_cmd import gift_history

        reader = self.reader()
        try:
            document, lines = gift_history(
                reader, self.args.user, self.args.recipient, command_language()
            )
        finally:
            reader.close()
        if self.args.json:
            self.emit_json(document)
            return 0
        for line in lines:
            self.print_plain(line)
        return 0

    def prune(self) -> int:
        """Delete old checkpoints and long-term notes; in a terminal, only once the person
        says yes (``--yes`` skips the question, as for ``forget``)."""
        from giftgenius.domain import utcnow

        age = self.args.older_than
        if age is None:
            age = timedelta(days=self.settings.retention_days)
        keep = self.args.keep_last
        kept = count("prune.keeping", keep) if keep else ""
        question = say("prune.ask", which=_older_than(age), kept=kept)
        if not self._agreed(question):
            self.err.print(say("prune.declined"), markup=False)
            return 1
        agent = self.reader()
        try:
            with agent.db.write() as repos:
                removed = repos.checkpoints.prune(utcnow() - age, self.args.keep_last)
            notes = agent.memories.prune(utcnow() - age) if agent.memories is not None else 0
        finally:
            agent.close()
        self.out.print(count("prune.done", removed), markup=False)
        from giftgenius import messages

        language = command_language()
        self.out.print(messages.count("memory", "pruned", language, notes), markup=False)
        return 0

    def forget(self) -> int:
        """Erase a user; in a terminal, only once they say yes (``--yes`` skips the question).

        Piped or scripted (stdin not a terminal) it does not ask: nobody could answer.
        How the erasure wins over a turn in flight is ``RunReader.forget``'s.
        """
        from giftgenius.domain import check_user_id

        user = check_user_id(self.args.user)
        agent = self.reader()
        try:
            with agent.db.read() as repos:
                runs = repos.runs.list_for(user)
                known = repos.users.exists(user)
            if not known and not runs:
                self.out.print(say("forget.nothing", user=user), markup=False)
                return 0
            searches = count("forget.searches", len(runs))
            if not self._agreed(say("forget.ask", user=user, searches=searches)):
                self.err.print(say("forget.declined"), markup=False)
                return 1
            counts = agent.forget(user)
        finally:
            agent.close()
        from giftgenius.formats import join

        erased = join(
            [_erased(table, n) for table, n in counts.items() if table not in _UNSAID],
            command_language(),
        )
        self.out.print(say("forget.done", user=user, erased=erased), markup=False)
        return 0

    def _agreed(self, question: str) -> bool:
        """Whether a destructive command may go on: ``--yes``, or not a terminal (piped or
        scripted, nobody could answer), or the person said yes to ``question`` (no is the
        default, and so is end of input)."""
        if self.args.yes or not self.stdin.isatty():
            return True
        return confirm(question, self.err, self.stdin)

    def catalog(self) -> int:
        from giftgenius.catalog import load_rates, product_json

        if self.args.catalog_command == "import":
            from giftgenius.cli.catalog_cmd import import_catalog

            return import_catalog(self.settings, self.args.file, self.args.replace, self.out)
        if self.args.catalog_command == "generate":
            from giftgenius.cli.generate import generate_catalog

            return generate_catalog(
                self.settings,
                self.args.products,
                self.args.seed,
                self.out,
                self.err,
                yes=self.args.yes,
                stdin=self.stdin,
            )
        from giftgenius.agent.documents import find_product, search_catalog, search_document

        query = " ".join(getattr(self.args, "words", None) or [])
        agent = self.reader()
        try:
            if self.args.catalog_command == "show":
                product = find_product(agent, self.args.gift_id, locale=command_language())
            else:
                results = search_catalog(agent, query)
        finally:
            agent.close()
        if self.args.catalog_command == "show":
            if self.args.json:
                self.emit_json(product_json(product, load_rates()))
            else:
                self._print_product(product)
            return 0
        if self.args.json:
            self.emit_json(search_document(query, results))
        else:
            if not results:
                self.print_plain(say("catalog.no_match", quoted=repr(query)))
            for p in results:
                self.print_plain(f"{p.id}  {p.title} — {p.price:.2f} {p.currency}")
        return 0

    def _print_product(self, p: Product) -> None:
        from giftgenius.catalog import load_rates, prices_of

        prices = prices_of(p, load_rates())
        lines = [
            f"{p.id}  {p.title}",
            p.description,
            say("product.prices", prices=", ".join(f"{v:.2f} {k}" for k, v in prices.items())),
            say("product.tags", tags=", ".join(p.tags)),
            say(
                "product.audience",
                recipients=", ".join(p.recipients),
                youngest=p.min_age or 0,
                oldest=p.max_age or "∞",
            ),
            say(
                "product.shipping",
                countries=", ".join(p.ships_to),
                delivery=count("product.delivery", p.delivery_days),
                stock=say("product.in_stock" if p.in_stock else "product.out_of_stock"),
            ),
        ]
        self.print_plain("\n".join(lines))

    def db(self) -> int:
        from giftgenius.storage import migrate

        url = self.settings.effective_database_url
        self.settings.home.mkdir(parents=True, exist_ok=True)
        if self.args.db_command == "upgrade":
            migrate.upgrade(url, self.args.revision)
        elif self.args.db_command == "downgrade":
            current = migrate.current(url) or say("db.empty")
            question = say("db.ask_down", current=current, target=self.args.revision)
            if not self._agreed(question):
                self.err.print(say("db.declined"), markup=False)
                return 1
            migrate.downgrade(url, self.args.revision)
        revision = migrate.current(url) or say("db.empty")
        self.out.print(say("db.revision", revision=revision), markup=False)
        return 0

    def bench(self) -> int:
        if self.args.what == "turn":
            from giftgenius.bench import turn

            return turn.main(self.args.rest, self.settings, out=self.out, err=self.err)
        if self.args.what == "load":
            from giftgenius.bench import load

            return load.main(self.args.rest, self.settings, out=self.out, err=self.err)
        if self.args.what == "http":
            from giftgenius.bench import over_http

            return over_http.main(self.args.rest, self.settings, out=self.out, err=self.err)
        if self.args.what == "memory":
            from giftgenius.bench import memory

            return memory.main(self.args.rest, self.settings)
        from giftgenius.bench import context, search
        from giftgenius.bench import state as soak

        chosen = {"context": context, "state": soak, "search": search}[self.args.what]
        return chosen.main(self.args.rest)

    def model(self) -> int:
        """``model serve``: the offline model behind a socket until Ctrl-C or SIGTERM."""
        from giftgenius.llm.factory import offline_transport, preload
        from giftgenius.llm.server import WireServer, serve

        preload()  # the first request should not pay for the tables
        transport = offline_transport(self.settings)

        def ready(server: WireServer) -> None:
            line = say("serve.ready", url=server.base_url, model=transport.model)
            self.out.print(line, markup=False, highlight=False)
            self.out.file.flush()

        def log(line: str) -> None:
            self.err.print(line, markup=False, highlight=False)

        try:
            serve(
                transport,
                self.args.host,
                self.args.port,
                ready=ready,
                log=None if self.args.quiet else log,
            )
        except KeyboardInterrupt:
            self.err.print(say("serve.stopped"), markup=False)
        return 0

    def serve(self) -> int:
        """``serve``: the HTTP service under uvicorn, until Ctrl-C or SIGTERM."""
        from giftgenius.cli.serve_cmd import serve

        def say(line: str) -> None:
            self.err.print(line, markup=False, highlight=False)
            self.err.file.flush()

        return serve(
            self.settings,
            vars(self.args),
            host=self.args.host,
            port=self.args.port,
            workers=self.args.workers,
            quiet=self.args.quiet,
            say=say,
        )

    def keys(self) -> int:
        """``keys create|list|revoke|token``: the service's API keys. ``create`` prints the
        key as its last line, once; only its hash is kept. ``token`` mints a signed token."""
        from giftgenius.cli.keys_cmd import create_key, list_keys, mint_token, revoke_key

        if self.args.keys_command == "token":
            lang = command_language()
            for line in mint_token(self.settings, self.args.user, self.args.ttl, lang):
                self.print_plain(line)
            return 0
        reader = self.reader()
        try:
            if self.args.keys_command == "create":
                lines = create_key(reader, self.args.user, command_language())
            elif self.args.keys_command == "revoke":
                lines = revoke_key(reader, self.args.key_id, command_language())
            else:
                document, lines = list_keys(reader, self.args.user, command_language())
                if self.args.json:
                    self.emit_json(document)
                    return 0
        finally:
            reader.close()
        for line in lines:
            self.print_plain(line)
        return 0

    def eval(self) -> int:
        """Each dialogue plays in its own home on embedded defaults, whatever this one uses,
        but for the model when ``--model`` names one (with this environment's endpoint)."""
        from giftgenius.evaluate.runner import main as evaluate

        return evaluate(
            self.args.directory,
            as_json=self.args.json,
            replays=self.args.replays,
            seed=self.args.seed,
            jobs=self.args.jobs,
            only=self.args.only,
            out=self.out.file,
            err=self.err.file,
            fresh=self.args.fresh,
            model=getattr(self.args, "model", None),
            settings=self.settings,
            record=self.args.record,
        )


def main(
    argv: Sequence[str] | None = None,
    *,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    stdin = stdin or sys.stdin
    try:
        parser = _parser()
        args = parser.parse_args(argv)
        if args.command is None:  # bare `giftgenius`: what it can do, not an error
            parser.print_help(stdout or sys.stdout)
            return 0
        _refuse_undecodable(args)
    except SystemExit as exc:  # --help and --version print and exit 0
        return int(exc.code or 0)
    except UsageError as exc:
        return _report(exc, _console(stderr or sys.stderr))
    out, err = _console(stdout or sys.stdout), _console(stderr or sys.stderr)
    try:
        cli = Cli(args, stdin, out, err)
        return getattr(cli, args.command)()
    except GiftGeniusError as exc:
        return _report(exc, err)
    except KeyboardInterrupt:
        from giftgenius import messages

        err.print(messages.text("errors", "interrupted", command_language()), markup=False)
        return 130


def json_for_terminal(data: Any) -> str:
    """``data`` as indented JSON whose text cannot drive a terminal, the data kept exact.

    ``json.dumps`` escapes C0 controls (ESC among them) but, with ``ensure_ascii=False``,
    leaves C1 controls (the 8-bit CSI U+009B) and bidi overrides raw. Each character
    ``strip_controls`` would remove is written as its ``\\uXXXX`` escape instead: a JSON
    reader gets the same string back, a terminal sees only printable text.
    """
    from giftgenius.privacy import strip_controls

    def escape(match: re.Match[str]) -> str:
        char = match.group()
        return char if strip_controls(char) == char else json.dumps(char)[1:-1]

    document = json.dumps(data, ensure_ascii=False, indent=2, default=str)
    return _NOT_PLAIN_ASCII.sub(escape, document)


_NOT_PLAIN_ASCII = re.compile(r"[^\x20-\x7e\n]")
"""What ``json_for_terminal`` looks at: printable ASCII and newline are never controls."""


_UNDECODABLE = re.compile("[\ud800-\udfff]")
"""What Python makes of an argument's bytes that are not UTF-8 (``surrogateescape``)."""


def _refuse_undecodable(args: argparse.Namespace) -> None:
    """An id or word whose bytes are not UTF-8 is a usage error, not a database crash.

    A shell passes ``$'\\xff'`` as a str holding a lone surrogate, which neither database
    driver will encode. Paths (``Path`` values) are left alone: on POSIX a file name may be
    any bytes, and the file system takes them back as they came.
    """
    for name, value in vars(args).items():
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, str) and _UNDECODABLE.search(item):
                shown = item.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
                raise UsageError(
                    say("usage.undecodable", name=name.replace("_", " "), shown=repr(shown))
                )


def _console(file: TextIO) -> Console:
    """A rich console, imported only once parsing is done: --help and --version need none.

    On a terminal, text wraps at word boundaries to the terminal's width (otherwise the
    terminal itself cuts lines mid-word); piped, lines are written whole, as they were said,
    for the program that reads them.
    """
    from rich.console import Console

    return Console(file=file, soft_wrap=not _is_terminal(file))


def _is_terminal(file: TextIO) -> bool:
    try:
        return file.isatty()
    except (AttributeError, ValueError):  # a closed or file-like stream
        return False


def _report(exc: GiftGeniusError, err: Console) -> int:
    """Every error ends the same way: one ``error:`` line on stderr and its exit code.

    The line is cleaned of control characters: a message may quote a file or a value it
    refused, and that text must not act on the terminal it is shown in.
    """
    from giftgenius.privacy import strip_controls

    line = say("error", message=strip_controls(str(exc)))
    err.print(line, markup=False, highlight=False)
    return exc.exit_code


def _terminate(signum: int, frame: object) -> None:
    raise KeyboardInterrupt  # unwind through finally blocks: leases released, nothing half-saved


def entrypoint() -> None:
    signal.signal(signal.SIGTERM, _terminate)
    sys.exit(main())
