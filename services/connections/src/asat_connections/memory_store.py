"""``ConnectionsStore`` in dictionaries under one lock (tests; the same rules as the Postgres store)."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from uuid import UUID

from asat_connections.errors import ConnectionConflictError, ConnectionsStoreError
from asat_connections.model import (
    HubSpotConnection,
    ImportRecord,
    PendingAuthorisation,
    PushRecord,
    PushState,
    XeroConnection,
)


class InMemoryConnectionsStore:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pending: dict[tuple[int, int], PendingAuthorisation] = {}
        self._xero: dict[tuple[int, int], XeroConnection] = {}
        self._pushes: dict[tuple[int, UUID], PushRecord] = {}
        self._hubspot: dict[int, HubSpotConnection] = {}
        self._imports: dict[tuple[int, str], ImportRecord] = {}

    def save_pending(self, practice_id: int, pending: PendingAuthorisation) -> None:
        with self._lock:
            self._pending[(practice_id, pending.client_id)] = pending

    def take_pending(self, practice_id: int, state_digest: str) -> PendingAuthorisation | None:
        with self._lock:
            for key, pending in list(self._pending.items()):
                if key[0] == practice_id and pending.state_digest == state_digest:
                    del self._pending[key]
                    return pending
        return None

    def xero_connection(self, practice_id: int, client_id: int) -> XeroConnection | None:
        with self._lock:
            return self._xero.get((practice_id, client_id))

    def xero_connections(self, practice_id: int) -> tuple[XeroConnection, ...]:
        with self._lock:
            found = [c for (p, _), c in self._xero.items() if p == practice_id]
        return tuple(sorted(found, key=lambda c: c.client_id))

    def save_xero_connection(self, practice_id: int, connection: XeroConnection) -> XeroConnection:
        with self._lock:
            if connection.tenant is not None:
                for (p, client), other in self._xero.items():
                    same = other.tenant is not None and other.tenant.tenant_id == connection.tenant.tenant_id
                    if p == practice_id and client != connection.client_id and same:
                        raise ConnectionConflictError(
                            f"Xero organisation {connection.tenant.name!r} is already connected to client {client}: "
                            "disconnect it there first, or choose another organisation"
                        )
            self._xero[(practice_id, connection.client_id)] = connection
        return connection

    def delete_xero_connection(self, practice_id: int, client_id: int) -> bool:
        with self._lock:
            return self._xero.pop((practice_id, client_id), None) is not None

    def push_records(self, practice_id: int, transaction_ids: Sequence[UUID]) -> dict[UUID, PushRecord]:
        with self._lock:
            return {i: r for i in transaction_ids if (r := self._pushes.get((practice_id, i))) is not None}

    def claim_push(self, practice_id: int, claim: PushRecord, stale_before: datetime) -> tuple[PushRecord, bool]:
        key = (practice_id, claim.transaction_id)
        with self._lock:
            old = self._pushes.get(key)
            if old is None:
                self._pushes[key] = claim
                return claim, True
            if old.state is PushState.PUSHED or (old.state is PushState.PENDING and old.updated_at >= stale_before):
                return old, False
            ambiguous = old.ambiguous or old.state is PushState.PENDING
            taken = replace(
                old,
                client_id=claim.client_id,
                tenant_id=claim.tenant_id,
                state=PushState.PENDING,
                attempts=old.attempts + 1,
                ambiguous=ambiguous,
                idempotency_key=old.idempotency_key if ambiguous else claim.idempotency_key,
                updated_at=claim.updated_at,
            )
            self._pushes[key] = taken
            return taken, True

    def save_push(self, practice_id: int, record: PushRecord) -> None:
        key = (practice_id, record.transaction_id)
        with self._lock:
            old = self._pushes.get(key)
            if old is None:
                raise ConnectionsStoreError(f"no ledger row for transaction {record.transaction_id}: claim it first")
            if old.invoice_id is not None and record.invoice_id != old.invoice_id:
                raise ConnectionsStoreError(
                    f"transaction {record.transaction_id} was pushed as Xero invoice {old.invoice_id}; "
                    "its ledger row cannot change it"
                )
            if old.state is PushState.PUSHED and record.state is not PushState.PUSHED:
                raise ConnectionsStoreError(f"transaction {record.transaction_id} is pushed; its row cannot go back")
            self._pushes[key] = record

    def hubspot_connection(self, practice_id: int) -> HubSpotConnection | None:
        with self._lock:
            return self._hubspot.get(practice_id)

    def save_hubspot_connection(self, practice_id: int, connection: HubSpotConnection) -> HubSpotConnection:
        with self._lock:
            old = self._hubspot.get(practice_id)
            stored = connection if old is None else replace(connection, connected_at=old.connected_at)
            self._hubspot[practice_id] = stored
        return stored

    def delete_hubspot_connection(self, practice_id: int) -> bool:
        with self._lock:
            return self._hubspot.pop(practice_id, None) is not None

    def hubspot_imports(self, practice_id: int) -> dict[str, ImportRecord]:
        with self._lock:
            return {c: r for (p, c), r in self._imports.items() if p == practice_id}

    def record_hubspot_import(self, practice_id: int, record: ImportRecord) -> bool:
        with self._lock:
            if (practice_id, record.company_id) in self._imports:
                return False
            self._imports[(practice_id, record.company_id)] = record
            return True
