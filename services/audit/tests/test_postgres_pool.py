"""The store's connection pool against the real server: a database that does not answer, or
drops the pool's connections, or whose role gains a privilege it must not have, gives the
store's own error within the configured bounds (research answers 503), never a hang; and the
store serves again once the database does.

A "database that does not answer" is ``SilentServer``: a TCP front for the real server on
127.0.0.1 (random port) that, once told to ``hang``, drops every connection and then accepts
new ones without ever answering them.

Elapsed-time bounds are correctness bounds for a noisy 2-core machine, not benchmarks.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, LiteralString, TypeVar

import pytest
from psycopg import sql
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from asat_audit.pool_settings import DEFAULT_POOL, PoolSettings
from asat_audit.postgres_store import PostgresAuditStore
from asat_audit.reconnecting import ReconnectingAuditStore, is_outage
from asat_audit.store import AuditReadError, AuditStartupError, AuditWriteError

pytestmark = pytest.mark.postgres

MARGIN_S = 3.0  # scheduling noise on a loaded 2-core machine
FAST = PoolSettings(wait_s=2.0, connect_timeout_s=2)  # short bounds, to keep the slow paths quick

T = TypeVar("T")


def _shut(sock: socket.socket) -> None:
    """Close ``sock``, waking any thread blocked reading it."""
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)
    sock.close()


class SilentServer:
    """Forwards TCP connections to Postgres until ``hang``; then drops them all and holds every
    new connection open without a byte of reply, until ``answer_again``."""

    def __init__(self, upstream_url: str, *, answering: bool = True) -> None:
        params = conninfo_to_dict(upstream_url)
        host, port = str(params.get("host") or "127.0.0.1"), int(params.get("port") or 5432)
        self._upstream: Callable[[], socket.socket]
        if host.startswith("/"):  # a Unix-domain socket directory
            path = f"{host}/.s.PGSQL.{port}"
            self._upstream = lambda: _unix_connection(path)
        else:
            self._upstream = lambda: socket.create_connection((host, port), timeout=5)
        self._listener = socket.create_server(("127.0.0.1", 0))
        self._listener.settimeout(0.05)
        self.port: int = self._listener.getsockname()[1]
        self._lock = threading.Lock()
        self._answering = answering
        self._live: list[socket.socket] = []  # both ends of every forwarded connection
        self._held: list[socket.socket] = []  # accepted while hung, never answered
        self._stopping = threading.Event()
        self._acceptor = threading.Thread(target=self._accept, name="silent-server", daemon=True)
        self._acceptor.start()

    def url(self, url: str) -> str:
        """``url`` (its user, database) through this server."""
        return make_conninfo(url, host="127.0.0.1", port=str(self.port), hostaddr=None)

    def hang(self) -> None:
        with self._lock:
            self._answering = False
            live, self._live = self._live, []
        for sock in live:
            _shut(sock)

    def answer_again(self) -> None:
        with self._lock:
            self._answering = True
            held, self._held = self._held, []
        for sock in held:
            _shut(sock)

    def close(self) -> None:
        self._stopping.set()
        self._acceptor.join(timeout=5)
        self._listener.close()
        self.hang()
        self.answer_again()

    def _accept(self) -> None:
        while not self._stopping.is_set():
            try:
                client, _ = self._listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            with self._lock:
                if not self._answering:
                    self._held.append(client)
                    continue
            try:
                upstream = self._upstream()
            except OSError:
                _shut(client)
                continue
            upstream.settimeout(None)
            client.settimeout(None)
            with self._lock:
                self._live += [client, upstream]
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=_pump, args=(source, sink), daemon=True).start()


def _unix_connection(path: str) -> socket.socket:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.connect(path)
    return sock


def _pump(source: socket.socket, sink: socket.socket) -> None:
    try:
        while data := source.recv(65536):
            sink.sendall(data)
    except OSError:
        pass
    finally:
        _shut(source)
        _shut(sink)


@pytest.fixture
def silent_server(pg_server_url: str) -> Iterator[Callable[..., SilentServer]]:
    servers: list[SilentServer] = []

    def start(*, answering: bool = True) -> SilentServer:
        servers.append(SilentServer(pg_server_url, answering=answering))
        return servers[-1]

    yield start
    for server in servers:
        server.close()


def _timed(call: Callable[[], T]) -> tuple[T | BaseException, float]:
    """What ``call`` returned or raised, and how long it took (s)."""
    started = time.monotonic()
    try:
        outcome: T | BaseException = call()
    except Exception as exc:
        outcome = exc
    return outcome, time.monotonic() - started


def _app_backends(db: Any) -> list[int]:
    with db.admin() as admin:
        rows = admin.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = %s AND usename = %s ORDER BY pid",
            (db.name, db.app_role),
        ).fetchall()
    return [int(str(row[0])) for row in rows]


def _terminate_app_backends(db: Any) -> list[int]:
    """Terminate every connection of the app role to ``db`` and wait until they are gone."""
    pids = _app_backends(db)
    with db.admin() as admin:
        for pid in pids:
            row = admin.execute("SELECT pg_terminate_backend(%s, 5000)", (pid,)).fetchone()
            assert row == (True,), f"backend {pid} did not end within 5 s"
    return pids


# -- a database that does not answer -----------------------------------------------------------


def test_a_server_that_never_answers_fails_start_up_as_an_outage_within_the_connect_timeout(
    audit_db: Any, silent_server: Callable[..., SilentServer]
) -> None:
    server = silent_server(answering=False)
    outcome, elapsed = _timed(lambda: PostgresAuditStore(server.url(audit_db.app_url)))
    assert isinstance(outcome, AuditStartupError), outcome
    assert is_outage(outcome), "a database that does not answer must not stop research from starting"
    assert "timeout" in str(outcome) and "pg_ctlcluster" in str(outcome)
    assert elapsed <= DEFAULT_POOL.connect_timeout_s + MARGIN_S, elapsed


def test_research_s_store_rides_out_a_server_that_never_answers_and_serves_once_it_does(
    clean_audit_log: Any, make_record: Any, silent_server: Callable[..., SilentServer]
) -> None:
    server = silent_server(answering=False)
    bound = FAST.connect_timeout_s + FAST.wait_s + MARGIN_S
    built, elapsed = _timed(lambda: ReconnectingAuditStore(server.url(clean_audit_log.app_url), FAST))
    assert isinstance(built, ReconnectingAuditStore), built  # not fatal at start
    assert elapsed <= bound, elapsed
    try:
        outcome, elapsed = _timed(lambda: built.append(make_record(0)))
        assert isinstance(outcome, AuditWriteError), outcome
        assert "audit database unavailable" in str(outcome) and "timeout" in str(outcome)
        assert elapsed <= bound, elapsed
        read, elapsed = _timed(lambda: built.last(1))
        assert isinstance(read, AuditReadError) and elapsed <= bound, (read, elapsed)
        assert built.healthy() is False

        server.answer_again()
        assert built.append(make_record(0)).id == 1  # the first call after recovery succeeds
        assert built.healthy() is True
        assert built.verify().ok
    finally:
        built.close()


def test_concurrent_calls_while_the_server_never_answers_each_fail_within_the_connect_timeout(
    audit_db: Any, make_record: Any, silent_server: Callable[..., SilentServer]
) -> None:
    """Research's request threads do not queue behind one another's connection attempts: six at
    once all fail within one connect timeout (queued, the last would wait six)."""
    server = silent_server(answering=False)
    store = ReconnectingAuditStore(server.url(audit_db.app_url), FAST)
    calls = 6
    start = threading.Barrier(calls)
    outcomes: list[tuple[object, float]] = []

    def call() -> None:
        start.wait()
        outcomes.append(_timed(lambda: store.append(make_record(0))))

    threads = [threading.Thread(target=call) for _ in range(calls)]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=calls * FAST.connect_timeout_s + MARGIN_S)
    finally:
        store.close()
    assert len(outcomes) == calls
    assert all(isinstance(outcome, AuditWriteError) for outcome, _ in outcomes), outcomes
    assert max(elapsed for _, elapsed in outcomes) <= FAST.connect_timeout_s + MARGIN_S, outcomes


def test_a_server_that_stops_answering_fails_calls_within_the_pool_wait_and_the_pool_recovers(
    clean_audit_log: Any, make_record: Any, silent_server: Callable[..., SilentServer]
) -> None:
    server = silent_server()
    with PostgresAuditStore(server.url(clean_audit_log.app_url), FAST) as store:
        assert store.append(make_record(0)).id == 1
        server.hang()  # the pooled connection is dropped; a new one is never answered

        outcome, elapsed = _timed(lambda: store.append(make_record(1)))
        assert isinstance(outcome, AuditWriteError), outcome
        assert "audit record not stored" in str(outcome) and "PoolTimeout" in str(outcome)
        assert "pg_ctlcluster" in str(outcome)  # says what to check
        assert FAST.wait_s - 0.5 <= elapsed <= FAST.wait_s + MARGIN_S, elapsed

        server.answer_again()
        # The pool's background retry is due within reconnect_window_s (< wait_s): the next call is served.
        assert store.append(make_record(1)).id == 2
        assert store.verify().ok


def test_a_call_waits_no_longer_than_wait_s_when_every_connection_is_busy(
    clean_audit_log: Any, make_record: Any
) -> None:
    """One connection, held by an append stuck behind a table lock: a second call is refused
    after ``wait_s`` saying the connections were busy, and both end without a hang."""
    settings = PoolSettings(min_size=1, max_size=1, wait_s=1.0)
    with PostgresAuditStore(clean_audit_log.app_url, settings) as store, clean_audit_log.admin() as admin:
        admin.execute("BEGIN")
        admin.execute("LOCK TABLE research.audit_log IN ACCESS EXCLUSIVE MODE")
        stuck: list[object] = []
        worker = threading.Thread(target=lambda: stuck.append(_timed(lambda: store.append(make_record(0)))[0]))
        worker.start()
        _wait_for(lambda: _waiting_on_a_lock(clean_audit_log), "the first append to wait on the table lock")
        outcome, elapsed = _timed(lambda: store.get(1))
        worker.join(timeout=settings.lock_timeout_ms / 1000 + MARGIN_S)
        admin.execute("ROLLBACK")
    assert isinstance(outcome, AuditReadError), outcome
    assert "all 1 audit database connections stayed busy" in str(outcome)
    assert settings.wait_s - 0.2 <= elapsed <= settings.wait_s + MARGIN_S, elapsed
    assert not worker.is_alive()
    assert len(stuck) == 1 and isinstance(stuck[0], AuditWriteError) and "lock timeout" in str(stuck[0])


def _waiting_on_a_lock(db: Any) -> bool:
    with db.admin() as admin:
        row = admin.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND usename = %s AND wait_event_type = 'Lock'",
            (db.name, db.app_role),
        ).fetchone()
    return row is not None and int(str(row[0])) > 0


def _wait_for(condition: Callable[[], bool], what: str, within_s: float = 2.0) -> None:
    deadline = time.monotonic() + within_s
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what}")
        time.sleep(0.02)


# -- connections the server drops ------------------------------------------------------------


def test_connections_the_server_dropped_are_replaced_and_the_next_call_succeeds(
    clean_audit_log: Any, make_record: Any
) -> None:
    """A full pool whose every connection the server ended (a restart, an administrator): the
    next call is served by a new connection, not failed, and not kept waiting behind the dead
    ones found one by one."""
    full = PoolSettings(min_size=4, max_size=4)
    with PostgresAuditStore(clean_audit_log.app_url, full) as store:
        store.append(make_record(0))
        _wait_for(lambda: len(_app_backends(clean_audit_log)) == full.max_size, "the pool to fill")
        killed = _terminate_app_backends(clean_audit_log)
        outcome, elapsed = _timed(lambda: store.append(make_record(1)))
        assert not isinstance(outcome, BaseException), outcome
        assert outcome.id == 2
        assert elapsed < full.wait_s, elapsed
        assert store.get(1) is not None
        assert set(_app_backends(clean_audit_log)).isdisjoint(killed)
        assert store.verify().ok


def test_a_connection_killed_mid_append_is_an_audit_write_error_and_the_next_append_succeeds(
    clean_audit_log: Any, make_record: Any
) -> None:
    outcome: list[BaseException | None] = []

    def append() -> None:
        try:
            store.append(make_record(1))
            outcome.append(None)
        except BaseException as exc:  # reported below; a thread cannot fail the test itself
            outcome.append(exc)

    with PostgresAuditStore(clean_audit_log.app_url) as store:
        store.append(make_record(0))
        with clean_audit_log.admin() as admin:
            admin.execute("BEGIN")
            admin.execute("LOCK TABLE research.audit_log IN ACCESS EXCLUSIVE MODE")
            worker = threading.Thread(target=append)
            worker.start()
            try:
                _wait_for(lambda: _waiting_on_a_lock(clean_audit_log), "the append to wait on the table lock")
                _terminate_app_backends(clean_audit_log)
                worker.join(timeout=MARGIN_S)
            finally:
                admin.execute("ROLLBACK")
        assert not worker.is_alive()
        assert len(outcome) == 1 and isinstance(outcome[0], AuditWriteError), outcome
        assert "audit record not stored" in str(outcome[0]) and "terminat" in str(outcome[0])
        assert store.append(make_record(1)).id == 2
        assert store.verify().ok


# -- the role, checked on every new connection ---------------------------------------------------


@pytest.mark.parametrize("privilege", ["UPDATE", "DELETE"])
def test_research_s_store_refuses_at_start_a_role_that_may_change_rows(audit_db: Any, privilege: LiteralString) -> None:
    role = sql.Identifier(audit_db.app_role)
    with audit_db.admin() as admin:
        admin.execute(sql.SQL("GRANT " + privilege + " ON research.audit_log TO {}").format(role))
        try:
            with pytest.raises(AuditStartupError, match=f"has {privilege} on research.audit_log") as caught:
                ReconnectingAuditStore(audit_db.app_url)
            assert not is_outage(caught.value)
        finally:
            admin.execute(sql.SQL("REVOKE " + privilege + " ON research.audit_log FROM {}").format(role))


def test_a_new_pooled_connection_is_refused_once_the_role_may_change_rows(
    clean_audit_log: Any, make_record: Any
) -> None:
    role = sql.Identifier(clean_audit_log.app_role)
    with PostgresAuditStore(clean_audit_log.app_url, FAST) as store, clean_audit_log.admin() as admin:
        store.append(make_record(0))
        admin.execute(sql.SQL("GRANT UPDATE ON research.audit_log TO {}").format(role))
        try:
            _terminate_app_backends(clean_audit_log)  # the pool must open a new connection, and check it
            outcome, elapsed = _timed(lambda: store.append(make_record(1)))
        finally:
            admin.execute(sql.SQL("REVOKE UPDATE ON research.audit_log FROM {}").format(role))
        assert isinstance(outcome, AuditWriteError), outcome
        assert "has UPDATE on research.audit_log" in str(outcome)
        assert elapsed <= FAST.wait_s + MARGIN_S, elapsed
        # The refused connections were closed, not kept (a backend leaves pg_stat_activity shortly after).
        _wait_for(lambda: _app_backends(clean_audit_log) == [], "the refused connections to end")
        assert store.append(make_record(1)).id == 2  # the role is safe again: the next call is served


def test_a_dead_url_is_an_outage_not_a_hang(make_record: Any) -> None:
    """Nothing listens: start-up fails at once as an outage; research's store keeps running."""
    url = "postgresql://nobody@127.0.0.1:1/none"
    store = ReconnectingAuditStore(url, FAST)
    try:
        outcome, elapsed = _timed(lambda: store.append(make_record(0)))
        assert isinstance(outcome, AuditWriteError) and "pg_ctlcluster" in str(outcome)
        assert elapsed <= FAST.connect_timeout_s + MARGIN_S
    finally:
        store.close()


def test_a_closed_store_answers_with_its_own_error(clean_audit_log: Any, make_record: Any) -> None:
    store = PostgresAuditStore(clean_audit_log.app_url)
    store.close()
    store.close()  # closing twice is harmless
    with pytest.raises(AuditWriteError, match=r"audit record not stored: .*closed"):
        store.append(make_record(0))
    with pytest.raises(AuditReadError, match="closed"):
        store.last(1)
