"""Refusing to serve documents as a role, or over a schema, that row-level security would not bind.

The rules are the accounts library's (``asat_accounts.role_check``, given this schema, its
``APP_PRIVILEGES`` and its non-tenant tables): the store refuses to start, naming every problem,
when its role is a superuser, has ``BYPASSRLS``, owns a table of ``extraction`` (or is a member
of its owner), holds ``TRUNCATE``, ``REFERENCES`` or ``TRIGGER`` or lacks a granted privilege;
when a table has row-level security off or not forced, a tenant table (one with a
``practice_id`` column) has no policy, or a table is neither a tenant table nor listed in
``NON_TENANT_TABLES``; and when the schema is missing or behind the code.
"""

from __future__ import annotations

from typing import Any

import psycopg
from psycopg.rows import tuple_row

from asat_accounts.role_check import RoleFacts, read_schema_facts, unsafe_reasons
from asat_extraction.store.migrate import APP_PRIVILEGES, MIGRATE_COMMAND, NON_TENANT_TABLES, SCHEMA, latest_version

MIGRATE_HINT = f"`{MIGRATE_COMMAND}` with ASAT_EXTRACTION_MIGRATE_URL set to the owner role"


class ExtractionStartupError(Exception):
    """The store must not serve with this role or schema; the message names every problem and what to do."""


def table_reasons(facts: RoleFacts) -> tuple[str, ...]:
    """What the tables lack beyond ``unsafe_reasons``: a practice_id on every table not listed as non-tenant."""
    untenanted = [t.name for t in facts.tables if not t.tenant and t.name not in NON_TENANT_TABLES]
    if not untenanted:
        return ()
    names = ", ".join(f"{SCHEMA}.{name}" for name in untenanted)
    return (
        f"table(s) {names} have no practice_id column and are not listed in "
        "asat_extraction.store.migrate.NON_TENANT_TABLES",
    )


def unsafe(facts: RoleFacts) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(what the role is or may do, what the tables lack): both empty when the role may serve."""
    role, tables = unsafe_reasons(facts, APP_PRIVILEGES, NON_TENANT_TABLES)
    return role, tables + table_reasons(facts)


def require_safe_app_role(conn: psycopg.Connection[Any]) -> RoleFacts:
    """Raise ``ExtractionStartupError`` naming every problem unless row-level security binds ``conn``
    and the schema is at the code's version."""
    facts = read_schema_facts(conn, SCHEMA)
    if not facts.tables:
        raise ExtractionStartupError(
            f"refusing to serve documents: schema {SCHEMA} has no tables (or does not exist): run {MIGRATE_HINT}"
        )
    role, tables = unsafe(facts)
    problems: list[str] = []
    if role:
        problems.append(
            f"role {facts.role!r} {'; it '.join(role)}. Connect ASAT_EXTRACTION_DATABASE_URL (or ASAT_DATABASE_URL) "
            "as the app role: one that is neither the tables' owner nor a superuser nor BYPASSRLS, granted by "
            f"`{MIGRATE_COMMAND} --app-role <role>`"
        )
    if tables:
        problems.append(
            f"{'; '.join(tables)}. Run {MIGRATE_HINT} to restore it; a new tenant table needs its practice_id "
            "and its policy in a migration"
        )
    if not role:  # the app role may read schema_migrations
        version = _version(conn)
        if version != latest_version():
            problems.append(
                f"schema {SCHEMA} is at migration {version:04d} and this code needs {latest_version():04d}: "
                f"run {MIGRATE_HINT}"
            )
    if problems:
        raise ExtractionStartupError("refusing to serve documents: " + " Also: ".join(problems))
    return facts


def _version(conn: psycopg.Connection[Any]) -> int:
    cursor = conn.cursor(row_factory=tuple_row)
    row = cursor.execute(f"SELECT coalesce(max(version), 0) FROM {SCHEMA}.schema_migrations").fetchone()
    return 0 if row is None else int(row[0])
