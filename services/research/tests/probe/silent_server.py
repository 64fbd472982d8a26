"""A TCP server that accepts connections and never answers: a provider that times out."""

from __future__ import annotations

import socket
import threading
from dataclasses import dataclass, field


@dataclass
class SilentServer:
    url: str = ""
    accepted: int = 0
    _socket: socket.socket | None = None
    _held: list[socket.socket] = field(default_factory=list)
    _stop: threading.Event = field(default_factory=threading.Event)

    def start(self) -> SilentServer:
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        listener.settimeout(0.05)
        self._socket = listener
        self.url = f"http://127.0.0.1:{listener.getsockname()[1]}"
        threading.Thread(target=self._accept, daemon=True).start()
        return self

    def stop(self) -> None:
        self._stop.set()
        for held in self._held:
            held.close()
        if self._socket is not None:
            self._socket.close()

    def _accept(self) -> None:
        assert self._socket is not None
        while not self._stop.is_set():
            try:
                connection, _ = self._socket.accept()
            except (TimeoutError, OSError):
                continue
            self.accepted += 1
            self._held.append(connection)  # held open, never read from or written to


def refused_url() -> str:
    """A local URL nothing listens on (the port was free a moment ago)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}"
