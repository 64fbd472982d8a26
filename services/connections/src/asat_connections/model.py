"""What the connections library stores and returns: plain frozen values.

None of these carries a token, a secret, an authorisation code or a PKCE verifier: those are
sealed in the accounts library's secret store (``asat_accounts``) and read only by the code that
sends them to the provider. What the pages may show of a secret is its masked hint (``…a1b2``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from uuid import UUID


class ConnectionStatus(StrEnum):
    CONNECTED = "connected"
    NEEDS_REAUTHORISATION = "needs_reauthorisation"  # revoked or expired: connect again
    CHOOSE_ORGANISATION = "choose_organisation"  # several organisations were authorised: pick one


@dataclass(frozen=True)
class XeroTenant:
    tenant_id: str
    name: str
    connection_id: str  # Xero's id of the app's connection to it (for DELETE /connections/{id})


@dataclass(frozen=True)
class XeroConnection:
    """A client's connection to one Xero organisation, as stored (tokens are secrets, not here)."""

    client_id: int
    status: ConnectionStatus
    tenant: XeroTenant | None  # None until one is chosen
    access_expires_at: datetime | None
    problem: str  # why it needs re-authorisation ("" when connected)
    connected_at: datetime
    updated_at: datetime
    choices: tuple[XeroTenant, ...] = ()  # when status is choose_organisation


@dataclass(frozen=True)
class PendingAuthorisation:
    """An OAuth dance under way: the browser is at Xero. Only the state's digest is kept."""

    client_id: int
    state_digest: str
    redirect_uri: str
    created_at: datetime
    expires_at: datetime


@dataclass(frozen=True)
class XeroAppView:
    """The practice's own Xero app, as Settings → Connections shows it."""

    configured: bool
    client_id_hint: str  # masked, "" when not configured
    client_secret_hint: str
    redirect_uri: str  # register exactly this in the Xero app (developer.xero.com → My Apps)
    scopes: tuple[str, ...]


@dataclass(frozen=True)
class AuthorisationStart:
    """Where to send the browser to connect a client to Xero, and until when the link is good."""

    client_id: int
    url: str = field(repr=False)  # carries the one-time state
    expires_at: datetime


class PushState(StrEnum):
    PENDING = "pending"  # being pushed (or a push stopped without knowing whether the bill was created)
    PUSHED = "pushed"  # the bill exists in Xero (its id is kept)
    FAILED = "failed"  # not created; ``problem`` says why


@dataclass(frozen=True)
class PushRecord:
    """The ledger's row for one transaction: pushed once, to one organisation, never twice."""

    transaction_id: UUID
    client_id: int
    tenant_id: str
    state: PushState
    invoice_id: str | None
    contact_id: str | None
    attachment_id: str | None
    idempotency_key: str
    attempts: int
    ambiguous: bool  # an earlier attempt may have created the bill: look for it before creating
    problem: str
    retryable: bool
    updated_at: datetime


class PushResult(StrEnum):
    CREATED = "created"  # a new draft bill (with its attachment)
    FOUND = "found"  # an earlier attempt had created it: adopted, not created again
    ALREADY_PUSHED = "already_pushed"  # pushed before: nothing sent
    ATTACHED = "attached"  # pushed before; only its attachment was missing and is now attached
    FAILED = "failed"
    REFUSED = "refused"  # cannot be pushed as it stands (not reviewed, credit note, missing fields)


@dataclass(frozen=True)
class PushOutcome:
    transaction_id: UUID
    result: PushResult
    invoice_id: str | None = None
    attachment_id: str | None = None
    contact_created: bool = False
    message: str = ""
    retryable: bool = False
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True)
class PushReport:
    client_id: int
    tenant_id: str
    outcomes: tuple[PushOutcome, ...]
    contacts_created: int
    retry_at: datetime | None = None  # when the provider asked us to come back (rate limit)

    def count(self, result: PushResult) -> int:
        return sum(1 for o in self.outcomes if o.result is result)

    @property
    def new_bills(self) -> int:
        return self.count(PushResult.CREATED)

    @property
    def failed(self) -> tuple[PushOutcome, ...]:
        return tuple(o for o in self.outcomes if o.result in (PushResult.FAILED, PushResult.REFUSED))


@dataclass(frozen=True)
class RefreshOutcome:
    client_id: int
    refreshed: bool
    status: ConnectionStatus
    message: str = ""


@dataclass(frozen=True)
class HubSpotConnection:
    hub_id: int
    scopes: tuple[str, ...]
    connected_at: datetime
    updated_at: datetime


@dataclass(frozen=True)
class HubSpotView:
    """The practice's HubSpot connection, as Settings → Connections shows it."""

    connected: bool
    token_hint: str  # masked
    hub_id: int | None
    scopes: tuple[str, ...]


class ImportResult(StrEnum):
    CREATED = "created"  # a new client
    MATCHED = "matched"  # a client of that name (or ABN) existed: linked, never modified


@dataclass(frozen=True)
class ImportRecord:
    company_id: str
    client_id: int
    result: ImportResult
    imported_at: datetime


@dataclass(frozen=True)
class CompanyOutcome:
    company_id: str
    name: str
    result: str  # created | matched | skipped
    client_id: int | None = None
    abn: str | None = None
    abn_problem: str | None = None  # an ABN value that was not taken, and why


@dataclass(frozen=True)
class ImportReport:
    companies_seen: int
    already_imported: int
    created: tuple[CompanyOutcome, ...]
    matched: tuple[CompanyOutcome, ...]
    skipped: tuple[CompanyOutcome, ...]
    abn_property: str | None

    @property
    def invalid_abns(self) -> tuple[CompanyOutcome, ...]:
        """Companies imported (or matched) without their ABN, because it failed the checks."""
        return tuple(o for o in (*self.created, *self.matched) if o.abn_problem)
