"""The ConnectionsStore port: connection state and the push and import ledgers, per practice.

Every method takes ``practice_id`` first and acts in that practice only (the Postgres store sets
``app.practice_id`` for the transaction, so row-level security returns and accepts that
practice's rows only). Secrets (tokens, the Xero app's credentials, PKCE verifiers) are not kept
here but in the accounts library's secret store (``asat_connections.secrets``).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Protocol
from uuid import UUID

from asat_connections.model import (
    HubSpotConnection,
    ImportRecord,
    PendingAuthorisation,
    PushRecord,
    XeroConnection,
)


class ConnectionsStore(Protocol):
    """Implementations are safe to share between threads."""

    # --- OAuth dances under way ----------------------------------------------------------------

    def save_pending(self, practice_id: int, pending: PendingAuthorisation) -> None:
        """Keep ``pending`` (replacing the client's earlier one: only the latest link works)."""
        ...

    def take_pending(self, practice_id: int, state_digest: str) -> PendingAuthorisation | None:
        """The dance ``state_digest`` names, removed (single use); None when there is none."""
        ...

    # --- Xero connections ----------------------------------------------------------------------

    def xero_connection(self, practice_id: int, client_id: int) -> XeroConnection | None: ...

    def xero_connections(self, practice_id: int) -> tuple[XeroConnection, ...]:
        """The practice's connections, by client id."""
        ...

    def save_xero_connection(self, practice_id: int, connection: XeroConnection) -> XeroConnection:
        """Insert or replace the client's connection. ``ConnectionConflictError`` when its
        organisation is connected to another client of the practice."""
        ...

    def delete_xero_connection(self, practice_id: int, client_id: int) -> bool:
        """Remove the client's connection (its push ledger stays); whether there was one."""
        ...

    # --- the push ledger -----------------------------------------------------------------------

    def push_records(self, practice_id: int, transaction_ids: Sequence[UUID]) -> dict[UUID, PushRecord]:
        """The ledger rows of ``transaction_ids`` that exist."""
        ...

    def claim_push(self, practice_id: int, claim: PushRecord, stale_before: datetime) -> tuple[PushRecord, bool]:
        """Start pushing ``claim.transaction_id`` (atomically). A new row is ``claim`` itself; a
        failed row, or a pending one last updated before ``stale_before`` (a push that stopped
        midway), is taken over: state pending, one more attempt, ``ambiguous`` kept or set when
        it was pending, its idempotency key kept when ambiguous (else ``claim``'s). Returns the row
        as stored and whether it was claimed: not when it is pushed, or another push holds it."""
        ...

    def save_push(self, practice_id: int, record: PushRecord) -> None:
        """Update the row of ``record.transaction_id``. A Xero invoice id, once stored, never
        changes, and a pushed row stays pushed (``ConnectionsStoreError`` otherwise)."""
        ...

    # --- HubSpot -------------------------------------------------------------------------------

    def hubspot_connection(self, practice_id: int) -> HubSpotConnection | None: ...

    def save_hubspot_connection(self, practice_id: int, connection: HubSpotConnection) -> HubSpotConnection: ...

    def delete_hubspot_connection(self, practice_id: int) -> bool: ...

    def hubspot_imports(self, practice_id: int) -> dict[str, ImportRecord]:
        """The import ledger by HubSpot company id."""
        ...

    def record_hubspot_import(self, practice_id: int, record: ImportRecord) -> bool:
        """Add ``record`` to the ledger; False when the company was recorded already."""
        ...
