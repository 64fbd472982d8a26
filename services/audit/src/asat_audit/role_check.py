"""Refusing to write the audit log as a role that can bypass its rules."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import psycopg
from psycopg.rows import tuple_row

from asat_audit.store import AuditStartupError


@dataclass(frozen=True)
class RoleFacts:
    """What the connected role may do to ``research.audit_log``."""

    role: str
    table_owner: str
    superuser: bool
    bypass_rls: bool
    member_of_owner: bool  # the owner itself, or a member of the owning role
    can_select: bool
    can_insert: bool
    can_update: bool
    can_delete: bool
    can_truncate: bool


def unsafe_reasons(facts: RoleFacts) -> tuple[str, ...]:
    """Why ``facts.role`` must not write the audit log (empty when it may)."""
    reasons: list[str] = []
    if facts.superuser:
        reasons.append("is a superuser (can disable the append-only trigger)")
    if facts.member_of_owner:
        reasons.append(f"owns research.audit_log (or is a member of its owner {facts.table_owner!r})")
    if facts.bypass_rls:
        reasons.append("has BYPASSRLS")
    changes = [
        name
        for name, allowed in (
            ("UPDATE", facts.can_update),
            ("DELETE", facts.can_delete),
            ("TRUNCATE", facts.can_truncate),
        )
        if allowed
    ]
    if changes:
        reasons.append(f"has {', '.join(changes)} on research.audit_log")
    missing = [name for name, allowed in (("SELECT", facts.can_select), ("INSERT", facts.can_insert)) if not allowed]
    if missing:
        reasons.append(f"lacks {', '.join(missing)} on research.audit_log")
    return tuple(reasons)


def read_role_facts(conn: psycopg.Connection[Any]) -> RoleFacts:
    row = (
        conn.cursor(row_factory=tuple_row)
        .execute(
            "SELECT current_user, pg_get_userbyid(c.relowner), r.rolsuper, r.rolbypassrls,"
            " pg_has_role(current_user, c.relowner, 'MEMBER'),"
            " has_table_privilege(c.oid, 'SELECT'), has_table_privilege(c.oid, 'INSERT'),"
            " has_table_privilege(c.oid, 'UPDATE'), has_table_privilege(c.oid, 'DELETE'),"
            " has_table_privilege(c.oid, 'TRUNCATE')"
            " FROM pg_roles r, pg_class c"
            " WHERE r.rolname = current_user AND c.oid = to_regclass('research.audit_log')"
        )
        .fetchone()
    )
    if row is None:
        raise AuditStartupError(
            "research.audit_log does not exist (or this role cannot see it): run "
            "`python -m asat_audit migrate` with ASAT_AUDIT_MIGRATE_URL set to the owner role"
        )
    return RoleFacts(
        role=str(row[0]),
        table_owner=str(row[1]),
        superuser=bool(row[2]),
        bypass_rls=bool(row[3]),
        member_of_owner=bool(row[4]),
        can_select=bool(row[5]),
        can_insert=bool(row[6]),
        can_update=bool(row[7]),
        can_delete=bool(row[8]),
        can_truncate=bool(row[9]),
    )


def require_safe_app_role(conn: psycopg.Connection[Any]) -> RoleFacts:
    """Raise ``AuditStartupError`` unless ``conn``'s role may only SELECT and INSERT the log."""
    facts = read_role_facts(conn)
    reasons = unsafe_reasons(facts)
    if reasons:
        raise AuditStartupError(
            f"refusing to write the audit log as role {facts.role!r}: it {'; it '.join(reasons)}. "
            "Connect ASAT_DATABASE_URL as the app role (granted SELECT and INSERT only by "
            "`python -m asat_audit migrate`)"
        )
    return facts
