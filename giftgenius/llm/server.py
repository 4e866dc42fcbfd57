"""A chat-completions transport behind a real socket: ``giftgenius model serve``.

``chatwire.ChatCompletionsTransport`` already speaks the API in-process — routes, request
validation, JSON and server-sent events, OpenAI's error bodies. This module only carries
HTTP/1.1 between a socket and it (the standard library's threading server, one thread per
connection, keep-alive), so the wire is written once: an answer over the socket is byte for
byte the answer the in-process transport gives the client. A streamed answer goes out in
chunked transfer encoding, one chunk per event, flushed as it is written.

The transport is not asked to be thread-safe: one answer is computed at a time (the
offline model is CPU-bound, so concurrent requests would only share the interpreter), while
sending answers to slow readers overlaps.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx2

from giftgenius.chatwire import ChatCompletionsTransport, WireError, error_response
from giftgenius.errors import ConfigError
from giftgenius.messages import speak
from giftgenius.protocol import PURPOSE_HEADER

MAX_BODY_BYTES = 32 * 1024 * 1024
_HOP_BY_HOP = frozenset(
    {"connection", "keep-alive", "transfer-encoding", "content-length", "host", "te", "upgrade"}
)


class WireServer(ThreadingHTTPServer):
    """Serves one transport on ``address``; ``log`` gets one line per request (or None)."""

    daemon_threads = True  # a connection left open never holds up the stop
    allow_reuse_address = True

    def __init__(
        self,
        address: tuple[str, int],
        transport: ChatCompletionsTransport,
        *,
        log: Callable[[str], None] | None = None,
    ) -> None:
        self.transport = transport
        self.log = log
        self.answering = threading.Lock()
        try:
            super().__init__(address, _Handler)
        except OSError as exc:
            host, port = address
            reason = exc.strerror or exc
            raise ConfigError(
                speak("model", "serve.cannot_listen", host=host, port=port, reason=reason)
            ) from exc

    @property
    def base_url(self) -> str:
        """The URL to put in OPENAI_BASE_URL, with the port actually bound."""
        host, port = self.server_address[:2]
        if isinstance(host, bytes):
            host = host.decode()
        shown = {"0.0.0.0": "127.0.0.1", "::": "::1"}.get(str(host), str(host))
        if ":" in shown:
            shown = f"[{shown}]"
        return f"http://{shown}:{port}/v1"


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive: the client reuses its connection
    server_version = "GiftGenius"
    sys_version = ""
    server: WireServer

    def do_GET(self) -> None:
        self._relay()

    def do_POST(self) -> None:
        self._relay()

    def do_PUT(self) -> None:
        self._relay()

    def do_PATCH(self) -> None:
        self._relay()

    def do_DELETE(self) -> None:
        self._relay()

    def _relay(self) -> None:
        started = time.perf_counter()
        try:
            request = httpx2.Request(
                self.command,
                f"http://{self.headers.get('host') or 'localhost'}{self.path}",
                headers=[(k, v) for k, v in self.headers.items() if k.lower() not in _HOP_BY_HOP],
                content=self._body(),
            )
        except WireError as err:
            self.close_connection = True  # the rest of a body we did not read is still there
            response = error_response(err)
        else:
            with self.server.answering:
                response = self.server.transport.handle_request(request)
        try:
            self._send(response)
        except (BrokenPipeError, ConnectionResetError):  # the client went away: nothing to do
            self.close_connection = True
        finally:
            response.close()
        if self.server.log is not None:
            purpose = self.headers.get(PURPOSE_HEADER)
            tag = f" ({purpose})" if purpose else ""
            elapsed = 1000 * (time.perf_counter() - started)
            self.server.log(
                f"{self.command} {self.path}{tag} → {response.status_code} in {elapsed:.0f} ms"
            )

    def _body(self) -> bytes:
        if "chunked" in self.headers.get("transfer-encoding", "").lower():
            return self._chunked_body()
        raw = self.headers.get("content-length")
        if raw is None:
            return b""
        try:
            length = int(raw)
        except ValueError:
            raise WireError(400, f"Invalid Content-Length header: {raw!r}.") from None
        if length < 0:
            raise WireError(400, f"Invalid Content-Length header: {raw!r}.")
        if length > MAX_BODY_BYTES:
            raise WireError(413, f"The request body is larger than {MAX_BODY_BYTES} bytes.")
        return self.rfile.read(length)

    def _chunked_body(self) -> bytes:
        body = bytearray()
        while True:
            line = self.rfile.readline(1024)
            try:
                size = int(line.split(b";", 1)[0].strip(), 16)
            except ValueError:
                raise WireError(400, "Malformed chunked request body.") from None
            if size == 0:
                while self.rfile.readline(1024) not in (b"\r\n", b"\n", b""):
                    pass  # trailers
                return bytes(body)
            if len(body) + size > MAX_BODY_BYTES:
                raise WireError(413, f"The request body is larger than {MAX_BODY_BYTES} bytes.")
            body += self.rfile.read(size)
            self.rfile.readline(1024)

    def _send(self, response: httpx2.Response) -> None:
        self.send_response(response.status_code)
        for name, value in response.headers.multi_items():
            if name.lower() not in _HOP_BY_HOP:
                self.send_header(name, value)
        if response.headers.get("content-type", "").startswith("text/event-stream"):
            self.send_header("Cache-Control", "no-cache")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for chunk in response.iter_raw():
                if chunk:
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                    self.wfile.flush()  # each event leaves when it is ready
            self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()
            return
        data = response.read()
        self.send_header("Content-Length", str(len(data)))
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(data)
        self.wfile.flush()

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        """Each exchange is logged once, by ``_relay``, with its purpose and time."""

    def log_message(self, format: str, *args: Any) -> None:
        if self.server.log is not None:  # malformed request lines and the like
            self.server.log(f"{self.address_string()}: {format % args}")


def serve(
    transport: ChatCompletionsTransport,
    host: str,
    port: int,
    *,
    ready: Callable[[WireServer], None],
    log: Callable[[str], None] | None = None,
) -> None:
    """Serve until interrupted (``KeyboardInterrupt`` propagates; the socket is closed)."""
    server = WireServer((host, port), transport, log=log)
    try:
        ready(server)
        server.serve_forever(poll_interval=0.25)
    finally:
        server.server_close()
