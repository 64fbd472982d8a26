"""PostgresAccountsStore against the real server: practices, members, clients, secrets, sign-in."""

from __future__ import annotations

import secrets

import psycopg
import pytest
from argon2 import Parameters

from asat_accounts.errors import (
    AccountsConflictError,
    AccountsInputError,
    AccountsNotFoundError,
    AccountsStoreError,
)
from asat_accounts.fields import client_fields
from asat_accounts.model import Role, SecretValue
from asat_accounts.passwords import hash_password, needs_rehash
from asat_accounts.postgres_store import PostgresAccountsStore
from asat_accounts.secret_box import KeyRing, SecretDecryptError, SecretKeyError
from asat_accounts.sign_in import check_credentials

from .support import CHEAP, KEY_1, KEY_2, AccountsDatabase, TwoPractices, cheap_hash

pytestmark = pytest.mark.postgres


def _email(label: str) -> str:
    return f"{label}-{secrets.token_hex(4)}@example.com.au"


def test_a_practice_is_created_with_its_owner(store: PostgresAccountsStore) -> None:
    email = _email("Owner").upper()
    practice, owner = store.create_practice("  Smith  & Co  ", email, cheap_hash())
    assert practice.name == "Smith & Co"
    assert (owner.user.email, owner.role, owner.practice_id) == (email.lower(), Role.OWNER, practice.id)
    assert store.practice(practice.id) == practice
    assert store.members(practice.id) == (owner,)
    assert store.user_count() >= 1
    assert practice.id in store.practice_ids()


def test_an_email_is_one_user(store: PostgresAccountsStore, two_practices: TwoPractices) -> None:
    taken = two_practices.a_owner.user.email
    with pytest.raises(AccountsConflictError, match=f"a user with email {taken} already exists"):
        store.create_practice("Another", taken.upper(), cheap_hash())
    with pytest.raises(AccountsConflictError, match="already exists"):
        store.add_member(two_practices.b.id, taken, cheap_hash(), Role.AGENT)


def test_a_plain_password_is_not_accepted_as_a_hash(store: PostgresAccountsStore) -> None:
    with pytest.raises(AccountsInputError, match="expected an Argon2id password hash"):
        store.create_practice("P", _email("p"), "correct horse battery staple")


def test_members_roles_and_the_last_owner(store: PostgresAccountsStore) -> None:
    practice, owner = store.create_practice("Roles", _email("owner"), cheap_hash())
    agent = store.add_member(practice.id, _email("agent"), cheap_hash(), Role.AGENT)
    assert {m.user.id for m in store.members(practice.id)} == {owner.user.id, agent.user.id}
    with pytest.raises(AccountsConflictError, match="only owner"):
        store.set_role(practice.id, owner.user.id, Role.REVIEWER)
    with pytest.raises(AccountsConflictError, match="only owner"):
        store.remove_member(practice.id, owner.user.id)
    assert store.set_role(practice.id, agent.user.id, Role.OWNER).role is Role.OWNER
    assert store.set_role(practice.id, owner.user.id, Role.REVIEWER).role is Role.REVIEWER
    store.remove_member(practice.id, owner.user.id)
    assert [m.user.id for m in store.members(practice.id)] == [agent.user.id]
    with pytest.raises(AccountsNotFoundError, match="is not a member"):
        store.remove_member(practice.id, owner.user.id)


def test_clients_are_added_listed_updated_and_archived(store: PostgresAccountsStore) -> None:
    practice, _ = store.create_practice("Clients", _email("o"), cheap_hash())
    zed = store.add_client(practice.id, client_fields("zed trust"))
    acme = store.add_client(practice.id, client_fields("Acme Pty Ltd", "51 824 753 556", "FY2024 return"))
    assert (acme.abn, acme.notes, acme.practice_id, acme.archived) == (
        "51824753556",
        "FY2024 return",
        practice.id,
        False,
    )
    assert [c.name for c in store.clients(practice.id)] == ["Acme Pty Ltd", "zed trust"]
    changed = store.update_client(practice.id, zed.id, client_fields("Zed Family Trust", None, "trustee changed"))
    assert (changed.name, changed.notes, changed.updated_at >= zed.updated_at) == (
        "Zed Family Trust",
        "trustee changed",
        True,
    )
    archived = store.archive_client(practice.id, zed.id)
    assert archived.archived
    assert [c.id for c in store.clients(practice.id)] == [acme.id]
    assert [c.id for c in store.clients(practice.id, include_archived=True)] == [acme.id, zed.id]
    assert store.client(practice.id, acme.id) == acme


def test_another_practices_client_is_not_found(store: PostgresAccountsStore, two_practices: TwoPractices) -> None:
    b_client = store.clients(two_practices.b.id)[0]
    a = two_practices.a.id
    assert store.client(a, b_client.id) is None
    with pytest.raises(AccountsNotFoundError, match=f"no client {b_client.id} in practice {a}"):
        store.update_client(a, b_client.id, client_fields("Taken over"))
    with pytest.raises(AccountsNotFoundError):
        store.archive_client(a, b_client.id)
    assert store.client(two_practices.b.id, b_client.id) == b_client
    assert all(c.practice_id == a for c in store.clients(a, include_archived=True))
    with pytest.raises(AccountsNotFoundError, match="is not a member"):
        store.set_role(a, two_practices.b_owner.user.id, Role.AGENT)
    assert store.practice(a) is not None and store.practice(two_practices.b.id) is not None


def test_a_bad_practice_id_is_refused_before_the_database(store: PostgresAccountsStore) -> None:
    for bad in (0, -1, True):
        with pytest.raises(AccountsInputError, match="practice id must be a positive integer"):
            store.clients(bad)


# --- secrets ---------------------------------------------------------------------------------------


def test_a_saved_secret_comes_back_as_a_hint_only(store: PostgresAccountsStore) -> None:
    practice, _ = store.create_practice("Keys", _email("o"), cheap_hash())
    value = "sk-proj-" + secrets.token_hex(20)
    info = store.save_secret(practice.id, "provider.openai", f"  {value}\n")
    assert (info.name, info.hint, info.key_id) == ("provider.openai", f"sk-…{value[-4:]}", "k1")
    assert value not in repr(info) and value not in repr(store.secrets(practice.id))
    assert store.secrets(practice.id) == (info,)
    revealed = store.reveal_secret(practice.id, "provider.openai")
    assert isinstance(revealed, SecretValue)
    assert revealed.reveal() == value
    assert value not in repr(revealed) and value not in str(revealed) and value not in f"{revealed}"
    assert store.reveal_secret(practice.id, "provider.none") is None


def test_saving_again_replaces_the_value(store: PostgresAccountsStore) -> None:
    practice, _ = store.create_practice("Keys", _email("o"), cheap_hash())
    first = store.save_secret(practice.id, "provider.anthropic", "sk-ant-first-0123456789")
    second = store.save_secret(practice.id, "provider.anthropic", "sk-ant-second-0123456789")
    assert (second.created_at, second.hint) == (first.created_at, "sk-…6789")
    revealed = store.reveal_secret(practice.id, "provider.anthropic")
    assert revealed is not None and revealed.reveal() == "sk-ant-second-0123456789"
    assert store.delete_secret(practice.id, "provider.anthropic") is True
    assert store.delete_secret(practice.id, "provider.anthropic") is False
    assert store.secrets(practice.id) == ()


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("Provider", "x", "is not a secret name"),
        ("provider.x", "   ", "is empty: paste the key or token itself"),
        ("provider.x", "x" * 16_385, "at most 16384 are stored"),
    ],
)
def test_a_bad_secret_is_refused(store: PostgresAccountsStore, name: str, value: str, message: str) -> None:
    practice, _ = store.create_practice("Keys", _email("o"), cheap_hash())
    with pytest.raises(AccountsInputError, match=message):
        store.save_secret(practice.id, name, value)


def test_secrets_need_the_key(accounts_db: AccountsDatabase, two_practices: TwoPractices) -> None:
    with PostgresAccountsStore(accounts_db.app_url) as keyless:
        assert keyless.secrets(two_practices.a.id)[0].name == "provider.openai"  # names and hints: no key needed
        with pytest.raises(SecretKeyError, match="ASAT_SECRET_KEY is not set, so secrets cannot be saved or read"):
            keyless.reveal_secret(two_practices.a.id, "provider.openai")
        with pytest.raises(SecretKeyError):
            keyless.save_secret(two_practices.a.id, "provider.x", "value")


def test_a_rotated_key_reads_old_rows_and_reseals_them(
    accounts_db: AccountsDatabase, two_practices: TwoPractices
) -> None:
    a, b = two_practices.a.id, two_practices.b.id
    with PostgresAccountsStore(accounts_db.app_url, KeyRing((KEY_2, KEY_1))) as rotated:
        revealed = rotated.reveal_secret(a, "provider.openai")
        assert revealed is not None and revealed.reveal() == two_practices.a_secret
        assert [s.key_id for s in rotated.secrets(a)] == ["k2"]  # re-sealed as it was read
        assert [s.key_id for s in rotated.secrets(b)] == ["k1"]
        assert rotated.reencrypt_secrets(b) == 1
        assert rotated.reencrypt_secrets(b) == 0
    with PostgresAccountsStore(accounts_db.app_url, KeyRing((KEY_2,))) as new_only:
        for practice, value in ((a, two_practices.a_secret), (b, two_practices.b_secret)):
            opened = new_only.reveal_secret(practice, "provider.openai")
            assert opened is not None and opened.reveal() == value


def test_a_row_sealed_with_a_dropped_key_names_it(accounts_db: AccountsDatabase, two_practices: TwoPractices) -> None:
    with (
        PostgresAccountsStore(accounts_db.app_url, KeyRing((KEY_2,))) as new_only,
        pytest.raises(SecretDecryptError, match="sealed with key 'k1', which ASAT_SECRET_KEY does not hold"),
    ):
        new_only.reveal_secret(two_practices.a.id, "provider.openai")


def test_a_row_moved_to_another_practice_does_not_open(
    accounts_db: AccountsDatabase, store: PostgresAccountsStore, two_practices: TwoPractices
) -> None:
    with accounts_db.admin() as admin:  # the superuser is not bound by row-level security
        admin.execute(
            "UPDATE app.secrets SET (nonce, ciphertext) = (SELECT nonce, ciphertext FROM app.secrets"
            " WHERE practice_id = %s AND name = 'provider.openai') WHERE practice_id = %s AND name = 'provider.openai'",
            (two_practices.b.id, two_practices.a.id),
        )
    with pytest.raises(SecretDecryptError, match="the stored row was changed or moved"):
        store.reveal_secret(two_practices.a.id, "provider.openai")


# --- sign-in ---------------------------------------------------------------------------------------


def test_sign_in_finds_the_user_and_their_practices(store: PostgresAccountsStore) -> None:
    email = _email("jo")
    first, owner = store.create_practice("Jo's practice", email, cheap_hash("jo's long password"))
    candidate = store.find_user_for_sign_in(f" {email.upper()} ")
    assert candidate is not None and candidate.user == owner.user
    assert "password_hash" not in repr(candidate)
    assert store.find_user_for_sign_in(_email("nobody")) is None
    assert store.find_user_for_sign_in("not an email") is None
    signed_in = check_credentials(store, email, "jo's long password", CHEAP)
    assert signed_in is not None
    assert signed_in.memberships == store.memberships_of(owner.user.id)
    assert [(m.practice_id, m.role) for m in signed_in.memberships] == [(first.id, Role.OWNER)]
    assert check_credentials(store, email, "wrong password", CHEAP) is None
    assert check_credentials(store, _email("nobody"), "jo's long password", CHEAP) is None


def test_a_user_sees_only_their_own_memberships(store: PostgresAccountsStore, two_practices: TwoPractices) -> None:
    mine = store.memberships_of(two_practices.a_owner.user.id)
    assert [m.practice_id for m in mine] == [two_practices.a.id]


def test_sign_in_rehashes_a_password_hashed_with_old_parameters(store: PostgresAccountsStore) -> None:
    email = _email("old")
    store.create_practice("Old hashes", email, cheap_hash("an old but good password"))
    newer = Parameters(
        type=CHEAP.type, version=CHEAP.version, salt_len=16, hash_len=16, time_cost=2, memory_cost=16, parallelism=1
    )
    assert check_credentials(store, email, "an old but good password", newer) is not None
    candidate = store.find_user_for_sign_in(email)
    assert candidate is not None and not needs_rehash(candidate.password_hash, newer)


def test_a_disabled_user_cannot_sign_in(accounts_db: AccountsDatabase, store: PostgresAccountsStore) -> None:
    email = _email("gone")
    _, member = store.create_practice("Gone", email, hash_password("a good long password", CHEAP))
    with accounts_db.admin() as admin:
        admin.execute("UPDATE app.users SET disabled_at = now() WHERE id = %s", (member.user.id,))
    assert check_credentials(store, email, "a good long password", CHEAP) is None


def test_the_store_reconnects_after_the_connection_drops(accounts_db: AccountsDatabase) -> None:
    with PostgresAccountsStore(accounts_db.app_url) as store:
        with accounts_db.admin() as admin:
            admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = %s AND datname = %s",
                (accounts_db.app_role, accounts_db.name),
            )
        with pytest.raises(AccountsStoreError, match="the accounts database failed"):
            store.user_count()
        assert store.user_count() >= 0


def test_no_practice_no_query(accounts_db: AccountsDatabase) -> None:
    """The store's own transactions always set the practice; a bare one fails (shown here directly)."""
    with psycopg.connect(accounts_db.app_url) as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
        conn.execute("SELECT * FROM app.secrets")
