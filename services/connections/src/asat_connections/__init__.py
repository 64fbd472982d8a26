"""Connections: Xero (the practice's own app, OAuth 2.0 with PKCE, draft bills with their
documents) and HubSpot (companies imported as clients), with wire-level fakes of both.

A library (``services/connections``), used by the web's Settings → Connections and Push pages
(docs/connections.md, "The web API"). It imports ``asat_corpus`` and ``asat_accounts`` only
(``.importlinter``): secrets are sealed by the accounts library's secret store, connection state
and the push and import ledgers are tables of the accounts schema ``app`` under forced row-level
security (migration ``0003_connections``), and transactions are read from the extraction service
over HTTP (``HttpTransactionSource``). Rules are pure (``asat_connections.rules``); the clock,
the sleep and the random source are injected. The fakes are ``asat_connections.testing``.
"""

from asat_connections.composition import Connections, build_connections
from asat_connections.errors import (
    AuthorisationError,
    ConnectionConflictError,
    ConnectionsError,
    ConnectionsInputError,
    ConnectionsStartupError,
    ConnectionsStoreError,
    MissingScopesError,
    NeedsReauthorisationError,
    NotConnectedError,
    ProviderRefusedError,
    ProviderUnavailableError,
    SourceNotFoundError,
    SourceUnavailableError,
)
from asat_connections.hubspot import REQUIRED_SCOPES, HubSpotConnector
from asat_connections.memory_store import InMemoryConnectionsStore
from asat_connections.model import (
    AuthorisationStart,
    CompanyOutcome,
    ConnectionStatus,
    HubSpotView,
    ImportReport,
    PushOutcome,
    PushRecord,
    PushReport,
    PushResult,
    PushState,
    RefreshOutcome,
    XeroAppView,
    XeroConnection,
    XeroTenant,
)
from asat_connections.postgres_store import PostgresConnectionsStore
from asat_connections.redaction import RedactSecrets, install, redact
from asat_connections.settings import ConnectionsSettings, XeroEndpoints, read_connections_settings, redirect_uri
from asat_connections.store import ConnectionsStore
from asat_connections.transactions import (
    HttpTransactionSource,
    InMemoryTransactionSource,
    SourceDocument,
    SourceLine,
    SourceTransaction,
    TransactionSource,
)
from asat_connections.xero import DisconnectReport, XeroConnector
from asat_connections.xero_push import XeroPusher

__all__ = [
    "REQUIRED_SCOPES",
    "AuthorisationError",
    "AuthorisationStart",
    "CompanyOutcome",
    "ConnectionConflictError",
    "ConnectionStatus",
    "Connections",
    "ConnectionsError",
    "ConnectionsInputError",
    "ConnectionsSettings",
    "ConnectionsStartupError",
    "ConnectionsStore",
    "ConnectionsStoreError",
    "DisconnectReport",
    "HttpTransactionSource",
    "HubSpotConnector",
    "HubSpotView",
    "ImportReport",
    "InMemoryConnectionsStore",
    "InMemoryTransactionSource",
    "MissingScopesError",
    "NeedsReauthorisationError",
    "NotConnectedError",
    "PostgresConnectionsStore",
    "ProviderRefusedError",
    "ProviderUnavailableError",
    "PushOutcome",
    "PushRecord",
    "PushReport",
    "PushResult",
    "PushState",
    "RedactSecrets",
    "RefreshOutcome",
    "SourceDocument",
    "SourceLine",
    "SourceNotFoundError",
    "SourceTransaction",
    "SourceUnavailableError",
    "TransactionSource",
    "XeroAppView",
    "XeroConnection",
    "XeroConnector",
    "XeroEndpoints",
    "XeroPusher",
    "XeroTenant",
    "build_connections",
    "install",
    "read_connections_settings",
    "redact",
    "redirect_uri",
]
