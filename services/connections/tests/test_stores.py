"""The ConnectionsStore contract, run by both adapters (in memory, Postgres as the app role), and
what only Postgres enforces: row-level security on the new tables, the ledger's trigger, no DELETE
on the ledger, refusing an unsafe role or a schema without the tables."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from uuid import uuid4

import psycopg
import pytest
from psycopg import sql

from asat_accounts import AccountsStore, InMemoryAccountsStore, PostgresAccountsStore, client_fields
from asat_connections import (
    ConnectionConflictError,
    ConnectionsStartupError,
    ConnectionsStore,
    ConnectionsStoreError,
    ConnectionStatus,
    InMemoryConnectionsStore,
    PostgresConnectionsStore,
    PushRecord,
    PushState,
    XeroConnection,
    XeroTenant,
)
from asat_connections.model import HubSpotConnection, ImportRecord, ImportResult, PendingAuthorisation
from asat_connections.rules.oauth import state_digest

from .conftest import Database
from .support import KEY_RING, cheap_hash

NOW = datetime(2025, 3, 1, 9, 0, tzinfo=UTC)
TENANT_A = "6f2d1a60-1c1b-4a8e-9a55-6c1d2f0e0a01"
TENANT_B = "6f2d1a60-1c1b-4a8e-9a55-6c1d2f0e0a02"


@dataclass
class Setup:
    store: ConnectionsStore
    practice: int
    other_practice: int
    client: int
    client_2: int
    foreign_client: int


def _setup(accounts: AccountsStore, store: ConnectionsStore) -> Setup:
    tag = uuid4().hex[:8]
    a, _ = accounts.create_practice(f"A {tag}", f"a-{tag}@x.example", cheap_hash())
    b, _ = accounts.create_practice(f"B {tag}", f"b-{tag}@x.example", cheap_hash())
    c1 = accounts.add_client(a.id, client_fields("One"))
    c2 = accounts.add_client(a.id, client_fields("Two"))
    cb = accounts.add_client(b.id, client_fields("Foreign"))
    return Setup(store, a.id, b.id, c1.id, c2.id, cb.id)


@pytest.fixture(params=["memory", "postgres"])
def setup(request: pytest.FixtureRequest) -> Setup:
    if request.param == "memory":
        return _setup(InMemoryAccountsStore(KEY_RING), InMemoryConnectionsStore())
    return _setup(request.getfixturevalue("pg_accounts"), request.getfixturevalue("pg_store"))


def _connection(
    client: int, tenant: str | None, status: ConnectionStatus = ConnectionStatus.CONNECTED
) -> XeroConnection:
    return XeroConnection(
        client_id=client,
        status=status,
        tenant=None if tenant is None else XeroTenant(tenant, f"Org {tenant[-2:]}", str(uuid4())),
        access_expires_at=NOW + timedelta(minutes=30),
        problem="",
        connected_at=NOW,
        updated_at=NOW,
    )


def _claim(s: Setup, key: str = "k-1", when: datetime = NOW) -> PushRecord:
    return PushRecord(
        transaction_id=uuid4(),
        client_id=s.client,
        tenant_id=TENANT_A,
        state=PushState.PENDING,
        invoice_id=None,
        contact_id=None,
        attachment_id=None,
        idempotency_key=key,
        attempts=1,
        ambiguous=False,
        problem="",
        retryable=False,
        updated_at=when,
    )


def test_a_pending_authorisation_is_taken_once_and_only_in_its_practice(setup: Setup) -> None:
    s = setup
    pending = PendingAuthorisation(
        s.client, state_digest("state-1"), "http://localhost/cb", NOW, NOW + timedelta(minutes=15)
    )
    s.store.save_pending(s.practice, pending)
    assert s.store.take_pending(s.other_practice, pending.state_digest) is None
    assert s.store.take_pending(s.practice, pending.state_digest) == pending
    assert s.store.take_pending(s.practice, pending.state_digest) is None
    newer = replace(pending, state_digest=state_digest("state-2"))
    s.store.save_pending(s.practice, pending)
    s.store.save_pending(s.practice, newer)  # only the latest link of a client works
    assert s.store.take_pending(s.practice, pending.state_digest) is None
    assert s.store.take_pending(s.practice, newer.state_digest) == newer


def test_connections_are_kept_per_client_one_organisation_each(setup: Setup) -> None:
    s = setup
    one = s.store.save_xero_connection(s.practice, _connection(s.client, TENANT_A))
    assert s.store.xero_connection(s.practice, s.client) == one
    assert s.store.xero_connection(s.other_practice, s.client) is None
    with pytest.raises(ConnectionConflictError, match="already connected"):
        s.store.save_xero_connection(s.practice, _connection(s.client_2, TENANT_A))
    choosing = replace(
        _connection(s.client_2, None, ConnectionStatus.CHOOSE_ORGANISATION),
        choices=(XeroTenant(TENANT_A, "Org A", "x"), XeroTenant(TENANT_B, "Org B", "y")),
    )
    s.store.save_xero_connection(s.practice, choosing)
    assert s.store.xero_connection(s.practice, s.client_2) == choosing
    assert [c.client_id for c in s.store.xero_connections(s.practice)] == [s.client, s.client_2]
    assert s.store.xero_connections(s.other_practice) == ()
    assert s.store.delete_xero_connection(s.practice, s.client)
    assert not s.store.delete_xero_connection(s.practice, s.client)


def test_a_push_is_claimed_once_and_a_stale_one_is_taken_over_checking_first(setup: Setup) -> None:
    s = setup
    claim = _claim(s)
    stored, claimed = s.store.claim_push(s.practice, claim, NOW - timedelta(minutes=10))
    assert claimed and stored == claim
    held, claimed = s.store.claim_push(s.practice, replace(claim, idempotency_key="k-2"), NOW - timedelta(minutes=10))
    assert not claimed and held.idempotency_key == "k-1"  # another push holds it
    later = NOW + timedelta(minutes=11)
    taken, claimed = s.store.claim_push(
        s.practice, replace(claim, idempotency_key="k-3", updated_at=later), later - timedelta(minutes=10)
    )
    assert claimed and taken.attempts == 2 and taken.ambiguous and taken.idempotency_key == "k-1"
    assert s.store.push_records(s.other_practice, [claim.transaction_id]) == {}


def test_a_definite_failure_gets_a_new_key_and_a_pushed_row_is_never_claimed_or_changed(setup: Setup) -> None:
    s = setup
    claim = _claim(s)
    s.store.claim_push(s.practice, claim, NOW)
    s.store.save_push(s.practice, replace(claim, state=PushState.FAILED, problem="refused", retryable=False))
    again, claimed = s.store.claim_push(s.practice, replace(claim, idempotency_key="k-new"), NOW)
    assert claimed and not again.ambiguous and again.idempotency_key == "k-new" and again.attempts == 2
    invoice = str(uuid4())
    pushed = replace(again, state=PushState.PUSHED, invoice_id=invoice, contact_id=str(uuid4()))
    s.store.save_push(s.practice, pushed)
    assert s.store.push_records(s.practice, [claim.transaction_id])[claim.transaction_id] == pushed
    row, claimed = s.store.claim_push(s.practice, claim, NOW + timedelta(days=1))
    assert not claimed and row.state is PushState.PUSHED
    with pytest.raises(ConnectionsStoreError, match="cannot change it"):
        s.store.save_push(s.practice, replace(pushed, invoice_id=str(uuid4())))
    with pytest.raises(ConnectionsStoreError):
        s.store.save_push(s.practice, replace(pushed, state=PushState.FAILED))
    attached = replace(pushed, attachment_id=str(uuid4()))
    s.store.save_push(s.practice, attached)  # an attachment may still be added
    assert s.store.push_records(s.practice, [claim.transaction_id])[claim.transaction_id] == attached


def test_hubspot_connection_and_import_ledger(setup: Setup) -> None:
    s = setup
    assert s.store.hubspot_connection(s.practice) is None
    saved = s.store.save_hubspot_connection(s.practice, HubSpotConnection(42, ("a", "b"), NOW, NOW))
    assert saved == HubSpotConnection(42, ("a", "b"), NOW, NOW)
    later = NOW + timedelta(hours=1)
    again = s.store.save_hubspot_connection(s.practice, HubSpotConnection(43, ("a",), later, later))
    assert again.connected_at == NOW and again.hub_id == 43  # connected_at kept
    assert s.store.hubspot_connection(s.other_practice) is None
    record = ImportRecord("10000000001", s.client, ImportResult.CREATED, NOW)
    assert s.store.record_hubspot_import(s.practice, record)
    assert not s.store.record_hubspot_import(s.practice, replace(record, client_id=s.client_2))
    assert s.store.hubspot_imports(s.practice) == {"10000000001": record}
    assert s.store.hubspot_imports(s.other_practice) == {}
    assert s.store.delete_hubspot_connection(s.practice) and s.store.hubspot_connection(s.practice) is None


# --- Postgres only ---------------------------------------------------------------------------------

pg = pytest.mark.postgres


@pytest.fixture
def pg_setup(pg_accounts: PostgresAccountsStore, pg_store: PostgresConnectionsStore) -> Setup:
    return _setup(pg_accounts, pg_store)


@pg
def test_a_connection_to_another_practices_client_is_refused(pg_setup: Setup) -> None:
    s = pg_setup
    with pytest.raises(ConnectionsStoreError, match="refused"):
        s.store.save_xero_connection(s.practice, _connection(s.foreign_client, TENANT_B))


# One row in each table of migration 0003, written as the app role with the practice set: what
# the accounts tests' two_practices fixture needs for its check that every tenant table shows a
# practice its own rows and none of another's.
SEED_ROWS = (
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


@pg
def test_row_level_security_hides_the_new_tables_rows_from_another_practice(
    database: Database, pg_setup: Setup
) -> None:
    s = pg_setup
    with psycopg.connect(database.app_url) as conn, conn.transaction():
        conn.execute("SELECT set_config('app.practice_id', %s, true)", (str(s.practice),))
        for statement in SEED_ROWS:
            conn.execute(statement, {"p": s.practice, "c": s.client})
    tables = ("xero_connections", "xero_authorisations", "xero_pushes", "hubspot_connections", "hubspot_imports")
    with psycopg.connect(database.app_url) as conn, conn.transaction():
        conn.execute("SELECT set_config('app.practice_id', %s, true)", (str(s.other_practice),))
        for table in tables:
            query = sql.SQL("SELECT count(*) FROM {} WHERE practice_id = %s").format(sql.Identifier("app", table))
            assert conn.execute(query, (s.practice,)).fetchone() == (0,)
        for statement in SEED_ROWS:  # written for another practice: refused
            with pytest.raises(psycopg.errors.InsufficientPrivilege, match="row-level security"), conn.transaction():
                conn.execute(statement, {"p": s.practice, "c": s.client})
    with psycopg.connect(database.app_url) as conn, conn.transaction():
        conn.execute("SELECT set_config('app.practice_id', %s, true)", (str(s.practice),))
        for table in tables:
            query = sql.SQL("SELECT count(*) FROM {}").format(sql.Identifier("app", table))
            assert conn.execute(query).fetchone() == (1,)
    with (
        psycopg.connect(database.app_url) as conn,
        pytest.raises(psycopg.errors.InsufficientPrivilege, match="no practice is set"),
    ):
        conn.execute("SELECT count(*) FROM app.xero_pushes")


@pg
def test_a_row_cannot_name_another_practices_client(database: Database, pg_setup: Setup) -> None:
    s = pg_setup
    with psycopg.connect(database.app_url) as conn, conn.transaction():
        conn.execute("SELECT set_config('app.practice_id', %s, true)", (str(s.practice),))
        for statement in (SEED_ROWS[0], SEED_ROWS[2], SEED_ROWS[4]):
            with pytest.raises(psycopg.errors.ForeignKeyViolation), conn.transaction():
                conn.execute(statement, {"p": s.practice, "c": s.foreign_client})


@pg
def test_the_ledger_cannot_be_deleted_from_or_its_bill_changed(database: Database, pg_setup: Setup) -> None:
    s = pg_setup
    claim = _claim(s)
    s.store.claim_push(s.practice, claim, NOW)
    s.store.save_push(s.practice, replace(claim, state=PushState.PUSHED, invoice_id=str(uuid4())))
    with psycopg.connect(database.app_url) as conn:
        conn.execute("SELECT set_config('app.practice_id', %s, false)", (str(s.practice),))
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="permission denied"):
            conn.execute("DELETE FROM app.xero_pushes")
        conn.rollback()
        conn.execute("SELECT set_config('app.practice_id', %s, false)", (str(s.practice),))
        with pytest.raises(psycopg.errors.CheckViolation, match="cannot change it"):
            conn.execute("UPDATE app.xero_pushes SET invoice_id = gen_random_uuid()")


@pg
def test_the_store_refuses_the_owner_role(database: Database) -> None:
    with pytest.raises(ConnectionsStartupError, match="refusing to serve connections"):
        PostgresConnectionsStore(database.owner_url)


@pg
def test_the_store_refuses_a_database_without_the_tables(database: Database) -> None:
    name = f"{database.name}_empty"
    with psycopg.connect(database.admin_url, autocommit=True) as admin:
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        empty = database.app_url.replace(f"dbname={database.name}", f"dbname={name}")
        with pytest.raises(ConnectionsStartupError, match="migrate"):
            PostgresConnectionsStore(empty)
    finally:
        with psycopg.connect(database.admin_url, autocommit=True) as admin:
            admin.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
