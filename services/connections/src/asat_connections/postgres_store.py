"""The Postgres ConnectionsStore: tables of schema ``app`` (accounts migration ``0003_connections``).

Every operation is one transaction that first sets ``app.practice_id`` (``set_config(..., true)``,
what ``SET LOCAL`` does), so row-level security returns and accepts that practice's rows only.
Before its first query the store checks its role as the accounts store does
(``asat_accounts.role_check``: not the owner, not a superuser, no ``BYPASSRLS``, every table's
row-level security on and forced) and that the connection tables exist; otherwise it refuses to
start (``ConnectionsStartupError``) naming the problem. It holds one connection, shared by its
threads under a lock, and reconnects (checking again) after the connection breaks.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import datetime
from typing import Any, Self
from uuid import UUID

import psycopg
from psycopg import errors as pg_errors
from psycopg.rows import DictRow, dict_row

from asat_accounts.errors import AccountsStartupError
from asat_accounts.migrate import MIGRATE_COMMAND
from asat_accounts.role_check import require_safe_app_role
from asat_connections.errors import ConnectionConflictError, ConnectionsStartupError, ConnectionsStoreError
from asat_connections.model import (
    ConnectionStatus,
    HubSpotConnection,
    ImportRecord,
    ImportResult,
    PendingAuthorisation,
    PushRecord,
    PushState,
    XeroConnection,
    XeroTenant,
)

DATABASE_URL_ENV = "ASAT_DATABASE_URL"
CONNECT_TIMEOUT_S = 5
TABLES = ("xero_connections", "xero_authorisations", "xero_pushes", "hubspot_connections", "hubspot_imports")
_XERO_COLUMNS = (
    "client_id, status, tenant_id, tenant_name, xero_connection_id, choices, access_expires_at, problem,"
    " connected_at, updated_at"
)
_PUSH_COLUMNS = (
    "transaction_id, client_id, tenant_id, state, invoice_id, contact_id, attachment_id, idempotency_key, attempts,"
    " ambiguous, problem, retryable, updated_at"
)


class PostgresConnectionsStore:
    """``ConnectionsStore`` over Postgres, as the app role (``ASAT_DATABASE_URL``)."""

    def __init__(self, url: str) -> None:
        self._url = url
        self._lock = threading.Lock()
        self._conn: psycopg.Connection[DictRow] | None = None
        with self._lock:
            try:
                self._connection()
            except ConnectionsStoreError as exc:
                raise ConnectionsStartupError(str(exc)) from exc

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> PostgresConnectionsStore:
        url = env.get(DATABASE_URL_ENV, "").strip()
        if not url:
            raise ConnectionsStartupError(
                f"no database URL: set {DATABASE_URL_ENV} to the app role's (the accounts library's, e.g. "
                "postgresql://asat_app@127.0.0.1:5432/asat)"
            )
        return cls(url)

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- OAuth dances under way ----------------------------------------------------------------

    def save_pending(self, practice_id: int, pending: PendingAuthorisation) -> None:
        with self._in_practice(practice_id) as conn:
            conn.execute(
                "INSERT INTO app.xero_authorisations (practice_id, client_id, state_digest, redirect_uri, created_at,"
                " expires_at) VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (practice_id, client_id) DO UPDATE SET"
                " state_digest = EXCLUDED.state_digest, redirect_uri = EXCLUDED.redirect_uri,"
                " created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at",
                (
                    practice_id,
                    pending.client_id,
                    pending.state_digest,
                    pending.redirect_uri,
                    pending.created_at,
                    pending.expires_at,
                ),
            )

    def take_pending(self, practice_id: int, state_digest: str) -> PendingAuthorisation | None:
        with self._in_practice(practice_id) as conn:
            row = conn.execute(
                "DELETE FROM app.xero_authorisations WHERE state_digest = %s"
                " RETURNING client_id, state_digest, redirect_uri, created_at, expires_at",
                (state_digest,),
            ).fetchone()
        if row is None:
            return None
        return PendingAuthorisation(
            int(row["client_id"]),
            str(row["state_digest"]),
            str(row["redirect_uri"]),
            row["created_at"],
            row["expires_at"],
        )

    # --- Xero connections ----------------------------------------------------------------------

    def xero_connection(self, practice_id: int, client_id: int) -> XeroConnection | None:
        with self._in_practice(practice_id) as conn:
            row = conn.execute(
                f"SELECT {_XERO_COLUMNS} FROM app.xero_connections WHERE client_id = %s", (client_id,)
            ).fetchone()
        return None if row is None else _xero(row)

    def xero_connections(self, practice_id: int) -> tuple[XeroConnection, ...]:
        with self._in_practice(practice_id) as conn:
            rows = conn.execute(f"SELECT {_XERO_COLUMNS} FROM app.xero_connections ORDER BY client_id").fetchall()
        return tuple(_xero(row) for row in rows)

    def save_xero_connection(self, practice_id: int, connection: XeroConnection) -> XeroConnection:
        tenant = connection.tenant
        conflict = (
            f"Xero organisation {tenant.name!r} is already connected to another client of the practice: disconnect "
            "it there first, or choose another organisation"
            if tenant is not None
            else None
        )
        choices = json.dumps(
            [{"tenant_id": c.tenant_id, "name": c.name, "connection_id": c.connection_id} for c in connection.choices]
        )
        with self._in_practice(practice_id, conflict) as conn:
            conn.execute(
                "INSERT INTO app.xero_connections (practice_id, client_id, status, tenant_id, tenant_name,"
                " xero_connection_id, choices, access_expires_at, problem, connected_at, updated_at)"
                " VALUES (%s, %s, %s, %s, %s, %s, %s::jsonb, %s, %s, %s, %s)"
                " ON CONFLICT (practice_id, client_id) DO UPDATE SET status = EXCLUDED.status,"
                " tenant_id = EXCLUDED.tenant_id, tenant_name = EXCLUDED.tenant_name,"
                " xero_connection_id = EXCLUDED.xero_connection_id, choices = EXCLUDED.choices,"
                " access_expires_at = EXCLUDED.access_expires_at, problem = EXCLUDED.problem,"
                " connected_at = EXCLUDED.connected_at, updated_at = EXCLUDED.updated_at",
                (
                    practice_id,
                    connection.client_id,
                    connection.status.value,
                    None if tenant is None else tenant.tenant_id,
                    "" if tenant is None else tenant.name,
                    None if tenant is None or not tenant.connection_id else tenant.connection_id,
                    choices,
                    connection.access_expires_at,
                    connection.problem[:2000],
                    connection.connected_at,
                    connection.updated_at,
                ),
            )
        return connection

    def delete_xero_connection(self, practice_id: int, client_id: int) -> bool:
        with self._in_practice(practice_id) as conn:
            removed = conn.execute("DELETE FROM app.xero_connections WHERE client_id = %s", (client_id,)).rowcount
        return removed > 0

    # --- the push ledger -----------------------------------------------------------------------

    def push_records(self, practice_id: int, transaction_ids: Sequence[UUID]) -> dict[UUID, PushRecord]:
        if not transaction_ids:
            return {}
        with self._in_practice(practice_id) as conn:
            rows = conn.execute(
                f"SELECT {_PUSH_COLUMNS} FROM app.xero_pushes WHERE transaction_id = ANY(%s)",
                (list(transaction_ids),),
            ).fetchall()
        records = (_push(row) for row in rows)
        return {r.transaction_id: r for r in records}

    def claim_push(self, practice_id: int, claim: PushRecord, stale_before: datetime) -> tuple[PushRecord, bool]:
        with self._in_practice(practice_id) as conn:
            row = conn.execute(
                "INSERT INTO app.xero_pushes AS p (practice_id, transaction_id, client_id, tenant_id, state,"
                " idempotency_key, attempts, ambiguous, problem, retryable, created_at, updated_at)"
                " VALUES (%(practice)s, %(transaction)s, %(client)s, %(tenant)s, 'pending', %(key)s, 1, false, '',"
                " false, %(now)s, %(now)s)"
                " ON CONFLICT (practice_id, transaction_id) DO UPDATE SET state = 'pending',"
                " client_id = EXCLUDED.client_id, tenant_id = EXCLUDED.tenant_id, attempts = p.attempts + 1,"
                " ambiguous = p.ambiguous OR p.state = 'pending',"
                " idempotency_key = CASE WHEN p.ambiguous OR p.state = 'pending' THEN p.idempotency_key"
                " ELSE EXCLUDED.idempotency_key END, updated_at = EXCLUDED.updated_at"
                " WHERE p.state = 'failed' OR (p.state = 'pending' AND p.updated_at < %(stale)s)"
                f" RETURNING {_PUSH_COLUMNS}",
                {
                    "practice": practice_id,
                    "transaction": claim.transaction_id,
                    "client": claim.client_id,
                    "tenant": claim.tenant_id,
                    "key": claim.idempotency_key,
                    "now": claim.updated_at,
                    "stale": stale_before,
                },
            ).fetchone()
            if row is not None:
                return _push(row), True
            held = conn.execute(
                f"SELECT {_PUSH_COLUMNS} FROM app.xero_pushes WHERE transaction_id = %s", (claim.transaction_id,)
            ).fetchone()
        if held is None:  # pragma: no cover - the conflicting row exists in this transaction
            raise ConnectionsStoreError(f"the ledger row of transaction {claim.transaction_id} vanished")
        return _push(held), False

    def save_push(self, practice_id: int, record: PushRecord) -> None:
        with self._in_practice(practice_id) as conn:
            changed = conn.execute(
                "UPDATE app.xero_pushes SET client_id = %s, tenant_id = %s, state = %s, invoice_id = %s,"
                " contact_id = %s, attachment_id = %s, idempotency_key = %s, attempts = %s, ambiguous = %s,"
                " problem = %s, retryable = %s, updated_at = %s WHERE transaction_id = %s",
                (
                    record.client_id,
                    record.tenant_id,
                    record.state.value,
                    record.invoice_id,
                    record.contact_id,
                    record.attachment_id,
                    record.idempotency_key,
                    record.attempts,
                    record.ambiguous,
                    record.problem[:2000],
                    record.retryable,
                    record.updated_at,
                    record.transaction_id,
                ),
            ).rowcount
        if changed != 1:
            raise ConnectionsStoreError(f"no ledger row for transaction {record.transaction_id}: claim it first")

    # --- HubSpot -------------------------------------------------------------------------------

    def hubspot_connection(self, practice_id: int) -> HubSpotConnection | None:
        with self._in_practice(practice_id) as conn:
            row = conn.execute(
                "SELECT hub_id, scopes, connected_at, updated_at FROM app.hubspot_connections"
            ).fetchone()
        return None if row is None else _hubspot(row)

    def save_hubspot_connection(self, practice_id: int, connection: HubSpotConnection) -> HubSpotConnection:
        with self._in_practice(practice_id) as conn:
            row = conn.execute(
                "INSERT INTO app.hubspot_connections (practice_id, hub_id, scopes, connected_at, updated_at)"
                " VALUES (%s, %s, %s, %s, %s) ON CONFLICT (practice_id) DO UPDATE SET hub_id = EXCLUDED.hub_id,"
                " scopes = EXCLUDED.scopes, updated_at = EXCLUDED.updated_at"
                " RETURNING hub_id, scopes, connected_at, updated_at",
                (
                    practice_id,
                    connection.hub_id,
                    list(connection.scopes),
                    connection.connected_at,
                    connection.updated_at,
                ),
            ).fetchone()
        if row is None:  # pragma: no cover - INSERT ... RETURNING returns the row
            raise ConnectionsStoreError("the database returned no row")
        return _hubspot(row)

    def delete_hubspot_connection(self, practice_id: int) -> bool:
        with self._in_practice(practice_id) as conn:
            return conn.execute("DELETE FROM app.hubspot_connections").rowcount > 0

    def hubspot_imports(self, practice_id: int) -> dict[str, ImportRecord]:
        with self._in_practice(practice_id) as conn:
            rows = conn.execute("SELECT company_id, client_id, result, imported_at FROM app.hubspot_imports").fetchall()
        return {
            str(r["company_id"]): ImportRecord(
                str(r["company_id"]), int(r["client_id"]), ImportResult(r["result"]), r["imported_at"]
            )
            for r in rows
        }

    def record_hubspot_import(self, practice_id: int, record: ImportRecord) -> bool:
        with self._in_practice(practice_id) as conn:
            added = conn.execute(
                "INSERT INTO app.hubspot_imports (practice_id, company_id, client_id, result, imported_at)"
                " VALUES (%s, %s, %s, %s, %s) ON CONFLICT (practice_id, company_id) DO NOTHING",
                (practice_id, record.company_id, record.client_id, record.result.value, record.imported_at),
            ).rowcount
        return added == 1

    # --- transactions --------------------------------------------------------------------------

    @contextmanager
    def _in_practice(self, practice_id: int, conflict: str | None = None) -> Iterator[psycopg.Connection[DictRow]]:
        if isinstance(practice_id, bool) or not isinstance(practice_id, int) or practice_id < 1:
            raise ConnectionsStoreError(f"{practice_id!r} is not a practice id")
        with self._lock:
            try:
                conn = self._connection()
                with conn.transaction():
                    conn.execute("SELECT set_config('app.practice_id', %s, true)", (str(practice_id),))
                    yield conn
            except pg_errors.UniqueViolation as exc:
                if conflict is None:
                    raise ConnectionsStoreError(f"already stored: {_detail(exc)}") from exc
                raise ConnectionConflictError(conflict) from exc
            except (pg_errors.CheckViolation, pg_errors.ForeignKeyViolation) as exc:
                raise ConnectionsStoreError(f"the database refused the change: {_detail(exc)}") from exc
            except pg_errors.InsufficientPrivilege as exc:
                raise ConnectionsStoreError(
                    f"refused by row-level security (a row of another practice, or no practice set): {_detail(exc)}"
                ) from exc
            except psycopg.Error as exc:
                self._drop_if_broken()
                raise ConnectionsStoreError(f"the connections database failed: {_detail(exc)}") from exc

    def _connection(self) -> psycopg.Connection[DictRow]:
        if self._conn is None or self._conn.closed or self._conn.broken:
            try:
                conn = psycopg.connect(
                    self._url, autocommit=True, row_factory=dict_row, connect_timeout=CONNECT_TIMEOUT_S
                )
            except psycopg.Error as exc:
                raise ConnectionsStoreError(
                    f"cannot connect to the database: {_detail(exc)}. Check {DATABASE_URL_ENV} and that Postgres "
                    "is running"
                ) from exc
            try:
                _check_ready(conn)
            except BaseException:
                conn.close()
                raise
            self._conn = conn
        return self._conn

    def _drop_if_broken(self) -> None:
        if self._conn is not None and (self._conn.closed or self._conn.broken):
            self._conn.close()
            self._conn = None


def _check_ready(conn: psycopg.Connection[DictRow]) -> None:
    try:
        facts = require_safe_app_role(conn)
    except AccountsStartupError as exc:
        raise ConnectionsStartupError(f"refusing to serve connections: {exc}") from exc
    present = {t.name for t in facts.tables}
    missing = [name for name in TABLES if name not in present]
    if missing:
        raise ConnectionsStartupError(
            f"schema app lacks {', '.join(f'app.{m}' for m in missing)}: run `{MIGRATE_COMMAND}` (as the owner "
            "role) to apply migration 0003_connections"
        )


def _detail(exc: psycopg.Error) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _tenant_of(item: object) -> XeroTenant | None:
    if not isinstance(item, dict):
        return None
    return XeroTenant(str(item.get("tenant_id", "")), str(item.get("name", "")), str(item.get("connection_id", "")))


def _xero(row: Mapping[str, Any]) -> XeroConnection:
    tenant = (
        None
        if row["tenant_id"] is None
        else XeroTenant(
            str(row["tenant_id"]),
            str(row["tenant_name"]),
            "" if row["xero_connection_id"] is None else str(row["xero_connection_id"]),
        )
    )
    raw = row["choices"] if isinstance(row["choices"], list) else []
    choices = tuple(t for t in (_tenant_of(item) for item in raw) if t is not None)
    return XeroConnection(
        client_id=int(row["client_id"]),
        status=ConnectionStatus(row["status"]),
        tenant=tenant,
        access_expires_at=row["access_expires_at"],
        problem=str(row["problem"]),
        connected_at=row["connected_at"],
        updated_at=row["updated_at"],
        choices=choices,
    )


def _uuid_text(value: object) -> str | None:
    return None if value is None else str(value)


def _push(row: Mapping[str, Any]) -> PushRecord:
    return PushRecord(
        transaction_id=UUID(str(row["transaction_id"])),
        client_id=int(row["client_id"]),
        tenant_id=str(row["tenant_id"]),
        state=PushState(row["state"]),
        invoice_id=_uuid_text(row["invoice_id"]),
        contact_id=_uuid_text(row["contact_id"]),
        attachment_id=_uuid_text(row["attachment_id"]),
        idempotency_key=str(row["idempotency_key"]),
        attempts=int(row["attempts"]),
        ambiguous=bool(row["ambiguous"]),
        problem=str(row["problem"]),
        retryable=bool(row["retryable"]),
        updated_at=row["updated_at"],
    )


def _hubspot(row: Mapping[str, Any]) -> HubSpotConnection:
    return HubSpotConnection(
        hub_id=int(row["hub_id"]),
        scopes=tuple(str(s) for s in row["scopes"] or ()),
        connected_at=row["connected_at"],
        updated_at=row["updated_at"],
    )
