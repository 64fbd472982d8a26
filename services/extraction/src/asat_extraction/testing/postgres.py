"""A throwaway Postgres database per test module (``ASAT_TEST_DATABASE_URL``, a superuser URL).

``scratch_database`` creates ``asat_extraction_test_<random>`` owned by a new role
``<db>_owner`` and a login role ``<db>_app`` (neither superuser nor ``BYPASSRLS``), migrates
schema ``extraction`` as the owner granting the app role, yields their URLs, and drops all three
afterwards. The service's store connects as the app role, as it does in the stack.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import psycopg
from psycopg import sql
from psycopg.conninfo import make_conninfo

from asat_extraction.store.migrate import migrate

DEFAULT_ADMIN_URL = "postgresql://postgres@127.0.0.1:5432/postgres"


@dataclass(frozen=True)
class ScratchDatabase:
    name: str
    admin_url: str  # a superuser, connected to this database
    owner_url: str  # owns schema extraction (runs migrations)
    app_url: str  # the service's role: bound by row-level security
    owner_role: str
    app_role: str


@contextmanager
def scratch_database(migrated: bool = True) -> Iterator[ScratchDatabase]:
    """The database, its owner and app roles; migrated (the app role granted) unless ``migrated=False``."""
    admin = os.environ.get("ASAT_TEST_DATABASE_URL", DEFAULT_ADMIN_URL)
    name = f"asat_extraction_test_{secrets.token_hex(4)}"
    owner, app = f"{name}_owner", f"{name}_app"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE ROLE {} LOGIN").format(sql.Identifier(owner)))
        conn.execute(sql.SQL("CREATE ROLE {} LOGIN").format(sql.Identifier(app)))
        conn.execute(sql.SQL("CREATE DATABASE {} OWNER {}").format(sql.Identifier(name), sql.Identifier(owner)))
    database = ScratchDatabase(
        name=name,
        admin_url=make_conninfo(admin, dbname=name),
        owner_url=make_conninfo(admin, dbname=name, user=owner, password=""),
        app_url=make_conninfo(admin, dbname=name, user=app, password=""),
        owner_role=owner,
        app_role=app,
    )
    try:
        if migrated:
            migrate(database.owner_url, app)
        yield database
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
            for role in (app, owner):
                conn.execute(sql.SQL("DROP ROLE IF EXISTS {}").format(sql.Identifier(role)))
