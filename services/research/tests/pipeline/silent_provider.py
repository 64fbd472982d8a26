"""A model provider that never answers: it accepts each connection, reads the request, and waits.

Real sockets on 127.0.0.1, so what a test asserts is what crossed the wire: how many requests the
SDK sent (its retries), and when each connection was closed by the client (a cancelled call tears
its connection down).
"""

from __future__ import annotations

import socket
import threading
import time
from dataclasses import dataclass, field


@dataclass
class Connection:
    opened_at: float
    request_bytes: int = 0
    closed_at: float | None = None


@dataclass
class SilentProvider:
    url: str = ""
    connections: list[Connection] = field(default_factory=list)
    _server: socket.socket | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _stopping: threading.Event = field(default_factory=threading.Event)

    def start(self) -> SilentProvider:
        server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        server.bind(("127.0.0.1", 0))
        server.listen(16)
        server.settimeout(0.1)
        self._server = server
        self.url = f"http://127.0.0.1:{server.getsockname()[1]}/v1"
        threading.Thread(target=self._accept, daemon=True).start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        if self._server is not None:
            self._server.close()

    def requests(self) -> int:
        """Connections on which a request arrived (each SDK attempt opens its own)."""
        with self._lock:
            return sum(1 for c in self.connections if c.request_bytes > 0)

    def all_closed_within(self, seconds: float) -> bool:
        """Waits up to ``seconds`` for the client to have closed every connection."""
        ends = time.monotonic() + seconds
        while time.monotonic() < ends:
            with self._lock:
                if self.connections and all(c.closed_at is not None for c in self.connections):
                    return True
            time.sleep(0.02)
        return False

    def _accept(self) -> None:
        assert self._server is not None
        while not self._stopping.is_set():
            try:
                conn, _ = self._server.accept()
            except (TimeoutError, OSError):
                continue
            record = Connection(opened_at=time.monotonic())
            with self._lock:
                self.connections.append(record)
            threading.Thread(target=self._hold, args=(conn, record), daemon=True).start()

    def _hold(self, conn: socket.socket, record: Connection) -> None:
        conn.settimeout(0.05)
        with conn:
            while not self._stopping.is_set():
                try:
                    data = conn.recv(65536)
                except TimeoutError:
                    continue
                except OSError:
                    break
                if not data:  # the client closed the connection
                    break
                with self._lock:
                    record.request_bytes += len(data)
        with self._lock:
            record.closed_at = time.monotonic()
