"""``giftgenius serve`` processes a benchmark starts, reads the address of, and stops.

Each is the real command in a new interpreter (``python -m giftgenius serve --port 0``), so
what ``bench http`` measures is what an operator runs: uvicorn, the app factory, the
workers' own agents. The command names the port it bound in its ready line; the
benchmark reads it there, so no port is ever guessed. The processes are stopped as
Ctrl-C stops them (SIGINT), then killed if they have not ended within a few seconds; when
the benchmark is interrupted or fails they are killed at once (its scratch stores go).
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from giftgenius.errors import GiftGeniusError
from giftgenius.messages import speak

COMMAND = (sys.executable, "-m", "giftgenius", "serve")
URL = re.compile(r"http://[^\s(),;]+")
STARTUP_SECONDS = 120.0  # a cold start on a loaded 2-core machine: imports, the agent
STOP_SECONDS = 10.0

SETTINGS_ENV = {
    "home": "GIFTGENIUS_HOME",
    "database_url": "GIFTGENIUS_DATABASE_URL",
    "redis_url": "GIFTGENIUS_REDIS_URL",
    "redis_prefix": "GIFTGENIUS_REDIS_PREFIX",
    "context_window": "GIFTGENIUS_CONTEXT_WINDOW",
    "log_level": "GIFTGENIUS_LOG_LEVEL",
}


def server_environment(overrides: Mapping[str, Any], extra: Mapping[str, str]) -> dict[str, str]:
    """This process's environment with the benchmark's stores in place of the configured
    ones: a setting the overrides leave unset is removed, not inherited."""
    env = dict(os.environ)
    for name, variable in SETTINGS_ENV.items():
        value = overrides.get(name)
        if value is None or value == "":
            env.pop(variable, None)
        else:
            env[variable] = str(value)
    env.update(extra)
    return env


class Server:
    """One ``giftgenius serve`` process: its base URL once ready, its stderr kept."""

    def __init__(self, env: Mapping[str, str]) -> None:
        self.proc = subprocess.Popen(
            [*COMMAND, "--host", "127.0.0.1", "--port", "0", "--quiet"],
            env=dict(env),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.url: str | None = None
        self.lines: list[str] = []
        self._ready = threading.Event()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        """Keep the server's stderr (its pipe must never fill), and find the ready line."""
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.lines.append(line.rstrip())
            found = URL.search(line)
            if self.url is None and found is not None:
                self.url = found.group(0)
                self._ready.set()
        self._ready.set()  # ended: whoever waits learns it now

    def wait_ready(self, deadline: float) -> str:
        self._ready.wait(max(deadline - time.monotonic(), 0.0))
        if self.url is None:
            said = " | ".join(self.lines[-5:]) or speak(
                "bench", "worker.exit_code", code=self.proc.poll()
            )
            raise GiftGeniusError(speak("bench", "worker.not_started", why=said))
        return self.url

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(STOP_SECONDS)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._reader.join(STOP_SECONDS)


@contextmanager
def running_servers(count: int, env: Mapping[str, str]) -> Iterator[list[str]]:
    """``count`` servers on ports of their own, started side by side; their base URLs.
    All are stopped on the way out, whatever happened."""
    servers = [Server(env) for _ in range(count)]
    try:
        deadline = time.monotonic() + STARTUP_SECONDS
        yield [server.wait_ready(deadline) for server in servers]
    except BaseException:  # interrupted or failed: no graceful wait for requests under way
        for server in servers:
            server.kill()
        raise
    finally:
        for server in servers:
            server.stop()
