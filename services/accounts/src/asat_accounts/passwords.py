"""Passwords: the rule for a new one, and Argon2id hashes (argon2-cffi).

Hashes are PHC strings (``$argon2id$v=19$m=...,t=...,p=...$salt$hash``) that carry their own
parameters, so ``verify_password`` checks a hash made with older parameters and
``needs_rehash`` says when to replace it (at the next successful sign-in). The default
parameters are RFC 9106's second recommendation (64 MiB, 3 passes, 4 lanes): about 0.3 s on
the 2-core development machine, paid once per sign-in.
"""

from __future__ import annotations

from argon2 import Parameters, PasswordHasher, profiles
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

DEFAULT_PARAMETERS: Parameters = profiles.RFC_9106_LOW_MEMORY
MIN_LENGTH = 12
MAX_LENGTH = 1024


class PasswordHashError(ValueError):
    """A stored hash is not an Argon2 hash this library can check (the row was written by hand)."""


def password_problem(password: str, email: str | None = None) -> str | None:
    """Why ``password`` may not be chosen (None when it may): too short, too long, or the email."""
    if len(password) < MIN_LENGTH:
        return f"the password has {len(password)} characters; use at least {MIN_LENGTH} (a few words work well)"
    if len(password) > MAX_LENGTH:
        return f"the password has {len(password)} characters; at most {MAX_LENGTH} are allowed"
    if not password.strip():
        return "the password is only spaces: choose one with letters, words or digits"
    if email is not None and password.strip().lower() == email.strip().lower():
        return "the password is the email address: choose something else"
    return None


_DUMMY_HASHES: dict[str, str] = {}


def _hasher(parameters: Parameters) -> PasswordHasher:
    return PasswordHasher.from_parameters(parameters)


def hash_password(password: str, parameters: Parameters = DEFAULT_PARAMETERS) -> str:
    """An Argon2id hash of ``password`` with a fresh random salt."""
    return _hasher(parameters).hash(password)


def verify_password(stored_hash: str, password: str, parameters: Parameters = DEFAULT_PARAMETERS) -> bool:
    """Whether ``password`` matches ``stored_hash``; ``PasswordHashError`` when the hash is malformed."""
    try:
        return _hasher(parameters).verify(stored_hash, password)
    except VerifyMismatchError:
        return False
    except InvalidHashError as exc:
        raise PasswordHashError("the stored password hash is not an Argon2 hash: reset the user's password") from exc
    except VerificationError:
        return False


def needs_rehash(stored_hash: str, parameters: Parameters = DEFAULT_PARAMETERS) -> bool:
    """Whether ``stored_hash`` was made with other parameters than ``parameters`` (hash again)."""
    try:
        return _hasher(parameters).check_needs_rehash(stored_hash)
    except (InvalidHashError, ValueError) as exc:
        raise PasswordHashError("the stored password hash is not an Argon2 hash: reset the user's password") from exc


def dummy_hash(parameters: Parameters = DEFAULT_PARAMETERS) -> str:
    """A hash of no one's password (made once per parameters): checked when an email is unknown,
    so that the answer takes as long as for a known one."""
    key = repr(parameters)
    if key not in _DUMMY_HASHES:
        _DUMMY_HASHES[key] = hash_password("not a password of any user", parameters)
    return _DUMMY_HASHES[key]
