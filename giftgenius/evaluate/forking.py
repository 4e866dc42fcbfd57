"""The client of the fork server (``giftgenius.cli.forkserver``, where the why is told).

The server lives with the command line because its children run the command line's own
``entrypoint``; this side only starts it by module name and speaks its protocol: one JSON
line each way, ``{"args", "stdin", "env", "cwd", "timeout"}`` in, ``{"returncode",
"stdout", "stderr"}`` out (``returncode`` None: killed when its time ran out).
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from queue import Empty, SimpleQueue


class ForkServers:
    """One server per job, started on first use; ``run`` is ``subprocess.run``'s stand-in."""

    def __init__(self, env: dict[str, str]) -> None:
        self._env = env
        self._idle: SimpleQueue[subprocess.Popen[bytes]] = SimpleQueue()
        self._all: list[subprocess.Popen[bytes]] = []
        self._lock = threading.Lock()

    def run(
        self, args: list[str], stdin: str, env: dict[str, str], cwd: str, timeout: float
    ) -> subprocess.CompletedProcess[str]:
        try:  # an idle server, else a new one: never wait for another job's
            server = self._idle.get_nowait()
        except Empty:
            server = self._start()
        try:
            request = {"args": args, "stdin": stdin, "env": env, "cwd": cwd, "timeout": timeout}
            assert server.stdin is not None and server.stdout is not None
            server.stdin.write(json.dumps(request).encode() + b"\n")
            server.stdin.flush()
            line = server.stdout.readline()
            if not line:
                raise RuntimeError(f"the fork server stopped (exit code {server.poll()})")
            reply = json.loads(line)
        except BaseException:
            server.kill()
            raise
        self._idle.put(server)
        if reply["returncode"] is None:
            raise subprocess.TimeoutExpired(args, timeout)
        return subprocess.CompletedProcess(
            args, reply["returncode"], reply["stdout"], reply["stderr"]
        )

    def _start(self) -> subprocess.Popen[bytes]:
        server = subprocess.Popen(
            [sys.executable, "-m", "giftgenius.cli.forkserver"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=self._env,
            cwd=self._env["GIFTGENIUS_HOME"],
            # Out of the terminal's process group: a Ctrl-C interrupts the evaluation, which
            # closes its servers (``close``), instead of each printing a traceback.
            start_new_session=True,
        )
        with self._lock:
            self._all.append(server)
        return server

    def close(self) -> None:
        with self._lock:
            servers, self._all = self._all, []
        for server in servers:
            if server.stdin is not None:
                server.stdin.close()
        for server in servers:
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
