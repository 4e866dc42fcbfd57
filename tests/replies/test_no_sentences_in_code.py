"""Every sentence the person reads is in the message catalogue, never written in code.

A sentence written in code exists in one language only and escapes the test that holds
English and French to the same keys. So every module of the package is scanned for string
literals that read like a sentence — three words or more — outside what is not said to the
person: docstrings, logging calls, regular expressions (they read input), the tools'
descriptions and hints for the model, and the errors a programmer reads. What is left over
must be in the allow-list below, with the reason it is not a sentence for the person.

The commands speak the environment's language (``messages.speak``): what they say is the
catalogue's ``commands`` section, their option help (``--help``) its ``help`` section, and
the stores, the settings, the model client, a catalog import, the evaluator, the
benchmarks, the scripted model and the demos have sections of their own. Not scanned
(``UNSCANNED``): the lexicons and their readers, the offline model and the endpoint's side
of the chat-completions wire, the personal-data patterns. SQL and Lua are code, not
sentences, and are told apart by their keywords (unless the words read as a sentence).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import giftgenius

PACKAGE = Path(giftgenius.__file__).parent

# What is not scanned, and why: none of it speaks to the person.
UNSCANNED = {
    # The lexicons and their readers: words and phrase patterns that read what people type,
    # and what a broken lexicon file says to whoever edits it.
    "language/": "lexicons",
    # The offline model is a model: its replies are data-driven (made with replies/, from the
    # catalogue), its patterns read input, and its errors are the chat-completions API's,
    # worded as OpenAI words them, for the client program that sent the request.
    "offline/": "offline model",
    # The endpoint's side of the chat-completions wire (its errors are the API's, as above).
    "chatwire.py": "wire",
    "llm/server.py": "wire",
    "llm/served.py": "wire",
    # Prometheus series: their HELP lines are read by whoever scrapes and graphs them, in
    # English like the series names and labels they describe.
    "metrics.py": "metric help",
    # Patterns and word lists that find personal data in what people type.
    "privacy.py": "patterns",
}

# Every other module of the package is scanned.
SPEAKING = sorted(
    path
    for path in PACKAGE.rglob("*.py")
    if not str(path.relative_to(PACKAGE)).startswith(tuple(UNSCANNED))
)

# (module, function or "", text) that look like a sentence and are none for the person.
ALLOWED = {
    # The web page's Content-Security-Policy header: directives for the browser.
    (
        "service/web.py",
        "",
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
        "img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
    ),
    # The OpenAPI document's description, for the developers who call the API, in English
    # like the schema's field names it sits beside.
    (
        "service/app.py",
        "",
        "A gift-choosing chat agent over HTTP. Every `/v1` request carries an API key "
        "(`Authorization: Bearer KEY`, made with `giftgenius keys create --user NAME`) and "
        'acts for that key\'s user only. Errors are `{"error": {"code", "message"}}`.',
    ),
    # What the fork server's warm-up reads as if a person had typed it (llm/factory.preload),
    # to build the reader's tables once: said to the reader, never to a person.
    ("llm/factory.py", "", "my mum in Toronto loves tea, 30 euros, the second one"),
    ("llm/factory.py", "", "is the first in time?"),
    ("llm/factory.py", "", "ma tante à Lyon aime le thé, 40 euros max, le premier"),
    ("llm/factory.py", "", "le deuxième arrive quand ?"),
    ("llm/factory.py", "preload", "Garden Kneeling Pad"),
    # The catalog's stable reasons and the revalidation's notice, as the code writes them
    # for the model; the person reads them through phrasing.reason and recap.since_you_left.
    ("agent/tools/candidates.py", "_checked", "removed from the catalog"),
    ("cli/recap.py", "since_you_left", " is no longer available: "),
    # /state and /usage are diagnostic readouts (run ids, step names, token counts), for
    # whoever runs the terminal to look inside a run; they stay in English, like the names
    # of the steps and fields they show.
    ("cli/render.py", "render_usage", "last request:  prompt +  completion tokens"),
    ("cli/render.py", "render_usage", "session:  requests,  prompt +  completion tokens"),
    ("cli/render.py", "render_usage", "summaries:  calls,  prompt +  completion tokens"),
    ("cli/render.py", "render_usage",
     "context:  truncated requests,  summarizations,  refused as too long"),
    ("cli/render.py", "render_usage", "unknown for this model"),
    # A usage line: the command's syntax, its words are its name and its metavars.
    ("cli/main.py", "_parser",
     "giftgenius bench [-h] {context,state,search,turn,load,http,memory} [OPTIONS...]"),
    ("cli/render.py", "render_state", "run  · version  · from "),
    ("cli/render.py", "checkpoints", "  v step= candidates="),
    # Programming errors: the lease's owner is the process's own id, never typed; a write
    # in a read transaction, a datetime without its zone, a closed store used again, a
    # dialect the engine refused long before, are the code's mistakes, not the person's.
    ("storage/leases.py", "hold_lease",
     "A lease owner must be a non-empty string (e.g. a process/turn id)."),
    ("storage/db.py", "_errors",
     "A write was attempted inside db.read(); make it inside db.write()."),
    ("storage/checkpoints.py", "_aware",
     "A checkpoint's created_at lost its time zone; store UTC datetimes."),
    ("storage/checkpoints.py", "prune", "prune needs a timezone-aware cutoff (UTC)."),
    ("storage/sqlite_sessions.py", "_connection",
     "The session store  is closed; create a new store to use it again."),
    ("storage/upsert.py", "insert_for",
     "Unsupported database dialect ; use SQLite or PostgreSQL."),
    # How the drivers word a fault: matched against what they say, never said by us.
    ("storage/db.py", "", "file is not a database"),
    ("storage/db.py", "", "database disk image is malformed"),
    ("storage/db.py", "", "database or disk is full"),
    ("storage/db.py", "", "no space left on device"),
    ("storage/db.py", "", "could not extend file"),
    ("storage/db.py", "", "too many sql variables"),
    ("storage/db.py", "", "number of parameters must be between"),
    ("storage/db.py", "_errors", "database is locked"),
    # Stands in for a URL that cannot be parsed, where the URL would be: a value, not words.
    ("storage/db.py", "mask_url", "<unparsable database URL>"),
    # Said to the model, not the person: the prompt's summary header and notes, the summary
    # request, the catalog's stable reasons a gift was dropped (the person reads them through
    # phrasing.reason and recap.since_you_left). The recorded requests are replayed byte for
    # byte (tests/llm/test_llama_cpp_replay.py), so they stay as they are.
    ('agent/prompt_window.py', '', 'Summary of the earlier conversation: '),
    (
        'agent/prompt_window.py',
        '',
        "Notes from this person's earlier searches for this recipient, newest first "
        "(`recall_memories` finds more):\n",
    ),
    ('agent/prompt_window.py', '', '…[truncated {n} tokens]'),
    ('agent/prompt_window.py', '_fit_turn', 'summary omitted: this turn needs the room'),
    ('agent/revalidate.py', 'revalidate', 'removed from the catalog'),
    ('agent/revalidate.py', 'revalidate', ' is no longer available: '),
    ('agent/summary.py', '_request_text', 'Write the new summary in at most  words.'),
    ('catalog/relaxing.py', 'relaxations', 'cannot arrive by'),
    ('catalog/relaxing.py', 'relaxations', 'does not ship to'),
    ('catalog/search.py', 'check', 'out of stock'),
    ('catalog/search.py', 'check', 'over budget (max  )'),
    ('catalog/search.py', 'check', 'under budget (min  )'),
    ('catalog/search.py', 'check', 'does not ship to '),
    ('catalog/search.py', 'check', 'cannot arrive by '),
    ('protocol.py', '', 'Messages to fold (oldest first):'),
    # Data, not sentences for the person: what a benchmark's simulated person types and its
    # model answers, a synthetic product's description, a benchmark's search words.
    ('bench/context.py', '',
     'You are GiftGenius, an assistant that helps a person choose a gift. Learn who the '
     'gift is for, their budget and interests, propose candidates from the catalog through '
     'tools, filter them, and record the final choice once the user confirms. Reply in the '
     "user's language. Never invent products: read them through tools. "),
    ('bench/context.py', 'complete', 'No facts yet.'),
    ('bench/context.py', 'synthetic_turn',
     "I'm looking for a gift for my  who loves ; budget about  dollars, delivery to France "
     'before the th. Something not too bulky, please (turn ).'),
    ('bench/context.py', 'synthetic_turn', 'matches ; ships to FR; well reviewed by s'),
    ('bench/context.py', 'synthetic_turn',
     'Here are three ideas for your : the  ( USD), the  and the , all within your budget '
     'and deadline. Which one would you like, or would you like something more personal?'),
    ('bench/players.py', '',
     'The user looks for a gift for their sister, 34, in France, within 80 EUR.'),
    ('bench/players.py', '', 'what else would suit her?'),
    ('bench/players.py', '', 'she also likes to spend time outdoors'),
    ('bench/players.py', '', 'show me something a bit different'),
    ('bench/players.py', '', 'which of these ships the fastest?'),
    ('bench/players.py', 'reply_line', '[ t] Here is where we are.'),
    ('bench/players.py', 'user_line',
     ' a gift for my sister, she is 34, up to 80 euros, shipped to France'),
    ('bench/search.py', '', 'jeux de société'),
    ('bench/state.py', '',
     'I need a gift for my colleague, he loves board games and coffee, budget 50 dollars'),
    ('bench/state.py', '', "He's 35 and works as a developer"),
    ('bench/state.py', '', 'He hates mugs, he has far too many'),
    ('bench/state.py', '', 'Tell me more about the first one'),
    ('bench/state.py', '', 'What about the second one, how long is delivery?'),
    ('bench/state.py', '', 'Hmm, let me think about it for a moment'),
    ('bench/state.py', '', 'Is the third one good for someone who plays with friends on weekends?'),
    ('bench/state.py', '', 'Can you remind me what the fourth option was?'),
    ('bench/state.py', '', 'He also drinks a lot of espresso at the office'),
    ('bench/state.py', '', "I'm still hesitating between a few of them"),
    ('bench/state.py', '', 'Which of these would arrive the fastest?'),
    ('bench/state.py', '', "I'll take the first one"),
    ('bench/state.py', '', 'Yes, please confirm it'),
    ('catalog/synthetic.py', 'synthetic_product',
     'A  for people who love ; it also suits . Synthetic product  of catalog , for '
     'benchmarks.'),
    # A command's name, as argparse shows it in a usage line.
    ('bench/context.py', 'main', 'giftgenius bench context'),
    ('bench/load.py', 'main', 'giftgenius bench load'),
    ('bench/over_http.py', 'main', 'giftgenius bench http'),
    ('bench/memory.py', 'main', 'giftgenius bench memory'),
    ('bench/search.py', 'main', 'giftgenius bench search'),
    ('bench/state.py', 'main', 'giftgenius bench state'),
    ('bench/turn.py', 'parser', 'giftgenius bench turn'),
    # SQL whose keywords the scan does not know (COPY … FROM STDIN).
    ('bench/memory.py', '_fill_postgres', 'COPY memories () FROM STDIN (FORMAT BINARY)'),
    # For whoever develops GiftGenius: a test-only fault switch, a missing module attribute,
    # a log record that cannot be formatted (written in the log itself).
    ('faults.py', 'fault', 'GIFTGENIUS_FAULT_SIGNAL= is not a fault signal: use one of .'),
    ('lazy.py', '__getattr__', 'module  has no attribute '),
    ('logs.py', 'filter', 'unformattable log message ():  % '),
}  # fmt: skip

_LETTER = re.compile(r"[^\W\d_]")
_LOGGING = {"debug", "info", "warning", "error", "exception", "critical", "log"}
_LOGGERS = {"log", "logging", "logger"}
_REGEX = {"compile", "match", "search", "sub", "fullmatch"}  # a pattern reads input
_PROGRAMMER_ERRORS = {"TypeError", "ValueError", "AssertionError", "RuntimeError", "KeyError"}
_FOR_THE_MODEL = {"description", "hint", "error"}  # a tool's text for the model, not the person
# SQL and Lua sent to a store: their keywords are upper case, which no sentence's words are.
_CODE = re.compile(
    r"\b(SELECT|INSERT|UPDATE|DELETE|CREATE|ALTER|DROP|PRAGMA|ANALYZE|WHERE|AND|OR|IN|IS|"
    r"NULL|NOT|CASE|WHEN|THEN|END|LIKE|EXISTS|LIMIT|CAST|RENAME)\b|redis\.call"
)
# ... unless it is shaped like a sentence, capital first and a full stop last, which no
# statement is: a sentence naming one ("run ALTER ROLE … CREATEDB.") is still a sentence.
_SENTENCE = re.compile(r"[A-Z][a-z].*[.?!]", re.DOTALL)


def _is_sentence(text: str) -> bool:
    """Three words or more: pieces between spaces with a letter (a key such as
    "choice.not_ready" or "order_draft_id" is one word)."""
    return sum(1 for piece in text.split() if _LETTER.search(piece)) >= 3


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
        # A string right after an assignment documents it ("attribute docstring").
        if hasattr(node, "body") and isinstance(node.body, list):
            for before, after in zip(node.body, node.body[1:], strict=False):
                documented = isinstance(before, ast.Assign | ast.AnnAssign)
                value = after.value if isinstance(after, ast.Expr) else None
                if documented and isinstance(value, ast.Constant):
                    found.add(id(value))
    return found


def _name(func: ast.expr) -> str:
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else ""


def _unsaid(tree: ast.AST) -> set[int]:
    """The nodes under something that is not said to the person."""
    skipped: set[int] = set()

    def skip(node: ast.AST) -> None:
        skipped.update(id(inner) for inner in ast.walk(node))

    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = _name(node.func)
            owner = node.func.value if isinstance(node.func, ast.Attribute) else None
            module = owner.id if isinstance(owner, ast.Name) else ""
            if (name in _LOGGING and module in _LOGGERS) or (module == "re" and name in _REGEX):
                skip(node)
            for keyword in node.keywords:
                if keyword.arg in _FOR_THE_MODEL:
                    skip(keyword.value)
        elif isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
            if _name(node.exc.func) in _PROGRAMMER_ERRORS:
                skip(node.exc)
        elif isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                if isinstance(key, ast.Constant) and key.value in _FOR_THE_MODEL:
                    skip(value)
    return skipped


def _functions(tree: ast.AST) -> dict[int, str]:
    """Each node's innermost enclosing function's name."""
    owner: dict[int, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for inner in ast.walk(node):
                owner[id(inner)] = node.name  # inner functions are walked later and win
    return owner


def literals(path: Path) -> Iterator[tuple[str, str, int]]:
    """(function, text, line) of each string literal said to the person that reads like a
    sentence; an f-string reads as its literal parts joined."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    ignored = _docstrings(tree) | _unsaid(tree)
    owner = _functions(tree)
    parts_of_fstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            parts_of_fstrings.update(id(v) for v in node.values)
    for node in ast.walk(tree):
        if id(node) in ignored or id(node) in parts_of_fstrings:
            continue
        if isinstance(node, ast.JoinedStr):
            text = "".join(v.value for v in node.values if isinstance(v, ast.Constant))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value
        else:
            continue
        code = _CODE.search(text) and not _SENTENCE.fullmatch(text.strip())
        if _is_sentence(text) and not code:
            yield owner.get(id(node), ""), text, node.lineno


def reported(module: str, path: Path) -> list[str]:
    """The sentences of ``path`` (read as ``module``) that are not allowed."""
    return [
        f"{module}:{line} {text!r}"
        for function, text, line in literals(path)
        if (module, function, text) not in ALLOWED
    ]


@pytest.mark.slow
@pytest.mark.parametrize("path", SPEAKING, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_sentence_for_the_person_is_written_in_code(path: Path) -> None:
    found = reported(str(path.relative_to(PACKAGE)), path)
    assert not found, "say these through giftgenius.messages:\n" + "\n".join(found)


def test_the_scan_finds_a_sentence_written_in_code(tmp_path: Path) -> None:
    module = tmp_path / "speaks.py"
    module.write_text(
        '"""A docstring says why, and is not said."""\n'
        "import logging\n"
        "log = logging.getLogger(__name__)\n"
        "def reply(locale):\n"
        '    log.info("a logged line is not said either")\n'
        '    return f"Here are {3} ideas for you" if locale else "ok"\n',
        encoding="utf-8",
    )
    assert [text for _, text, _ in literals(module)] == ["Here are  ideas for you"]


def test_a_sentence_naming_an_sql_statement_is_still_a_sentence(tmp_path: Path) -> None:
    module = tmp_path / "speaks.py"
    module.write_text(
        "def fail(db):\n"
        '    db.execute("SELECT id FROM products WHERE id = ?")\n'
        '    return f"Could not create a database on {db}; run ALTER ROLE … CREATEDB."\n',
        encoding="utf-8",
    )
    assert [text for _, text, _ in literals(module)] == [
        "Could not create a database on ; run ALTER ROLE … CREATEDB."
    ]


@pytest.mark.slow
def test_every_allowed_literal_is_still_there() -> None:
    found = {
        (str(path.relative_to(PACKAGE)), function, text)
        for path in SPEAKING
        for function, text, _ in literals(path)
    }
    assert found >= ALLOWED, ALLOWED - found


def test_the_commands_are_scanned_their_option_help_too(tmp_path: Path) -> None:
    """A command's sentence written back in code is found, and so is its option help."""
    scanned = {str(path.relative_to(PACKAGE)) for path in SPEAKING}
    assert {"cli/main.py", "cli/catalog_cmd.py", "cli/generate.py", "cli/speech.py"} <= scanned
    assert {"catalog/importing.py", "evaluate/judge.py", "bench/turn.py"} <= scanned
    assert {"llm/scripted.py", "demos/__init__.py", "arguments.py"} <= scanned
    module = tmp_path / "main.py"
    module.write_text(
        "def _parser(sub):\n"
        '    sub.add_argument("--yes", help="do not ask for confirmation")\n'
        "def prune(out, n):\n"
        '    out.print(f"Pruned {n} old checkpoints.")\n'
        '    out.print("Nothing was deleted.")\n',
        encoding="utf-8",
    )
    assert sorted(reported("cli/main.py", module)) == [
        "cli/main.py:2 'do not ask for confirmation'",
        "cli/main.py:4 'Pruned  old checkpoints.'",
        "cli/main.py:5 'Nothing was deleted.'",
    ]
