"""A local HTTP server in a daemon thread on ``127.0.0.1``: what the shipped OpenAI-protocol
servers (:class:`~ripplemem.testing.ScriptedOpenAIServer`,
:class:`~ripplemem.testing.LocalModelServer`) share. A subclass gives its request handler class."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Self

from ripplemem.errors import UsageError


class LoopbackServer:
    """Start, stop, ``with``, the port and the ``/v1`` base URL of one threaded HTTP server."""

    _poll_interval = 0.05

    def __init__(self, port: int = 0) -> None:
        self._requested_port = port
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    def handler(self) -> type[BaseHTTPRequestHandler]:  # pragma: no cover - subclasses give it
        raise NotImplementedError

    def start(self) -> Self:
        if self._httpd is not None:
            return self
        httpd = ThreadingHTTPServer(("127.0.0.1", self._requested_port), self.handler())
        httpd.daemon_threads = True
        self._httpd = httpd
        self._thread = threading.Thread(
            target=httpd.serve_forever,
            kwargs={"poll_interval": self._poll_interval},
            daemon=True,
            name=f"{type(self).__name__}:{httpd.server_address[1]}",
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        httpd, thread = self._httpd, self._thread
        self._httpd, self._thread = None, None
        if httpd is not None:
            httpd.shutdown()
            httpd.server_close()
        if thread is not None:
            thread.join(timeout=5)

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    @property
    def port(self) -> int:
        if self._httpd is None:
            raise UsageError(f"{type(self).__name__} is not running; call start() or use `with`")
        return int(self._httpd.server_address[1])

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"
