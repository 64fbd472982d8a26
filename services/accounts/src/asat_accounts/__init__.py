"""Accounts: practices, users, memberships, clients and sealed secrets (schema ``app``).

A library (``services/accounts``). Every table is under row-level security keyed on the
practice set per transaction (``SET LOCAL app.practice_id``); ``PostgresAccountsStore`` sets it
for every operation and refuses to start as a role that row-level security would not bind
(owner, superuser, ``BYPASSRLS``). Passwords are Argon2id hashes (``passwords``); provider keys
and connection tokens are sealed with AES-256-GCM under ``ASAT_SECRET_KEY`` (``secret_box``) and
never returned after saving, only a masked hint. ``python -m asat_accounts`` migrates the schema,
creates the first owner and manages the key. It imports no service (``.importlinter``); from
``asat_audit`` only the migration runner.
"""

from asat_accounts.errors import (
    AccountsConflictError,
    AccountsError,
    AccountsInputError,
    AccountsNotFoundError,
    AccountsStartupError,
    AccountsStoreError,
)
from asat_accounts.fields import client_fields, normalise_email
from asat_accounts.model import (
    Client,
    ClientFields,
    Member,
    Membership,
    Practice,
    Role,
    SecretInfo,
    SecretValue,
    SignedIn,
    User,
)
from asat_accounts.postgres_store import PostgresAccountsStore
from asat_accounts.secret_box import KeyRing, SecretDecryptError, SecretKeyError, key_ring_from_env, mask
from asat_accounts.sign_in import check_credentials
from asat_accounts.store import AccountsStore

__all__ = [
    "AccountsConflictError",
    "AccountsError",
    "AccountsInputError",
    "AccountsNotFoundError",
    "AccountsStartupError",
    "AccountsStore",
    "AccountsStoreError",
    "Client",
    "ClientFields",
    "KeyRing",
    "Member",
    "Membership",
    "PostgresAccountsStore",
    "Practice",
    "Role",
    "SecretDecryptError",
    "SecretInfo",
    "SecretKeyError",
    "SecretValue",
    "SignedIn",
    "User",
    "check_credentials",
    "client_fields",
    "key_ring_from_env",
    "mask",
    "normalise_email",
]
