"""The connections' secrets, sealed by the accounts library (``AccountsStore.save_secret``).

This library has no cryptography of its own: every token, app secret and PKCE verifier goes
through ``save_secret`` / ``reveal_secret`` / ``delete_secret`` (AES-256-GCM under
``ASAT_SECRET_KEY``, bound to the practice and the name) and comes back as ``SecretValue``, whose
``repr`` and ``str`` are the masked hint. Names:

| name | what |
|---|---|
| ``connection:xero:app:client-id`` | the practice's Xero app's client id |
| ``connection:xero:app:client-secret`` | its client secret |
| ``connection:xero:<client>:access`` | a client's Xero access token (30 minutes) |
| ``connection:xero:<client>:refresh`` | its refresh token (rotated at each refresh) |
| ``connection:xero:<client>:verifier`` | the PKCE verifier while the browser is at Xero |
| ``connection:hubspot:token`` | the practice's HubSpot private-app token (``pat-...``) |
"""

from __future__ import annotations

from asat_accounts import AccountsStore, SecretInfo, SecretValue

XERO_APP_CLIENT_ID = "connection:xero:app:client-id"
XERO_APP_CLIENT_SECRET = "connection:xero:app:client-secret"
HUBSPOT_TOKEN = "connection:hubspot:token"


def xero_access(client_id: int) -> str:
    return f"connection:xero:{client_id}:access"


def xero_refresh(client_id: int) -> str:
    return f"connection:xero:{client_id}:refresh"


def xero_verifier(client_id: int) -> str:
    return f"connection:xero:{client_id}:verifier"


def hint_of(accounts: AccountsStore, practice_id: int, name: str) -> str:
    """The masked hint of secret ``name`` ("" when it is not saved); never its value."""
    found: SecretInfo | None = next((s for s in accounts.secrets(practice_id) if s.name == name), None)
    return "" if found is None else found.hint


def reveal(accounts: AccountsStore, practice_id: int, name: str) -> SecretValue | None:
    return accounts.reveal_secret(practice_id, name)
