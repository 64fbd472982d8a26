"""Argon2id hashes and the rule for a new password (pure)."""

from __future__ import annotations

import pytest
from argon2 import Parameters, profiles
from hypothesis import given, settings
from hypothesis import strategies as st

from asat_accounts.passwords import (
    DEFAULT_PARAMETERS,
    PasswordHashError,
    dummy_hash,
    hash_password,
    needs_rehash,
    password_problem,
    verify_password,
)

CHEAP = profiles.CHEAPEST
OTHER = Parameters(
    type=CHEAP.type, version=CHEAP.version, salt_len=16, hash_len=16, time_cost=2, memory_cost=16, parallelism=1
)


@given(st.text(min_size=1, max_size=80), st.text(min_size=1, max_size=80))
@settings(max_examples=40, deadline=None)
def test_a_hash_verifies_its_own_password_only(password: str, other: str) -> None:
    stored = hash_password(password, CHEAP)
    assert stored.startswith("$argon2id$")
    assert verify_password(stored, password, CHEAP)
    assert verify_password(stored, other, CHEAP) is (other == password)


def test_two_hashes_of_one_password_differ_by_salt() -> None:
    assert hash_password("the same password", CHEAP) != hash_password("the same password", CHEAP)


def test_the_default_parameters_are_rfc_9106_low_memory() -> None:
    assert (DEFAULT_PARAMETERS.memory_cost, DEFAULT_PARAMETERS.time_cost) == (65536, 3)
    stored = hash_password("a long enough password", DEFAULT_PARAMETERS)
    assert stored.startswith("$argon2id$v=19$m=65536,t=3,p=4$")
    assert not needs_rehash(stored)


def test_a_hash_with_other_parameters_still_verifies_and_needs_a_rehash() -> None:
    stored = hash_password("a long enough password", CHEAP)
    assert verify_password(stored, "a long enough password", OTHER)
    assert needs_rehash(stored, OTHER)
    assert not needs_rehash(stored, CHEAP)


@pytest.mark.parametrize("stored", ["", "plain text", "$2b$12$abcdefghijklmnopqrstuv"])
def test_a_malformed_hash_is_an_error_not_a_mismatch(stored: str) -> None:
    with pytest.raises(PasswordHashError, match="not an Argon2 hash: reset the user's password"):
        verify_password(stored, "anything", CHEAP)
    with pytest.raises(PasswordHashError):
        needs_rehash(stored, CHEAP)


def test_the_dummy_hash_matches_no_likely_password() -> None:
    assert not verify_password(dummy_hash(CHEAP), "", CHEAP)
    assert not verify_password(dummy_hash(CHEAP), "password123456", CHEAP)


@pytest.mark.parametrize(
    ("password", "email", "problem"),
    [
        ("short", None, "the password has 5 characters; use at least 12"),
        ("x" * 1025, None, "at most 1024"),
        (" " * 12, None, "only spaces"),
        ("Jo@Example.com.au", "jo@example.com.au", "the password is the email address"),
    ],
)
def test_a_weak_password_is_refused_with_the_reason(password: str, email: str | None, problem: str) -> None:
    found = password_problem(password, email)
    assert found is not None and problem in found


def test_a_passphrase_is_fine() -> None:
    assert password_problem("correct horse battery staple", "jo@example.com.au") is None
