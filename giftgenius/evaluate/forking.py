"""The client of the fork server (``giftgenius.cli.forkserver``, where the why is told).

The server lives with the command line because its children run the command line's own
``entrypoint``; this side only starts it by module name and speaks its protocol over a Unix
socket: a JSON line ``{"args", "env", "cwd"}`` with the child's three standard streams and
a status pipe's write end as file descriptors, answered by ``{"pid"}`` and the child's
pidfd; the exit code comes later, as one line on the status pipe.

``ForkServers.start`` hands back a ``Forked``, which stands in for ``subprocess.Popen``
(pid, pipes, signals, ``poll``, ``wait``, ``communicate``); ``ForkServers.run`` stands in
for ``subprocess.run``.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import select
import selectors
import signal
import socket
import subprocess
import sys
import threading
import time
from typing import IO

ENCODING = "utf-8"
_CHUNK = 32768


class Forked:
    """A command forked from the server, used like ``subprocess.Popen(..., text=True)``.

    It is not this process's child: the server waits for it and writes its exit code on
    the status pipe, which ``poll`` and ``wait`` read; signals go through its pidfd where
    there is one, so none reaches a process that took the pid over after it ended.
    """

    def __init__(
        self,
        args: list[str],
        pid: int,
        status: int,
        pidfd: int | None,
        streams: tuple[IO[str], IO[str], IO[str]],
    ) -> None:
        self.args, self.pid = args, pid
        self.stdin, self.stdout, self.stderr = streams
        self.returncode: int | None = None
        self._status = os.fdopen(status, "rb", buffering=0)
        self._pidfd = pidfd

    def poll(self) -> int | None:
        if self.returncode is None and _readable(self._status.fileno(), 0):
            self._collect()
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        if self.returncode is None:
            if not _readable(self._status.fileno(), timeout):
                raise subprocess.TimeoutExpired(self.args, timeout or 0)
            self._collect()
        assert self.returncode is not None
        return self.returncode

    def _collect(self) -> None:
        line = self._status.read()  # written and closed at once by the server
        self._status.close()
        if self._pidfd is not None:
            os.close(self._pidfd)
            self._pidfd = None
        if not line:
            raise RuntimeError(f"the fork server stopped before pid {self.pid} ended")
        self.returncode = int(line)

    def send_signal(self, sig: int) -> None:
        if self.poll() is not None:
            return  # ended: the pid may be someone else's by now
        with contextlib.suppress(ProcessLookupError):  # ended a moment ago
            if self._pidfd is not None:
                signal.pidfd_send_signal(self._pidfd, sig)
            else:
                os.kill(self.pid, sig)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def communicate(
        self, input: str | None = None, timeout: float | None = None
    ) -> tuple[str | None, str | None]:
        """Send ``input``, read both outputs to their end and wait, as ``Popen`` does."""
        deadline = None if timeout is None else time.monotonic() + timeout
        data = (input or "").encode(ENCODING)
        chunks: dict[int, list[bytes]] = {}
        with selectors.DefaultSelector() as selector:
            if self.stdin is not None and not self.stdin.closed:
                self.stdin.flush()
                if data:
                    selector.register(self.stdin.fileno(), selectors.EVENT_WRITE)
                else:
                    self.stdin.close()
            for stream in (self.stdout, self.stderr):
                if stream is not None and not stream.closed:
                    selector.register(stream.fileno(), selectors.EVENT_READ)
                    chunks[stream.fileno()] = []
            sent = 0
            while selector.get_map():
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    raise subprocess.TimeoutExpired(self.args, timeout or 0)
                for key, _ in selector.select(left):
                    if key.fd in chunks:
                        chunk = os.read(key.fd, _CHUNK)
                        chunks[key.fd].append(chunk)
                        if not chunk:
                            selector.unregister(key.fd)
                        continue
                    sent = self._write(selector, key.fd, data, sent)
        left = None if deadline is None else max(deadline - time.monotonic(), 0)
        self.wait(left)
        return self._read_rest(self.stdout, chunks), self._read_rest(self.stderr, chunks)

    def _write(self, selector: selectors.BaseSelector, fd: int, data: bytes, sent: int) -> int:
        try:
            sent += os.write(fd, data[sent : sent + select.PIPE_BUF])
        except BrokenPipeError:  # the command ended without reading it all, as it may
            sent = len(data)
        if sent >= len(data):
            selector.unregister(fd)
            assert self.stdin is not None
            with contextlib.suppress(BrokenPipeError):
                self.stdin.close()
        return sent

    @staticmethod
    def _read_rest(stream: IO[str] | None, chunks: dict[int, list[bytes]]) -> str | None:
        if stream is None:
            return None
        if stream.closed:
            return ""
        text = b"".join(chunks.get(stream.fileno(), [])).decode(ENCODING, "replace")
        stream.close()
        return text

    def __del__(self) -> None:
        pidfd = getattr(self, "_pidfd", None)
        if pidfd is not None:
            with contextlib.suppress(OSError):
                os.close(pidfd)


def _readable(fd: int, timeout: float | None) -> bool:
    return bool(select.select([fd], [], [], timeout)[0])


class ForkServers:
    """The fork server an evaluation's (or a test worker's) commands are forked from,
    started on first use.

    One server serves every thread: it is held only while it forks (the commands run on
    their own), and started again if it died. ``start`` stands in for ``subprocess.Popen``,
    ``run`` for ``subprocess.run``; ``close`` ends the server and whatever still runs.
    """

    def __init__(self, env: dict[str, str]) -> None:
        self._env = env
        self._server: tuple[subprocess.Popen[bytes], socket.socket] | None = None
        self._lock = threading.Lock()
        self._closed = False

    def start(self, args: list[str], env: dict[str, str], cwd: str) -> Forked:
        """Fork ``python -m giftgenius ARGS`` with its own environment and folder; its
        standard input, output and error are pipes (``Forked.stdin``, ``stdout``, ``stderr``)."""
        ours: list[int] = []  # the ends this process keeps
        theirs: list[int] = []  # the ends the child gets, closed here once it has them
        try:
            for mine in (1, 0, 0, 0):  # input (the write end is ours), output, error, status
                read, write = os.pipe()
                ours.append((read, write)[mine])
                theirs.append((read, write)[1 - mine])
            request = {"args": args, "env": env, "cwd": cwd}
            pid, pidfd = self._request(json.dumps(request).encode() + b"\n", theirs)
        except BaseException:
            for fd in ours:
                os.close(fd)
            raise
        finally:
            for fd in theirs:
                os.close(fd)
        stdin, out, err, status = ours
        streams = (_text(stdin, "wb"), _text(out, "rb"), _text(err, "rb"))
        return Forked(args, pid, status, pidfd, streams)

    def run(
        self, args: list[str], stdin: str, env: dict[str, str], cwd: str, timeout: float
    ) -> subprocess.CompletedProcess[str]:
        """Run one command to its end; killed, and ``TimeoutExpired``, past ``timeout``."""
        forked = self.start(args, env, cwd)
        try:
            out, err = forked.communicate(stdin, timeout)
        except BaseException:
            forked.kill()
            forked.wait()
            for stream in (forked.stdin, forked.stdout, forked.stderr):
                if stream is not None:
                    with contextlib.suppress(OSError):
                        stream.close()
            raise
        return subprocess.CompletedProcess(args, forked.wait(), out, err)

    def _request(self, line: bytes, fds: list[int]) -> tuple[int, int | None]:
        with self._lock:
            if self._closed:  # a job still under way after an interrupt starts nothing
                raise RuntimeError("the fork server was closed")
            if self._server is not None and self._server[0].poll() is not None:
                self._server[1].close()  # it died: a new one takes its place
                self._server = None
            if self._server is None:
                self._server = self._start()
            process, channel = self._server
            try:
                sent = socket.send_fds(channel, [line], fds)
                channel.sendall(line[sent:])
                reply, received = b"", []
                while not reply.endswith(b"\n"):
                    data, more, _, _ = socket.recv_fds(channel, 4096, 1)
                    received += more
                    if not data:
                        raise RuntimeError(f"the fork server stopped (exit code {process.poll()})")
                    reply += data
            except BaseException:
                process.kill()
                channel.close()
                self._server = None
                raise
        for fd in received:
            os.set_inheritable(fd, False)
        return int(json.loads(reply)["pid"]), (received[0] if received else None)

    def _start(self) -> tuple[subprocess.Popen[bytes], socket.socket]:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        with theirs:
            server = subprocess.Popen(
                [sys.executable, "-m", "giftgenius.cli.forkserver"],
                stdin=theirs.fileno(),
                stdout=subprocess.DEVNULL,
                env=self._env,
                cwd=self._env["GIFTGENIUS_HOME"],
                # Out of the terminal's process group: a Ctrl-C interrupts the client, which
                # closes its server (``close``), instead of each printing a traceback.
                start_new_session=True,
            )
        return server, ours

    def close(self) -> None:
        """Close the server's socket: it kills any command still running, then ends."""
        with self._lock:
            started, self._server, self._closed = self._server, None, True
        if started is None:
            return
        server, channel = started
        channel.close()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def _text(fd: int, mode: str) -> IO[str]:
    binary = os.fdopen(fd, mode)
    if mode == "wb":
        return io.TextIOWrapper(binary, encoding=ENCODING, write_through=True)
    return io.TextIOWrapper(binary, encoding=ENCODING, errors="replace")
