"""What the accounts tests share: the databases they make, cheap password hashes, fixed keys."""

from __future__ import annotations

from dataclasses import dataclass

import psycopg
from argon2 import profiles

from asat_accounts.model import Member, Practice
from asat_accounts.passwords import hash_password
from asat_accounts.secret_box import SecretKey

CHEAP = profiles.CHEAPEST

KEY_1 = SecretKey("k1", bytes(range(32)))
KEY_2 = SecretKey("k2", bytes(range(100, 132)))


def cheap_hash(password: str = "correct horse battery staple") -> str:
    return hash_password(password, CHEAP)


@dataclass(frozen=True)
class AccountsDatabase:
    name: str
    admin_url: str  # superuser, connected to this database
    owner_url: str  # owns schema app and its tables
    app_url: str  # the app role: bound by row-level security
    owner_role: str
    app_role: str

    def admin(self) -> psycopg.Connection[tuple[object, ...]]:
        return psycopg.connect(self.admin_url, autocommit=True)


@dataclass(frozen=True)
class TwoPractices:
    """Two practices, each with an owner, an agent and clients, a secret, a session of its owner,
    provider settings and a research history row each."""

    a: Practice
    b: Practice
    a_owner: Member
    b_owner: Member
    a_secret: str
    b_secret: str
