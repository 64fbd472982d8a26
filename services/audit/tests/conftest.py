"""Fixtures of the audit tests: realistic records, and Postgres databases on the local server.

``make_record`` builds record number ``n`` of a plausible session (decisions are the gate's own).

The server is found through ``ASAT_TEST_DATABASE_URL`` (a superuser URL; default
``postgresql://postgres@127.0.0.1:5432/postgres``). Each session creates a database
``asat_test_<random>`` owned by a new role ``<db>_owner``, an app role ``<db>_app``, migrates the
audit schema as the owner, and drops all three at the end. Role names carry the same random
suffix, so concurrent runs cannot collide. If the server is not reachable the tests fail (they
do not skip): the README promises they run against the real server.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from datetime import date
from typing import Any

import psycopg
import pytest
from psycopg import sql
from psycopg.conninfo import make_conninfo

from asat_audit.migration_runner import migrate_database
from asat_audit.record import AuditCitation, AuditRecord, ReadingListItem, StageLatency
from asat_corpus.contracts.decisions import Decision

ADMIN_URL_ENV = "ASAT_TEST_DATABASE_URL"
DEFAULT_ADMIN_URL = "postgresql://postgres@127.0.0.1:5432/postgres"
START_HINT = "pg_ctlcluster --skip-systemctl-redirect 15 main start"

RecordFactory = Callable[..., AuditRecord]


def sample_record(n: int = 0, **changes: Any) -> AuditRecord:
    """Record number ``n`` of a plausible session; ``changes`` override fields."""
    quote = "a loss or outgoing to the extent that it is incurred in gaining or producing your assessable income"
    record = AuditRecord(
        request_id=f"req-{n:05d}",
        question=f"Was the home office deductible in FY2020? (question {n}, café €)",
        as_of=date(2019, 7, 1),
        income_year=2020,
        decision=Decision.ANSWER if n % 3 else Decision.ABSTAIN_VERSION_CONFLICT,
        reasons=("two independent sources", "all quotes verified") if n % 3 else ("versions disagree",),
        citations=(AuditCitation("ITAA1997/8-1@2019-07-01", ("C2019C00123",), quote, 120, 120 + len(quote)),),
        verified_quotes=(AuditCitation("TR 93/30#p12", (), "home office expenses are deductible", 40, 75),),
        reading_list=(ReadingListItem("ITAA1997/8-1@2019-07-01", ("C2019C00123",), "ITAA 1997 s 8-1"),),
        provider="extractive",
        model="extractive-v1",
        seed=None if n % 2 else 1234 + n,
        corpus_generation="gen-2024-06-30-abcdef",
        latencies=(StageLatency("retrieve", 12.5), StageLatency("generate", 3.0), StageLatency("verify", 0.25)),
    )
    return replace(record, **changes) if changes else record


@pytest.fixture
def make_record() -> RecordFactory:
    return sample_record


@dataclass(frozen=True)
class AuditDatabase:
    name: str
    admin_url: str  # superuser, connected to this database
    owner_url: str  # owns schema research and research.audit_log
    app_url: str  # SELECT + INSERT only
    owner_role: str
    app_role: str

    def admin(self) -> psycopg.Connection[tuple[object, ...]]:
        return psycopg.connect(self.admin_url, autocommit=True)


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
def audit_db(pg_server_url: str) -> Iterator[AuditDatabase]:
    name = f"asat_test_{secrets.token_hex(5)}"
    owner, app = f"{name}_owner", f"{name}_app"
    with psycopg.connect(pg_server_url, autocommit=True) as admin:
        admin.execute(sql.SQL("CREATE ROLE {} LOGIN").format(sql.Identifier(owner)))
        admin.execute(sql.SQL("CREATE ROLE {} LOGIN").format(sql.Identifier(app)))
        admin.execute(sql.SQL("CREATE DATABASE {} OWNER {}").format(sql.Identifier(name), sql.Identifier(owner)))
    database = AuditDatabase(
        name=name,
        admin_url=make_conninfo(pg_server_url, dbname=name),
        owner_url=make_conninfo(pg_server_url, dbname=name, user=owner, password=""),
        app_url=make_conninfo(pg_server_url, dbname=name, user=app, password=""),
        owner_role=owner,
        app_role=app,
    )
    try:
        migrate_database(database.owner_url, app)
        yield database
    finally:
        with psycopg.connect(pg_server_url, autocommit=True) as admin:
            admin.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
            admin.execute(sql.SQL("DROP ROLE IF EXISTS {}").format(sql.Identifier(app)))
            admin.execute(sql.SQL("DROP ROLE IF EXISTS {}").format(sql.Identifier(owner)))


@pytest.fixture
def clean_audit_log(audit_db: AuditDatabase) -> AuditDatabase:
    """The session database with an empty audit log (emptied as superuser, triggers disabled)."""
    with audit_db.admin() as admin, admin.transaction():
        for table in ("research.audit_log", "research.audit_checkpoints"):
            admin.execute(f"ALTER TABLE {table} DISABLE TRIGGER USER")
            admin.execute(f"TRUNCATE {table}")
            admin.execute(f"ALTER TABLE {table} ENABLE TRIGGER USER")
    return audit_db


@pytest.fixture
def make_database(pg_server_url: str, audit_db: AuditDatabase) -> Iterator[Callable[[], AuditDatabase]]:
    """Creates extra empty databases (owned by the session owner role, not migrated)."""
    created: list[str] = []

    def create() -> AuditDatabase:
        name = f"{audit_db.name}_{len(created) + 1}"
        with psycopg.connect(pg_server_url, autocommit=True) as admin:
            admin.execute(
                sql.SQL("CREATE DATABASE {} OWNER {}").format(sql.Identifier(name), sql.Identifier(audit_db.owner_role))
            )
        created.append(name)
        return AuditDatabase(
            name=name,
            admin_url=make_conninfo(pg_server_url, dbname=name),
            owner_url=make_conninfo(pg_server_url, dbname=name, user=audit_db.owner_role, password=""),
            app_url=make_conninfo(pg_server_url, dbname=name, user=audit_db.app_role, password=""),
            owner_role=audit_db.owner_role,
            app_role=audit_db.app_role,
        )

    yield create
    with psycopg.connect(pg_server_url, autocommit=True) as admin:
        for name in created:
            admin.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
