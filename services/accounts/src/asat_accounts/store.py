"""The AccountsStore port: practices, users, memberships, clients and sealed secrets.

Two kinds of operation:

- **across practices**, before a practice is chosen: counting users (the first-owner hint),
  creating a practice with its first owner, finding the user an email names (sign-in), the
  practices a user belongs to, changing the user's own password hash, listing practice ids
  (re-encryption); an address's failed sign-ins (rate limiting); web sessions, found by the
  token their cookie carries (the store keeps only its digest) and acting for at most one of
  their user's practices;
- **in one practice**: every other method takes ``practice_id`` first and runs in one
  transaction with ``app.practice_id`` set to it, so row-level security returns and accepts
  that practice's rows only. Whether the signed-in user may do it (their role) is for the caller
  to decide; which practice's rows it touches is not.

Secrets go in as plaintext and come back as ``SecretInfo`` (name and masked hint); only
``reveal_secret`` returns the value, wrapped in ``SecretValue``. Errors: see
``asat_accounts.errors``; a method given an id of another practice's row behaves as if the row
did not exist.
"""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from asat_accounts.model import (
    Client,
    ClientFields,
    Member,
    Membership,
    Practice,
    ProviderSettings,
    ResearchHistoryEntry,
    Role,
    SecretInfo,
    SecretValue,
    SignInAttempts,
    SignInCandidate,
    WebSession,
)
from asat_accounts.throttle import ThrottleRule


class AccountsStore(Protocol):
    """Accounts in schema ``app``. Implementations are safe to share between threads."""

    # --- across practices ------------------------------------------------------------------

    def user_count(self) -> int:
        """How many users exist, in all practices (0 on a new install)."""
        ...

    def practice_ids(self) -> tuple[int, ...]:
        """Every practice's id, for maintenance across practices (re-encryption); no names."""
        ...

    def create_practice(self, name: str, owner_email: str, owner_password_hash: str) -> tuple[Practice, Member]:
        """A new practice with a new user as its owner. ``AccountsConflictError`` when the email is
        taken."""
        ...

    def find_user_for_sign_in(self, email: str) -> SignInCandidate | None:
        """The user ``email`` names, with their password hash; None when there is none."""
        ...

    def memberships_of(self, user_id: int) -> tuple[Membership, ...]:
        """The practices ``user_id`` belongs to, by practice name."""
        ...

    def set_own_password_hash(self, user_id: int, password_hash: str) -> None:
        """Replace ``user_id``'s password hash (a new password, or a rehash at sign-in)."""
        ...

    # --- sign-in attempts and web sessions ----------------------------------------------------

    def sign_in_attempts(self, address: str) -> SignInAttempts:
        """The failed sign-ins kept for ``address`` (a client's IP address) and its lockout."""
        ...

    def record_sign_in_failure(self, address: str, now: datetime, rule: ThrottleRule) -> SignInAttempts:
        """One more wrong password from ``address`` at ``now``, counted by ``rule``
        (``asat_accounts.throttle.after_failure``) atomically; the attempts as they now stand."""
        ...

    def create_session(
        self,
        user_id: int,
        practice_id: int | None,
        token: str,
        csrf_token: str,
        now: datetime,
        expires_at: datetime,
    ) -> WebSession:
        """A new session of ``user_id`` acting for ``practice_id`` (``None``: not chosen yet),
        found later by ``token``. ``AccountsNotFoundError`` when the user is not a member of that
        practice. The user's sessions that ended before ``now`` are removed."""
        ...

    def find_session(self, token: str) -> WebSession | None:
        """The session ``token`` names, with its user and their current role in its practice;
        None when there is none, or its user is disabled (its times are for the caller to judge:
        ``asat_accounts.sessions.session_alive``)."""
        ...

    def touch_session(self, token: str, now: datetime) -> None:
        """Record a request of the session at ``now`` (its idle time starts again)."""
        ...

    def choose_session_practice(self, token: str, practice_id: int) -> WebSession:
        """The session now acting for ``practice_id``; ``AccountsNotFoundError`` when there is no
        such session or its user is not a member of that practice."""
        ...

    def end_session(self, token: str) -> bool:
        """Remove the session (sign-out); whether there was one."""
        ...

    def end_other_sessions(self, user_id: int, keep_token: str | None) -> int:
        """Remove every session of ``user_id`` but ``keep_token``'s (after a password change);
        how many were removed."""
        ...

    # --- in one practice -------------------------------------------------------------------

    def practice(self, practice_id: int) -> Practice | None: ...

    def rename_practice(self, practice_id: int, name: str) -> Practice: ...

    def members(self, practice_id: int) -> tuple[Member, ...]:
        """The practice's members, by email."""
        ...

    def add_member(self, practice_id: int, email: str, password_hash: str, role: Role) -> Member:
        """A new user, member of the practice with ``role``. ``AccountsConflictError`` when the
        email is taken."""
        ...

    def add_existing_member(self, practice_id: int, email: str, role: Role) -> Member:
        """Make the user ``email`` names (a member of another practice) a member of this one too.
        ``AccountsNotFoundError`` when no user has that email; ``AccountsConflictError`` when they
        are a member already."""
        ...

    def set_role(self, practice_id: int, user_id: int, role: Role) -> Member:
        """Change a member's role; ``AccountsConflictError`` when it would leave no owner."""
        ...

    def remove_member(self, practice_id: int, user_id: int) -> None:
        """Remove a member (the user remains); ``AccountsConflictError`` for the last owner."""
        ...

    def clients(self, practice_id: int, include_archived: bool = False) -> tuple[Client, ...]:
        """The practice's clients by name; archived ones only when asked."""
        ...

    def client(self, practice_id: int, client_id: int) -> Client | None: ...

    def add_client(self, practice_id: int, fields: ClientFields) -> Client: ...

    def update_client(self, practice_id: int, client_id: int, fields: ClientFields) -> Client: ...

    def archive_client(self, practice_id: int, client_id: int) -> Client: ...

    def save_secret(self, practice_id: int, name: str, plaintext: str) -> SecretInfo:
        """Seal ``plaintext`` (trimmed) under the current key and store it as ``name``, replacing
        any value of that name. Returns the name and masked hint, never the value."""
        ...

    def secrets(self, practice_id: int) -> tuple[SecretInfo, ...]:
        """The practice's saved secrets by name: names and hints only."""
        ...

    def reveal_secret(self, practice_id: int, name: str) -> SecretValue | None:
        """The value saved as ``name`` (re-sealed under the current key first when an older key
        sealed it); None when there is none."""
        ...

    def delete_secret(self, practice_id: int, name: str) -> bool:
        """Remove ``name``; whether there was one."""
        ...

    def reencrypt_secrets(self, practice_id: int) -> int:
        """Re-seal every secret of the practice sealed by an older key; how many were."""
        ...

    def provider_settings(self, practice_id: int) -> ProviderSettings | None:
        """The practice's generation provider settings; None when never saved."""
        ...

    def save_provider_settings(self, practice_id: int, provider: str, base_url: str, model: str) -> ProviderSettings:
        """Save the practice's provider, base URL and model (checked: ``fields.provider_fields``)."""
        ...

    def record_research(self, practice_id: int, entry: ResearchHistoryEntry) -> ResearchHistoryEntry:
        """Add a question research answered for the practice to its history (checked:
        ``fields.history_entry``); the row as stored. Append-only: recording an audit row already
        in the history changes nothing and returns the row first stored. ``AccountsNotFoundError``
        when the user is not a member of the practice, or the client not one of its clients."""
        ...

    def research_history(self, practice_id: int, contains: str | None, last: int) -> tuple[ResearchHistoryEntry, ...]:
        """The practice's latest ``last`` (1 to 500) questions, newest (highest audit row) first;
        with ``contains``, those whose question contains it (any case, taken literally)."""
        ...

    def owns_audit_row(self, practice_id: int, audit_id: int) -> bool:
        """Whether audit row ``audit_id`` was asked for the practice (is in its history); False for
        another practice's row, a row asked by no signed-in user, or no row at all."""
        ...
