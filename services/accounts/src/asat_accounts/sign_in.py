"""Checking an email and password against the store (for the sign-in page and service tokens'
issuers): the same work whether or not the email is known, and a rehash when the parameters moved.
"""

from __future__ import annotations

from argon2 import Parameters

from asat_accounts.model import SignedIn
from asat_accounts.passwords import DEFAULT_PARAMETERS, dummy_hash, hash_password, needs_rehash, verify_password
from asat_accounts.store import AccountsStore


def check_credentials(
    store: AccountsStore, email: str, password: str, parameters: Parameters = DEFAULT_PARAMETERS
) -> SignedIn | None:
    """The user and their practices when ``password`` is theirs and they are not disabled; else None.

    An unknown email still costs one hash check, so the time taken does not say which emails
    exist. The caller says only "email or password is wrong", never which.
    """
    candidate = store.find_user_for_sign_in(email)
    if candidate is None:
        verify_password(dummy_hash(parameters), password, parameters)
        return None
    if not verify_password(candidate.password_hash, password, parameters) or candidate.user.disabled:
        return None
    if needs_rehash(candidate.password_hash, parameters):
        store.set_own_password_hash(candidate.user.id, hash_password(password, parameters))
    return SignedIn(candidate.user, store.memberships_of(candidate.user.id))
