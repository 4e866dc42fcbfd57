"""The evaluator's fork server: imports the application once and forks one child per command.

An evaluation starts some 1,300 commands (``chat``, ``resume``, ``state``…), and a command
started from nothing spends about half of its CPU before it reads its first line:
importing the application (openai, SQLAlchemy, pydantic models, ~500 regular expressions)
and loading the tables that are pure functions of our code and of library data (the
vocabulary, the place index, the word lists, the tokenizer). A fork server — the way web
servers preload an application — pays that once per job.

Each command still runs in a process of its own, through the same ``entrypoint`` as
``python -m giftgenius``, with its own environment, working directory, standard input and
exit code, and nothing of it survives into the next: the child starts as a copy of a server
that has imported modules and built those tables, and has never read a setting, opened a
store or talked to a model. Python reseeds ``random`` in every forked child.

The protocol is one JSON line each way on the server's standard input and output:
``{"args", "stdin", "env", "cwd", "timeout"}`` in, ``{"returncode", "stdout", "stderr"}``
out (``returncode`` is None when the command ran out of time and was killed).
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import sys
import tempfile
import time
import traceback
from typing import Any, BinaryIO


def preload() -> None:
    """Import what the commands import and build the tables every ``chat`` reads."""
    import giftgenius.agent.runner
    import giftgenius.app
    import giftgenius.cli.chat
    import giftgenius.cli.main
    import giftgenius.storage.db  # noqa: F401
    from giftgenius.llm.factory import preload as preload_model

    preload_model()


def serve() -> None:
    """Answer requests until the standard input closes.

    The client starts the server in a session of its own, so a terminal's Ctrl-C
    interrupts the evaluation alone, which then closes its servers; a client that died
    (killed outright) closes the server's input, and the command under way is killed at
    once rather than left writing into a folder that is being swept.
    """
    requests = os.fdopen(os.dup(0), "rb")
    replies = os.fdopen(os.dup(1), "wb")
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.dup2(2, 1)  # a stray print of the server's own goes to its stderr, not the protocol
    os.close(null)
    preload()
    channels = (requests.fileno(), replies.fileno())
    for line in requests:
        try:
            reply = _run(json.loads(line), channels)
        except ClientGone:
            return
        replies.write(json.dumps(reply).encode() + b"\n")
        replies.flush()


def _run(request: dict[str, Any], channels: tuple[int, int]) -> dict[str, Any]:
    with (
        tempfile.TemporaryFile() as stdin,
        tempfile.TemporaryFile() as out,
        tempfile.TemporaryFile() as err,
    ):
        stdin.write(request["stdin"].encode())
        stdin.seek(0)
        pid = os.fork()
        if pid == 0:  # the child: never returns
            _child(request, (stdin, out, err), channels)
        returncode = _wait(pid, float(request["timeout"]), channels[0])
        out.seek(0)
        err.seek(0)
        return {
            "returncode": returncode,
            "stdout": out.read().decode("utf-8", "replace"),
            "stderr": err.read().decode("utf-8", "replace"),
        }


def _child(
    request: dict[str, Any], files: tuple[BinaryIO, BinaryIO, BinaryIO], channels: tuple[int, int]
) -> None:
    code = 1
    try:
        for fd in channels:
            os.close(fd)
        for target, file in enumerate(files):
            os.dup2(file.fileno(), target)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        sys.argv = ["giftgenius", *request["args"]]
        from giftgenius.cli.main import entrypoint

        try:
            entrypoint()
            code = 0
        except SystemExit as exc:  # as the interpreter itself reports it
            if exc.code is None or isinstance(exc.code, int):
                code = exc.code or 0
            else:
                print(exc.code, file=sys.stderr)
    except BaseException:
        traceback.print_exc()
    finally:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):  # a closed stream: nothing more to say
                stream.flush()
        os._exit(code)


class ClientGone(Exception):
    """The client closed the server's input while a command ran: it is not waiting."""


def _wait(pid: int, timeout: float, requests: int) -> int | None:
    """The child's exit code, or None after killing it when ``timeout`` ran out.

    Nothing arrives on ``requests`` while a command runs (one request, one reply), so
    anything readable there is the end of the input: the child is killed and
    ``ClientGone`` raised.
    """
    deadline = time.monotonic() + timeout
    handle = os.pidfd_open(pid) if hasattr(os, "pidfd_open") else None
    try:
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                return os.waitstatus_to_exitcode(status)
            left = deadline - time.monotonic()
            gone = select.select([requests], [], [], 0)[0]
            if left <= 0 or gone:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                if gone:
                    raise ClientGone
                return None
            if handle is not None:
                select.select([handle, requests], [], [], left)
            else:
                time.sleep(min(left, 0.005))
    finally:
        if handle is not None:
            os.close(handle)


if __name__ == "__main__":
    serve()
