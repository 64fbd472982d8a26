"""Fixtures of the accounts tests: Postgres databases on the local server, key rings, cheap hashes.

The server is found through ``ASAT_TEST_DATABASE_URL`` (a superuser URL; default
``postgresql://postgres@127.0.0.1:5432/postgres``). Each session creates a database
``asat_acct_<random>`` owned by a new role ``<db>_owner``, an app role ``<db>_app``, migrates
schema ``app`` as the owner, and drops all three at the end. Role names carry the same random
suffix, so concurrent runs cannot collide. If the server is not reachable the tests fail (they
do not skip).

Password hashes here use argon2's cheapest parameters (the default costs 64 MiB and a third of a
second per hash); the CLI's tests use the defaults.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta

import psycopg
import pytest
from psycopg import sql
from psycopg.conninfo import make_conninfo

from asat_accounts.fields import client_fields
from asat_accounts.migrate import migrate
from asat_accounts.model import ResearchHistoryEntry, Role
from asat_accounts.postgres_store import PostgresAccountsStore
from asat_accounts.secret_box import KeyRing
from asat_accounts.sessions import new_token

from .support import KEY_1, AccountsDatabase, TwoPractices, cheap_hash

ADMIN_URL_ENV = "ASAT_TEST_DATABASE_URL"
DEFAULT_ADMIN_URL = "postgresql://postgres@127.0.0.1:5432/postgres"
START_HINT = "pg_ctlcluster --skip-systemctl-redirect 15 main start"


@pytest.fixture(scope="session")
def pg_server_url() -> str:
    url = os.environ.get(ADMIN_URL_ENV, DEFAULT_ADMIN_URL)
    try:
        with psycopg.connect(url, connect_timeout=5) as conn:
            conn.execute("SELECT 1")
    except psycopg.Error as exc:
        pytest.fail(
            f"the Postgres tests need the local server at {url} ({ADMIN_URL_ENV}) and could not connect: "
            f"{str(exc).strip()}. Start it with `{START_HINT}` (or run `.ci/run`, which starts it).",
            pytrace=False,
        )
    return url


@pytest.fixture(scope="session")
def accounts_db(pg_server_url: str) -> Iterator[AccountsDatabase]:
    name = f"asat_acct_{secrets.token_hex(5)}"
    owner, app = f"{name}_owner", f"{name}_app"
    with psycopg.connect(pg_server_url, autocommit=True) as admin:
        admin.execute(sql.SQL("CREATE ROLE {} LOGIN").format(sql.Identifier(owner)))
        admin.execute(sql.SQL("CREATE ROLE {} LOGIN").format(sql.Identifier(app)))
        admin.execute(sql.SQL("CREATE DATABASE {} OWNER {}").format(sql.Identifier(name), sql.Identifier(owner)))
    database = AccountsDatabase(
        name=name,
        admin_url=make_conninfo(pg_server_url, dbname=name),
        owner_url=make_conninfo(pg_server_url, dbname=name, user=owner, password=""),
        app_url=make_conninfo(pg_server_url, dbname=name, user=app, password=""),
        owner_role=owner,
        app_role=app,
    )
    try:
        migrate(database.owner_url, app)
        yield database
    finally:
        with psycopg.connect(pg_server_url, autocommit=True) as admin:
            admin.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
            for role in (app, owner):
                admin.execute(sql.SQL("DROP ROLE IF EXISTS {}").format(sql.Identifier(role)))


@pytest.fixture
def make_database(pg_server_url: str, accounts_db: AccountsDatabase) -> Iterator[Callable[[], AccountsDatabase]]:
    """Creates extra empty databases (owned by the session owner role, not migrated)."""
    created: list[str] = []

    def create() -> AccountsDatabase:
        name = f"{accounts_db.name}_{len(created) + 1}"
        with psycopg.connect(pg_server_url, autocommit=True) as admin:
            admin.execute(
                sql.SQL("CREATE DATABASE {} OWNER {}").format(
                    sql.Identifier(name), sql.Identifier(accounts_db.owner_role)
                )
            )
        created.append(name)
        return AccountsDatabase(
            name=name,
            admin_url=make_conninfo(pg_server_url, dbname=name),
            owner_url=make_conninfo(pg_server_url, dbname=name, user=accounts_db.owner_role, password=""),
            app_url=make_conninfo(pg_server_url, dbname=name, user=accounts_db.app_role, password=""),
            owner_role=accounts_db.owner_role,
            app_role=accounts_db.app_role,
        )

    yield create
    with psycopg.connect(pg_server_url, autocommit=True) as admin:
        for name in created:
            admin.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


@pytest.fixture
def fresh_db(make_database: Callable[[], AccountsDatabase]) -> AccountsDatabase:
    """An empty, migrated database of its own (no practices, no users)."""
    db = make_database()
    migrate(db.owner_url, db.app_role)
    return db


@pytest.fixture
def key_ring() -> KeyRing:
    return KeyRing((KEY_1,))


@pytest.fixture
def store(accounts_db: AccountsDatabase, key_ring: KeyRing) -> Iterator[PostgresAccountsStore]:
    with PostgresAccountsStore(accounts_db.app_url, key_ring) as opened:
        yield opened


# One row of each connections table (migration 0003, written by asat_connections), so that the
# tenant-table checks see each practice's own rows there too.
CONNECTIONS_ROWS = (
    "INSERT INTO app.xero_connections (practice_id, client_id, status, tenant_id, tenant_name, connected_at,"
    " updated_at) VALUES (%(p)s, %(c)s, 'connected', gen_random_uuid(), 'Org', now(), now())",
    "INSERT INTO app.xero_authorisations (practice_id, client_id, state_digest, redirect_uri, created_at, expires_at)"
    " VALUES (%(p)s, %(c)s, encode(sha256(gen_random_uuid()::text::bytea), 'hex'), 'http://localhost/cb', now(),"
    " now() + interval '15 minutes')",
    "INSERT INTO app.xero_pushes (practice_id, transaction_id, client_id, tenant_id, state, idempotency_key, attempts,"
    " created_at, updated_at) VALUES (%(p)s, gen_random_uuid(), %(c)s, gen_random_uuid(), 'failed', 'k', 1, now(),"
    " now())",
    "INSERT INTO app.hubspot_connections (practice_id, hub_id, connected_at, updated_at) VALUES (%(p)s, 1, now(), now())",
    "INSERT INTO app.hubspot_imports (practice_id, company_id, client_id, result, imported_at)"
    " VALUES (%(p)s, '101', %(c)s, 'created', now())",
)


def seed_connections(app_url: str, practice_id: int, client_id: int) -> None:
    with psycopg.connect(app_url) as conn, conn.transaction():
        conn.execute("SELECT set_config('app.practice_id', %s, true)", (str(practice_id),))
        for statement in CONNECTIONS_ROWS:
            conn.execute(statement, {"p": practice_id, "c": client_id})  # type: ignore[arg-type]


@pytest.fixture
def two_practices(store: PostgresAccountsStore, accounts_db: AccountsDatabase) -> TwoPractices:
    """Two new practices in the session database (unique emails per call)."""
    tag = secrets.token_hex(4)
    a, a_owner = store.create_practice(f"Alpha Tax {tag}", f"owner-a-{tag}@alpha.example", cheap_hash())
    b, b_owner = store.create_practice(f"Beta Accounting {tag}", f"owner-b-{tag}@beta.example", cheap_hash())
    store.add_member(a.id, f"agent-a-{tag}@alpha.example", cheap_hash(), Role.AGENT)
    store.add_member(b.id, f"reviewer-b-{tag}@beta.example", cheap_hash(), Role.REVIEWER)
    for practice, names in ((a, ("Acme Pty Ltd", "Zed Trust")), (b, ("Bravo Pty Ltd", "Yak Partnership"))):
        for name in names:
            store.add_client(practice.id, client_fields(name, "51 824 753 556", f"notes of {name}"))
    a_secret = f"sk-alpha-{secrets.token_hex(16)}"
    b_secret = f"sk-beta-{secrets.token_hex(16)}"
    store.save_secret(a.id, "provider.openai", a_secret)
    store.save_secret(b.id, "provider.openai", b_secret)
    now = datetime.now(UTC)
    for practice, owner in ((a, a_owner), (b, b_owner)):
        store.create_session(owner.user.id, practice.id, new_token(), new_token(), now, now + timedelta(hours=1))
        store.save_provider_settings(practice.id, "ollama", "", "llama3")
        audit_id = secrets.randbelow(10**12) + 1  # the audit log's row, written by research
        question = f"What was the turnover threshold for {practice.name}?"
        store.record_research(
            practice.id,
            ResearchHistoryEntry(audit_id, owner.user.id, None, question, "income year 2015", "answer", "g", now),
        )
    for practice in (a, b):
        seed_connections(accounts_db.app_url, practice.id, store.clients(practice.id)[0].id)
    return TwoPractices(a, b, a_owner, b_owner, a_secret, b_secret)
