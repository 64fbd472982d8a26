"""Accounts: practices, users, memberships, clients and sealed secrets (schema ``app``).

A library (``services/accounts``). Every table is under row-level security keyed on the
practice set per transaction (``SET LOCAL app.practice_id``); ``PostgresAccountsStore`` sets it
for every operation and refuses to start as a role that row-level security would not bind
(owner, superuser, ``BYPASSRLS``). Passwords are Argon2id hashes (``passwords``); provider keys
and connection tokens are sealed with AES-256-GCM under ``ASAT_SECRET_KEY`` (``secret_box``) and
never returned after saving, only a masked hint. Web sessions (``sessions``), the sign-in rate
limit (``throttle``) and what each role may do (``permissions``) are pure rules; the store keeps
their state. ``python -m asat_accounts`` migrates the schema,
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
from asat_accounts.fields import PROVIDER_KEY_SECRET, client_fields, normalise_email, provider_fields
from asat_accounts.memory_store import InMemoryAccountsStore
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
    SignedIn,
    SignInAttempts,
    User,
    WebSession,
)
from asat_accounts.permissions import Action, allowed
from asat_accounts.postgres_store import PostgresAccountsStore
from asat_accounts.secret_box import KeyRing, SecretDecryptError, SecretKeyError, key_ring_from_env, mask
from asat_accounts.sign_in import check_credentials
from asat_accounts.store import AccountsStore

__all__ = [
    "PROVIDER_KEY_SECRET",
    "AccountsConflictError",
    "AccountsError",
    "AccountsInputError",
    "AccountsNotFoundError",
    "AccountsStartupError",
    "AccountsStore",
    "AccountsStoreError",
    "Action",
    "Client",
    "ClientFields",
    "InMemoryAccountsStore",
    "KeyRing",
    "Member",
    "Membership",
    "PostgresAccountsStore",
    "Practice",
    "ProviderSettings",
    "ResearchHistoryEntry",
    "Role",
    "SecretDecryptError",
    "SecretInfo",
    "SecretKeyError",
    "SecretValue",
    "SignInAttempts",
    "SignedIn",
    "User",
    "WebSession",
    "allowed",
    "check_credentials",
    "client_fields",
    "key_ring_from_env",
    "mask",
    "normalise_email",
    "provider_fields",
]
