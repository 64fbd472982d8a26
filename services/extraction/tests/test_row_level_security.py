"""Row-level security of schema extraction, checked with direct SQL as the app role: one practice
never sees or writes another's documents, transactions or corrections, and every table (found
from the catalog) is a tenant table under a forced policy keyed on the practice, or is listed as
non-tenant."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import psycopg
import pytest
from psycopg import sql

from asat_extraction.store.migrate import APP_PRIVILEGES, NON_TENANT_TABLES, SCHEMA, MigrationError, migrate
from asat_extraction.store.postgres import PostgresStore
from asat_extraction.store.records import ReviewStatus
from asat_extraction.store.role_check import ExtractionStartupError
from asat_extraction.testing.postgres import ScratchDatabase, scratch_database
from asat_extraction.testing.store_contract import new_document

pytestmark = pytest.mark.postgres

A, B = 101, 202
TENANT_TABLES = {"documents", "transactions", "corrections"}
# pg_policy.polcmd: which command a policy covers ('*' all).
_COMMAND_CODES = {"SELECT": "r", "INSERT": "a", "UPDATE": "w", "DELETE": "d"}
Conn = psycopg.Connection[tuple[Any, ...]]


@dataclass(frozen=True)
class Rows:
    """What each practice stored: a document, its transaction (corrected once)."""

    document: dict[int, str]
    transaction: dict[int, str]


@pytest.fixture(scope="module")
def database() -> Iterator[ScratchDatabase]:
    with scratch_database() as db:
        yield db


@pytest.fixture(scope="module")
def rows(database: ScratchDatabase) -> Rows:
    store = PostgresStore(database.app_url)
    documents: dict[int, str] = {}
    transactions: dict[int, str] = {}
    for practice in (A, B):
        document, transaction, _ = store.add(practice, new_document(f"practice {practice}".encode()))
        store.correct(practice, transaction.id, "sam", {"total_amount": "1.00"}, ReviewStatus.CORRECTED, None)
        documents[practice], transactions[practice] = str(document.id), str(transaction.id)
    return Rows(documents, transactions)


def tables(conn: Conn) -> list[str]:
    """Every table of schema extraction, from the catalog."""
    found = conn.execute(
        "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
        " WHERE n.nspname = %s AND c.relkind IN ('r', 'p') ORDER BY c.relname",
        (SCHEMA,),
    ).fetchall()
    return [str(name) for (name,) in found]


def tenant_tables(conn: Conn) -> list[str]:
    """Every table of schema extraction with a practice_id column, from the catalog."""
    found = conn.execute(
        "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
        " JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'practice_id' AND NOT a.attisdropped"
        " WHERE n.nspname = %s AND c.relkind IN ('r', 'p') ORDER BY c.relname",
        (SCHEMA,),
    ).fetchall()
    return [str(name) for (name,) in found]


def rls_problems(conn: Conn, app_role: str) -> list[str]:
    """What schema extraction lacks: every table a tenant table (a practice_id column) unless listed
    in NON_TENANT_TABLES; every tenant table with row-level security enabled and forced, and a
    policy keyed on the transaction's practice for every command the app role may run, with a
    WITH CHECK for those that write."""
    problems: list[str] = []
    tenants = set(tenant_tables(conn))
    for name in tables(conn):
        if name in NON_TENANT_TABLES:
            continue
        if name not in tenants:
            problems.append(f"{SCHEMA}.{name}: no practice_id column and not listed in NON_TENANT_TABLES")
            continue
        oid, enabled, forced = conn.execute(
            "SELECT c.oid, c.relrowsecurity, c.relforcerowsecurity FROM pg_class c"
            " JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = %s AND c.relname = %s",
            (SCHEMA, name),
        ).fetchone() or (None, False, False)
        if not (enabled and forced):
            problems.append(f"{SCHEMA}.{name}: row-level security enabled={enabled} forced={forced}")
        policies = conn.execute(
            "SELECT polname, polcmd, coalesce(pg_get_expr(polqual, polrelid), ''),"
            " coalesce(pg_get_expr(polwithcheck, polrelid), '') FROM pg_policy WHERE polrelid = %s ORDER BY polname",
            (oid,),
        ).fetchall()
        for command, code in _COMMAND_CODES.items():
            held = conn.execute("SELECT has_table_privilege(%s, %s, %s)", (app_role, oid, command)).fetchone()
            covering = [p for p in policies if p[1] in (code, "*")]
            if held == (True,) and not covering:
                problems.append(f"{SCHEMA}.{name}: the app role may {command} but no policy covers it")
            if held == (True,) and command in ("INSERT", "UPDATE") and not any(p[3] for p in covering):
                problems.append(f"{SCHEMA}.{name}: the app role may {command} but no policy has a WITH CHECK")
        for policy, _, using, check in policies:
            for clause in (using, check):
                if clause and ("practice_id" not in clause or "current_practice_id" not in clause):
                    problems.append(f"{SCHEMA}.{name}: policy {policy} is not keyed on the transaction's practice")
    return problems


@contextmanager
def as_app(db: ScratchDatabase, practice_id: int | None) -> Iterator[Conn]:
    """A transaction as the app role, with app.practice_id set (SET LOCAL) when given."""
    with psycopg.connect(db.app_url) as conn, conn.transaction():
        if practice_id is not None:
            conn.execute(sql.SQL("SET LOCAL app.practice_id = {}").format(sql.Literal(str(practice_id))))
        yield conn


# --- the catalog ---------------------------------------------------------------------------------


def test_every_table_is_a_tenant_table_under_forced_row_level_security(database: ScratchDatabase) -> None:
    with psycopg.connect(database.admin_url) as admin:
        assert set(tenant_tables(admin)) == TENANT_TABLES
        assert set(tables(admin)) == TENANT_TABLES | NON_TENANT_TABLES
        assert set(tables(admin)) <= set(APP_PRIVILEGES)
        assert rls_problems(admin, database.app_role) == []


def test_a_new_table_without_its_policy_or_its_practice_is_caught() -> None:
    with scratch_database() as db, psycopg.connect(db.owner_url, autocommit=True) as owner:
        owner.execute("CREATE TABLE extraction.notes (id bigint PRIMARY KEY, practice_id bigint NOT NULL)")
        owner.execute("CREATE TABLE extraction.tags (id bigint PRIMARY KEY, name text)")
        owner.execute(f'GRANT SELECT, INSERT ON extraction.notes TO "{db.app_role}"')
        assert rls_problems(owner, db.app_role) == [
            "extraction.notes: row-level security enabled=False forced=False",
            "extraction.notes: the app role may SELECT but no policy covers it",
            "extraction.notes: the app role may INSERT but no policy covers it",
            "extraction.notes: the app role may INSERT but no policy has a WITH CHECK",
            "extraction.tags: no practice_id column and not listed in NON_TENANT_TABLES",
        ]
        # The service refuses to start over them, and migrate refuses to grant on them.
        with pytest.raises(ExtractionStartupError) as refused:
            PostgresStore(db.app_url)
        assert "row-level security is not both enabled and forced on extraction.notes, extraction.tags" in str(
            refused.value
        )
        assert "tenant table(s) extraction.notes have no row-level security policy" in str(refused.value)
        assert "table(s) extraction.tags have no practice_id column" in str(refused.value)
        with pytest.raises(MigrationError, match=r"extraction\.notes, extraction\.tags have no entry in .*APP_PRIV"):
            migrate(db.owner_url, db.app_role)
        owner.execute("ALTER TABLE extraction.notes ENABLE ROW LEVEL SECURITY")
        owner.execute("ALTER TABLE extraction.notes FORCE ROW LEVEL SECURITY")
        owner.execute("CREATE POLICY everyone ON extraction.notes FOR ALL USING (true)")
        assert "extraction.notes: policy everyone is not keyed on the transaction's practice" in rls_problems(
            owner, db.app_role
        )
        owner.execute("DROP POLICY everyone ON extraction.notes")
        owner.execute(
            "CREATE POLICY of_the_practice ON extraction.notes FOR ALL"
            " USING (practice_id = (SELECT extraction.current_practice_id()))"
            " WITH CHECK (practice_id = (SELECT extraction.current_practice_id()))"
        )
        owner.execute("DROP TABLE extraction.tags")
        assert rls_problems(owner, db.app_role) == []


def test_the_app_role_holds_exactly_the_granted_privileges(database: ScratchDatabase) -> None:
    with psycopg.connect(database.admin_url) as admin:
        for table in tables(admin):
            held = {
                privilege
                for privilege in ("SELECT", "INSERT", "UPDATE", "DELETE", "TRUNCATE", "REFERENCES", "TRIGGER")
                if admin.execute(
                    "SELECT has_table_privilege(%s, %s, %s)", (database.app_role, f"{SCHEMA}.{table}", privilege)
                ).fetchone()
                == (True,)
            }
            assert held == set(APP_PRIVILEGES[table]), table
        role = admin.execute(
            "SELECT rolsuper, rolbypassrls FROM pg_roles WHERE rolname = %s", (database.app_role,)
        ).fetchone()
        assert role == (False, False)


# --- direct SQL as the app role ------------------------------------------------------------------


def test_the_app_role_reads_no_row_of_another_practice(database: ScratchDatabase, rows: Rows) -> None:
    with psycopg.connect(database.admin_url) as admin:
        found = tenant_tables(admin)
    for practice, other in ((A, B), (B, A)):
        with as_app(database, practice) as conn:
            for table in found:
                counts = conn.execute(
                    sql.SQL("SELECT count(*) FILTER (WHERE practice_id = %s), count(*) FROM {}").format(
                        sql.Identifier(SCHEMA, table)
                    ),
                    (practice,),
                ).fetchone()
                own, total = counts if counts is not None else (0, 0)
                assert own == total, f"{SCHEMA}.{table} shows {total - own} row(s) of another practice"
                assert own > 0, f"{SCHEMA}.{table} shows none of practice {practice}'s own rows"
                foreign = conn.execute(
                    sql.SQL("SELECT count(*) FROM {} WHERE practice_id = %s").format(sql.Identifier(SCHEMA, table)),
                    (other,),
                ).fetchone()
                assert foreign == (0,), f"{SCHEMA}.{table} shows practice {other}'s rows to practice {practice}"
            by_id = conn.execute(
                "SELECT count(*) FROM extraction.documents WHERE id = %s", (rows.document[other],)
            ).fetchone()
            assert by_id == (0,)


def test_a_query_with_no_practice_set_is_refused(database: ScratchDatabase, rows: Rows) -> None:
    for table in sorted(TENANT_TABLES):
        with (
            pytest.raises(psycopg.errors.InsufficientPrivilege, match="no practice is set for this transaction"),
            as_app(database, None) as conn,
        ):
            conn.execute(sql.SQL("SELECT count(*) FROM {}").format(sql.Identifier(SCHEMA, table)))


def test_the_owner_is_bound_too(database: ScratchDatabase, rows: Rows) -> None:
    with psycopg.connect(database.owner_url) as conn:
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="no practice is set"):
            conn.execute("SELECT count(*) FROM extraction.documents")
        conn.rollback()
        conn.execute(sql.SQL("SET app.practice_id = {}").format(sql.Literal(str(A))))
        assert conn.execute("SELECT count(*) FROM extraction.documents WHERE practice_id <> %s", (A,)).fetchone() == (
            0,
        )


@pytest.mark.parametrize(
    ("statement", "refusal"),
    [
        (
            "INSERT INTO extraction.documents (id, practice_id, filename, media_type, sha256, size, content)"
            " VALUES (gen_random_uuid(), %(b)s, 'planted.txt', 'text/plain', repeat('b', 64), 1, 'x')",
            "row-level security",
        ),
        ("UPDATE extraction.transactions SET practice_id = %(b)s WHERE practice_id = %(a)s", "row-level security"),
        (
            "INSERT INTO extraction.corrections (practice_id, transaction_id, who, changes, before)"
            " VALUES (%(b)s, %(b_transaction)s, 'mallory', '{}', '{}')",
            "row-level security",
        ),
        (
            # Its own practice, but pointing at another practice's transaction: the key carries the practice.
            "INSERT INTO extraction.corrections (practice_id, transaction_id, who, changes, before)"
            " VALUES (%(a)s, %(b_transaction)s, 'mallory', '{}', '{}')",
            "corrections_transaction_fkey",
        ),
        ("TRUNCATE extraction.documents CASCADE", "permission denied"),
        ("DELETE FROM extraction.documents", "permission denied"),
    ],
)
def test_a_write_for_another_practice_is_refused(
    database: ScratchDatabase, rows: Rows, statement: str, refusal: str
) -> None:
    params = {"a": A, "b": B, "b_transaction": rows.transaction[B]}
    with pytest.raises(psycopg.Error, match=refusal), as_app(database, A) as conn:
        conn.execute(statement, params)


def test_another_practices_rows_cannot_be_changed(database: ScratchDatabase, rows: Rows) -> None:
    with as_app(database, A) as conn:
        changed = conn.execute(
            "UPDATE extraction.transactions SET review_status = 'rejected' WHERE id = %s", (rows.transaction[B],)
        )
        assert changed.rowcount == 0
    with as_app(database, B) as conn:
        status = conn.execute(
            "SELECT review_status FROM extraction.transactions WHERE id = %s", (rows.transaction[B],)
        ).fetchone()
        assert status == ("corrected",)
