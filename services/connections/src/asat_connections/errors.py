"""What can go wrong in the connections library; every message says what was wrong and what to do.

No message here ever contains a token, a secret, an authorisation code or a PKCE verifier: they
name the provider, the practice's client, the setting or the step instead.
"""

from __future__ import annotations

from datetime import datetime


class ConnectionsError(Exception):
    """Base of the connections library's errors."""


class ConnectionsStartupError(ConnectionsError):
    """The store refuses to start: no database, the schema lacks the connection tables, or an
    unsafe role (the same rules as the accounts store)."""


class ConnectionsStoreError(ConnectionsError):
    """The database refused or failed the operation."""


class ConnectionsInputError(ConnectionsError, ValueError):
    """A value someone entered or chose is not acceptable (a client id, a token, an organisation)."""


class MissingScopesError(ConnectionsInputError):
    """A pasted token lacks scopes the import needs; ``missing`` names them."""

    def __init__(self, message: str, missing: tuple[str, ...]) -> None:
        super().__init__(message)
        self.missing = missing


class NotConnectedError(ConnectionsError):
    """Nothing is set up yet: no Xero app saved, no Xero organisation connected for the client, no
    HubSpot token saved."""


class ConnectionConflictError(ConnectionsError):
    """The change clashes with what is stored (an organisation connected to another client)."""


class AuthorisationError(ConnectionsError):
    """The OAuth callback does not check out: unknown or expired ``state``, consent refused, a code
    the provider would not exchange (PKCE, redirect URI, client credentials)."""


class NeedsReauthorisationError(ConnectionsError):
    """The provider no longer accepts the connection (revoked, expired refresh token, organisation
    disconnected): it is marked as needing re-authorisation and is not retried until connected again."""


class ProviderUnavailableError(ConnectionsError):
    """The provider could not be reached, timed out, failed (5xx) or rate-limited us beyond what we
    wait: nothing is known to be wrong with the request; try again later (``retry_at`` when known).
    ``ambiguous``: the request may have been carried out (a timeout or 5xx on a create)."""

    def __init__(self, message: str, retry_at: datetime | None = None, ambiguous: bool = False) -> None:
        super().__init__(message)
        self.retry_at = retry_at
        self.ambiguous = ambiguous


class ProviderRefusedError(ConnectionsError):
    """The provider refused the request itself (a 4xx other than an expired token): its reason is
    in the message; repeating the same request will not help."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


class SourceUnavailableError(ConnectionsError):
    """The transaction source (the extraction service) could not be read."""


class SourceNotFoundError(ConnectionsError):
    """The transaction source has no such transaction or document for the practice."""
