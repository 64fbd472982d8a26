"""Serve ASGI apps with uvicorn on free local ports, in threads, for the length of a ``with``."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import uvicorn

START_TIMEOUT_S = 10.0


@dataclass(frozen=True)
class ServedApp:
    url: str  # http://127.0.0.1:<port>, no trailing slash
    port: int


class _Running:
    """One app on a port the OS picks (the socket is bound first, so there is no race)."""

    def __init__(self, app: Any, host: str) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind((host, 0))
        self.served = ServedApp(f"http://{host}:{int(self.sock.getsockname()[1])}", int(self.sock.getsockname()[1]))
        config = uvicorn.Config(app, log_level="warning", lifespan="off", timeout_graceful_shutdown=1)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True, name=f"fake-{self.served.port}"
        )
        self.thread.start()

    def wait_started(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT_S
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                self.server.should_exit = True
                raise RuntimeError(f"the app did not start at {self.served.url} within {START_TIMEOUT_S:.0f} s")
            time.sleep(0.01)

    def signal_stop(self) -> None:
        self.server.should_exit = True

    def join(self) -> None:
        self.thread.join(timeout=5)
        self.sock.close()


@contextmanager
def serve_all(*apps: Any, host: str = "127.0.0.1") -> Iterator[list[ServedApp]]:
    """Run every app of ``apps`` at once; stopped together at the end."""
    running = [_Running(app, host) for app in apps]
    try:
        for r in running:
            r.wait_started()
        yield [r.served for r in running]
    finally:
        for r in running:
            r.signal_stop()
        for r in running:
            r.join()


@contextmanager
def serve(app: Any, host: str = "127.0.0.1") -> Iterator[ServedApp]:
    """Run ``app`` on a free port for the length of the ``with``."""
    with serve_all(app, host=host) as (served,):
        yield served
