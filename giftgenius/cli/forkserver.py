"""The fork server: imports the application once and forks one child per command.

An evaluation starts some 1,300 commands (``chat``, ``resume``, ``state``…), and a command
started from nothing spends about half of its CPU before it reads its first line:
importing the application (openai, SQLAlchemy, pydantic models, ~500 regular expressions)
and loading the tables that are pure functions of our code and of library data (the
vocabulary, the place index, the word lists, the tokenizer). A fork server — the way web
servers preload an application — pays that once; the evaluator and the test suite's
commands use it (``giftgenius.evaluate.forking`` is the client).

Each command still runs in a process of its own, through the same ``entrypoint`` as
``python -m giftgenius``, with its own environment, working directory, standard streams,
exit code and signals, and nothing of it survives into the next: the child starts as a copy
of a server that has imported modules and built those tables, and has never read a
setting, opened a store or talked to a model; it keeps no file descriptor of the server's
but its three standard streams. Python reseeds ``random`` in every forked child.

The protocol runs over the Unix socket that is the server's standard input. A request is
one JSON line, ``{"args", "env", "cwd"}``, sent with four file descriptors: the child's
standard input, output and error (pipes or files of the client's), and the write end of a
pipe that will carry its exit status. The server forks at once and answers one JSON line,
``{"pid"}``, with a pidfd of the child where the system has them (the client signals
through it, so a signal never reaches a process that took the pid over), then waits for
the next request. When a child ends, the server writes its exit code (negative: the signal
that ended it, as ``subprocess`` reports it) as one line on its status pipe, and closes it.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import socket
import sys
import traceback
from typing import Any

CHILD_FDS = 4  # standard input, output, error and the status pipe
POLL = 0.005  # seconds between looks at the children where there are no pidfds


def preload() -> None:
    """Import what the commands import and build the tables every ``chat`` reads."""
    import giftgenius.agent.runner
    import giftgenius.app
    import giftgenius.cli.chat
    import giftgenius.cli.main
    import giftgenius.storage.db  # noqa: F401
    from giftgenius.formats import preload as preload_formats
    from giftgenius.llm.factory import preload as preload_model

    preload_model()
    preload_formats()


class Children:
    """The commands under way: each one's status pipe and pidfd, by pid."""

    def __init__(self) -> None:
        self.status: dict[int, int] = {}
        self.pidfds: dict[int, int] = {}

    def add(self, pid: int, status: int) -> int | None:
        self.status[pid] = status
        if not hasattr(os, "pidfd_open"):
            return None
        self.pidfds[pid] = os.pidfd_open(pid)
        return self.pidfds[pid]

    def reap(self) -> None:
        """Tell each ended child's client its exit code."""
        for pid in list(self.status):
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                self._report(pid, os.waitstatus_to_exitcode(status))

    def kill_all(self) -> None:
        """The client is gone: no command of its outlives it."""
        for pid in list(self.status):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
            _, status = os.waitpid(pid, 0)
            self._report(pid, os.waitstatus_to_exitcode(status))

    def _report(self, pid: int, code: int) -> None:
        status = self.status.pop(pid)
        with contextlib.suppress(OSError):  # the client stopped listening: nothing to tell
            os.write(status, f"{code}\n".encode())
        os.close(status)
        pidfd = self.pidfds.pop(pid, None)
        if pidfd is not None:
            os.close(pidfd)


def serve() -> None:
    """Answer requests until the client closes the socket, then kill what is still running.

    The client starts the server in a session of its own, so a terminal's Ctrl-C
    interrupts the client alone, which then closes its server; a client that died (killed
    outright) closes the socket too, and the commands under way are killed at once rather
    than left writing into a folder that is being swept.
    """
    channel = socket.socket(fileno=os.dup(0))
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.dup2(2, 1)  # a stray print of the server's own goes to its stderr
    os.close(null)
    preload()
    children = Children()
    pending, fds = b"", []
    try:
        while True:
            poll = None if len(children.pidfds) == len(children.status) else POLL
            ready = select.select([channel.fileno(), *children.pidfds.values()], [], [], poll)[0]
            children.reap()
            if channel.fileno() not in ready:
                continue
            data, received, _, _ = socket.recv_fds(channel, 65536, CHILD_FDS)
            fds += received
            if not data:
                return  # the client is gone
            pending += data
            if pending.endswith(b"\n"):  # one request at a time: the client waits
                request, mine, pending, fds = json.loads(pending), fds, b"", []
                pid, pidfd = _start(request, mine, children)
                reply = json.dumps({"pid": pid}).encode() + b"\n"
                socket.send_fds(channel, [reply], [] if pidfd is None else [pidfd])
    finally:
        children.kill_all()


def _start(request: dict[str, Any], fds: list[int], children: Children) -> tuple[int, int | None]:
    """Fork the command; the server keeps only the status pipe's write end."""
    assert len(fds) == CHILD_FDS, fds
    for stream in (sys.stdout, sys.stderr):  # nothing of the server's own goes to the child
        stream.flush()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        _child(request, fds)
    for fd in fds[:3]:
        os.close(fd)
    return pid, children.add(pid, fds[3])


def _child(request: dict[str, Any], fds: list[int]) -> None:
    code = 1
    try:
        for target, fd in enumerate(fds[:3]):
            os.dup2(fd, target)
        _close_inherited()
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


def _close_inherited() -> None:
    """Close every descriptor but the standard streams, as ``subprocess`` does (close_fds):
    the server's socket, the other children's status pipes and pidfds."""
    for folder in ("/proc/self/fd", "/dev/fd"):
        with contextlib.suppress(OSError):
            open_fds = [int(name) for name in os.listdir(folder)]
            break
    else:
        open_fds = list(range(3, 256))
    for fd in open_fds:
        if fd > 2:
            with contextlib.suppress(OSError):  # the listing's own, closed already
                os.close(fd)


if __name__ == "__main__":
    serve()
