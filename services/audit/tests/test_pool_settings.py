"""The pool's sizes and timeouts, the parameters every audit connection gets, and what a call
that got no connection says (pure)."""

from __future__ import annotations

import pytest
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from asat_audit.pool_settings import (
    DEFAULT_POOL,
    LOCK_TIMEOUT_MS,
    STATEMENT_TIMEOUT_MS,
    PoolSettings,
    connection_params,
    no_connection_message,
)


def test_the_default_pool_is_small_and_every_wait_is_bounded() -> None:
    assert (DEFAULT_POOL.min_size, DEFAULT_POOL.max_size) == (1, 4)
    assert (DEFAULT_POOL.wait_s, DEFAULT_POOL.connect_timeout_s) == (5.0, 5)
    assert (DEFAULT_POOL.statement_timeout_ms, DEFAULT_POOL.lock_timeout_ms) == (STATEMENT_TIMEOUT_MS, LOCK_TIMEOUT_MS)
    # The background retry of a failed connection never backs off longer than a call waits.
    assert 0 < DEFAULT_POOL.reconnect_window_s < DEFAULT_POOL.wait_s


@pytest.mark.parametrize(
    ("changes", "named"),
    [
        ({"min_size": 0}, "min_size"),
        ({"min_size": 5, "max_size": 4}, "min_size <= max_size"),
        ({"wait_s": 0.0}, "wait_s"),
        ({"wait_s": float("nan")}, "wait_s"),
        ({"connect_timeout_s": 1}, "connect_timeout_s"),
        ({"connect_timeout_s": 0}, "connect_timeout_s"),
        ({"statement_timeout_ms": 0}, "statement_timeout_ms"),
        ({"lock_timeout_ms": -1}, "lock_timeout_ms"),
    ],
)
def test_settings_that_would_not_bound_a_wait_are_refused(changes: dict[str, float], named: str) -> None:
    with pytest.raises(ValueError, match=named):
        PoolSettings(**changes)  # type: ignore[arg-type]


def test_every_connection_carries_the_timeouts_and_they_win_over_the_url() -> None:
    settings = PoolSettings(connect_timeout_s=7, statement_timeout_ms=1234, lock_timeout_ms=567)
    params = connection_params(settings)
    assert params["connect_timeout"] == 7
    assert params["options"] == "-c statement_timeout=1234 -c lock_timeout=567"
    url = "postgresql://app@db.example:5432/asat?connect_timeout=0&options=-c%20statement_timeout%3D0"
    merged = conninfo_to_dict(make_conninfo(url, **params))
    assert (merged["connect_timeout"], merged["options"]) == ("7", "-c statement_timeout=1234 -c lock_timeout=567")
    assert (merged["host"], merged["dbname"], merged["user"]) == ("db.example", "asat", "app")


def test_no_connection_says_busy_when_every_connection_was_in_use() -> None:
    text = no_connection_message(PoolSettings(max_size=2, wait_s=1.5), "PoolTimeout: x", 2, "old news")
    assert text.startswith("all 2 audit database connections stayed busy for 1.5 s (PoolTimeout: x)")
    assert "pg_stat_activity" in text and "old news" not in text


def test_no_connection_names_the_last_failed_attempt_else_says_what_to_check() -> None:
    problem = "refusing to write the audit log as role 'app': it has UPDATE on research.audit_log"
    with_problem = no_connection_message(DEFAULT_POOL, "PoolTimeout: x", 1, problem)
    assert with_problem == (
        "no connection to the audit database within 5 s (PoolTimeout: x); the last attempt to open one failed: "
        + problem
    )
    bare = no_connection_message(DEFAULT_POOL, "PoolTimeout: x", 0, None)
    assert "within 5 s (PoolTimeout: x)" in bare and "pg_ctlcluster" in bare and "ASAT_DATABASE_URL" in bare
