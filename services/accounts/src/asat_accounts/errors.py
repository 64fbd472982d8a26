"""What can go wrong in the accounts library; every message says what was wrong and what to do."""

from __future__ import annotations


class AccountsError(Exception):
    """Base of the accounts library's errors."""


class AccountsStartupError(AccountsError):
    """The store refuses to start: no connection, schema missing or behind the code, or a role
    that row-level security would not bind (owner, superuser, BYPASSRLS, TRUNCATE)."""


class AccountsInputError(AccountsError, ValueError):
    """A value given to the library is not acceptable (an email, an ABN, a name, a password)."""


class AccountsConflictError(AccountsError):
    """The change clashes with what is stored (an email already in use, the last owner leaving)."""


class AccountsNotFoundError(AccountsError):
    """No such row in the practice acted for (it may exist in another practice: that is not said)."""


class AccountsStoreError(AccountsError):
    """The database refused or failed the operation; nothing was changed."""
