"""The AccountsStore port: practices, users, memberships, clients and sealed secrets.

Two kinds of operation:

- **across practices**, before a practice is chosen: counting users (the first-owner hint),
  creating a practice with its first owner, finding the user an email names (sign-in), the
  practices a user belongs to, changing the user's own password hash, listing practice ids
  (re-encryption);
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

from typing import Protocol

from asat_accounts.model import (
    Client,
    ClientFields,
    Member,
    Membership,
    Practice,
    Role,
    SecretInfo,
    SecretValue,
    SignInCandidate,
)


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
