"""Every sentence the person reads is in the message catalogue, never written in code.

A sentence written in a module that speaks to the person exists in one language only and
escapes the test that holds English and French to the same keys. So the modules that speak
to the person are scanned for string literals that read like a sentence — three words or
more — outside what is not said to the person: docstrings, logging calls, regular
expressions (they read input), the tools' descriptions and hints for the model, and the
errors a programmer reads. What is left over must be in the short allow-list below, with
the reason it is not a sentence for the person.

The terminal's modules are all scanned, the operator commands (``cli/main.py``,
``cli/catalog_cmd.py``, ``cli/generate.py``) among them: they speak the environment's
language through the catalogue's ``commands`` section, and their option help (``--help``)
through its ``help`` section. So are the stores
(``storage/``) and the settings (``settings.py``, ``tokens.py``), whose errors a command
ends on, the values a command line refuses (``arguments.py``, ``domain.py``) and the model
client's errors (``llm/factory.py``, ``llm/openai_chat.py``): they speak the environment's
language through ``messages.speak``. Their SQL and
Lua are code, not sentences, and are told apart by their keywords.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import giftgenius

PACKAGE = Path(giftgenius.__file__).parent

# The modules that speak to the person.
SPEAKING = sorted(
    [
        *(PACKAGE / "replies").glob("*.py"),
        *(PACKAGE / "cli").glob("*.py"),
        *(PACKAGE / "agent" / "tools").glob("*.py"),
        PACKAGE / "agent" / "runner.py",
        *(PACKAGE / "storage").glob("*.py"),
        PACKAGE / "settings.py",
        PACKAGE / "tokens.py",
        PACKAGE / "arguments.py",
        PACKAGE / "domain.py",
        PACKAGE / "llm" / "factory.py",
        PACKAGE / "llm" / "openai_chat.py",
        PACKAGE / "catalog" / "importing.py",
        PACKAGE / "catalog" / "models.py",
        *(PACKAGE / "evaluate").glob("*.py"),
        PACKAGE / "llm" / "scripted.py",
    ]
)

# (module, function or "", text) that look like a sentence and are none for the person.
ALLOWED = {
    # The catalog's stable reasons and the revalidation's notice, as the code writes them
    # for the model; the person reads them through phrasing.reason and recap.since_you_left.
    ("agent/tools/candidates.py", "refilter", "removed from the catalog"),
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
     "giftgenius bench [-h] {context,state,search,turn,load} [OPTIONS...]"),
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
        if _is_sentence(text) and not _CODE.search(text):
            yield owner.get(id(node), ""), text, node.lineno


def reported(module: str, path: Path) -> list[str]:
    """The sentences of ``path`` (read as ``module``) that are not allowed."""
    return [
        f"{module}:{line} {text!r}"
        for function, text, line in literals(path)
        if (module, function, text) not in ALLOWED
    ]


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
