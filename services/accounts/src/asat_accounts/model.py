"""What the accounts store holds and returns: plain frozen values, no behaviour beyond display.

No value returned by the store carries a secret's plaintext except ``SecretValue``, whose
``repr``/``str`` show only the masked hint; ``SignInCandidate`` carries a password hash (Argon2,
never shown either) for the one purpose of checking a password.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum


class Role(StrEnum):
    """A user's role in one practice."""

    OWNER = "owner"  # everything, including members, roles and settings
    AGENT = "agent"  # a registered tax agent: research, clients, documents
    REVIEWER = "reviewer"  # reads and reviews; changes nothing of the practice's settings


@dataclass(frozen=True)
class Practice:
    id: int
    name: str
    created_at: datetime


@dataclass(frozen=True)
class User:
    id: int
    email: str
    created_at: datetime
    disabled_at: datetime | None

    @property
    def disabled(self) -> bool:
        return self.disabled_at is not None


@dataclass(frozen=True)
class Member:
    """A user as a member of one practice."""

    user: User
    practice_id: int
    role: Role
    joined_at: datetime


@dataclass(frozen=True)
class Membership:
    """One practice a user belongs to, as the user sees it (to choose a practice after sign-in)."""

    practice_id: int
    practice_name: str
    role: Role


@dataclass(frozen=True)
class SignInCandidate:
    """The user an email names, with the hash to check a password against."""

    user: User
    password_hash: str = field(repr=False)


@dataclass(frozen=True)
class ClientFields:
    """A client's editable fields, already checked (``asat_accounts.fields.client_fields``)."""

    name: str
    abn: str | None  # 11 digits, checksum valid
    notes: str


@dataclass(frozen=True)
class Client:
    id: int
    practice_id: int
    name: str
    abn: str | None
    notes: str
    created_at: datetime
    updated_at: datetime
    archived_at: datetime | None

    @property
    def archived(self) -> bool:
        return self.archived_at is not None


@dataclass(frozen=True)
class SecretInfo:
    """A saved secret as any API may show it: its name and masked hint, never its value."""

    name: str
    hint: str
    key_id: str
    created_at: datetime
    updated_at: datetime


class SecretValue:
    """A secret's plaintext, for the code that uses it (e.g. to call a provider), and no one else.

    ``repr`` and ``str`` give the masked hint, so a log line or an error that formats it leaks
    nothing; ``reveal()`` returns the plaintext.
    """

    __slots__ = ("_hint", "_value")

    def __init__(self, value: str, hint: str) -> None:
        self._value = value
        self._hint = hint

    @property
    def hint(self) -> str:
        return self._hint

    def reveal(self) -> str:
        return self._value

    def __repr__(self) -> str:
        return f"SecretValue({self._hint!r})"

    def __str__(self) -> str:
        return self._hint

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SecretValue) and other._value == self._value

    def __hash__(self) -> int:
        return hash(self._value)


@dataclass(frozen=True)
class SignedIn:
    """A user whose password checked out, and the practices they may act for."""

    user: User
    memberships: tuple[Membership, ...]


@dataclass(frozen=True)
class WebSession:
    """A signed-in browser, as the store holds it now: whose it is, the practice it acts for
    (``None`` until a member of several chooses one) with the user's current role there, its
    CSRF token (``repr`` hides it) and its times. The cookie's token is stored nowhere: only its
    digest (``asat_accounts.sessions.token_digest``)."""

    id: int
    user: User
    practice: Membership | None
    csrf_token: str = field(repr=False)
    created_at: datetime
    last_seen_at: datetime
    expires_at: datetime


@dataclass(frozen=True)
class SignInAttempts:
    """Failed sign-ins from one address within the window (newest last) and until when the
    address is locked out (``None``: it is not)."""

    failures: tuple[datetime, ...] = ()
    locked_until: datetime | None = None


@dataclass(frozen=True)
class ProviderSettings:
    """The practice's generation provider: which adapter, its base URL and model (``""`` when
    unset). Its API key is the secret ``provider.api_key``, never a field here."""

    provider: str
    base_url: str
    model: str
    updated_at: datetime


@dataclass(frozen=True)
class ResearchHistoryEntry:
    """One question a member of the practice asked and research answered (or abstained on): the
    audit log row research wrote for it (``audit_id``, in the one hash-chained log of every
    practice), who asked and for which client, the question as sent, the period and the decision
    in words as the history lists them, the corpus generation answered against, and when."""

    audit_id: int
    user_id: int
    client_id: int | None
    question: str
    period: str  # "income year 2015", "as at 2015-03-01", "as known on 2015-10-31"
    decision: str  # the decision's value: answer, abstain_low_relevance, period_conflict, ...
    corpus_generation: str
    asked_at: datetime
