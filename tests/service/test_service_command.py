"""``giftgenius serve``: refuses what cannot work in one plain line, and serves until
interrupted."""

from __future__ import annotations

import io
import os
import re
import signal
import socket
import subprocess
import sys

import httpx2
import pytest
from service_kit import SISTER

from giftgenius.cli.main import main


def run(*argv: str) -> tuple[int, str]:
    err = io.StringIO()
    code = main(list(argv), stdin=io.StringIO(), stdout=io.StringIO(), stderr=err)
    return code, err.getvalue()


@pytest.mark.slow
def test_several_workers_need_redis_and_postgres(seeded_home) -> None:
    code, err = run("serve", "--workers", "2")
    assert code == 1
    assert "Several workers need shared stores" in err and "--workers 1" in err
    assert run("serve", "--workers", "0")[0] == 2


def test_a_port_in_use_is_one_plain_line(seeded_home) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        code, err = run("serve", "--port", str(port))
    assert code == 2 and f"Cannot listen on 127.0.0.1:{port}" in err
    assert "Traceback" not in err


@pytest.mark.slow  # a real server process: about 10 s to start on two busy cores
def test_serve_answers_until_interrupted(seeded_home, conversation, cli_key) -> None:
    server = subprocess.Popen(
        [sys.executable, "-m", "giftgenius", "serve", "--port", "0"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=dict(os.environ),
    )
    try:
        ready = server.stderr.readline() if server.stderr else ""
        url = re.search(r"http://127\.0\.0\.1:\d+", ready)
        assert url, ready
        base = url.group()
        assert httpx2.get(f"{base}/healthz", timeout=10).json() == {"status": "ok"}
        answer = httpx2.post(
            f"{base}/v1/messages",
            json={"text": SISTER},
            headers={"Authorization": f"Bearer {cli_key}"},
            timeout=30,
        )
        assert answer.status_code == 200 and answer.json()["step"] == "finalizing"
    finally:
        server.send_signal(signal.SIGINT)
        _, err = server.communicate(timeout=30)
    assert server.returncode == 0, err
    assert "POST /v1/messages 200" in err and "Stopped serving GiftGenius." in err
    assert SISTER not in err


@pytest.fixture
def cli_key() -> str:
    out = io.StringIO()
    code = main(["keys", "create", "--user", "alice"], stdout=out, stderr=io.StringIO())
    assert code == 0
    return out.getvalue().strip().splitlines()[-1]
