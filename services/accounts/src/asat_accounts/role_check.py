"""Refusing to serve accounts as a role, or over a schema, that row-level security would not bind.

Row-level security filters every query of the app role by practice, unless the role is a
superuser, has ``BYPASSRLS``, owns the tables (an owner can switch it off), or the statement is
``TRUNCATE`` (never filtered). So before the first query the store reads, from the catalog, what
the connected role is and may do on each table of schema ``app``, and refuses to start, naming
every problem, when any of these holds, or when a table lacks its row-level security (enabled
and forced; for a tenant table, one with a ``practice_id`` column, at least one policy) or the
privileges ``python -m asat_accounts migrate`` grants.

The facts and the rules take the schema as a parameter (``read_schema_facts``, ``unsafe_reasons``
with ``expected`` and ``exempt``), so another schema under the same rules (``extraction``) is
checked by this code too; ``require_safe_app_role`` is the accounts store's own check.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import psycopg
from psycopg.rows import tuple_row

from asat_accounts.errors import AccountsStartupError
from asat_accounts.migrate import APP_PRIVILEGES, MIGRATE_COMMAND, SCHEMA

# Tables of schema app that row-level security need not cover (no practice's data in them).
RLS_EXEMPT = frozenset({"schema_migrations"})
# Privileges the app role must never hold: TRUNCATE ignores row-level security; REFERENCES and
# TRIGGER would let it read or act on rows through constraints and trigger functions.
FORBIDDEN_PRIVILEGES = ("TRUNCATE", "REFERENCES", "TRIGGER")
_PRIVILEGES = ("SELECT", "INSERT", "UPDATE", "DELETE", *FORBIDDEN_PRIVILEGES)


@dataclass(frozen=True)
class TableFacts:
    """One table of schema ``app``, as the connected role sees it."""

    name: str
    owner: str
    member_of_owner: bool  # the role is the owner, or a member of the owning role
    rls_enabled: bool
    rls_forced: bool
    tenant: bool  # has a practice_id column
    policies: int
    privileges: frozenset[str]  # of the connected role


@dataclass(frozen=True)
class RoleFacts:
    role: str
    superuser: bool
    bypass_rls: bool
    tables: tuple[TableFacts, ...]
    schema: str = SCHEMA  # the schema the tables are in


def unsafe_reasons(
    facts: RoleFacts,
    expected: Mapping[str, tuple[str, ...]] = APP_PRIVILEGES,
    exempt: frozenset[str] = RLS_EXEMPT,
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Why ``facts.role`` must not serve ``facts.schema``: (what the role is or may do, what the
    tables lack). ``expected``: the privileges granted on each table; ``exempt``: the tables that
    need no row-level security. Both empty when it may.
    """
    schema = facts.schema
    role: list[str] = []
    if facts.superuser:
        role.append("is a superuser (row-level security does not apply to it)")
    if facts.bypass_rls:
        role.append("has BYPASSRLS (row-level security does not apply to it)")
    owned = [t for t in facts.tables if t.member_of_owner]
    if owned and not facts.superuser:
        owners = sorted({t.owner for t in owned})
        role.append(
            f"owns {_names(owned, schema)} (or is a member of their owner {', '.join(repr(o) for o in owners)}), "
            "so it could switch row-level security off"
        )
    for privilege in FORBIDDEN_PRIVILEGES:
        holding = [t for t in facts.tables if privilege in t.privileges]
        if holding and not facts.superuser:
            role.append(f"has {privilege} on {_names(holding, schema)}")
    missing = [
        f"{p} on {schema}.{t.name}" for t in facts.tables for p in expected.get(t.name, ()) if p not in t.privileges
    ]
    if missing and not facts.superuser:
        role.append(f"lacks {', '.join(missing)}")
    tables: list[str] = []
    unguarded = [t for t in facts.tables if t.name not in exempt and not (t.rls_enabled and t.rls_forced)]
    if unguarded:
        tables.append(f"row-level security is not both enabled and forced on {_names(unguarded, schema)}")
    unpolicied = [t for t in facts.tables if t.tenant and t.policies == 0]
    if unpolicied:
        tables.append(f"tenant table(s) {_names(unpolicied, schema)} have no row-level security policy")
    return tuple(role), tuple(tables)


def read_role_facts(conn: psycopg.Connection[Any]) -> RoleFacts:
    """What the connected role is, and may do on each table of schema ``app``."""
    facts = read_schema_facts(conn, SCHEMA)
    if not facts.tables:
        raise AccountsStartupError(
            f"schema {SCHEMA} has no tables (or does not exist): run `{MIGRATE_COMMAND}` with "
            "ASAT_ACCOUNTS_MIGRATE_URL set to the owner role"
        )
    return facts


def read_schema_facts(conn: psycopg.Connection[Any], schema: str) -> RoleFacts:
    """What the connected role is, and may do on each table of ``schema`` (none: no tables)."""
    cursor = conn.cursor(row_factory=tuple_row)
    role_row = cursor.execute(
        "SELECT rolname, rolsuper, rolbypassrls FROM pg_roles WHERE rolname = current_user"
    ).fetchone()
    if role_row is None:  # pragma: no cover - current_user always has a pg_roles row
        raise AccountsStartupError("the connected role is not in pg_roles")
    privilege_columns = ", ".join(f"has_table_privilege(c.oid, '{p}')" for p in _PRIVILEGES)
    rows = cursor.execute(
        "SELECT c.relname, pg_get_userbyid(c.relowner), pg_has_role(current_user, c.relowner, 'MEMBER'),"
        " c.relrowsecurity, c.relforcerowsecurity,"
        " EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'practice_id'"
        "  AND NOT a.attisdropped),"
        " (SELECT count(*) FROM pg_policy p WHERE p.polrelid = c.oid), "
        + privilege_columns
        + " FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
        " WHERE n.nspname = %s AND c.relkind IN ('r', 'p') ORDER BY c.relname",
        (schema,),
    ).fetchall()
    tables = tuple(
        TableFacts(
            name=str(row[0]),
            owner=str(row[1]),
            member_of_owner=bool(row[2]),
            rls_enabled=bool(row[3]),
            rls_forced=bool(row[4]),
            tenant=bool(row[5]),
            policies=int(row[6]),
            privileges=frozenset(p for p, held in zip(_PRIVILEGES, row[7:], strict=True) if held),
        )
        for row in rows
    )
    return RoleFacts(
        role=str(role_row[0]), superuser=bool(role_row[1]), bypass_rls=bool(role_row[2]), tables=tables, schema=schema
    )


def require_safe_app_role(conn: psycopg.Connection[Any]) -> RoleFacts:
    """Raise ``AccountsStartupError`` naming every problem unless row-level security binds ``conn``."""
    facts = read_role_facts(conn)
    role, tables = unsafe_reasons(facts)
    problems: list[str] = []
    if role:
        problems.append(
            f"role {facts.role!r} {'; it '.join(role)}. Connect ASAT_DATABASE_URL as the app role: one that is "
            "neither the tables' owner nor a superuser nor BYPASSRLS, granted by "
            f"`{MIGRATE_COMMAND} --app-role <role>`"
        )
    if tables:
        problems.append(
            f"{'; '.join(tables)}. Run `{MIGRATE_COMMAND}` (as the owner role) to restore it; a new tenant "
            "table needs its policy in a migration"
        )
    if problems:
        raise AccountsStartupError("refusing to serve accounts: " + " Also: ".join(problems))
    return facts


def _names(tables: list[TableFacts], schema: str = SCHEMA) -> str:
    return ", ".join(f"{schema}.{t.name}" for t in tables)
