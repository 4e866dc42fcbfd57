"""``giftgenius serve``: the HTTP service (``giftgenius/service/``) under uvicorn.

The command binds the socket itself, so a port that is taken is one plain line and
``--port 0`` can say which port it got, then hands the socket to uvicorn, which runs the
app from its factory, ``giftgenius.service.app:serving_app``, in each worker. The command
names the factory and never imports the service: ``cli`` and ``service`` are two entry
points on one layer. Options given on the command line reach the workers as the
environment they read their settings from. Several workers count their metrics in files of
a directory of the command's own (prometheus-client's multiprocess mode), so ``/metrics``
from any worker shows them all; ``PROMETHEUS_MULTIPROC_DIR``, when set, is used instead.
"""

from __future__ import annotations

import os
import shutil
import socket
import tempfile
from collections.abc import Callable
from typing import Any

from giftgenius import messages
from giftgenius.cli.speech import command_language
from giftgenius.errors import ConfigError, UsageError
from giftgenius.settings import Settings

FACTORY = "giftgenius.service.app:serving_app"
MULTIPROC = "PROMETHEUS_MULTIPROC_DIR"
OVERRIDES = {
    "home": "GIFTGENIUS_HOME",
    "database_url": "GIFTGENIUS_DATABASE_URL",
    "redis_url": "GIFTGENIUS_REDIS_URL",
    "model": "GIFTGENIUS_MODEL",
}


def shared_stores(settings: Settings) -> bool:
    """Whether several processes can serve: Redis sessions and a Postgres database."""
    url = settings.effective_database_url
    return bool(settings.redis_url) and url.startswith("postgresql")


def export(settings: Settings, given: dict[str, Any]) -> None:
    """Put the command-line options into the environment the workers start with."""
    for name, variable in OVERRIDES.items():
        if given.get(name):
            os.environ[variable] = str(getattr(settings, name))


def log_config(quiet: bool) -> dict[str, Any]:
    """uvicorn's logging: its own warnings on stderr, and one line per request there (the
    service's access log, which also lands in the JSON log file) unless ``quiet``."""
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"line": {"format": "%(message)s"}},
        "handlers": {
            "stderr": {
                "class": "logging.StreamHandler",
                "formatter": "line",
                "stream": "ext://sys.stderr",
            }
        },
        "loggers": {
            "giftgenius.service.access": {
                "handlers": [] if quiet else ["stderr"],
                "level": "INFO",
            },
            "uvicorn.error": {"handlers": ["stderr"], "level": "WARNING"},
        },
    }


def metrics_directory(workers: int) -> str | None:
    """A new directory for the workers' metric files, exported to them; None when one
    process serves or the operator named one (then it is theirs to empty)."""
    if workers == 1 or os.environ.get(MULTIPROC):
        return None
    directory = tempfile.mkdtemp(prefix="giftgenius-metrics-")
    os.environ[MULTIPROC] = directory
    return directory


def bind(host: str, port: int) -> socket.socket:
    lang = command_language()
    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
    except (OSError, OverflowError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        said = messages.say("service", "cannot_listen", lang, host=host, port=port, reason=reason)
        raise UsageError(said) from exc
    sock.listen(2048)  # connections wait in the queue while the workers start
    sock.set_inheritable(True)
    return sock


def _announcing(config: Any, ready: Callable[[], None]) -> Any:
    """A uvicorn server that says it is ready once its app has started (the agent built)."""
    import uvicorn

    class Server(uvicorn.Server):
        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets=sockets)
            if self.started:
                ready()

    return Server(config)


def serve(
    settings: Settings,
    given: dict[str, Any],
    *,
    host: str,
    port: int,
    workers: int,
    quiet: bool,
    say: Callable[[str], None],
) -> int:
    import uvicorn
    from uvicorn.supervisors import Multiprocess

    lang = command_language()
    if workers > 1 and not shared_stores(settings):
        raise ConfigError(messages.text("service", "workers_need_shared_stores", lang))
    export(settings, given)
    sock = bind(host, port)
    counted = metrics_directory(workers)
    bound_host, bound_port = sock.getsockname()[:2]
    shown = f"[{bound_host}]" if ":" in bound_host else bound_host
    url = f"http://{shown}:{bound_port}"
    config = uvicorn.Config(
        FACTORY,
        factory=True,
        workers=workers,
        access_log=False,  # the service logs each request itself, without the path asked
        log_config=log_config(quiet),
        server_header=False,
        proxy_headers=False,
    )
    ready = messages.say("service", "ready", lang, url=url, workers=workers)
    try:
        if workers > 1:  # the workers start on their own: the socket already queues
            say(ready)
            Multiprocess(config, sockets=[sock]).run()
        else:
            _announcing(config, lambda: say(ready)).run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()
        if counted:
            shutil.rmtree(counted, ignore_errors=True)
    say(messages.text("service", "stopped", lang))
    return 0
