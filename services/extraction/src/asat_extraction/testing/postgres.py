"""A throwaway Postgres database per test session (``ASAT_TEST_DATABASE_URL``, a superuser URL)."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
from psycopg import sql
from psycopg.conninfo import conninfo_to_dict, make_conninfo

DEFAULT_ADMIN_URL = "postgresql://postgres@127.0.0.1:5432/postgres"


@contextmanager
def scratch_database() -> Iterator[str]:
    """Create ``asat_extraction_test_<random>``, yield its URL, drop it afterwards."""
    admin = os.environ.get("ASAT_TEST_DATABASE_URL", DEFAULT_ADMIN_URL)
    name = f"asat_extraction_test_{secrets.token_hex(4)}"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    params = conninfo_to_dict(admin)
    params["dbname"] = name
    try:
        yield make_conninfo(**params)  # type: ignore[arg-type]
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
