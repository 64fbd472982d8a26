"""Fixtures of the connections tests: the fakes served locally, and the stores, in memory and in
Postgres (a database and owner and app roles per session, migrated by ``asat_accounts.migrate``,
as the accounts tests do; ``ASAT_TEST_DATABASE_URL``, default
``postgresql://postgres@127.0.0.1:5432/postgres``). If the server is not reachable the Postgres
tests fail (they do not skip)."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from dataclasses import dataclass

import psycopg
import pytest
from psycopg import sql
from psycopg.conninfo import make_conninfo

from asat_accounts import InMemoryAccountsStore, PostgresAccountsStore
from asat_accounts.migrate import migrate
from asat_connections import InMemoryConnectionsStore, PostgresConnectionsStore

from .support import KEY_RING, World, make_world

ADMIN_URL_ENV = "ASAT_TEST_DATABASE_URL"
DEFAULT_ADMIN_URL = "postgresql://postgres@127.0.0.1:5432/postgres"


@dataclass(frozen=True)
class Database:
    name: str
    admin_url: str
    owner_url: str
    app_url: str
    app_role: str


@pytest.fixture(scope="session")
def database() -> Iterator[Database]:
    server = os.environ.get(ADMIN_URL_ENV, DEFAULT_ADMIN_URL)
    try:
        with psycopg.connect(server, connect_timeout=5) as conn:
            conn.execute("SELECT 1")
    except psycopg.Error as exc:
        pytest.fail(f"the Postgres tests need the server at {server} ({ADMIN_URL_ENV}): {exc}", pytrace=False)
    name = f"asat_conn_{secrets.token_hex(5)}"
    owner, app = f"{name}_owner", f"{name}_app"
    with psycopg.connect(server, autocommit=True) as admin:
        admin.execute(sql.SQL("CREATE ROLE {} LOGIN").format(sql.Identifier(owner)))
        admin.execute(sql.SQL("CREATE ROLE {} LOGIN").format(sql.Identifier(app)))
        admin.execute(sql.SQL("CREATE DATABASE {} OWNER {}").format(sql.Identifier(name), sql.Identifier(owner)))
    db = Database(
        name=name,
        admin_url=make_conninfo(server, dbname=name),
        owner_url=make_conninfo(server, dbname=name, user=owner, password=""),
        app_url=make_conninfo(server, dbname=name, user=app, password=""),
        app_role=app,
    )
    try:
        migrate(db.owner_url, app)
        yield db
    finally:
        with psycopg.connect(server, autocommit=True) as admin:
            admin.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
            for role in (app, owner):
                admin.execute(sql.SQL("DROP ROLE IF EXISTS {}").format(sql.Identifier(role)))


@pytest.fixture(scope="session")
def pg_accounts(database: Database) -> Iterator[PostgresAccountsStore]:
    with PostgresAccountsStore(database.app_url, KEY_RING) as store:
        yield store


@pytest.fixture(scope="session")
def pg_store(database: Database) -> Iterator[PostgresConnectionsStore]:
    with PostgresConnectionsStore(database.app_url) as store:
        yield store


@pytest.fixture
def world() -> Iterator[World]:
    """The world in memory (the accounts and connections stores' in-memory adapters)."""
    with make_world(InMemoryAccountsStore(KEY_RING), InMemoryConnectionsStore()) as made:
        yield made


@pytest.fixture
def pg_world(pg_accounts: PostgresAccountsStore, pg_store: PostgresConnectionsStore) -> Iterator[World]:
    """The world on Postgres, as the app role under row-level security."""
    with make_world(pg_accounts, pg_store) as made:
        yield made


@pytest.fixture(params=["memory", "postgres"])
def any_world(request: pytest.FixtureRequest) -> Iterator[World]:
    """Each end-to-end test runs on both stores."""
    if request.param == "memory":
        with make_world(InMemoryAccountsStore(KEY_RING), InMemoryConnectionsStore()) as made:
            yield made
    else:
        accounts = request.getfixturevalue("pg_accounts")
        store = request.getfixturevalue("pg_store")
        with make_world(accounts, store) as made:
            yield made
