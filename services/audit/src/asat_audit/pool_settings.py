"""How the Postgres audit store connects: pool sizes and every timeout, and what a timeout says (pure).

A hung or locked database fails a call within these bounds (an error, which research answers as
503), never a stalled request:

- ``connect_timeout_s``: a new connection that is not established by then fails (a server that
  accepts TCP connections but never answers);
- ``statement_timeout_ms``: no audit statement runs longer, server side;
- ``lock_timeout_ms``: no statement waits longer for a lock (the chain's advisory lock included);
- ``wait_s``: no call waits longer for a free pooled connection (all busy, or none can be made).
"""

from __future__ import annotations

from dataclasses import dataclass

CONNECT_TIMEOUT_S = 5
STATEMENT_TIMEOUT_MS = 5000
LOCK_TIMEOUT_MS = 3000
POOL_MIN_SIZE = 1
POOL_MAX_SIZE = 4
POOL_WAIT_S = 5.0
START_HINT = "pg_ctlcluster --skip-systemctl-redirect 15 main start"


@dataclass(frozen=True)
class PoolSettings:
    """One store's connection pool: ``min_size`` connections kept open, at most ``max_size``."""

    min_size: int = POOL_MIN_SIZE
    max_size: int = POOL_MAX_SIZE
    wait_s: float = POOL_WAIT_S
    connect_timeout_s: int = CONNECT_TIMEOUT_S
    statement_timeout_ms: int = STATEMENT_TIMEOUT_MS
    lock_timeout_ms: int = LOCK_TIMEOUT_MS

    def __post_init__(self) -> None:
        if not 1 <= self.min_size <= self.max_size:
            raise ValueError(f"the audit pool needs 1 <= min_size <= max_size, got {self.min_size} and {self.max_size}")
        if not self.wait_s > 0:
            raise ValueError(f"the audit pool's wait_s must be a positive number of seconds, got {self.wait_s!r}")
        # libpq rounds a connect_timeout of 1 up to 2 and takes 0 as "wait forever": neither is what is asked.
        if self.connect_timeout_s < 2:
            raise ValueError(
                f"connect_timeout_s must be at least 2 seconds (libpq's minimum), got {self.connect_timeout_s}"
            )
        for name, value in (
            ("statement_timeout_ms", self.statement_timeout_ms),
            ("lock_timeout_ms", self.lock_timeout_ms),
        ):
            if value < 1:  # 0 would switch the server-side timeout off
                raise ValueError(f"{name} must be at least 1 ms, got {value}")

    @property
    def reconnect_window_s(self) -> float:
        """How long the pool keeps retrying one failed connection in the background before it
        gives up (a later call starts a fresh attempt at once). Half of ``wait_s``: the pool's
        back-off between retries never exceeds it, so a call made once the database is back
        finds a retry due well within its own wait."""
        return self.wait_s / 2


DEFAULT_POOL = PoolSettings()


def connection_params(settings: PoolSettings) -> dict[str, str | int]:
    """The libpq parameters of every audit connection, beside the URL's own (these win)."""
    return {
        "connect_timeout": settings.connect_timeout_s,
        "options": f"-c statement_timeout={settings.statement_timeout_ms} -c lock_timeout={settings.lock_timeout_ms}",
        # A peer that vanished (host down, network cut) while a reply is awaited is found by TCP
        # keepalives within about 10 + 3 * 5 s rather than the kernel's two hours.
        "keepalives": 1,
        "keepalives_idle": 10,
        "keepalives_interval": 5,
        "keepalives_count": 3,
    }


def no_connection_message(settings: PoolSettings, cause: str, in_use: int, last_problem: str | None) -> str:
    """Why a call got no pooled connection within ``settings.wait_s`` (``in_use`` of the store's
    connections were busy with other calls), and what to do."""
    if in_use >= settings.max_size:
        return (
            f"all {settings.max_size} audit database connections stayed busy for {settings.wait_s:g} s ({cause}): "
            "the database is slow or locked; see pg_stat_activity for what they wait on"
        )
    if last_problem:  # it says what to do (connection failures name Postgres, role problems the role)
        return f"no connection to the audit database within {settings.wait_s:g} s ({cause}); the last attempt to open one failed: {last_problem}"
    return (
        f"no connection to the audit database within {settings.wait_s:g} s ({cause}). "
        f"Check that Postgres is running and answering (`{START_HINT}`) and that ASAT_DATABASE_URL is right"
    )
